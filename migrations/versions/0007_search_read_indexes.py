"""indexes for reads: the links that carry an inferred label, lineages by head

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03

A rule-number search finds the clauses a page prints without a number under the label the
aligner inferred for them (``link.inferred_label``), and every hit shows that label beside
such a clause. Both read the few links that carry one (14 of the archive's 334,000), which
without an index means reading them all: 190 ms a search on the archive store, 0.1 ms
with this partial index, which holds only those links. And a hit lists every clause of its
lineage with its edition (1,500 rows for a page of hits on the archive): the lineage index
now holds the edition too, so those rows are read from the index alone.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from mtgrules.store.search_index import create_read_indexes

    create_read_indexes(op.get_bind())


def downgrade() -> None:
    conn = op.get_bind()
    conn.exec_driver_sql("DROP INDEX IF EXISTS search_link_inferred")
    conn.exec_driver_sql("DROP INDEX IF EXISTS ix_search_lineage_head_edition")
    conn.exec_driver_sql(
        "CREATE INDEX IF NOT EXISTS ix_search_lineage_head ON search_lineage (head)"
    )
