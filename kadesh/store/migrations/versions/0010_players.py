"""Players: accounts, passkeys, sessions, sign-in links, claimed seats and accounts' webhooks (issue 41).

Additive: new tables. A server of the previous release goes on serving games by their links.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False, unique=True),
        sa.Column("name_key", sa.String(64), nullable=False, unique=True),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("email", sa.String(320), nullable=True),
        sa.Column("email_key", sa.String(64), nullable=True, unique=True),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "passkeys",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("credential_id", sa.String(1400), nullable=False, unique=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("public_key", sa.String(2000), nullable=False),
        sa.Column("sign_count", sa.Integer, nullable=False),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("used_at", sa.String(32), nullable=True),
    )
    op.create_table(
        "sessions",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("seen_at", sa.String(32), nullable=False),
        sa.Column("expires_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "ceremonies",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=True),
        sa.Column("user_handle", sa.String(128), nullable=True),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("lang", sa.String(2), nullable=True),
        sa.Column("expires_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "sign_in_links",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("address", sa.String(320), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("link", sa.String(600), nullable=True),
        sa.Column("expires_at", sa.String(32), nullable=False),
        sa.Column("used_at", sa.String(32), nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "claims",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("role", sa.String(16), primary_key=True),
        sa.Column("seat", sa.String(64), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("claimed_at", sa.String(32), nullable=False),
    )
    op.create_table(
        "account_webhooks",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), nullable=False, index=True),
        sa.Column("address", sa.String(512), nullable=False),
        sa.Column("style", sa.String(16), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    for table in ("account_webhooks", "claims", "sign_in_links", "ceremonies", "sessions", "passkeys", "players"):
        op.drop_table(table)
