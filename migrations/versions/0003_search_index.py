"""full-text search index

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29

SQLite gets an FTS5 virtual table (and its fts5vocab view), PostgreSQL a tsvector table with
a GIN index: neither can be described by the models, so env.py leaves every ``search_*``
object out of autogenerate. Stores that already hold clauses are indexed here, once.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Imported here, not at module top: the folding must be the very one the queries use.
    from mtgrules.store.search_index import rebuild_index

    rebuild_index(op.get_bind())


def downgrade() -> None:
    from mtgrules.store.search_index import drop_index_tables

    drop_index_tables(op.get_bind())
