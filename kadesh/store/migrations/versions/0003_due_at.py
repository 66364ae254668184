"""When a game next acts by itself (a turn's deadline), as a sortable UTC text.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("due_at", sa.String(32), nullable=True))
        batch.create_index("ix_games_due_at", ["due_at"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_due_at")
        batch.drop_column("due_at")
