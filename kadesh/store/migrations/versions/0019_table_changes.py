"""A game's table changes counted (a seat taken, open seats closed, a vacation, a rating settled), so that every
server hears them and the game's open pages draw their table again.

Additive: a new column with a default. A server of the previous release neither reads nor moves it.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as table:
        table.add_column(sa.Column("table_changes", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("games") as table:
        table.drop_column("table_changes")
