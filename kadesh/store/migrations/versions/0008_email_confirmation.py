"""E-mail subscriptions wait for their address's confirmation, and the e-mails sent are counted (issue 40).

Additive: new nullable columns and a new table. The subscriptions already there count as confirmed (they were
made before confirmation existed, and each of their e-mails has carried an unsubscribe link since).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("subscriptions") as subscriptions:
        subscriptions.add_column(sa.Column("confirmed_at", sa.String(32), nullable=True))
        subscriptions.add_column(sa.Column("confirm_key", sa.String(64), nullable=True))
        subscriptions.create_unique_constraint("uq_subscriptions_confirm_key", ["confirm_key"])
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    op.execute(sa.text("UPDATE subscriptions SET confirmed_at = :now").bindparams(now=now))
    op.create_table(
        "emails",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
    )
    op.create_index("ix_emails_address_at", "emails", ["address", "at"])
    op.create_index("ix_emails_at", "emails", ["at"])


def downgrade() -> None:
    op.drop_table("emails")
    with op.batch_alter_table("subscriptions") as subscriptions:
        subscriptions.drop_constraint("uq_subscriptions_confirm_key", type_="unique")
        subscriptions.drop_column("confirm_key")
        subscriptions.drop_column("confirmed_at")
