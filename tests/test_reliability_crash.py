"""SIGKILL an ingest at random moments: the store stays sound and holds whole revisions.

Each round writes a new version of one real edition (so every ingest has a revision to
write and supersedes the previous version), starts `mtgrules ingest` as a process and kills
it with SIGKILL: half the time at a uniformly random moment of its run (start-up, migration,
parsing or writing), half the time once it has started writing to the store (SQLite: the
bytes it has written, from /proc/PID/io; PostgreSQL: its server session running INSERTs), at a
random moment of its writing. Then the store must pass SQLite's
integrity check, hold every revision whole (or not at all), and the next ingest must finish.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from mtgrules.store import open_store, session_scope
from mtgrules.store.models import Document, Revision

from .conftest import EXTRA, ON_PG, StoreRef, revision_counts, run_cli

KILLS = int(os.environ.get("MTGRULES_CRASH_KILLS", "24"))
SOURCE = EXTRA / "cr-zh-2026-01-16.txt"  # 0.9 MB, 4,400 clauses: a write phase worth hitting
TARGET_NAME = "crash-target.txt"
# Bytes written by the process before we call it "writing the store": start-up writes none.
WRITING_THRESHOLD = 64 * 1024


def _write_variant(folder: Path, i: int) -> Path:
    """Version ``i`` of the edition: rule 100.1 gets one more sentence, so the edition's
    content hash changes and the whole edition (4,400 clauses) is written again."""
    path = folder / TARGET_NAME
    text = SOURCE.read_text(encoding="utf-8")
    marker = "\n100.1. "
    assert marker in text
    path.write_text(text.replace(marker, f"{marker}(Round {i}.) ", 1), encoding="utf-8")
    return path


def _bytes_written(pid: int) -> int | None:
    try:
        for line in Path(f"/proc/{pid}/io").read_text().splitlines():
            if line.startswith("wchar:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


class WriteProbe:
    """Has the ingest process started writing rows to the store?"""

    def __init__(self, db: StoreRef):
        self.engine = None
        if ON_PG:
            from sqlalchemy import create_engine
            from sqlalchemy.pool import NullPool

            from mtgrules.store.session import resolve_url

            # A plain engine (no mtgrules write lock) that watches the other sessions.
            self.engine = create_engine(
                resolve_url(str(db)), poolclass=NullPool, isolation_level="AUTOCOMMIT"
            )
            self.conn = self.engine.connect()

    def writing(self, pid: int) -> bool:
        if self.engine is None:
            return (_bytes_written(pid) or 0) > WRITING_THRESHOLD
        # libpq's socket writes do not show in /proc/PID/io; ask the server instead.
        from sqlalchemy import text

        return bool(
            self.conn.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND pid <> pg_backend_pid() AND state <> 'idle' "
                    "AND (query ILIKE 'INSERT%' OR query ILIKE 'UPDATE%')"
                )
            ).scalar_one()
        )

    def close(self) -> None:
        if self.engine is not None:
            self.conn.close()
            self.engine.dispose()


def _spawn_ingest(db: StoreRef, path: Path) -> subprocess.Popen:
    env = {**os.environ, "MTGRULES_DB": str(db), "NO_COLOR": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "mtgrules.cli", "ingest", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=env,
    )


def _sqlite_file_checks(db: Path) -> None:
    """Opened raw, as a fresh process after the crash would: recovery, then checks."""
    if not db.exists():
        return  # killed before the store file was created
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        tables = {r[0] for r in conn.execute("select name from sqlite_master")}
        if "search_text" in tables:
            # The full-text index (store/search_index.py) is written in the same transaction: it must be
            # sound and hold exactly the searchable clauses, no more, no fewer.
            from mtgrules.store.search_index import FTS_TABLE, INDEXED_KINDS

            conn.execute(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES('integrity-check')")
            kinds = ", ".join(f"'{k}'" for k in INDEXED_KINDS)
            indexed = conn.execute("select count(*) from search_member").fetchone()[0]
            clauses = conn.execute(
                f"select count(*) from clause where kind in ({kinds})"
            ).fetchone()[0]
            assert indexed == clauses
            groups = conn.execute("select count(*) from search_group").fetchone()[0]
            assert conn.execute(f"select count(*) from {FTS_TABLE}").fetchone()[0] == groups
            conn.rollback()
    finally:
        conn.close()


def _whole_revisions(db: StoreRef) -> int:
    """Every revision's rows match its summary; returns how many revisions there are."""
    engine = open_store(str(db))
    try:
        with session_scope(engine, write=False) as s:
            revisions = list(s.scalars(select(Revision).order_by(Revision.id)))
            for rev in revisions:
                editions, clauses = revision_counts(s, rev.id)
                documents = s.scalar(
                    select(func.count()).select_from(Document).where(Document.revision_id == rev.id)
                )
                assert editions == rev.summary["editions_added"], rev.id
                assert clauses == rev.summary["clauses_added"], rev.id
                assert documents == rev.summary["files_changed"], rev.id
            live = s.scalar(
                select(func.count())
                .select_from(Document)
                .where(Document.name == TARGET_NAME, Document.superseded_in.is_(None))
            )
            assert live <= 1  # a new version never leaves its old one alive too
            return len(revisions)
    finally:
        engine.dispose()


