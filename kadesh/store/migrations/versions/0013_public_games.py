"""Public games (issue 42): a game opened to others or rated may be watched by anyone (GET /api/watch).

Additive: a column with a default. A server of the previous release makes only private games.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("table_settings") as table:
        table.add_column(sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("table_settings") as table:
        table.drop_column("public")
