"""Maps of the players' own (issue 61): drafts and the published shelf, the reports of published maps, and the map
each game was opened on.

Additive: new tables. A server of the previous release neither reads nor writes them.

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "maps",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("ruleset", sa.String(64), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("description", sa.Text, nullable=False),
        sa.Column("toml", sa.Text, nullable=False),
        sa.Column("author_id", sa.String(32), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("author_deleted", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("revision", sa.Integer, nullable=False, server_default="0"),
        sa.Column("playable", sa.Boolean, nullable=False),
        sa.Column("faults", sa.JSON, nullable=False),
        sa.Column("columns", sa.Integer, nullable=True),
        sa.Column("rows", sa.Integer, nullable=True),
        sa.Column("players", sa.Integer, nullable=True),
        sa.Column("played", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_at", sa.String(32), nullable=False),
        sa.Column("updated_at", sa.String(32), nullable=False),
        sa.Column("published_at", sa.String(32), nullable=True),
    )
    op.create_index("ix_maps_author_id", "maps", ["author_id"])
    op.create_index("ix_maps_shelf", "maps", ["status", "ruleset", "published_at"])
    op.create_table(
        "map_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("map_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
    )
    op.create_index("ix_map_games_map_id", "map_games", ["map_id"])
    op.create_table(
        "map_reports",
        sa.Column("map_id", sa.String(32), sa.ForeignKey("maps.id"), primary_key=True),
        sa.Column("reporter_id", sa.String(32), primary_key=True),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created_at", sa.String(32), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("map_reports")
    op.drop_index("ix_map_games_map_id", table_name="map_games")
    op.drop_table("map_games")
    op.drop_index("ix_maps_shelf", table_name="maps")
    op.drop_index("ix_maps_author_id", table_name="maps")
    op.drop_table("maps")
