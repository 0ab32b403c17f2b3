"""Plain SQL reads that run on a SQLAlchemy Session (or Connection) and on a bare sqlite3
connection alike.

Why two kinds of connection: `mtgrules show` and `mtgrules search` must answer in a quarter
of a second, and importing SQLAlchemy alone takes about that long on a loaded two-core
machine. So the commands that only read open a current SQLite store with the standard
library (``LiteSession``, see ``open_lite``) and the functions on their path (the editions,
a rule's clauses, the termbase, the search backend, the stored links) are written in SQL
through ``fetch``; everything else (ingest, migrations, PostgreSQL) keeps SQLAlchemy, and
those same functions take its Session unchanged.

SQL is written with ``:name`` parameters, which both sqlite3 and SQLAlchemy's ``text()``
understand. Lists of integers (ids from the store itself, never user text) are inlined with
``in_list``.
"""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from functools import lru_cache
from keyword import iskeyword
from operator import itemgetter
from pathlib import Path
from typing import Any
from urllib.parse import quote

from ..errors import StoreError

# The same busy timeout as the SQLAlchemy engine (store/session.py): a reader waits for a
# checkpoint rather than failing.
BUSY_TIMEOUT_MS = 30_000


class LiteSession:
    """A read-only transaction on a SQLite store through the standard library: what the
    read functions of this module's callers need of a Session, and nothing more."""

    dialect = "sqlite"

    def __init__(self, conn: sqlite3.Connection, url: str):
        self.conn = conn
        self.url = url

    def execute_sql(self, sql: str, params: Mapping[str, Any] | Sequence[Any] | None) -> list:
        return _rows(self.conn.execute(sql, params or ()))


class LiteDeclined(Exception):
    """A read on a LiteSession met what only the usual session does (an alignment the store
    lacks, to compute in memory): the command runs it again on a SQLAlchemy session
    (cli.AppContext.read_light). Never reaches a user."""


def needs_full_session(db: Any) -> None:
    """Decline the fast path here: ``db`` is the standard library's connection."""
    if isinstance(db, LiteSession):
        raise LiteDeclined


@lru_cache(maxsize=256)
def _row_type(names: tuple[str, ...]) -> type[tuple]:
    """Rows with attribute access (r.id), as SQLAlchemy's rows have: a tuple with a property
    per column (a name that is no identifier, or repeated, is ``_<position>``, as
    namedtuple's rename gives). Built by hand rather than by namedtuple, whose class costs
    0.2 ms to make (it compiles code): a search makes about fifteen of them."""
    fields: dict[str, property] = {}
    for i, name in enumerate(names):
        usable = name.isidentifier() and not iskeyword(name) and not name.startswith("_")
        fields[name if usable and name not in fields else f"_{i}"] = property(itemgetter(i))
    return type("Row", (tuple,), {"__slots__": (), **fields})


def dialect_of(db: Any) -> str:
    """'sqlite' or 'postgresql' for a LiteSession, a SQLAlchemy Session or Connection."""
    if isinstance(db, LiteSession):
        return db.dialect
    bind = db.get_bind() if hasattr(db, "get_bind") else db
    return bind.dialect.name


def store_url(db: Any) -> str:
    """Which store this is (a cache key: one process may open several)."""
    if isinstance(db, LiteSession):
        return db.url
    bind = db.get_bind() if hasattr(db, "get_bind") else db
    return str(bind.url)


def fetch(
    db: Any, sql: str, params: Mapping[str, Any] | None = None, *, plain: bool = False
) -> list:
    """All rows of ``sql`` (``:name`` parameters), each with attribute access (``plain``:
    bare tuples, for the thousands of rows of a hot path)."""
    if isinstance(db, LiteSession):
        if plain:
            return db.conn.execute(sql, params or ()).fetchall()
        return db.execute_sql(sql, params)
    if dialect_of(db) == "sqlite":
        # A SQLAlchemy session on SQLite: straight on its driver connection, in the same
        # transaction (session.connection() begins it). Compiling text() and building
        # SQLAlchemy rows cost more than SQLite's own work for the small queries of a
        # search (about 40 of them).
        conn = db.connection() if hasattr(db, "get_bind") else db
        cur = conn.connection.driver_connection.execute(sql, params or ())
        return cur.fetchall() if plain else _rows(cur)
    from sqlalchemy import text  # the caller holds a SQLAlchemy session: already imported

    return list(db.execute(text(sql), dict(params or {})).all())