def _calibrate(db: StoreRef, folder: Path, probe: WriteProbe) -> tuple[float, float, float]:
    """Uninterrupted runs: (seconds until it starts writing, seconds in all, seconds from its
    first write to its last), measured on the second run, as the first also creates the store."""
    assert run_cli("ingest", str(_write_variant(folder, -1)), db=db).returncode == 0
    path = _write_variant(folder, 0)
    t0 = time.monotonic()
    proc = _spawn_ingest(db, path)
    previous = None
    first_write = last_write = None
    while proc.poll() is None:
        writing = probe.writing(proc.pid)
        now = time.monotonic() - t0
        if first_write is None and writing:
            first_write = now
        if ON_PG and writing:
            last_write = now  # the last INSERT or UPDATE seen; the COMMIT follows
        elif not ON_PG and first_write is not None and _bytes_written(proc.pid) != previous:
            last_write = now  # the commit is the last write before the process exits
        previous = _bytes_written(proc.pid)
        time.sleep(0.002)
    total = time.monotonic() - t0
    assert proc.returncode == 0
    if first_write is None or last_write is None:
        return total * 0.5, total, total * 0.5
    return first_write, total, max(last_write - first_write, 0.02)


@pytest.mark.slow
def test_sigkill_during_ingest_never_corrupts_the_store(new_store: StoreRef, tmp_path: Path):
    rng = random.Random(int(os.environ.get("MTGRULES_CRASH_SEED", "6")))
    folder = tmp_path / "src"
    folder.mkdir()
    probe = WriteProbe(new_store)
    start_writing, total, write_window = _calibrate(new_store, folder, probe)
    revisions = _whole_revisions(new_store)
    assert revisions == 2

    kills = finished_first = 0
    phases = {"before writing": 0, "while writing": 0, "after the commit": 0}
    modes = {"anytime": 0, "while-writing": 0}
    round_no = 0
    while kills < KILLS:
        round_no += 1
        assert round_no < KILLS * 3, "the ingest keeps finishing before the kill"
        path = _write_variant(folder, round_no)
        mode = "anytime" if round_no % 2 else "while-writing"
        t0 = time.monotonic()
        proc = _spawn_ingest(new_store, path)
        if mode == "anytime":
            time.sleep(rng.uniform(0, total))
        else:
            # Wait until it writes, then kill at a random moment of its writing.
            while proc.poll() is None and not probe.writing(proc.pid):
                time.sleep(0.002)
                if time.monotonic() - t0 > total * 5:
                    break
            time.sleep(rng.uniform(0, write_window))
        writing_at_kill = proc.poll() is None and probe.writing(proc.pid)
        if proc.poll() is None:
            # send_signal does nothing if the process has just exited on its own: then
            # wait() returns 0 and the round counts as finished, not killed.
            proc.send_signal(signal.SIGKILL)
        if proc.wait() == -signal.SIGKILL:
            kills += 1
            modes[mode] += 1
        else:
            finished_first += 1
            assert proc.returncode == 0

        if not ON_PG:
            _sqlite_file_checks(Path(new_store))
        after_kill = _whole_revisions(new_store)
        assert after_kill in (revisions, revisions + 1)  # all of the revision or none of it
        if proc.returncode != 0:
            if after_kill == revisions + 1:
                phases["after the commit"] += 1
            elif writing_at_kill:
                phases["while writing"] += 1
            else:
                phases["before writing"] += 1

        # The next ingest completes, and ends with exactly one more revision than before.
        done = run_cli("ingest", str(path), db=new_store)
        assert done.returncode == 0, done.stderr
        revisions += 1
        assert _whole_revisions(new_store) == revisions
        if not ON_PG:
            _sqlite_file_checks(Path(new_store))

    probe.close()
    print(
        f"\ncrash test ({'PostgreSQL' if ON_PG else 'SQLite'}): {kills} SIGKILLs ({modes}), landing {phases}, "
        f"{finished_first} runs finished before their kill; calibration: writing from "
        f"{start_writing:.2f}s to {start_writing + write_window:.2f}s of {total:.2f}s"
    )


@pytest.mark.slow
def test_sigkill_during_first_use_migration(tmp_path: Path):
    """The first command on a new store creates its schema; killed during that, the store is
    either untouched or fully migrated, and the next command works."""
    from mtgrules.store.migrate import current_revision, head_revision

    if ON_PG:
        pytest.skip("each round needs a new store file")
    rng = random.Random(7)
    kills = rounds = 0
    while kills < 8:
        i = rounds = rounds + 1
        assert rounds <= 40, f"only {kills} of {rounds} runs were killed before they finished"
        db = tmp_path / f"fresh-{i}.sqlite"
        env = {**os.environ, "MTGRULES_DB": str(db), "NO_COLOR": "1"}
        proc = subprocess.Popen(
            [sys.executable, "-m", "mtgrules.cli", "history"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        # Wait for the file to appear, then kill somewhere in the migration that follows.
        t0 = time.monotonic()
        while not db.exists() and proc.poll() is None and time.monotonic() - t0 < 30:
            time.sleep(0.001)
        time.sleep(rng.uniform(0, 0.15))
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
        kills += proc.wait() == -signal.SIGKILL
        _sqlite_file_checks(db)
        assert run_cli("history", db=db).returncode == 0
        engine = open_store(str(db))
        assert current_revision(engine) == head_revision(engine)
        engine.dispose()
    print(
        f"\nmigration crash test: {kills} first-use runs killed while creating the store, of {rounds}"
    )
