"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "revision",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tool_version", sa.String(length=32), nullable=False),
        sa.Column("files", sa.JSON(), nullable=False),
        sa.Column("summary", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_revision")),
    )
    op.create_table(
        "document",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("path", sa.Text(), nullable=False),
        sa.Column("origin", sa.Text(), nullable=True),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("encoding", sa.String(length=32), nullable=False),
        sa.Column("newline", sa.String(length=64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("revision_id", sa.Integer(), nullable=False),
        sa.Column("superseded_in", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["revision_id"], ["revision.id"], name=op.f("fk_document_revision_id_revision")
        ),
        sa.ForeignKeyConstraint(
            ["superseded_in"], ["revision.id"], name=op.f("fk_document_superseded_in_revision")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_document")),
        sa.UniqueConstraint("sha256", name=op.f("uq_document_sha256")),
    )
    with op.batch_alter_table("document", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_document_name"), ["name"], unique=False)

    op.create_table(
        "edition",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("date", sa.Date(), nullable=True),
        sa.Column("title", sa.Text(), nullable=True),
        sa.Column("layout", sa.String(length=16), nullable=False),
        sa.Column("clause_count", sa.Integer(), nullable=False),
        sa.Column("rule_count", sa.Integer(), nullable=False),
        sa.Column("revision_id", sa.Integer(), nullable=False),
        sa.Column("superseded_in", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["document_id"], ["document.id"], name=op.f("fk_edition_document_id_document")
        ),
        sa.ForeignKeyConstraint(
            ["revision_id"], ["revision.id"], name=op.f("fk_edition_revision_id_revision")
        ),
        sa.ForeignKeyConstraint(
            ["superseded_in"], ["revision.id"], name=op.f("fk_edition_superseded_in_revision")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_edition")),
    )
    with op.batch_alter_table("edition", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_edition_content_hash"), ["content_hash"], unique=False)
        batch_op.create_index(batch_op.f("ix_edition_document_id"), ["document_id"], unique=False)

    op.create_table(
        "clause",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("edition_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("label", sa.String(length=32), nullable=True),
        sa.Column("parent", sa.String(length=32), nullable=True),
        sa.Column("label_inferred", sa.Boolean(), nullable=False),
        sa.Column("term", sa.Text(), nullable=True),
        sa.Column("raw", sa.Text(), nullable=False),
        sa.Column("norm", sa.Text(), nullable=False),
        sa.Column("flags", sa.JSON(), nullable=False),
        sa.Column("refs", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["edition_id"], ["edition.id"], name=op.f("fk_clause_edition_id_edition")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_clause")),
    )
    with op.batch_alter_table("clause", schema=None) as batch_op:
        batch_op.create_index(
            "ix_clause_edition_position", ["edition_id", "position"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_clause_label"), ["label"], unique=False)
        batch_op.create_index(batch_op.f("ix_clause_parent"), ["parent"], unique=False)

    op.create_table(
        "edition_source",
        sa.Column("edition_id", sa.Integer(), nullable=False),
        sa.Column("document_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["document_id"], ["document.id"], name=op.f("fk_edition_source_document_id_document")
        ),
        sa.ForeignKeyConstraint(
            ["edition_id"], ["edition.id"], name=op.f("fk_edition_source_edition_id_edition")
        ),
        sa.PrimaryKeyConstraint("edition_id", "document_id", name=op.f("pk_edition_source")),
    )


def downgrade() -> None:
    op.drop_table("edition_source")
    with op.batch_alter_table("clause", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_clause_parent"))
        batch_op.drop_index(batch_op.f("ix_clause_label"))
        batch_op.drop_index("ix_clause_edition_position")

    op.drop_table("clause")
    with op.batch_alter_table("edition", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_edition_document_id"))
        batch_op.drop_index(batch_op.f("ix_edition_content_hash"))

    op.drop_table("edition")
    with op.batch_alter_table("document", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_document_name"))

    op.drop_table("document")
    op.drop_table("revision")
