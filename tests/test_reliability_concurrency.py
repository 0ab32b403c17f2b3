"""Two ingests and a reader at once on one store: all succeed, nothing lost or duplicated.

The store allows one writer at a time (store/session.py): a writer takes the write lock at
BEGIN and a second writer queues on it, while readers keep reading their WAL snapshot.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from mtgrules.store import open_store, session_scope
from mtgrules.store.migrate import current_revision, head_revision
from mtgrules.store.models import Document, Revision

from .conftest import EXTRA, SEEDS, StoreRef, revision_counts, run_cli

# Small official editions, so a round takes seconds; the two sets share no file.
SET_A = [EXTRA / "cr-en-2006-02-01.txt", EXTRA / "cr-en-2006-10-01.txt"]
SET_B = [EXTRA / "cr-en-2008-05-01.txt", EXTRA / "cr-en-2009-07-11.txt"]


def _spawn(args: list[str], db: StoreRef) -> subprocess.Popen:
    env = {**os.environ, "MTGRULES_DB": str(db), "NO_COLOR": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "mtgrules.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def _check_store(db: StoreRef, reports: list[dict]) -> None:
    """Every ingest's revision is whole and present once; no document is stored twice."""
    engine = open_store(str(db))
    with session_scope(engine, write=False) as s:
        revisions = {r.id: r for r in s.scalars(select(Revision))}
        for rep in reports:
            rev = revisions[rep["revision"]]
            assert rev.summary["editions_added"] == rep["editions_added"]
            assert rev.summary["clauses_added"] == rep["clauses_added"]
            editions, clauses = revision_counts(s, rev.id)
            assert (editions, clauses) == (rep["editions_added"], rep["clauses_added"])
        dupes = s.execute(
            select(Document.sha256, func.count()).group_by(Document.sha256).having(func.count() > 1)
        ).all()
        assert dupes == []
    engine.dispose()


def _one_round(db: StoreRef, set_a: list[Path], set_b: list[Path]) -> int:
    """Start both ingests and a stream of reads at once; returns how many reads ran."""
    readers = [["show", "107.3", "--json"], ["editions"], ["search", "mana"]]
    writers = [_spawn(["ingest", "--json", *map(str, files)], db) for files in (set_a, set_b)]
    reads = 0
    # Keep reading while the writers run: each read must succeed, none may wait for long.
    while any(w.poll() is None for w in writers) or reads == 0:
        t0 = time.monotonic()
        r = _spawn(readers[reads % len(readers)], db)
        out, err = r.communicate(timeout=120)
        assert r.returncode == 0, err
        assert out.strip()
        reads += 1
        assert time.monotonic() - t0 < 60
    reports = []
    for w in writers:
        out, err = w.communicate(timeout=300)
        assert w.returncode == 0, err
        reports.append(json.loads(out))
    # Two revisions, one per ingest, each with every file it was given.
    assert reports[0]["revision"] != reports[1]["revision"]
    for rep, files in zip(reports, (set_a, set_b), strict=True):
        assert sorted(Path(f["path"]).name for f in rep["files"]) == sorted(f.name for f in files)
        assert all(f["status"] == "added" for f in rep["files"])
    _check_store(db, reports)
    print(f"\nconcurrent round: 2 ingests, {reads} reads during them, all succeeded")
    return reads


# A concurrency round of two whole ingests with reads between: half a minute, and timing
# bound under a parallel test run; CI's slow step runs it.
@pytest.mark.slow
def test_two_ingests_and_reads_at_once(new_store: StoreRef) -> None:
    # The reader needs rule 107.3 already there (else `show` would ingest the corpus itself).
    assert run_cli("ingest", str(SEEDS), db=new_store).returncode == 0
    reads = _one_round(new_store, SET_A, SET_B)
    assert reads >= 1
    # Re-running either ingest changes nothing: no duplicate revision appears.
    again = run_cli("ingest", "--json", *map(str, SET_A), db=new_store)
    assert again.returncode == 0
    assert json.loads(again.stdout)["revision"] is None


def test_many_processes_open_a_new_store_at_once(new_store: StoreRef) -> None:
    """First use migrates the store; four processes doing it together migrate it once."""
    procs = [_spawn(["history"], new_store) for _ in range(4)]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    engine = open_store(str(new_store))
    assert current_revision(engine) == head_revision(engine)
    engine.dispose()


@pytest.mark.slow
def test_concurrent_rounds_slow(new_store: StoreRef) -> None:
    """Several rounds on one growing store, the sets swapped between rounds."""
    assert run_cli("ingest", str(SEEDS), db=new_store).returncode == 0
    rounds = [
        (SET_A, SET_B),
        ([EXTRA / "cr-en-2009-05-01.txt"], [EXTRA / "cr-en-2012-07-01.txt"]),
        ([EXTRA / "cr-zh-2022-06-10.txt"], [EXTRA / "cr-en-2014-09-25.txt"]),
    ]
    for a, b in rounds:
        _one_round(new_store, a, b)
