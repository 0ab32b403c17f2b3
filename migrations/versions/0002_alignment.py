"""alignment links and termbase

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "term",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("concept", sa.String(length=100), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("form", sa.String(length=200), nullable=False),
        sa.Column("source", sa.String(length=32), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_term")),
    )
    with op.batch_alter_table("term", schema=None) as batch_op:
        batch_op.create_index("ix_term_concept_language", ["concept", "language"], unique=False)
        batch_op.create_index(batch_op.f("ix_term_form"), ["form"], unique=False)

    op.create_table(
        "alignment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("edition_a", sa.Integer(), nullable=False),
        sa.Column("edition_b", sa.Integer(), nullable=False),
        sa.Column("signature", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("stats", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["edition_a"], ["edition.id"], name=op.f("fk_alignment_edition_a_edition")
        ),
        sa.ForeignKeyConstraint(
            ["edition_b"], ["edition.id"], name=op.f("fk_alignment_edition_b_edition")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_alignment")),
    )
    with op.batch_alter_table("alignment", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_alignment_edition_a"), ["edition_a"], unique=False)
        batch_op.create_index(batch_op.f("ix_alignment_edition_b"), ["edition_b"], unique=False)

    op.create_table(
        "link",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("alignment_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=24), nullable=False),
        sa.Column("source_clause_id", sa.Integer(), nullable=True),
        sa.Column("target_clause_id", sa.Integer(), nullable=True),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("evidence", sa.JSON(), nullable=False),
        sa.Column("inferred_label", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(
            ["alignment_id"], ["alignment.id"], name=op.f("fk_link_alignment_id_alignment")
        ),
        sa.ForeignKeyConstraint(
            ["source_clause_id"], ["clause.id"], name=op.f("fk_link_source_clause_id_clause")
        ),
        sa.ForeignKeyConstraint(
            ["target_clause_id"], ["clause.id"], name=op.f("fk_link_target_clause_id_clause")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_link")),
    )
    with op.batch_alter_table("link", schema=None) as batch_op:
        batch_op.create_index(
            "ix_link_alignment_source", ["alignment_id", "source_clause_id"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_link_target_clause_id"), ["target_clause_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("link", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_link_target_clause_id"))
        batch_op.drop_index("ix_link_alignment_source")

    op.drop_table("link")
    with op.batch_alter_table("alignment", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_alignment_edition_b"))
        batch_op.drop_index(batch_op.f("ix_alignment_edition_a"))

    op.drop_table("alignment")
    with op.batch_alter_table("term", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_term_form"))
        batch_op.drop_index("ix_term_concept_language")

    op.drop_table("term")
