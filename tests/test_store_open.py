"""Opening a store: --db is a path taken literally unless it has a scheme; a file that is not
an mtgrules store (another program's database, a text file, a PDF, a damaged database, a
store made by a newer mtgrules) is refused with one line and exit code 4, and left as it was.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

import mtgrules.api as mr
from mtgrules.errors import StoreError

from .conftest import EXTRA, SEEDS, SHARED, run_cli

pytestmark = pytest.mark.sqlite_only  # files named by --db

ARCHIVE = SHARED / "cr-archive"


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _text_file(folder: Path, _store: Path) -> Path:
    path = folder / "rules.txt"
    shutil.copy(EXTRA / "cr-en-2026-01-16.txt", path)
    return path


def _pdf(folder: Path, _store: Path) -> Path:
    pdfs = sorted(ARCHIVE.glob("pdf/*.pdf")) if ARCHIVE.is_dir() else []
    if not pdfs:
        pytest.skip("the archive's PDFs are not on this machine")
    path = folder / "rules.pdf"
    shutil.copy(min(pdfs, key=lambda p: p.stat().st_size), path)
    return path


def _damaged_store(folder: Path, store: Path) -> Path:
    """A real store whose schema page (the first page, after the 100-byte header) was
    overwritten: SQLite says "database disk image is malformed"."""
    path = folder / "damaged.sqlite"
    data = bytearray(store.read_bytes())
    data[100:4096] = bytes(range(256)) * 15 + bytes(156)
    path.write_bytes(bytes(data))
    return path


def _sqlite_with(path: Path, *statements: str) -> Path:
    conn = sqlite3.connect(path)
    for sql in statements:
        conn.execute(sql)
    conn.commit()
    conn.close()
    return path


def _firefox_places(folder: Path, _store: Path) -> Path:
    """Another program's SQLite database: a browser history with one table."""
    return _sqlite_with(
        folder / "places.sqlite",
        "CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT, title TEXT)",
        "INSERT INTO moz_places (url, title) VALUES ('https://magic.wizards.com', 'x')",
    )


def _other_alembic_program(folder: Path, _store: Path) -> Path:
    """Another program that also uses Alembic: its version is not one of ours."""
    return _sqlite_with(
        folder / "app.sqlite",
        "CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY)",
        "INSERT INTO alembic_version VALUES ('ae1027a6acf')",
        "CREATE TABLE users (id INTEGER PRIMARY KEY)",
    )


def _newer_store(folder: Path, store: Path) -> Path:
    """A real store as a newer mtgrules would leave it: schema 0099."""
    path = folder / "newer.sqlite"
    shutil.copy(store, path)
    return _sqlite_with(path, "UPDATE alembic_version SET version_num = '0099'")


NOT_STORES = [
    ("a text file", _text_file, "not a SQLite database"),
    ("a PDF", _pdf, "not a SQLite database"),
    ("a damaged store", _damaged_store, "malformed"),
    ("another program's database", _firefox_places, "another program's tables (moz_places)"),
    ("another Alembic program", _other_alembic_program, "'ae1027a6acf' is not one of"),
    ("a newer mtgrules' store", _newer_store, "made by a newer mtgrules (schema 0099"),
]
# A read through the fast path (show), one through SQLAlchemy (history), a write (ingest).
COMMANDS = [["show", "107.3"], ["history"], ["ingest", str(SEEDS / "001_6b17ef9efd2fae21.txt")]]


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
@pytest.mark.parametrize("what, make, message", NOT_STORES, ids=[n[0] for n in NOT_STORES])
def test_a_file_that_is_not_our_store_is_refused_and_left_alone(
    _corpus_template: Path, tmp_path: Path, what: str, make, message: str, command: list[str]
) -> None:
    path = make(tmp_path, _corpus_template)
    before = sha(path)
    proc = run_cli("--db", str(path), *command)
    assert proc.returncode == 4, (what, proc.stderr)
    line = proc.stderr.strip()
    assert "\n" not in line and message in line, line
    assert "internal error" not in line
    assert sha(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]  # no -wal, no new file


def test_the_newer_store_message_says_what_to_do(_corpus_template: Path, tmp_path: Path):
    path = _newer_store(tmp_path, _corpus_template)
    proc = run_cli("--db", str(path), "editions")
    assert "upgrade mtgrules" in proc.stderr and proc.returncode == 4


@pytest.mark.parametrize("what, make, message", NOT_STORES, ids=[n[0] for n in NOT_STORES])
def test_the_api_refuses_them_with_a_store_error(
    _corpus_template: Path, tmp_path: Path, what: str, make, message: str
) -> None:
    path = make(tmp_path, _corpus_template)
    with pytest.raises(StoreError, match=message.replace("(", r"\(").replace(")", r"\)")):
        mr.open_store(path).editions()


