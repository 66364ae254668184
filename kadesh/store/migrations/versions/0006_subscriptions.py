"""Notifications: each seat's subscriptions (e-mail, webhook), and jobs aimed at one of them.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "subscriptions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, index=True),
        sa.Column("seat", sa.String(64), nullable=False),
        sa.Column("channel", sa.String(16), nullable=False),
        sa.Column("address", sa.String(512), nullable=False),
        sa.Column("style", sa.String(16), nullable=False),
        sa.Column("lang", sa.String(2), nullable=False),
        sa.Column("link", sa.String(600), nullable=False),
        sa.Column("unsubscribe_key", sa.String(64), nullable=False, unique=True),
        sa.Column("remind_before", sa.Integer, nullable=True),
        sa.Column("reminded_for", sa.String(32), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_sent_at", sa.String(32), nullable=True),
        sa.Column("last_error", sa.String(300), nullable=True),
        sa.Column("last_error_at", sa.String(32), nullable=True),
    )
    with op.batch_alter_table("jobs") as jobs:  # SQLite rebuilds the table to change its unique constraint
        jobs.add_column(sa.Column("target", sa.String(32), nullable=False, server_default=""))
        jobs.drop_constraint("uq_jobs_kind_game_version", type_="unique")
        jobs.create_unique_constraint("uq_jobs_kind_game_version_target", ["kind", "game_id", "version", "target"])


def downgrade() -> None:
    with op.batch_alter_table("jobs") as jobs:
        jobs.drop_constraint("uq_jobs_kind_game_version_target", type_="unique")
        jobs.create_unique_constraint("uq_jobs_kind_game_version", ["kind", "game_id", "version"])
        jobs.drop_column("target")
    op.drop_table("subscriptions")
