"""Time a whole-corpus ingest, with and without its alignments, and a re-ingest, beside plain
sqlite3 inserting as many rows.

Run: .venv/bin/python benchmarks/bench_ingest.py [CORPUS]
Targets: the corpus ingested with all its alignments (what `mtgrules ingest` does) <= 10 s;
re-ingest of unchanged files (nothing to parse, nothing to align) < 1 s, on 2 cores.
Each figure is printed as wall time and CPU time: on a machine shared with other work, wall
time grows with the load, CPU time hardly does.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import func, select

from mtgrules.align.plan import ingest_and_align
from mtgrules.ingest import BUNDLED_CORPUS, ingest_paths
from mtgrules.store import open_store, session_scope
from mtgrules.store.models import Clause, Link

TARGET_S = 10.0


def _timed(work):
    t0, c0 = time.perf_counter(), time.process_time()
    out = work()
    return out, time.perf_counter() - t0, time.process_time() - c0


def _ingest(db: Path, corpus: Path, align: bool):
    engine = open_store(str(db))  # migrations run here, outside the timing

    def work():
        with session_scope(engine) as s:
            return (ingest_and_align if align else ingest_paths)(s, [corpus])

    report, wall, cpu = _timed(work)
    return engine, report, wall, cpu


def main() -> None:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else BUNDLED_CORPUS
    with tempfile.TemporaryDirectory() as tmp:
        engine, plain, plain_s, plain_cpu = _ingest(Path(tmp) / "plain.sqlite", corpus, False)
        engine.dispose()
        engine, report, ingest_s, ingest_cpu = _ingest(Path(tmp) / "bench.sqlite", corpus, True)

        def again():
            with session_scope(engine) as s:
                return ingest_and_align(s, [corpus])

        repeat, reingest_s, reingest_cpu = _timed(again)
        assert repeat.revision_id is None, "re-ingest changed the store"
        assert not repeat.alignments.aligned, "re-ingest aligned something"

        with session_scope(engine) as s:
            texts = list(s.scalars(select(Clause.raw)))
            assert len(texts) == s.scalar(select(func.count()).select_from(Clause))
            links = s.scalar(select(func.count()).select_from(Link))
        engine.dispose()

        # Baseline: plain sqlite3, the same rows (clauses: raw text and a few columns; links:
        # two clause ids, a score and a short evidence string).
        base = sqlite3.connect(Path(tmp) / "baseline.sqlite")
        base.execute("PRAGMA journal_mode=WAL")
        base.execute(
            "CREATE TABLE clause (id INTEGER PRIMARY KEY, edition INT, position INT, raw TEXT, norm TEXT)"
        )
        base.execute(
            "CREATE TABLE link (id INTEGER PRIMARY KEY, a INT, b INT, score REAL, evidence TEXT)"
        )
        t0 = time.perf_counter()
        with base:
            base.executemany(
                "INSERT INTO clause (edition, position, raw, norm) VALUES (?, ?, ?, ?)",
                ((1, i, t, t) for i, t in enumerate(texts)),
            )
            base.executemany(
                "INSERT INTO link (a, b, score, evidence) VALUES (?, ?, ?, ?)",
                ((i, i + 1, 1.0, '[{"feature": "text", "value": 1.0}]') for i in range(links)),
            )
        baseline_s = time.perf_counter() - t0
        base.close()

    size = sum(p.stat().st_size for p in corpus.rglob("*.txt"))
    run = report.alignments
    print(
        f"corpus: {size / 1e6:.1f} MB, {len(report.files)} files, "
        f"{report.editions_added} editions, {report.clauses_added} clauses; "
        f"{len(run.aligned)} pairs of editions aligned, {links} links"
    )
    print(f"mtgrules ingest without alignments:    {plain_s:6.2f} s  ({plain_cpu:.2f} s CPU)")
    print(
        f"mtgrules ingest WITH its alignments:   {ingest_s:6.2f} s  ({ingest_cpu:.2f} s CPU; "
        f"alignments {run.seconds:.2f} s)   (target <= {TARGET_S:.0f} s: "
        f"{'OK' if ingest_s <= TARGET_S else 'MISSED'})"
    )
    print(
        f"mtgrules re-ingest, unchanged files:   {reingest_s:6.2f} s  ({reingest_cpu:.2f} s CPU)"
        "   (target < 1 s)"
    )
    print(f"plain sqlite3 executemany, same rows:  {baseline_s:6.2f} s")
    print(f"ratio ingest with alignments / plain inserts: {ingest_s / baseline_s:.1f}x")


if __name__ == "__main__":
    main()
