"""Vacations (issue 42): an account pauses the clocks of its seats a few days a year.

Additive: a new table. A server of the previous release runs every clock without pause.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vacations",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("starts_at", sa.String(32), primary_key=True),
        sa.Column("ends_at", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("vacations")
