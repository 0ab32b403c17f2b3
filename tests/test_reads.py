"""Reads never write (issue 17): every read command works on a read-only store and leaves its
bytes as they were; an alignment the store lacks is computed in memory, and a long one is
followed by a note saying which `mtgrules align ... --store` keeps it. Only ingest, align
--store (and learning terms) and remove change the store.

The store is a real SQLite file opened read-only: chmod 0444, and the URL asks SQLite itself
for mode=ro, since file permissions do not stop a test run as root.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest

from .conftest import ON_PG, run_cli

pytestmark = pytest.mark.skipif(ON_PG, reason="a read-only SQLite file")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _read_only(path: Path) -> str:
    path.chmod(0o444)
    return f"sqlite:///file:{path}?mode=ro&uri=true"


READS = [
    ("editions",),
    ("history",),
    ("show", "107.3"),
    ("search", "stack"),
    ("diff", "en-2018-10-05", "en-2019-10-04"),
    ("diff", "en-2009-05-01", "en-2009-07-11", "--rule", "702.15"),
    ("drift", "107.3"),
    ("drift", "--edition", "zh-Hans-2022-06-10"),
    ("drift", "--edition", "zh-Hans-2022-06-10", "--reference", "en-2026-01-16"),
    ("update", "zh-Hans-2022-06-10", "--to", "en-2026-01-16"),
    ("trace", "107.3g"),
    ("align", "107.3"),
    ("align", "--editions", "en-2018-10-05", "en-2019-10-04"),
    ("align", "--date", "es-page-es-107.3"),
    ("align", "--check"),
    ("export", "tmx", "--target-lang", "fr", "--rule", "107.3"),
]


@pytest.fixture
def stale_store(store_copy: Path) -> Path:
    """The corpus store with no alignment at all (as one made before alignments were kept,
    or by another aligner): every read must align in memory."""
    db = sqlite3.connect(store_copy)
    with db:
        db.execute("DELETE FROM link")
        db.execute("DELETE FROM alignment")
    db.close()
    return store_copy


@pytest.mark.parametrize("args", READS, ids=lambda a: " ".join(a))
def test_a_read_works_on_a_read_only_store(store_copy: Path, args: tuple[str, ...]) -> None:
    before = _digest(store_copy)
    url = _read_only(store_copy)
    done = run_cli(*args, db=url)
    assert done.returncode in (0, 1), done.stderr  # 1: align --check found something
    assert "readonly" not in done.stderr and "read-only" not in done.stderr
    assert _digest(store_copy) == before


@pytest.mark.parametrize(
    "args",
    [
        ("diff", "en-2009-05-01", "en-2009-07-11"),
        ("update", "zh-Hans-2022-06-10", "--to", "en-2026-01-16"),
        ("align", "--editions", "en-2009-05-01", "en-2009-07-11"),
    ],
    ids=lambda a: " ".join(a),
)
def test_a_missing_alignment_is_computed_in_memory(stale_store: Path, args) -> None:
    before = _digest(stale_store)
    done = run_cli(*args, db=_read_only(stale_store))
    assert done.returncode == 0, done.stderr
    assert _digest(stale_store) == before
    if "note:" in done.stderr:  # only when aligning took a second or more
        assert "mtgrules align" in done.stderr and "--store" in done.stderr


# A whole site build (about 40 s under a parallel run); CI's slow step runs it.
@pytest.mark.slow
def test_the_site_is_built_from_a_read_only_store(store_copy: Path, tmp_path: Path) -> None:
    before = _digest(store_copy)
    done = run_cli("site", "-o", str(tmp_path / "site"), db=_read_only(store_copy))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "rules" / "107.3.html").is_file()
    assert _digest(store_copy) == before
    # Everything the site reads was stored at ingest: nothing was aligned in memory.
    assert "note:" not in done.stderr


def _alignments(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT count(*) FROM alignment").fetchone()[0]
    finally:
        db.close()


# Re-aligns a stale store's every pair, twice (about a minute); CI's slow step runs it.
@pytest.mark.slow
def test_align_writes_only_when_asked_to_store(stale_store: Path) -> None:
    pair = ("--editions", "en-2018-10-05", "en-2019-10-04")
    assert run_cli("align", *pair, db=stale_store).returncode == 0
    assert _alignments(stale_store) == 0
    assert run_cli("align", *pair, "--store", db=stale_store).returncode == 0
    assert _alignments(stale_store) == 1
    # Alone, --store keeps every pair the readers use (what an ingest keeps).
    done = run_cli("align", "--store", db=stale_store)
    assert done.returncode == 0, done.stderr
    assert "already stored" in done.stdout
    assert _alignments(stale_store) > 20
    with_store = _digest(stale_store)
    assert run_cli("diff", "en-2009-05-01", "en-2009-07-11", db=stale_store).returncode == 0
    assert _digest(stale_store) == with_store


def test_a_read_only_store_refuses_a_write_in_one_line(store_copy: Path) -> None:
    done = run_cli("align", "107.3", "--store", db=_read_only(store_copy))
    assert done.returncode == 4
    assert len(done.stderr.strip().splitlines()) == 1


def test_chmod_alone_makes_a_store_read_only_for_other_users(store_copy: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip("root ignores file permissions; the mode=ro tests above cover it")
    before = _digest(store_copy)
    store_copy.chmod(0o444)
    done = run_cli("diff", "en-2018-10-05", "en-2019-10-04", db=store_copy)
    assert done.returncode == 0, done.stderr
    assert _digest(store_copy) == before


def test_sqlite_options_outside_a_file_uri_are_refused_with_the_url_that_works(
    store_copy: Path,
) -> None:
    """mode=ro in a plain sqlite:/// URL is dropped by the driver, with a warning, and the
    store opened read-write: refused in one line that gives the file: URI instead."""
    before = _digest(store_copy)
    done = run_cli("align", "107.3", "--store", db=f"sqlite:///{store_copy}?mode=ro")
    assert done.returncode == 4
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Warning" not in done.stderr
    fixed = f"sqlite:///file:{store_copy}?mode=ro&uri=true"
    assert lines[0].endswith(f"use {fixed}")
    assert _digest(store_copy) == before
    # The URL it gives works, read-only.
    assert run_cli("show", "107.3", db=fixed).returncode == 0
    assert run_cli("align", "107.3", "--store", db=fixed).returncode == 4
    assert _digest(store_copy) == before
