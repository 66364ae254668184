"""Seats played by the computer.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_bots",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.String(64), primary_key=True),
        sa.Column("level", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seat_bots")
