"""The store a benchmark reads: --db / $MTGRULES_DB if given, else a temporary store with the
whole bundled corpus ingested as `mtgrules ingest` does, alignments included (not timed). An
empty store given by name is filled too."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine

from mtgrules.align.plan import ingest_and_align
from mtgrules.ingest import BUNDLED_CORPUS
from mtgrules.store import open_store, session_scope
from mtgrules.store.queries import store_is_empty


@contextmanager
def corpus_store(db: str | None = None) -> Iterator[Engine]:
    db = db or os.environ.get("MTGRULES_DB")
    with tempfile.TemporaryDirectory() as tmp:
        engine = open_store(db or str(Path(tmp) / "bench.sqlite"))
        try:
            with session_scope(engine, write=False) as s:
                empty = store_is_empty(s)
            if empty:
                t0 = time.perf_counter()
                with session_scope(engine) as s:
                    report = ingest_and_align(s, [BUNDLED_CORPUS])
                print(
                    f"(setup: ingested the bundled corpus, {report.clauses_added} clauses, "
                    f"in {time.perf_counter() - t0:.1f} s; not part of the figures below)"
                )
            yield engine
        finally:
            engine.dispose()
