"""Alembic from inside the tool: `upgrade head` on first use, and the models/migrations check.

Opening a store costs one query while its schema is current (the version row compared with
SCHEMA_HEAD); Alembic itself is imported only when an upgrade is due.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import MtgRulesError, StoreError

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

# SQLAlchemy and the session module are imported inside the functions: the fast read path
# (store/sql.py) reads SCHEMA_HEAD from here without loading them.

# The newest migration's revision id. tests/test_migrations.py checks that it is Alembic's
# head, so a new migration cannot be forgotten here.
SCHEMA_HEAD = "0007"


def migrations_folder() -> Path:
    """The migrations shipped as the package ``mtgrules.migrations`` (from the top-level
    migrations/ folder of a checkout)."""
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
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    return cfg


def head_revision(engine: Engine) -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    """The store's schema version, in one query (None for a new, empty store)."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError, OperationalError

    from .session import WRITE_OPTION

    # A read: it must not queue behind an ingest that holds the write lock.
    with engine.execution_options(**{WRITE_OPTION: False}).connect() as conn:
        try:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        except DBAPIError as exc:
            if isinstance(exc, OperationalError) and _is_unreachable(exc):
                raise
            return None  # no version table yet


def _is_unreachable(exc: Exception) -> bool:
    """A store that cannot be opened at all, as opposed to one without a version table."""
    message = str(exc.orig).lower()
    return "no such table" not in message and "does not exist" not in message


def upgrade(engine: Engine, target: str = "head") -> None:
    """Bring the schema to ``target``; one query when it is already there."""
    from sqlalchemy.exc import OperationalError

    from .session import first_line

    try:
        if target == "head" and current_revision(engine) == SCHEMA_HEAD:
            return
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
