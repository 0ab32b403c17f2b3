"""The lineage model (align/lineage.py: WeightedOverlap, Judge) for every edition of the
archive, as an archive ingest builds one per edition step, beside the same model built dict
by dict in plain Python (how it was built before numpy), in the same process; the two must
agree to the last bit.

Run: .venv/bin/python benchmarks/bench_lineage.py [ARCHIVE_TXT_FOLDER]
Each edition's lines (longer than 20 characters, folded) stand for its rule clauses; every
ninth is a target of the Judge, as the clauses new in a step are.
"""

from __future__ import annotations

import math
import operator
import sys
import time
from collections import Counter
from pathlib import Path

from bench_archive import DEFAULT

from mtgrules.align import lineage as L
from mtgrules.text.fold import fold


def plain_model(docs: list[dict[str, int]]) -> tuple[dict[str, float], list[dict[str, float]]]:
    """IDF and vectors, dict by dict: the baseline (and the reference the figures must equal)."""
    df: Counter[str] = Counter()
    for d in docs:
        df.update(d.keys())
    n = len(docs) or 1
    idf = {t: math.log((n + 1) / (c + 0.5)) for t, c in df.items()}
    vectors = []
    for d in docs:
        v = {t: c * idf[t] for t, c in d.items()}
        x = list(v.values())
        norm = math.sqrt(sum(map(operator.mul, x, x))) or 1.0
        vectors.append({t: w / norm for t, w in v.items()})
    postings: dict[str, tuple[list[int], list[float]]] = {t: ([], []) for t in idf}
    for k, v in enumerate(vectors):
        for t, w in v.items():
            postings[t][0].append(k)
            postings[t][1].append(w)
    return idf, vectors


class Clause:
    __slots__ = ("norm", "label")

    def __init__(self, norm: str):
        self.norm, self.label = norm, "100.1"


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    files = sorted(folder.glob("*.txt"))
    if not files:
        sys.exit(f"{folder}: no archive here; give the folder of the archive's .txt files")
    editions = []
    for f in files:
        lines = f.read_text(encoding="utf-8", errors="replace").splitlines()
        editions.append([Clause(fold(s.strip())) for s in lines if len(s.strip()) > 20])
    for e in editions:  # tokens are cached per text at ingest: outside the timing
        for c in e:
            L.tokens(c.norm)
            L._token_arrays(c.norm)
    model_s = judge_s = plain_s = 0.0
    for e in editions:
        t0 = time.process_time()
        model = L.WeightedOverlap([c.norm for c in e])
        t1 = time.process_time()
        L.Judge(model, e, list(range(0, len(e), 9)))
        t2 = time.process_time()
        idf, vectors = plain_model([L.tokens(c.norm) for c in e])
        t3 = time.process_time()
        model_s, judge_s, plain_s = model_s + t1 - t0, judge_s + t2 - t1, plain_s + t3 - t2
        if idf != model.idf or any(vectors[k] != model.vectors[k] for k in range(len(e))):
            sys.exit(f"the models differ on an edition of {len(e)} lines")
    print(f"{len(editions)} editions, {sum(map(len, editions))} lines; process time")
    print(f"lineage model (numpy):        {model_s:6.2f} s   Judge {judge_s:.2f} s")
    print(f"the same, dict by dict:       {plain_s:6.2f} s   ({plain_s / model_s:.1f}x the model)")
    print("IDF and every vector identical")


if __name__ == "__main__":
    main()
