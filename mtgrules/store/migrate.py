"""Alembic from inside the tool: `upgrade head` on first use, and the models/migrations check."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, inspect
from sqlalchemy.exc import OperationalError

from ..errors import MtgRulesError, StoreError
from .session import WRITE_OPTION, first_line

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"


def alembic_config(engine: Engine):
    from alembic.config import Config

    if not (MIGRATIONS / "env.py").exists():
        raise StoreError(f"the migrations folder {MIGRATIONS} is missing; reinstall mtgrules.")
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False))
    return cfg


def head_revision(engine: Engine) -> str:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(engine)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    # A read: it must not queue behind an ingest that holds the write lock.
    with engine.execution_options(**{WRITE_OPTION: False}).connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, target: str = "head") -> None:
    """Bring the schema to ``target``; cheap when it is already there."""
    from alembic import command

    try:
        if target == "head" and current_revision(engine) == head_revision(engine):
            return
    except OperationalError as exc:
        # Server down, wrong password, unreadable file: one line, and never the password.
        raise StoreError(
            f"cannot open the store at {engine.url.render_as_string(hide_password=True)}: "
            f"{first_line(exc.orig)}"
        ) from None
    cfg = alembic_config(engine)
    try:
        # A write transaction takes the store's write lock first (store/session.py), so two
        # processes opening a new store at once migrate it once: the second one waits, then
        # Alembic, reading the version inside the lock, finds it at head and does nothing.
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, target)
    except MtgRulesError:
        raise
    except Exception as exc:  # a failed migration must not leave a half-built store
        raise StoreError(
            f"could not migrate the store at {engine.url.render_as_string(hide_password=True)}: "
            f"{first_line(getattr(exc, 'orig', None) or exc)}"
        ) from exc


def schema_differences(engine: Engine) -> list:
    """What Alembic's `check` would report: differences between the models and the schema."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from .models import Base

    with engine.execution_options(**{WRITE_OPTION: False}).connect() as conn:
        # The search index (FTS5 / tsvector tables) lives outside the models on purpose.
        from ..search.index import include_object

        ctx = MigrationContext.configure(
            conn, opts={"compare_type": True, "include_object": include_object}
        )
        return compare_metadata(ctx, Base.metadata)


def has_tables(engine: Engine) -> bool:
    return "revision" in inspect(engine).get_table_names()
