"""Alignments computed in worker processes (align/workers.py, MTGRULES_WORKERS): the store
an ingest writes is the one the in-process ingest writes, row for row."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from mtgrules.align.plan import ingest_and_align
from mtgrules.align.workers import WORKERS_ENV, worker_count
from mtgrules.store import open_store, session_scope
from tests.conftest import CORPUS, ON_PG, pg_create_database, pg_drop_database

# Two steps of the English line, a translation with the English of its date, and the
# translation's English with the newest (a step already): three pairs, two lineage steps.
FILES = [
    "cr-en-2022-11-18.txt",
    "cr-en-2023-11-17.txt",
    "cr-en-2025-11-14.txt",
    "cr-zh-2023-11-17.txt",
]


@pytest.mark.parametrize(
    ("env", "jobs", "clauses", "workers"),
    [
        # unset: workers for a large ingest (the bundled corpus: 24 pairs, 73,000 clauses)
        (None, 24, 73_000, 2),
        (None, 24, 19_999, 0),  # a few editions: not worth starting them
        (None, 1, 73_000, 0),  # one pair: nothing to share out
        ("", 24, 73_000, 2),
        ("0", 24, 73_000, 0),  # asked for none
        ("1", 24, 73_000, 0),
        ("2", 10, 100, 2),  # asked for: whatever the size
        ("2", 1, 100, 0),
        ("2", 0, 0, 0),
        ("two", 10, 73_000, 0),
    ],
)
def test_workers_when_worth_it_or_asked(monkeypatch, env, jobs, clauses, workers):
    if env is None:
        monkeypatch.delenv(WORKERS_ENV, raising=False)
    else:
        monkeypatch.setenv(WORKERS_ENV, env)
    import os

    # One worker a core at most (this machine has 2): in-process on one core.
    workers = min(workers, len(os.sched_getaffinity(0)))
    assert worker_count(jobs, clauses) == (workers if workers >= 2 else 0)


def _rows(ref) -> dict[str, list[tuple]]:
    engine = open_store(str(ref))
    try:
        with engine.connect() as conn:
            return {
                "alignment": conn.execute(
                    text(
                        "SELECT id, kind, rule, edition_a, edition_b, signature, stats"
                        " FROM alignment ORDER BY id"
                    )
                ).all(),
                "link": conn.execute(
                    text(
                        "SELECT id, alignment_id, kind, source_clause_id, target_clause_id,"
                        " score, evidence, inferred_label FROM link ORDER BY id"
                    )
                ).all(),
            }
    finally:
        engine.dispose()


def _ingest(ref, monkeypatch, workers: str, files: list[str] = FILES) -> dict:
    monkeypatch.setenv(WORKERS_ENV, workers)
    engine = open_store(str(ref))
    try:
        with session_scope(engine) as s:
            report = ingest_and_align(s, [CORPUS / "corpus-extra" / f for f in files])
    finally:
        engine.dispose()
    return report.alignments


def _both_ways(tmp_path, monkeypatch, files: list[str]):
    """The same files ingested in-process and with 2 workers: (the two reports' alignment
    updates, the two stores' alignment and link rows)."""
    import os

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one core: the ingest aligns in-process whatever is asked")
    stores = (
        [pg_create_database(), pg_create_database()]
        if ON_PG
        else [tmp_path / "serial.sqlite", tmp_path / "workers.sqlite"]
    )
    try:
        serial = _ingest(stores[0], monkeypatch, "0", files)
        parallel = _ingest(stores[1], monkeypatch, "2", files)
        return serial, parallel, _rows(stores[0]), _rows(stores[1])
    finally:
        if ON_PG:
            for url in stores:
                pg_drop_database(str(url))


def test_workers_store_what_the_ingesting_process_stores(tmp_path, monkeypatch):
    serial, parallel, a, b = _both_ways(tmp_path, monkeypatch, FILES)
    assert len(parallel.aligned) == len(serial.aligned) == 3
    assert [(p.a, p.b, p.why, p.links) for p in parallel.aligned] == [
        (p.a, p.b, p.why, p.links) for p in serial.aligned
    ]
    assert len(a["link"]) > 10_000
    assert {r[1] for r in a["alignment"]} == {"editions", "lineage"}
    assert a == b


# Six editions of the English line: its first four steps are sent to a worker as one run
# when the fifth file is written (workers.Ahead), and the plan takes their result. Given
# with 2018 before 2016, the run sent holds the step 2015 -> 2018, which 2016 then splits:
# the plan drops the whole run and aligns its steps itself.
LINE = [
    "cr-en-2012-07-01.txt",
    "cr-en-2013-05-01.txt",
    "cr-en-2014-09-25.txt",
    "cr-en-2015-01-23.txt",
    "cr-en-2016-09-30.txt",
    "cr-en-2018-10-05.txt",
]


@pytest.mark.parametrize(
    ("files", "sent", "ahead"),
    [
        (LINE, "2012-07-01 2013-05-01 2014-09-25 2015-01-23 2016-09-30", 4),
        (
            [*LINE[:4], LINE[5], LINE[4]],
            "2012-07-01 2013-05-01 2014-09-25 2015-01-23 2018-10-05",
            0,
        ),
    ],
    ids=["in-date-order", "an-edition-between"],
)
def test_pairs_aligned_while_writing_store_what_the_plan_stores(
    tmp_path, monkeypatch, files, sent, ahead
):
    from mtgrules.align.workers import Ahead

    # The runs sent while writing, as the plan finds them (a spy on the real object).
    runs: list[str] = []
    take = Ahead.take

    def spied(self, jobs):
        runs.extend(" ".join([r[0].a.date, *(j.b.date for j in r)]) for r, _ in self._runs)
        return take(self, jobs)

    monkeypatch.setattr(Ahead, "take", spied)
    serial, parallel, a, b = _both_ways(tmp_path, monkeypatch, files)
    assert runs == [sent]
    assert (serial.ahead, parallel.ahead) == (0, ahead)
    assert [(p.a, p.b) for p in parallel.aligned] == [
        (f"en-{x[6:16]}", f"en-{y[6:16]}") for x, y in zip(LINE, LINE[1:], strict=False)
    ]
    assert {r[1] for r in a["alignment"]} == {"editions", "lineage"}
    assert a == b
