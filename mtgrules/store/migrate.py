"""Alembic from inside the tool: `upgrade head` on first use, and the models/migrations check."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Engine, inspect

from ..errors import StoreError

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

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, target: str = "head") -> None:
    """Bring the schema to ``target``; cheap when it is already there."""
    from alembic import command

    if target == "head" and current_revision(engine) == head_revision(engine):
        return
    cfg = alembic_config(engine)
    try:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, target)
    except Exception as exc:  # a failed migration must not leave a half-built store
        raise StoreError(f"could not migrate the store at {engine.url}: {exc}") from exc


def schema_differences(engine: Engine) -> list:
    """What Alembic's `check` would report: differences between the models and the schema."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from .models import Base

    with engine.connect() as conn:
        ctx = MigrationContext.configure(conn, opts={"compare_type": True})
        return compare_metadata(ctx, Base.metadata)


def has_tables(engine: Engine) -> bool:
    return "revision" in inspect(engine).get_table_names()
