"""A campaign refereed by Kadesh alone (issue 42): no person holds the game master's seat; each turn is adjudicated
once every kingdom's orders are in (the rules do it), and the computer sends a late kingdom's orders.

Additive: a column with a default. A server of the previous release leaves such a campaign to its game master.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("table_settings") as table:
        table.add_column(sa.Column("referee", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("table_settings") as table:
        table.drop_column("referee")
