"""source choice: the English each translation was made from, chosen once at ingest

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01

Which English edition a translation follows was worked out again by every command that
needed it (update, drift, align --date: 22-48 s for a page dated by its content). Ingest
now chooses it once, by the translation's document, its date or its content (against the
store's English and the English archive packed inside mtgrules), and stores the choice with
its evidence. A store upgraded from an earlier schema has no choices yet: readers work them
out as before until the next ingest stores them.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "source_choice",
        sa.Column("edition_id", sa.Integer(), nullable=False),
        sa.Column("english_id", sa.Integer(), nullable=True),
        sa.Column("how", sa.String(length=16), nullable=False),
        sa.Column("why", sa.Text(), nullable=False),
        sa.Column("fit", sa.Float(), nullable=True),
        sa.Column("basis", sa.String(length=200), nullable=False),
        sa.Column("dating", sa.JSON(), nullable=True),
        sa.Column("revision_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["edition_id"], ["edition.id"], name=op.f("fk_source_choice_edition_id_edition")
        ),
        sa.ForeignKeyConstraint(
            ["english_id"], ["edition.id"], name=op.f("fk_source_choice_english_id_edition")
        ),
        sa.ForeignKeyConstraint(
            ["revision_id"], ["revision.id"], name=op.f("fk_source_choice_revision_id_revision")
        ),
        sa.PrimaryKeyConstraint("edition_id", name=op.f("pk_source_choice")),
    )
    with op.batch_alter_table("source_choice", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_source_choice_english_id"), ["english_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("source_choice", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_source_choice_english_id"))
    op.drop_table("source_choice")
