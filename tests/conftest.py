"""Shared fixtures: real stores filled from the real bundled corpus.

By default every store is a SQLite file in tmp_path. With MTGRULES_TEST_PG set to a
postgresql:// URL (a role allowed to CREATE DATABASE), the same fixtures hand out URLs of
fresh PostgreSQL databases instead, so the whole suite runs against a real server:

    MTGRULES_TEST_PG=postgresql://mtgrules:mtgrules@localhost/postgres pytest -m 'not browser'

Tests that only make sense on SQLite (PRAGMA checks, file copies) are marked ``sqlite_only``
and skipped on PostgreSQL.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import make_url

from mtgrules.align.plan import ingest_and_align
from mtgrules.ingest import BUNDLED_CORPUS
from mtgrules.store import open_store, session_scope

ROOT = Path(__file__).resolve().parents[1]
CORPUS = BUNDLED_CORPUS
SEEDS = CORPUS / "seeds"
EXTRA = CORPUS / "corpus-extra"


def _shared() -> Path:
    """The machine's shared data (cr-archive/, translations/): ../shared beside the checkout,
    or beside one of its parents (a worktree sits a level deeper)."""
    for base in ROOT.parents:
        if (base / "shared" / "translations").is_dir():
            return base / "shared"
    return ROOT.parent / "shared"


SHARED = _shared()
TRANSLATIONS = SHARED / "translations"

PG_URL = os.environ.get("MTGRULES_TEST_PG") or None
ON_PG = PG_URL is not None

# A store handed to a test: a SQLite file path, or a postgresql:// URL string.
StoreRef = Path | str


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: skipped when MTGRULES_TEST_PG is set")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_sqlite = pytest.mark.skip(reason="SQLite-specific; MTGRULES_TEST_PG is set")
    skip_pg = pytest.mark.skip(reason="needs MTGRULES_TEST_PG (a PostgreSQL URL)")
    for item in items:
        if ON_PG and "sqlite_only" in item.keywords:
            item.add_marker(skip_sqlite)
        if not ON_PG and "postgres" in item.keywords:
            item.add_marker(skip_pg)


# --- PostgreSQL databases, one per store --------------------------------------------------


def _pg_admin():
    # AUTOCOMMIT: CREATE/DROP DATABASE cannot run inside a transaction.
    return create_engine(
        make_url(PG_URL).set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT"
    )


def pg_create_database(template: str | None = None) -> str:
    """A new, empty (or template-copied) database; returns its postgresql:// URL."""
    assert PG_URL is not None
    name = f"mtgt_{uuid.uuid4().hex[:12]}"
    engine = _pg_admin()
    with engine.connect() as conn:
        clause = f' TEMPLATE "{template}"' if template else ""
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"{clause}')
    engine.dispose()
    return make_url(PG_URL).set(database=name).render_as_string(hide_password=False)


def pg_drop_database(url: str) -> None:
    """Drop a test database, ending its sessions (a killed client's backend may linger)."""
    import time

    from sqlalchemy.exc import DBAPIError

    name = make_url(url).database
    engine = _pg_admin()
    try:
        for attempt in range(20):
            try:
                with engine.connect() as conn:
                    conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
                return
            except DBAPIError:
                # FORCE cannot end an autovacuum worker without pg_signal_backend (which
                # .ci/run grants); it finishes within moments, so try again.
                if attempt == 19:
                    raise
                time.sleep(0.5)
    finally:
        engine.dispose()


def copy_store(template: StoreRef, folder: Path) -> StoreRef:
    """A private, writable copy of a filled store: a file in ``folder`` on SQLite, a database
    made from it as a template on PostgreSQL (a URL is no file to copy). Give it back with
    ``drop_store``."""
    if ON_PG:
        return pg_create_database(template=make_url(str(template)).database)
    path = Path(folder) / "store.sqlite"
    shutil.copy(template, path)
    return path


def drop_store(ref: StoreRef) -> None:
    """Ends a ``copy_store`` copy: drops the database on PostgreSQL; a file goes with tmp_path."""
    if ON_PG:
        pg_drop_database(str(ref))


@pytest.fixture
def new_store(tmp_path: Path) -> Iterator[StoreRef]:
    """Where a new, empty store goes: a SQLite path not yet created, or an empty PG db."""
    if not ON_PG:
        yield tmp_path / "new.sqlite"
        return
    url = pg_create_database()
    yield url
    pg_drop_database(url)


# --- the corpus store ----------------------------------------------------------------------


def _fill_with_corpus(db: StoreRef) -> None:
    """The corpus as `mtgrules ingest` stores it: its editions and their alignments."""
    engine = open_store(str(db))
    with session_scope(engine) as s:
        ingest_and_align(s, [CORPUS])
    if engine.dialect.name == "sqlite":
        # Outside any transaction (a checkpoint cannot run inside one), so copies of the
        # file are whole without their -wal.
        raw = engine.raw_connection()
        try:
            raw.driver_connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            raw.close()
    engine.dispose()


@pytest.fixture(scope="session")
def _corpus_template(tmp_path_factory) -> Iterator[StoreRef]:
    """The whole corpus, ingested once per session; copied, never opened, by the fixtures."""
    if not ON_PG:
        path = tmp_path_factory.mktemp("corpus-store") / "corpus.sqlite"
        _fill_with_corpus(path)
        yield path
        return
    url = pg_create_database()
    _fill_with_corpus(url)
    yield url
    pg_drop_database(url)