def test_an_empty_file_becomes_a_store(tmp_path: Path) -> None:
    """An empty file is no one's database yet: `touch rules.db` then using it works."""
    path = tmp_path / "rules.db"
    path.touch()
    proc = run_cli("--db", str(path), "history")
    assert proc.returncode == 0 and "No revisions yet" in proc.stdout, proc.stderr
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM alembic_version").fetchone() == (1,)
    conn.close()


# Names that a URL parser would read otherwise: a query (?), a percent-escape, a bare %,
# a colon, a fragment (#).
LITERAL_NAMES = ["a?b.db", "new%41.db", "new100%.db", "x:y.db", "rules#1.db", "é ü.db"]


@pytest.mark.parametrize("name", LITERAL_NAMES)
def test_a_db_path_is_taken_literally(tmp_path: Path, name: str) -> None:
    seed = SEEDS / "001_6b17ef9efd2fae21.txt"
    ingest = run_cli("--db", name, "ingest", str(seed), cwd=tmp_path)
    assert ingest.returncode == 0, ingest.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]
    # The fast read path (sqlite3 with a file: URI) opens the same file.
    shown = run_cli("--db", name, "show", "107.3", "--json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["editions"], shown.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_a_db_with_a_scheme_is_a_url(tmp_path: Path) -> None:
    """sqlite:///... keeps URL rules: %41 is an escaped A, as in every SQLAlchemy URL."""
    proc = run_cli("--db", f"sqlite:///{tmp_path}/u%41.db", "history")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["uA.db"]


def test_a_path_to_a_folder_is_one_line(tmp_path: Path) -> None:
    proc = run_cli("--db", str(tmp_path), "history")
    assert proc.returncode == 4 and "is a folder" in proc.stderr


@pytest.mark.parametrize(
    ("db", "message"),
    [
        # A typo in a folder name: the whole corpus was ingested into a new folder tree.
        ("{tmp}/no-such-folder/deeper/x.sqlite", "does not exist"),
        # An unset shell variable: the user's default store was used (and filled) instead.
        ("", "--db is empty"),
        # Databases a store cannot live in: before, "No module named 'MySQLdb'".
        ("mysql://user:secret@127.0.0.1/rules", "not mysql"),
        ("mssql+pyodbc://127.0.0.1/rules", "not mssql"),
        # PostgreSQL through a driver mtgrules does not install: which one to use instead.
        ("postgresql+asyncpg://user:secret@127.0.0.1/rules", "mtgrules[postgres]"),
    ],
)
def test_a_store_that_cannot_be_meant_is_refused(tmp_path: Path, db: str, message: str) -> None:
    proc = run_cli("--db", db.format(tmp=tmp_path), "show", "107.3", cwd=tmp_path)
    assert proc.returncode == 4 and message in proc.stderr
    assert proc.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "given, code",
    [
        ("/etc/hostname", 2),  # a readable file with no rules
        ("{tmp}/no-such-file.txt", 2),  # a typo in the file name
    ],
)
def test_a_failed_first_ingest_leaves_no_store_behind(tmp_path: Path, given: str, code: int):
    """Before, the new store was created, migrated and left there (188 KB, no edition): the
    next command took it for a real store."""
    db = tmp_path / "new.sqlite"
    proc = run_cli("--db", str(db), "ingest", given.format(tmp=tmp_path), cwd=tmp_path)
    assert proc.returncode == code and proc.stderr.count("\n") == 1, proc.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_failed_ingest_keeps_an_existing_store(tmp_path: Path):
    """Only a store this very command created goes; an existing one, even with no edition
    in it yet, stays as it was."""
    db = tmp_path / "rules.db"
    assert run_cli("--db", str(db), "history").returncode == 0  # created, migrated, empty
    before = sha(db)
    proc = run_cli("--db", str(db), "ingest", "/etc/hostname")
    assert proc.returncode == 2
    assert sha(db) == before


def _damaged_pages(folder: Path, store: Path) -> Path:
    """A real store whose schema is intact but whose later pages (clauses, the search
    index) were overwritten, as a disk error or a copy cut short leaves them."""
    path = folder / "pages.sqlite"
    data = bytearray(store.read_bytes())
    page = 4096
    for start in range(len(data) // (3 * page) * page, len(data), page):
        data[start + 8 : start + page] = bytes(range(256)) * 15 + bytes(248)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("command", [["show", "107.3"], ["search", "trample"]])
def test_a_store_with_damaged_pages_says_so_in_one_line(
    _corpus_template: Path, tmp_path: Path, command: list[str]
) -> None:
    """Before: "the store failed (database disk image is malformed); nothing was written",
    after a read that writes nothing anyway, and with no next step."""
    path = _damaged_pages(tmp_path, _corpus_template)
    before = sha(path)
    proc = run_cli("--db", str(path), *command)
    assert proc.returncode == 4, proc.stderr
    line = proc.stderr.strip()
    assert "\n" not in line and "damaged" in line and "restore it from a copy" in line, line
    assert "nothing was written" not in line and "internal error" not in line
    assert sha(path) == before
