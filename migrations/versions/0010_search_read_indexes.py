"""for reads: an index of the links that carry an inferred label, lineage labels

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-03

A rule-number search finds the clauses a page prints without a number under the label the
aligner inferred for them (``link.inferred_label``), and every hit shows that label beside
such a clause. Both read the few links that carry one (14 of the archive's 334,000), which
without an index means reading them all: 190 ms a search on the archive store, 0.1 ms
with this partial index, which holds only those links. And a hit lists every clause of its
lineage with its edition and the numbers it had ("was 702.18, 702.17": 1,500 rows for a page
of hits on the archive): each lineage clause keeps its label, and the lineage index covers
head, edition, clause and label, so those rows are read from the index alone. The lineages
are refreshed to fill the labels.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from mtgrules.store.search_index import upgrade_lineages_for_reads

    upgrade_lineages_for_reads(op.get_bind())


def downgrade() -> None:
    # The lineage table as 0006 made it, without the label (self-contained; on SQLite a
    # rebuild: DROP COLUMN needs SQLite 3.35).
    conn = op.get_bind()
    conn.exec_driver_sql("DROP INDEX IF EXISTS search_link_inferred")
    conn.exec_driver_sql("DROP INDEX IF EXISTS ix_search_lineage_head_edition")
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("ALTER TABLE search_lineage DROP COLUMN label")
        conn.exec_driver_sql("CREATE INDEX ix_search_lineage_head ON search_lineage (head)")
        return
    conn.exec_driver_sql("ALTER TABLE search_lineage RENAME TO search_lineage_v7")
    conn.exec_driver_sql(
        "CREATE TABLE search_lineage (clause_id INTEGER PRIMARY KEY, head INTEGER NOT NULL,"
        " edition_id INTEGER NOT NULL)"
    )
    conn.exec_driver_sql(
        "INSERT INTO search_lineage (clause_id, head, edition_id) "
        "SELECT clause_id, head, edition_id FROM search_lineage_v7"
    )
    conn.exec_driver_sql("DROP TABLE search_lineage_v7")
    conn.exec_driver_sql("CREATE INDEX ix_search_lineage_head ON search_lineage (head)")
