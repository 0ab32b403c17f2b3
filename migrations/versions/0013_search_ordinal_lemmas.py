"""search index: an ordinal is no longer lemmatised to its number (first -> 1)

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-06

English's lookup table in spaCy gives each ordinal its number as lemma (first -> 1, second
-> 2, billionth -> 1000000000). The index stored those lemmas, so "1" found First Strike and
the Starting Player entry ("the first turn"), "2" Split Second, and "second main phase" every
text holding a 2. text/lemmas.py now leaves such rows out of every language's table; a
store whose index holds one is reindexed from its clauses, as 0005, 0006, 0011 and 0012 did.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from mtgrules.store.search_index import has_ordinal_lemmas, rebuild_index

    conn = op.get_bind()
    if has_ordinal_lemmas(conn):
        rebuild_index(conn)


def downgrade() -> None:
    # Nothing to undo in the schema: the tables are 0012's. The lemmas stay in today's form
    # (an ordinal stands for itself), which 0012's code reads as any other word.
    pass
