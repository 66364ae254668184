"""Bot jobs of games where a person waits are claimed before those of computer-only games (issue 40).

Additive: the new column has a server default (a person waits, the order of the previous release), so servers
of the previous release keep queuing and claiming jobs while the others restart.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("jobs", sa.Column("priority", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("jobs") as jobs:
        jobs.drop_column("priority")
