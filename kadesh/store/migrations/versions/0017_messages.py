"""Messages at the table (issue 43): channels between seats, a kingdom's council, press settings, mutes, reports,
and the last message each subscription's notices told of.

Additive: new tables and columns with defaults. A server of the previous release ignores them (its games have no
messages, its tables full press and no councils).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as table:
        table.add_column(sa.Column("messages", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("table_settings") as table:
        table.add_column(sa.Column("press", sa.String(8), nullable=False, server_default="full"))
        table.add_column(sa.Column("councils", sa.Boolean, nullable=False, server_default=sa.false()))
        table.add_column(sa.Column("master_reads", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "messages",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("channel", sa.String(140), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("seat", sa.String(64), nullable=True),
        sa.Column("author", sa.String(64), nullable=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("data", sa.JSON, nullable=True),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    op.create_table(
        "message_mutes",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.String(64), primary_key=True),
        sa.Column("muted", sa.String(64), primary_key=True),
    )
    op.create_table(
        "message_reports",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("reporter", sa.String(80), primary_key=True),
    )
    op.create_table(
        "message_notices",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("subscription", sa.String(32), primary_key=True),
        sa.Column("seen", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    for name in ("message_notices", "message_reports", "message_mutes", "messages"):
        op.drop_table(name)
    with op.batch_alter_table("table_settings") as table:
        for column in ("master_reads", "councils", "press"):
            table.drop_column(column)
    with op.batch_alter_table("games") as table:
        table.drop_column("messages")
