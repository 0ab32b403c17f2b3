"""what an edition says of itself: when it was translated, whether its glossary is omitted

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02

A translation prints, beside its effective date (``edition.date``), when it was translated
(the Japanese file: "2026-01-16 に翻訳"), and may leave its glossary out (the Korean files:
"용어사전" then "<생략>"). Both are read from the text at parse time
(mtgrules/sources/official.py, dates.py, parts.py). Editions stored before this revision
keep NULL and false: re-ingesting their files does not change them (same bytes, nothing
parsed), so a store that needs the new columns filled is rebuilt by ingesting into a new
one.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


# Plain ALTER TABLE, not a batch: a boolean's server default would make Alembic rebuild the
# edition table on SQLite, which fails with foreign keys on while clauses point at it;
# SQLite has dropped columns natively since 3.35.


def upgrade() -> None:
    op.add_column("edition", sa.Column("translated_on", sa.Date(), nullable=True))
    op.add_column(
        "edition",
        sa.Column("glossary_omitted", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    op.drop_column("edition", "glossary_omitted")
    op.drop_column("edition", "translated_on")