@pytest.fixture(scope="session")
def corpus_db(_corpus_template: StoreRef, tmp_path_factory) -> Iterator[StoreRef]:
    """The whole bundled corpus ingested once, shared by the session's readers. Commands
    such as `align` and `drift` store their alignments in it; `store_copy` starts from the
    untouched template instead, for tests that need a store nobody else has written to."""
    # On PostgreSQL a copy too, so that readers holding connections never block CREATE
    # DATABASE ... TEMPLATE.
    ref = copy_store(_corpus_template, tmp_path_factory.mktemp("corpus-shared"))
    yield ref
    drop_store(ref)


@pytest.fixture
def store_copy(_corpus_template: StoreRef, tmp_path: Path) -> Iterator[StoreRef]:
    """A private, writable copy of the ingested corpus store."""
    ref = copy_store(_corpus_template, tmp_path)
    yield ref
    drop_store(ref)


@pytest.fixture
def corpus_engine(corpus_db: StoreRef):
    engine = open_store(str(corpus_db))
    yield engine
    engine.dispose()


@pytest.fixture
def corpus_session(corpus_engine):
    """One transaction on the shared corpus store (committed at the end of the test: what
    the aligner stores is then read back by later tests, as a user's store would)."""
    with session_scope(corpus_engine) as session:
        yield session


@pytest.fixture
def copy_session(store_copy: StoreRef):
    """One transaction on a private copy of the corpus store."""
    engine = open_store(str(store_copy))
    try:
        with session_scope(engine) as session:
            yield session
    finally:
        engine.dispose()


@pytest.fixture
def empty_db(tmp_path: Path) -> Iterator[StoreRef]:
    """A store with nothing in it yet (on SQLite: a path where no file exists)."""
    if not ON_PG:
        yield tmp_path / "empty.sqlite"
        return
    url = pg_create_database()
    yield url
    pg_drop_database(url)


def run_cli(*args: str, db: StoreRef | None = None, env: dict | None = None, **kw):
    """Run the installed `mtgrules` as a user would: a real process, real exit code."""
    full_env = {**os.environ, **(env or {})}
    full_env.pop("MTGRULES_DB", None)
    if db is not None:
        full_env["MTGRULES_DB"] = str(db)
    full_env.setdefault("NO_COLOR", "1")
    return subprocess.run(
        [sys.executable, "-m", "mtgrules.cli", *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=kw.pop("timeout", 300),
        **kw,
    )


def table_counts(db: StoreRef) -> dict[str, int]:
    """Rows per table (every table, alembic_version included), on SQLite or PostgreSQL."""
    engine = open_store(str(db))
    with engine.connect() as conn:
        names = inspect(conn).get_table_names()
        counts = {n: conn.execute(text(f'select count(*) from "{n}"')).scalar_one() for n in names}
    engine.dispose()
    return counts


def revision_counts(session, revision_id: int) -> tuple[int, int]:
    """Editions and clauses a revision added, counted in the store (to check its summary)."""
    from sqlalchemy import func, select

    from mtgrules.store.models import Clause, Edition

    editions = session.scalar(
        select(func.count()).select_from(Edition).where(Edition.revision_id == revision_id)
    )
    clauses = session.scalar(
        select(func.count())
        .select_from(Clause)
        .join(Edition, Clause.edition_id == Edition.id)
        .where(Edition.revision_id == revision_id)
    )
    return editions, clauses


# --- the website of the bundled corpus -----------------------------------------------------


@pytest.fixture(scope="session")
def corpus_site(_corpus_template: StoreRef, tmp_path_factory) -> Iterator[tuple[StoreRef, Path]]:
    """The site of the whole bundled corpus, built once per session from a private copy of
    the corpus store (the build stores the alignments it computes there): (store, folder).
    Used by the slow site tests and the browser tests."""
    from mtgrules.site.build import build_site

    db = copy_store(_corpus_template, tmp_path_factory.mktemp("corpus-site-store"))
    out = tmp_path_factory.mktemp("corpus-site") / "site"
    engine = open_store(str(db))
    try:
        with session_scope(engine) as s:
            build_site(s, out)
    finally:
        engine.dispose()
    yield db, out
    drop_store(db)


# --- the fast read path (store/sql.py): a command run with and without SQLAlchemy ----------

_SQLALCHEMY_AT_EXIT = (
    "import sys, atexit\n"
    "atexit.register(lambda: print('sqlalchemy' in sys.modules, file=sys.stderr))\n"
    "from mtgrules.cli import main\n"
    "sys.argv = ['mtgrules', *sys.argv[1:]]\n"
    "main()\n"
)


def cli_importing(db: StoreRef, *args: str) -> tuple[str, bool, list[str]]:
    """The command run as `mtgrules --db DB ARGS` in a new process: (its stdout, whether the
    process imported SQLAlchemy, its other stderr lines). It must succeed."""
    proc = subprocess.run(
        [sys.executable, "-c", _SQLALCHEMY_AT_EXIT, "--db", str(db), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    *rest, last = proc.stderr.strip().splitlines()
    return proc.stdout, last == "True", rest


def usual_session_url(path: Path) -> str:
    """A URL for the same SQLite file that the fast path does not take (a URL with options):
    the command runs on a SQLAlchemy session."""
    return f"sqlite:///{path}?timeout=30"