def _rows(cur: sqlite3.Cursor) -> list:
    if cur.description is None:
        return []
    factory = _row_type(tuple(d[0] for d in cur.description))
    return list(map(factory, cur.fetchall()))


def scalar(db: Any, sql: str, params: Mapping[str, Any] | None = None) -> Any:
    rows = fetch(db, sql, params)
    return rows[0][0] if rows else None


def in_list(ids: Sequence[int] | set[int]) -> str:
    """Integers from the store itself (never user text), inlined: SQLite then uses the
    IN-list directly, and no driver's parameter limit applies."""
    return ", ".join(str(int(i)) for i in ids) or "NULL"


def fetch_in(
    db: Any, sql: str, ids: Iterable[int], *, plain: bool = False, chunk: int = 900
) -> Iterator:
    """The rows of ``sql`` for every id of ``ids``, asked ``chunk`` ids at a time: ``sql``
    holds ``{ids}`` where the IN-list goes (ids sorted and each asked once; a long IN-list
    is cut so that no statement grows without bound)."""
    wanted = sorted(set(ids))
    for i in range(0, len(wanted), chunk):
        yield from fetch(db, sql.replace("{ids}", in_list(wanted[i : i + chunk])), plain=plain)


def iso_date(value: Any) -> str | None:
    """A date column as 'YYYY-MM-DD' whatever the driver returns (str on SQLite, date on
    PostgreSQL)."""
    if value is None:
        return None
    return value.isoformat() if hasattr(value, "isoformat") else str(value)[:10]


def json_list(value: Any) -> list:
    """A JSON column as a list whatever the driver returns (text on SQLite)."""
    if value is None or value == "[]":  # the commonest by far: a clause with no flags
        return []
    if isinstance(value, str):
        import json

        return list(json.loads(value or "[]"))
    return list(value)


def json_dict(value: Any) -> dict:
    """A JSON object column as a dict whatever the driver returns (text on SQLite)."""
    if value is None:
        return {}
    if isinstance(value, str):
        import json

        return dict(json.loads(value or "{}") or {})
    return dict(value)


# --- opening a store without SQLAlchemy ---------------------------------------------------


ENV_VAR = "MTGRULES_DB"

# "postgresql://", "sqlite:///", "postgresql+psycopg://": a name with a scheme is a URL.
# Anything else is a file path, taken literally: "a?b.db", "new%41.db", "x:y.db" are files.
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def store_location(db: str | None) -> Path | str:
    """The store named by --db / $MTGRULES_DB / the default: a Path for a file (taken
    literally), or the URL string as given (only when it starts with a scheme)."""
    if db is not None and not db.strip():
        # An unset shell variable (--db "$STORE"): never the default store in its place.
        raise StoreError("--db is empty; give a store file (rules.db) or a database URL.")
    value = db or os.environ.get(ENV_VAR)
    if not value:
        return default_db_path()
    if _SCHEME.match(value):
        return value
    return Path(value).expanduser()


def _sqlite_url_file(url: str) -> Path | None:
    """The file of a sqlite:/// URL (percent-escapes decoded, as SQLAlchemy does)."""
    if not url.startswith("sqlite:///"):
        return None
    from urllib.parse import unquote

    name = unquote(url[len("sqlite:///") :].split("?", 1)[0])
    return Path(name) if name and name != ":memory:" else None


def store_file(db: str | None) -> Path | None:
    """The SQLite file of the store, whatever options its URL carries; None for a server
    database or an in-memory one. Output paths are checked against it (output.py)."""
    where = store_location(db)
    return where if isinstance(where, Path) else _sqlite_url_file(where)


