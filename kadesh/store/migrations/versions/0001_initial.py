"""Games, their append-only actions, and hashed access tokens.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("ruleset_version", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.String(128), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("dice", sa.JSON, nullable=False),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("outcome", sa.JSON, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("seat", sa.String(64), nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seq", name="uq_actions_game_seq"),
    )
    op.create_table(
        "tokens",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("seat", sa.String(64), nullable=True),
    )
    op.create_index("ix_tokens_game_id", "tokens", ["game_id"])


def downgrade() -> None:
    op.drop_index("ix_tokens_game_id", table_name="tokens")
    op.drop_table("tokens")
    op.drop_table("actions")
    op.drop_table("games")
