"""Pairing (issue 42): accounts waiting for an opponent of their rating, one place each.

Additive: a new table. A server of the previous release pairs nobody.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pairing_queue",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("seconds_per_move", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("queued_at", sa.String(32), nullable=False),
        sa.Column("matched_with", sa.String(32), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
    )
    op.create_index("ix_pairing_queue_waiting", "pairing_queue", ["ruleset", "seconds_per_move", "matched_with"])


def downgrade() -> None:
    op.drop_index("ix_pairing_queue_waiting", "pairing_queue")
    op.drop_table("pairing_queue")
