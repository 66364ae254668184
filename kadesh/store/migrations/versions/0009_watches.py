"""Who watches a game: a game where the computer holds every seat is played while someone watches it (issue 40).

Additive: a new table. Until a server of this release watches them, computer-only games wait.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "watches",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("server", sa.String(32), primary_key=True),
        sa.Column("until", sa.String(32), nullable=False),
    )
    op.create_index("ix_watches_server", "watches", ["server"])


def downgrade() -> None:
    op.drop_table("watches")
