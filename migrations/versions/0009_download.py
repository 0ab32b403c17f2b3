"""downloads: what mtgrules fetch read from the web

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03

One row per page or file `mtgrules fetch` downloaded: its URL (and the URL it ended at after
redirects), its ETag and Last-Modified for the next conditional request, the sha256 and size
of its bytes, when, the revision it was ingested in and the document it became. A new table:
nothing to carry over.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "download",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("final_url", sa.Text(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("etag", sa.Text(), nullable=True),
        sa.Column("last_modified", sa.String(length=64), nullable=True),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("links", sa.JSON(), nullable=True),
        sa.Column("revision_id", sa.Integer(), nullable=True),
        sa.Column("document_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["document_id"], ["document.id"], name=op.f("fk_download_document_id_document")
        ),
        sa.ForeignKeyConstraint(
            ["revision_id"], ["revision.id"], name=op.f("fk_download_revision_id_revision")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_download")),
    )
    with op.batch_alter_table("download", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_download_url"), ["url"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("download", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_download_url"))
    op.drop_table("download")