def sqlite_path(db: str | None) -> Path | None:
    """The file of a SQLite store named by --db / $MTGRULES_DB / the default, or None when
    the store is not a plain SQLite file (a PostgreSQL URL, a URL with options)."""
    where = store_location(db)
    if isinstance(where, Path):
        return where
    return None if "?" in where else _sqlite_url_file(where)


def default_db_path() -> Path:
    """The store in the user's data folder (platformdirs' rule on Linux, computed here
    because importing platformdirs costs more than the rest of a search)."""
    import sys

    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_DATA_HOME", "").strip() or str(Path.home() / ".local/share")
        return Path(base) / "mtgrules" / "mtgrules.sqlite"
    from platformdirs import user_data_dir

    return Path(user_data_dir("mtgrules", appauthor=False)) / "mtgrules.sqlite"


def file_uri(path: Path) -> str:
    """SQLite's URI for a file: "?", "#" and "%" in its name escaped, so that they stay part
    of the name."""
    return "file:" + quote(str(path.absolute()))


@contextmanager
def open_lite(path: Path, schema_head: str) -> Iterator[LiteSession | None]:
    """A read transaction on the SQLite store at ``path``, or None when this fast path does
    not apply (no such file yet, an older schema that needs a migration, an empty store):
    the caller then opens the store the usual way, which migrates or ingests first."""
    if not path.is_file():
        yield None
        return
    try:
        # mode=rw: never create a file (a missing store is the slow path's business).
        conn = sqlite3.connect(
            f"{file_uri(path)}?mode=rw", uri=True, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error:
        yield None
        return
    try:
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        try:
            version = conn.execute("SELECT version_num FROM alembic_version").fetchone()
            empty = conn.execute("SELECT 1 FROM edition LIMIT 1").fetchone() is None
        except sqlite3.Error:
            yield None
            return
        if version is None or version[0] != schema_head or empty:
            yield None
            return
        # One snapshot for the whole command, as a SQLAlchemy read transaction gives.
        conn.execute("BEGIN")
        try:
            yield LiteSession(conn, f"sqlite:///{quote(str(path))}")
        except sqlite3.DatabaseError as exc:
            if isinstance(exc, sqlite3.IntegrityError | sqlite3.ProgrammingError):
                raise  # our own SQL: a bug to report
            # Locked for too long, an I/O error, a damaged page met half-way.
            raise store_failed(str(exc), write=False) from None
        finally:
            conn.execute("ROLLBACK")
    finally:
        conn.close()


# SQLite's words for a file whose pages are damaged (a disk error, a copy cut short).
_DAMAGED = ("malformed", "not a database", "corrupt")


def store_failed(detail: str, *, write: bool) -> StoreError:
    """The one message for a store that failed under a command (the driver's ``detail``):
    a damaged file says what to do about it; a write says that nothing was written."""
    outcome = "; nothing was written." if write else "."
    if any(word in detail.lower() for word in _DAMAGED):
        return StoreError(
            f"the store file is damaged ({detail}): restore it from a copy, or build a new "
            f"one with: mtgrules --db NEW.sqlite ingest{outcome}"
        )
    return StoreError(f"the store failed ({detail}){outcome}")


def discard_unused_store(path: Path) -> bool:
    """Delete a SQLite store this very command created, when the command failed before an
    edition was written: a mistyped `ingest` into a new --db left a 188 KB empty store that
    the next command then took for a real one. Kept when it holds any edition (another
    process may have filled it meanwhile) or is not readable as a store. True if deleted."""
    try:
        conn = sqlite3.connect(file_uri(path) + "?mode=ro", uri=True)
        try:
            held = conn.execute("SELECT 1 FROM edition LIMIT 1").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        if "no such table" not in str(exc):
            return False  # not ours to judge: leave it
        held = None
    if held is not None:
        return False
    for name in (path, *(Path(f"{path}{end}") for end in ("-wal", "-shm", "-journal"))):
        try:
            name.unlink()
        except FileNotFoundError:
            pass
        except OSError:
            return False
    return True
