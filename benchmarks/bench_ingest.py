"""Time a whole-corpus ingest and a re-ingest, beside plain sqlite3 inserting as many rows.

Run: .venv/bin/python benchmarks/bench_ingest.py [CORPUS]
Targets: whole corpus <= 3 s and <= 10x plain sqlite3 inserts of the same rows; re-ingest of
unchanged files < 1 s, on 2 cores.
"""

from __future__ import annotations

import sqlite3
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import func, select

from mtgrules.ingest import BUNDLED_CORPUS, ingest_paths
from mtgrules.store import open_store, session_scope
from mtgrules.store.models import Clause


def main() -> None:
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else BUNDLED_CORPUS
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.sqlite"
        engine = open_store(str(db))  # migrations run here, outside the timing

        t0 = time.perf_counter()
        with session_scope(engine) as s:
            report = ingest_paths(s, [corpus])
        ingest_s = time.perf_counter() - t0

        t0 = time.perf_counter()
        with session_scope(engine) as s:
            again = ingest_paths(s, [corpus])
        reingest_s = time.perf_counter() - t0
        assert again.revision_id is None, "re-ingest changed the store"

        with session_scope(engine) as s:
            texts = list(s.scalars(select(Clause.raw)))
            assert len(texts) == s.scalar(select(func.count()).select_from(Clause))
        engine.dispose()

        # Baseline: plain sqlite3, one table, the same rows (raw text plus a few columns).
        base = sqlite3.connect(Path(tmp) / "baseline.sqlite")
        base.execute("PRAGMA journal_mode=WAL")
        base.execute(
            "CREATE TABLE clause (id INTEGER PRIMARY KEY, edition INT, position INT, raw TEXT, norm TEXT)"
        )
        t0 = time.perf_counter()
        with base:
            base.executemany(
                "INSERT INTO clause (edition, position, raw, norm) VALUES (?, ?, ?, ?)",
                ((1, i, t, t) for i, t in enumerate(texts)),
            )
        baseline_s = time.perf_counter() - t0
        base.close()

    size = sum(p.stat().st_size for p in corpus.rglob("*.txt"))
    print(
        f"corpus: {size / 1e6:.1f} MB, {len(report.files)} files, "
        f"{report.editions_added} editions, {report.clauses_added} clauses"
    )
    print(f"mtgrules ingest (decode+parse+store): {ingest_s:6.2f} s   (target < 10 s)")
    print(f"mtgrules re-ingest, unchanged files:  {reingest_s:6.2f} s   (target < 1 s)")
    print(f"plain sqlite3 executemany, same rows: {baseline_s:6.2f} s")
    print(f"ratio ingest / plain inserts: {ingest_s / baseline_s:.1f}x")


if __name__ == "__main__":
    main()
