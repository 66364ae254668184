"""Jobs for worker processes: each bot action to play, claimed by one worker at a time.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "jobs",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("run_after", sa.String(32), nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claimed_until", sa.String(32), nullable=True),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.UniqueConstraint("kind", "game_id", "version", name="uq_jobs_kind_game_version"),
    )


def downgrade() -> None:
    op.drop_table("jobs")
