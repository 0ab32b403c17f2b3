"""search index: a power and toughness (+1/+1, -1/-1, 2/2) is one word

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05

The index cut "+1/+1" at its signs and slash into the words 1 and 1, so "-1/-1 counters"
found the +1/+1 counters as well, "+1/+1" found "1/1", and "-1/-1" alone found every text
holding a 1 (the limited range of influence of "1 seat" came first). The index now holds
each power and toughness as one word spelled from its parts (text/fold.py
``spell_power_toughness``: +1/+1 is ptplus1byplus1), and a query reads it the same way.

Only a store with a slash in an indexed text is reindexed (no power and toughness
otherwise); the index is rebuilt from the clauses, as 0005, 0006 and 0011 did. The
lineages are untouched (they are by clause).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from mtgrules.store.search_index import has_power_toughness_text, rebuild_index

    conn = op.get_bind()
    if has_power_toughness_text(conn):
        rebuild_index(conn)


def downgrade() -> None:
    # Nothing to undo in the schema: the tables are 0011's. The rows stay in today's form:
    # 0011's code finds a power and toughness no more (its query reads 1 and 1), all else
    # as before.
    pass
