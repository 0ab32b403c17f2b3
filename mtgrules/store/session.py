"""Engine and sessions from a URL or a path; SQLite gets WAL and a busy timeout."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.orm import Session, sessionmaker

from ..errors import StoreError

ENV_VAR = "MTGRULES_DB"


def default_db_path() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("mtgrules", appauthor=False)) / "mtgrules.sqlite"


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
    cur = dbapi_conn.cursor()
    # WAL lets searches read while an ingest writes; the timeout makes writers queue.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=30000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.close()


def make_engine(url: str) -> Engine:
    try:
        engine = create_engine(url, future=True)
    except (ArgumentError, ImportError) as exc:
        raise StoreError(f"cannot open the store at {url}: {exc}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)

        # pysqlite's own transaction handling defers BEGIN; take the write lock at the
        # start instead, so two ingests queue on the busy timeout instead of deadlocking.
        @event.listens_for(engine, "connect")
        def _no_autobegin(dbapi_conn, _record):
            dbapi_conn.isolation_level = None

        @event.listens_for(engine, "begin")
        def _begin(conn):
            conn.exec_driver_sql("BEGIN")

    return engine


@contextmanager
def session_scope(engine: Engine) -> Iterator[Session]:
    """One transaction: committed on success, rolled back on any error."""
    factory = sessionmaker(bind=engine, expire_on_commit=False)
    with factory() as session, session.begin():
        yield session
