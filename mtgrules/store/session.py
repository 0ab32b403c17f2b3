"""Engine and sessions from a URL or a path; SQLite gets WAL and a busy timeout.

Concurrency model: any number of readers, one writer at a time. A write transaction takes
the store's write lock when it begins (SQLite: BEGIN IMMEDIATE; PostgreSQL: a transaction
advisory lock), so a second writer queues instead of failing half-way, and never decides
what to write from a snapshot that another writer has since made stale.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import (
    ArgumentError,
    DatabaseError,
    DataError,
    IntegrityError,
    ProgrammingError,
)
from sqlalchemy.orm import Session

from ..errors import StoreError

# SQLite's busy handler waits this long for one lock attempt...
BUSY_TIMEOUT_MS = 30_000
# ...and a writer retries BEGIN IMMEDIATE until this many seconds have passed in total: a full
# corpus ingest holds the write lock for about 20 s, so a few queued writers fit easily.
LOCK_WAIT_SECONDS = float(os.environ.get("MTGRULES_LOCK_WAIT", "600"))
# Any constant works; every mtgrules process on one PostgreSQL database uses the same one.
PG_WRITE_LOCK_KEY = 0x6D7467_7275  # "mtgru"

# The execution option that marks a connection's transactions as read-only or writing.
WRITE_OPTION = "mtgrules_write"


def default_db_path() -> Path:
    # One definition, shared with the fast read path (store/sql.py).
    from .sql import default_db_path as _default

    return _default()


# The first bytes of every SQLite 3 database file.
SQLITE_MAGIC = b"SQLite format 3\x00"


def resolve_url(db: str | None) -> str:
    """--db, else $MTGRULES_DB, else a SQLite file in the user's data directory.

    A name with a scheme (postgresql://..., sqlite:///...) is a URL; anything else is a
    file path taken literally (store/sql.py: store_location), so "a?b.db" or "new%41.db"
    name those files and no others."""
    from .sql import store_location

    where = store_location(db)
    if isinstance(where, str):
        return _server_url(where)
    path = where
    if path.is_dir():
        raise StoreError(f"{path} is a folder; give the path of a store file, e.g. {path}/rules.db")
    _refuse_non_sqlite(path)
    if path == default_db_path():
        # The default store's folder is the tool's own (~/.local/share/mtgrules): made on
        # first use.
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(
                f"cannot create the folder for the store {path}: {exc.strerror}"
            ) from None
    elif not path.parent.is_dir():
        # A store named in a folder that is not there is a typo more often than a wish:
        # the whole corpus was ingested into /nonexistent/dir/x.sqlite.
        raise StoreError(
            f"the folder {path.parent} does not exist; create it first, or give --db a "
            "file in an existing folder."
        )
    # Built, not parsed: the path's "?", "%" and ":" stay part of the file name.
    return URL.create("sqlite", database=str(path)).render_as_string(hide_password=False)


# The databases a store can live in (the schema's migrations are tested on these two).
_BACKENDS = ("sqlite", "postgresql", "postgres")


def _server_url(value: str) -> str:
    try:
        url = make_url(value)
    except ArgumentError:
        raise StoreError(
            f"'{value}' is not a database URL; give a file path or a "
            "URL such as sqlite:///rules.db or postgresql://host/db."
        ) from None
    if url.get_backend_name() not in _BACKENDS:
        # Before: "No module named 'MySQLdb'", as if a driver were all that was missing.
        raise StoreError(
            f"mtgrules keeps its store in SQLite or PostgreSQL, not {url.get_backend_name()}: "
            "give a file (rules.db) or a URL such as postgresql://user@host/db."
        )
    if value.startswith("postgres://"):
        value = "postgresql://" + value[len("postgres://") :]
    if value.startswith("postgresql://"):
        value = "postgresql+psycopg://" + value[len("postgresql://") :]
    return value


def _refuse_non_sqlite(path: Path) -> None:
    """A file that exists, is not empty and is not SQLite (a text file, a PDF) is never
    opened as a store: SQLite would fail later with a confusing message, or not at all."""
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot read the store {path}: {exc.strerror}") from None
    if head and head != SQLITE_MAGIC:
        raise StoreError(
            f"{path} is not an mtgrules store: it is not a SQLite database at all. "
            "Give --db the path of a store, or of a new file to create one."
        )


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    # pysqlite's own transaction handling defers BEGIN until the first write; we issue
    # BEGIN ourselves (see _sqlite_begin), so switch it off.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    # No journal_mode here: it is written into the file, and this file may turn out to be
    # another program's. use_wal switches a store to WAL once it is known to be ours.
    cur.execute("PRAGMA foreign_keys=ON")
    # NORMAL in WAL mode: a power cut may lose the last commits but never corrupts the file;
    # a killed process loses nothing that was committed.
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


# SQLite's page cache for an ingest's one transaction, in KiB (the default is 2,000): the
# clause table's four indexes and the search index take their rows in no order, and with
# the default cache most of their pages were written out and read back many times over.
# Measured on the archive's ingest (CPU of writing its files, twice each): 7.23 / 7.48 s
# with the default, 6.90 / 7.16 s with 16 MiB, 6.72 / 6.65 s with 32 MiB, 6.68 / 6.66 s with
# 64 MiB; the peak 382 MB, 395-400, 412-414 and 442-445 MB. Three more runs each,
# alternating: 7.89 / 8.00 / 7.93 s with the default, 7.27 / 7.15 / 7.10 s with 32 MiB.
BULK_CACHE_KIB = 32_768


@contextmanager
def bulk_write_cache(session: Session) -> Iterator[None]:
    """A larger SQLite page cache (BULK_CACHE_KIB) for the rest of a large write in this
    session's transaction; the connection's own size again afterwards. Nothing on other
    databases."""
    conn = session.connection()
    if conn.dialect.name != "sqlite":
        yield
        return
    driver = conn.connection.driver_connection
    before = driver.execute("PRAGMA cache_size").fetchone()[0]
    driver.execute(f"PRAGMA cache_size=-{BULK_CACHE_KIB}")
    try:
        yield
    finally:
        driver.execute(f"PRAGMA cache_size={int(before)}")


def use_wal(engine: Engine) -> None:
    """Put a SQLite store in WAL mode (kept in the file: once is enough): searches then
    read while an ingest writes. Called when the store is known to be ours, before it is
    first migrated. The busy timeout covers another process switching the same new file."""
    if engine.dialect.name != "sqlite":
        return
    with engine.connect() as conn:
        # Straight on the driver: the mode cannot change inside a transaction.
        conn.connection.driver_connection.execute("PRAGMA journal_mode=WAL")


def _is_locked(exc: Exception) -> bool:
    msg = str(exc).lower()
    return "database is locked" in msg or "database is busy" in msg


def _sqlite_begin(conn) -> None:
    """BEGIN IMMEDIATE for writers (retried while another writer holds the lock), plain
    BEGIN for readers: in WAL mode they read a consistent snapshot and never wait."""
    if not conn.get_execution_options().get(WRITE_OPTION, True):
        conn.exec_driver_sql("BEGIN")
        return
    deadline = time.monotonic() + LOCK_WAIT_SECONDS
    while True:
        try:
            # Goes through the DBAPI cursor directly: a failed BEGIN must not be wrapped into
            # a SQLAlchemy error that invalidates the connection.
            conn.connection.dbapi_connection.execute("BEGIN IMMEDIATE")
            return
        except Exception as exc:
            if not _is_locked(exc):
                raise
            # BEGIN IMMEDIATE changes nothing when it fails, so trying again is safe.
            if time.monotonic() >= deadline:
                raise StoreError(
                    "the store is busy: another mtgrules process has been writing to it for "
                    f"{LOCK_WAIT_SECONDS:.0f} s; try again when it has finished."
                ) from None
            time.sleep(0.05)


def _pg_begin(conn) -> None:
    if conn.get_execution_options().get(WRITE_OPTION, True):
        # Released at COMMIT/ROLLBACK, or when a killed client's connection drops.
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({PG_WRITE_LOCK_KEY})")


# What SQLAlchemy's pysqlite driver reads from a sqlite:// URL itself; any other option is
# SQLite's own (mode=ro, immutable=1), which SQLite reads only from a file: URI.
_SQLITE_DRIVER_OPTIONS = frozenset(
    {"timeout", "isolation_level", "detect_types", "check_same_thread", "cached_statements", "uri"}
)


def _check_sqlite_options(url: str) -> None:
    """A SQLite option outside a file: URI would be dropped with a warning (the store then
    opened read-write despite mode=ro): refused, with the URL that works."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        return  # create_engine says why
    if parsed.get_backend_name() != "sqlite":
        return
    options = sorted(set(parsed.query) - _SQLITE_DRIVER_OPTIONS)
    uri = str(parsed.query.get("uri", "")).lower() in ("true", "1")
    if options and not uri:
        path = (parsed.database or "PATH").removeprefix("file:")
        query = "&".join(f"{k}={parsed.query[k]}" for k in options)
        raise StoreError(
            f"cannot open the store at {url}: SQLite reads {', '.join(options)} only from a "
            f"file: URI; use sqlite:///file:{path}?{query}&uri=true"
        )


def make_engine(url: str) -> Engine:
    _check_sqlite_options(url)
    try:
        engine = create_engine(url)
    except ImportError as exc:
        raise StoreError(
            f"cannot open the store at {make_url(url).render_as_string(hide_password=True)}: "
            f"its driver is not installed ({exc}); use postgresql://user@host/db after "
            "pip install 'mtgrules[postgres]'"
        ) from None
    except ArgumentError as exc:
        raise StoreError(f"cannot open the store at {url}: {exc}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
    elif engine.dialect.name == "postgresql":
        event.listen(engine, "begin", _pg_begin)
    return engine


@contextmanager
def session_scope(engine: Engine, *, write: bool = True) -> Iterator[Session]:
    """One transaction: committed on success, rolled back on any error.

    ``write=False`` for pure reads: they neither wait for nor block a writer. The default is
    writing because a writer that forgot to say so could fail under concurrency, while a
    reader that forgot only waits for the current writer to finish.
    """
    bind = engine.execution_options(**{WRITE_OPTION: write})
    try:
        with Session(bind=bind, expire_on_commit=False) as session, session.begin():
            yield session
    except DataError as exc:
        # A value the database refuses (PostgreSQL checks VARCHAR lengths, SQLite does not):
        # the transaction is rolled back, so the user gets a clean error, not a traceback.
        raise StoreError(
            f"the store cannot hold a value from this input ({first_line(exc.orig)}); "
            "nothing was written."
        ) from None
    except (DatabaseError, sqlite3.DatabaseError) as exc:
        if _is_our_bug(exc):
            raise  # our own SQL broke a rule: a bug, to be reported, not the user's doing
        # The database itself failed (connection lost, disk full, I/O error, a damaged
        # file): rolled back too. The driver's message may span lines and quote SQL; the
        # first line says what failed. (Hot reads go straight to sqlite3, store/sql.py:
        # its errors arrive unwrapped.)
        from .sql import store_failed

        raise store_failed(first_line(getattr(exc, "orig", exc)), write=write) from None


# PostgreSQL's "insufficient privilege": a ProgrammingError that the user's role causes.
_PG_NO_PRIVILEGE = "42501"


def _is_our_bug(exc: Exception) -> bool:
    if isinstance(exc, IntegrityError | sqlite3.IntegrityError | sqlite3.ProgrammingError):
        return True
    return isinstance(exc, ProgrammingError) and (
        getattr(exc.orig, "sqlstate", None) != _PG_NO_PRIVILEGE
    )


def first_line(exc: BaseException | None) -> str:
    """The first line of a driver's error message, for a one-line user error."""
    return str(exc).strip().splitlines()[0] if exc is not None and str(exc).strip() else "?"
