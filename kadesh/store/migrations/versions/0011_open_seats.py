"""Open seats: a game made with seats for anyone to take (issue 42).

Additive: a new table. A server of the previous release shows no open games and takes no seat.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "open_seats",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.String(64), primary_key=True),
        sa.Column("open_to", sa.String(16), nullable=False),
        sa.Column("opened_at", sa.String(32), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("open_seats")
