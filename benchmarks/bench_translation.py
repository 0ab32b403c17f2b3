"""Intake of one full translation: the time to read it into editions (steps 2-6 of
sources/pipeline.py: detect, decode, segment, parse) beside a baseline in the same process,
the plain decode and scan of the same bytes (the known codec, split into lines, each line's
label read), and the write into a fresh SQLite store (ingest without alignments).

Run: .venv/bin/python benchmarks/bench_translation.py [FILE...]
Default: the full translations of ../shared/translations (Korean 2016 in CP949, Korean 2020,
Japanese 2026-01-16, Chinese 2026-02-27). Best of three runs each; CPU time beside wall
time, as the machine is shared.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from shared_data import TRANSLATIONS  # noqa: E402

from mtgrules.ingest import ingest_paths  # noqa: E402
from mtgrules.sources.decode import decode_text  # noqa: E402
from mtgrules.sources.pipeline import parse_document, prepare  # noqa: E402
from mtgrules.store import open_store, session_scope  # noqa: E402
from mtgrules.text.labels import split_labelled_line  # noqa: E402

DEFAULT = [
    TRANSLATIONS / name
    for name in (
        "ko-2016-09-30.kormtgcr.txt",
        "ko-2020-09-25.kormtgcr.txt",
        "ja-2026-01-16.mtgwiki-lines.txt",
        "zh-Hans-2026-02-27.helium.txt",
    )
]
REPEAT = 3


def best(work) -> tuple[float, float, object]:
    """(wall, cpu, result) of the fastest of REPEAT runs."""
    runs = []
    for _ in range(REPEAT):
        t0, c0 = time.perf_counter(), time.process_time()
        out = work()
        runs.append((time.perf_counter() - t0, time.process_time() - c0, out))
    return min(runs, key=lambda r: r[0])


def baseline(data: bytes, codec: str) -> int:
    """Decode with the codec already known, split into lines, read each line's label."""
    return sum(1 for ln in data.decode(codec).splitlines() if split_labelled_line(ln.strip()))


def main() -> None:
    files = [Path(a) for a in sys.argv[1:]] or DEFAULT
    for path in files:
        data = path.read_bytes()
        _, codec = decode_text(data, str(path))
        b_wall, b_cpu, labels = best(lambda d=data, c=codec: baseline(d, c))
        p_wall, p_cpu, decoded = best(lambda d=data, w=str(path): prepare(d, w))
        parse_wall, parse_cpu, doc = best(lambda p=path, d=decoded: parse_document(p, d))
        editions = doc.editions
        with tempfile.TemporaryDirectory() as tmp:
            engine = open_store(str(Path(tmp) / "s.sqlite"))  # migrations outside the timing
            t0, c0 = time.perf_counter(), time.process_time()
            with session_scope(engine) as s:
                ingest_paths(s, [path])
            i_wall, i_cpu = time.perf_counter() - t0, time.process_time() - c0
            engine.dispose()
        intake = p_wall + parse_wall
        print(
            f"{path.name}: {len(data) / 1e6:.2f} MB, {codec}, {len(editions)} edition(s), "
            f"{sum(e.rule_count for e in editions)} rules ({labels} labelled lines)"
        )
        print(
            f"  baseline, decode + scan of the labels:  {b_wall * 1000:7.1f} ms ({b_cpu * 1000:.0f} ms CPU)"
        )
        print(
            f"  detect + decode + segment (prepare):    {p_wall * 1000:7.1f} ms ({p_cpu * 1000:.0f} ms CPU)"
        )
        print(
            f"  parse into editions:                    {parse_wall * 1000:7.1f} ms ({parse_cpu * 1000:.0f} ms CPU)"
        )
        print(
            f"  intake, all of it: {intake * 1000:.1f} ms = {intake / b_wall:.1f}x the baseline "
            f"({(p_cpu + parse_cpu) / max(b_cpu, 1e-9):.1f}x in CPU time)"
        )
        print(
            f"  ingest into a new store, no alignments: {i_wall * 1000:7.1f} ms ({i_cpu * 1000:.0f} ms CPU)"
        )


if __name__ == "__main__":
    main()
