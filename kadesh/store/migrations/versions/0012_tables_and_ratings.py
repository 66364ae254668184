"""The table around a game (issue 42): its time per move, whether it is rated, and the players' ratings.

Additive: new tables. A server of the previous release plays every game without a clock and rates nothing.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_settings",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seconds_per_move", sa.Integer, nullable=True),
        sa.Column("on_timeout", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("player_id", sa.String(32), sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("ruleset", sa.String(64), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.String(32), nullable=False),
    )
    op.create_index("ix_ratings_ruleset_mu", "ratings", ["ruleset", "mu"])
    op.create_table(
        "rating_results",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False, unique=True),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("counted", sa.Boolean, nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("result_id", sa.Integer, sa.ForeignKey("rating_results.id"), primary_key=True),
        sa.Column("player_id", sa.String(32), primary_key=True),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("at", sa.String(32), nullable=False),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player_id", "ruleset"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("rating_results")
    op.drop_index("ix_ratings_ruleset_mu", "ratings")
    op.drop_table("ratings")
    op.drop_table("table_settings")
