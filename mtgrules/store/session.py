"""Engine and sessions from a URL or a path; SQLite gets WAL and a busy timeout.

Concurrency model: any number of readers, one writer at a time. A write transaction takes
the store's write lock when it begins (SQLite: BEGIN IMMEDIATE; PostgreSQL: a transaction
advisory lock), so a second writer queues instead of failing half-way, and never decides
what to write from a snapshot that another writer has since made stale.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DataError, OperationalError
from sqlalchemy.orm import Session

from ..errors import StoreError

ENV_VAR = "MTGRULES_DB"

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


def resolve_url(db: str | None) -> str:
    """--db, else $MTGRULES_DB, else a SQLite file in the user's data directory."""
    value = db or os.environ.get(ENV_VAR) or str(default_db_path())
    if "://" in value:
        try:
            make_url(value)
        except ArgumentError:
            raise StoreError(
                f"'{value}' is not a database URL; give a file path or a "
                "URL such as sqlite:///rules.db or postgresql://host/db."
            ) from None
        if value.startswith("postgres://"):
            value = "postgresql://" + value[len("postgres://") :]
        if value.startswith("postgresql://"):
            value = "postgresql+psycopg://" + value[len("postgresql://") :]
        return value
    path = Path(value).expanduser()
    if path.is_dir():
        raise StoreError(f"{path} is a folder; give the path of a store file, e.g. {path}/rules.db")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the folder for the store {path}: {exc.strerror}") from None
    return f"sqlite:///{path}"


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    # pysqlite's own transaction handling defers BEGIN until the first write; we issue
    # BEGIN ourselves (see _sqlite_begin), so switch it off.
    dbapi_conn.isolation_level = None
    cur = dbapi_conn.cursor()
    # The timeout first: switching a new file to WAL needs a lock that another process
    # opening the same new store may hold for a moment.
    cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    # WAL lets searches read while an ingest writes.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA foreign_keys=ON")
    # NORMAL in WAL mode: a power cut may lose the last commits but never corrupts the file;
    # a killed process loses nothing that was committed.
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


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


def make_engine(url: str) -> Engine:
    try:
        engine = create_engine(url)
    except (ArgumentError, ImportError) as exc:
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
    except OperationalError as exc:
        # The database itself failed (connection lost, disk full, I/O error): rolled back too.
        # The driver's message may span lines and quote SQL; the first line says what failed.
        raise StoreError(
            f"the store failed ({first_line(exc.orig)}); nothing was written."
        ) from None


def first_line(exc: BaseException | None) -> str:
    """The first line of a driver's error message, for a one-line user error."""
    return str(exc).strip().splitlines()[0] if exc is not None and str(exc).strip() else "?"
