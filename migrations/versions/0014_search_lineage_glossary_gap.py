"""search lineages: a glossary entry is carried over an edition that lost its glossary

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07

The archive's 2013-02-01 copy holds 30 of the 470 glossary entries of 2012-10-01. No link
leaves the other 440 for it, so their lineages ended in 2012-10-01: a search for a word that
only their older wordings hold found them obsolete, beside today's entry of the same term.
refresh_lineages (store/search_index.py) now carries such an entry to the same term in the
next edition with its whole glossary. The lineages are rebuilt from the stored links, as
every ingest and alignment does; nothing in the schema changes.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from sqlalchemy import inspect

    from mtgrules.store.search_index import LINEAGE_TABLE, refresh_lineages

    conn = op.get_bind()
    if inspect(conn).has_table(LINEAGE_TABLE):
        refresh_lineages(conn)


def downgrade() -> None:
    # The lineages are derived data in 0013's tables; 0013's code reads them as they are.
    pass
