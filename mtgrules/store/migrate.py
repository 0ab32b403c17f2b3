"""Alembic from inside the tool: `upgrade head` on first use, and the models/migrations check.

Opening a store costs one query while its schema is current (the version row compared with
SCHEMA_HEAD); Alembic itself is imported only when an upgrade is due.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import MtgRulesError, StoreError

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

# SQLAlchemy and the session module are imported inside the functions: the fast read path
# (store/sql.py) reads SCHEMA_HEAD from here without loading them.

# The newest migration's revision id. tests/test_migrations.py checks that it is Alembic's
# head, so a new migration cannot be forgotten here.
SCHEMA_HEAD = "0014"


def migrations_folder() -> Path:
    """The migrations shipped as the package ``mtgrules.migrations`` (from the top-level
    migrations/ folder of a checkout)."""
    # importlib.resources here, not at the top: it imports tempfile, shutil and random
    # (~4 ms), and every read command imports this module for SCHEMA_HEAD.
    from importlib import resources

    try:
        folder = Path(str(resources.files("mtgrules.migrations")))
    except ModuleNotFoundError:
        folder = Path("<missing>")
    if not (folder / "env.py").exists():
        raise StoreError(f"the migrations folder {folder} is missing; reinstall mtgrules.")
    return folder


def alembic_config(engine: Engine):
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(migrations_folder()))
    # ConfigParser interpolates "%": a file named new100%.db must stay itself.
    url = engine.url.render_as_string(hide_password=False).replace("%", "%%")
    cfg.set_main_option("sqlalchemy.url", url)
    return cfg


def head_revision(engine: Engine) -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The store's schema version, in one query (None for a new, empty store)."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError, OperationalError

    from .session import WRITE_OPTION, first_line

    # A read: it must not queue behind an ingest that holds the write lock.
    try:
        with engine.execution_options(**{WRITE_OPTION: False}).connect() as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except DBAPIError as exc:
        if not _is_unreachable(exc):
            return None  # no version table yet
        if isinstance(exc, OperationalError):
            raise
        # sqlite3.DatabaseError, on connecting or on the first read: "file is not a
        # database", "database disk image is malformed". Not a store we can read.
        raise StoreError(
            f"{describe(engine)} is not a readable mtgrules store ({first_line(exc.orig)}); "
            "give --db the path of a store, or restore this one from a copy."
        ) from None


def describe(engine: Engine) -> str:
    """The store as a user named it: the file of a SQLite store, else its URL (without the
    password)."""
    if engine.dialect.name == "sqlite" and engine.url.database:
        return engine.url.database
    return engine.url.render_as_string(hide_password=True)


def _is_unreachable(exc: Exception) -> bool:
    """A store that cannot be opened at all, as opposed to one without a version table."""
    message = str(exc.orig).lower()
    return "no such table" not in message and "does not exist" not in message


def known_revisions(engine: Engine) -> set[str]:
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config(engine))
    return {r.revision for r in script.walk_revisions()}


def check_is_ours(engine: Engine, revision: str | None) -> None:
    """Refuse a database that mtgrules did not make (before anything is written to it).

    A database with no version row is ours to create only if it holds no table at all:
    another program's SQLite file (a browser's moz_places) must never receive our tables
    and the corpus. A version row that is not one of our migrations is either a newer
    mtgrules (our revisions are numbered) or another program using Alembic."""
    if revision is None:
        from sqlalchemy import inspect

        from .session import WRITE_OPTION

        with engine.execution_options(**{WRITE_OPTION: False}).connect() as conn:
            tables = sorted(inspect(conn).get_table_names())
        if tables and (now := current_revision(engine)) is not None:
            # Another mtgrules process created the store since the version was read.
            return check_is_ours(engine, now)
        if tables:
            shown = ", ".join(tables[:3]) + (", ..." if len(tables) > 3 else "")
            raise StoreError(
                f"{describe(engine)} is not an mtgrules store: it holds another program's "
                f"tables ({shown}) and no mtgrules schema. It was left unchanged; give --db "
                "a new file or an mtgrules store."
            )
        return
    if revision in known_revisions(engine):
        return
    if revision.isdigit() and len(revision) == len(SCHEMA_HEAD) and revision > SCHEMA_HEAD:
        raise StoreError(
            f"the store {describe(engine)} was made by a newer mtgrules (schema {revision}; "
            f"this one knows up to {SCHEMA_HEAD}); upgrade mtgrules: pip install -U mtgrules"
        )
    raise StoreError(
        f"{describe(engine)} is not an mtgrules store: its schema version {revision!r} is not "
        "one of mtgrules'. It was left unchanged; give --db a new file or an mtgrules store."
    )


def upgrade(
    engine: Engine, target: str = "head", on_upgrade: Callable[[str, str], None] | None = None
) -> None:
    """Bring the schema to ``target``; one query when it is already there.

    ``on_upgrade(old, new)`` is called before an existing store is migrated: a migration
    may rebuild the search index (0011: ~10 s on the corpus), and the first command after
    an upgrade of mtgrules must not sit silent that long."""
    from sqlalchemy.exc import OperationalError

    from .session import first_line, use_wal

    try:
        revision = current_revision(engine)
        if target == "head" and revision == SCHEMA_HEAD:
            return
        check_is_ours(engine, revision)
        use_wal(engine)
        if revision is not None and on_upgrade is not None:
            on_upgrade(revision, SCHEMA_HEAD if target == "head" else target)
    except OperationalError as exc:
        # Server down, wrong password, unreadable file: one line, and never the password.
        raise StoreError(
            f"cannot open the store at {engine.url.render_as_string(hide_password=True)}: "
            f"{first_line(exc.orig)}"
        ) from None
    from alembic import command

    cfg = alembic_config(engine)
    try:
        # A write transaction takes the store's write lock first (store/session.py), so two
        # processes opening a new store at once migrate it once: the second one waits, then
        # Alembic, reading the version inside the lock, finds it at head and does nothing.
        with engine.connect() as conn, _foreign_keys_off(conn):
            with conn.begin():
                cfg.attributes["connection"] = conn
                command.upgrade(cfg, target)
                _check_references(conn)
    except MtgRulesError:
        raise
    except Exception as exc:  # a failed migration must not leave a half-built store
        raise StoreError(
            f"could not migrate the store at {engine.url.render_as_string(hide_password=True)}: "
            f"{first_line(getattr(exc, 'orig', None) or exc)}"
        ) from exc


@contextmanager
def _foreign_keys_off(conn: Connection) -> Iterator[None]:
    """SQLite: foreign keys off while migrating, checked once at the end.

    Batch mode rebuilds a table (copy, drop the old one, rename) to change it; with foreign
    keys on, dropping a table that others reference (alignment, referenced by link) fails.
    The pragma only takes effect outside a transaction, hence straight on the driver before
    BEGIN (as Alembic's batch documentation advises)."""
    if conn.dialect.name != "sqlite":
        yield
        return
    driver = conn.connection.driver_connection
    driver.execute("PRAGMA foreign_keys=OFF")
    try:
        yield
    finally:
        driver.execute("PRAGMA foreign_keys=ON")


def _check_references(conn: Connection) -> None:
    """Before committing a SQLite migration made with foreign keys off: no broken reference
    (the error rolls the migration back)."""
    if conn.dialect.name != "sqlite":
        return
    broken = conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if broken:
        raise StoreError(
            f"the migration would leave {len(broken)} broken references (first: "
            f"{tuple(broken[0])}); nothing was changed. Please report it."
        )


def schema_differences(engine: Engine) -> list:
    """What Alembic's `check` would report: differences between the models and the schema."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from .models import Base
    from .session import WRITE_OPTION

    with engine.execution_options(**{WRITE_OPTION: False}).connect() as conn:
        # The search index (FTS5 / tsvector tables) lives outside the models on purpose.
        from .search_index import include_object

        ctx = MigrationContext.configure(
            conn, opts={"compare_type": True, "include_object": include_object}
        )
        return compare_metadata(ctx, Base.metadata)
