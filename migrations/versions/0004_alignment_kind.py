"""alignment kind and rule as columns

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30

An alignment's kind ("editions" for a whole pair of editions, "rule" for one rule's links)
and the rule it covers were only written inside the signature ("...;editions;..." or
"...;rule=107.3;..."), and found with LIKE. They become columns, filled from the signature
of every stored row, so no alignment is lost.
"""

import re
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_RULE = re.compile(r";rule=([^;]*);")


def upgrade() -> None:
    with op.batch_alter_table("alignment", schema=None) as batch_op:
        batch_op.add_column(sa.Column("kind", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("rule", sa.String(length=32), nullable=True))

    conn = op.get_bind()
    alignment = sa.table(
        "alignment",
        sa.column("id", sa.Integer),
        sa.column("signature", sa.String),
        sa.column("kind", sa.String),
        sa.column("rule", sa.String),
    )
    for row_id, signature in conn.execute(sa.select(alignment.c.id, alignment.c.signature)).all():
        m = _RULE.search(signature or "")
        kind, rule = ("rule", m.group(1)) if m else ("editions", None)
        conn.execute(
            alignment.update().where(alignment.c.id == row_id).values(kind=kind, rule=rule)
        )

    with op.batch_alter_table("alignment", schema=None) as batch_op:
        batch_op.alter_column("kind", existing_type=sa.String(length=16), nullable=False)
        batch_op.create_index("ix_alignment_kind_rule", ["kind", "rule"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("alignment", schema=None) as batch_op:
        batch_op.drop_index("ix_alignment_kind_rule")
        batch_op.drop_column("rule")
        batch_op.drop_column("kind")
