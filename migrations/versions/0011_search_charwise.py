"""search index: kana and Hangul one character per token, as Han

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04

Japanese writes no spaces and a Korean word carries its particles and endings, so a whole
kana run (ライブラリーのカードを) or eojeol (생물이) was one token of the index, and a query
word matched only where the text held the very same run. The index now stores each kana and
Hangul character as a token, as it does Han (text/fold.py ``index_form``), and a query word
of those scripts is searched as a phrase of its characters: トークン and オーナー are found in
トークンを生成したプレイヤーがそのオーナーである, 생물 in 생물이 and 생물을. Folding also keeps
the kana voicing marks on their syllable (が, プ) instead of leaving U+3099/U+309A apart,
which cut プレイヤー in two.

Only a store holding kana or Hangul text is reindexed (a Latin or Chinese text's index is
the same before and after); the index is rebuilt from the clauses, as 0005 and 0006 did.
The lineages are untouched (they are by clause).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    from mtgrules.store.search_index import has_charwise_text, rebuild_index

    conn = op.get_bind()
    if has_charwise_text(conn):
        rebuild_index(conn)


def downgrade() -> None:
    # Nothing to undo in the schema: the tables are 0010's. The rows stay in today's form,
    # which 0010's code reads as well (it finds whole runs only, as before; Han is as it was).
    pass
