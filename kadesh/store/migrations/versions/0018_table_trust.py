"""Trust at the table: a sign-in link bound to the account that asked to add its address, a taken seat's moment
(its clock starts then), one seat an account in a game enforced by the database, a message's writer by account,
why a rated game did not count, and names keyed by Unicode's confusables.

Additive: new nullable columns and a partial unique index. A server of the previous release ignores the columns;
before the index is made, a second seat that one account held in one game (a race the previous release lost) is
given up, the first claim kept.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from kadesh.store.names import name_key

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

PLAYING = sa.text("role != 'owner'")


def upgrade() -> None:
    with op.batch_alter_table("sign_in_links") as table:
        table.add_column(sa.Column("player_id", sa.String(32), nullable=True))
    with op.batch_alter_table("open_seats") as table:
        table.add_column(sa.Column("taken_at", sa.String(32), nullable=True))
    with op.batch_alter_table("messages") as table:
        table.add_column(sa.Column("author_id", sa.String(32), nullable=True))
    with op.batch_alter_table("rating_results") as table:
        table.add_column(sa.Column("reason", sa.String(16), nullable=True))
    _give_up_second_seats()
    _new_name_keys()
    op.create_index("ux_claims_one_seat", "claims", ["game_id", "player_id"], unique=True,
                    sqlite_where=PLAYING, postgresql_where=PLAYING)


def _give_up_second_seats() -> None:
    claims = sa.table("claims", sa.column("game_id"), sa.column("role"), sa.column("seat"),
                      sa.column("player_id"), sa.column("claimed_at"))
    conn = op.get_bind()
    rows = conn.execute(sa.select(claims.c.game_id, claims.c.role, claims.c.seat, claims.c.player_id)
                        .where(claims.c.role != "owner")
                        .order_by(claims.c.game_id, claims.c.player_id, claims.c.claimed_at, claims.c.seat)).all()
    kept: set[tuple[str, str]] = set()
    for row in rows:
        if (row.game_id, row.player_id) in kept:
            conn.execute(claims.delete().where(claims.c.game_id == row.game_id, claims.c.role == row.role,
                                               claims.c.seat == row.seat))
        kept.add((row.game_id, row.player_id))


def _new_name_keys() -> None:
    """Each player's name key by Unicode's confusables (``kadesh.store.names``); a player whose new key another
    player has already keeps the old one (both keep their names)."""
    players = sa.table("players", sa.column("id"), sa.column("name"), sa.column("name_key"))
    conn = op.get_bind()
    rows = conn.execute(sa.select(players.c.id, players.c.name, players.c.name_key).order_by(players.c.id)).all()
    taken = {row.name_key for row in rows}
    for row in rows:
        key = name_key(row.name)
        if key != row.name_key and key not in taken:
            conn.execute(players.update().where(players.c.id == row.id).values(name_key=key))
            taken.add(key)


def downgrade() -> None:
    op.drop_index("ux_claims_one_seat", "claims")
    with op.batch_alter_table("rating_results") as table:
        table.drop_column("reason")
    with op.batch_alter_table("messages") as table:
        table.drop_column("author_id")
    with op.batch_alter_table("open_seats") as table:
        table.drop_column("taken_at")
    with op.batch_alter_table("sign_in_links") as table:
        table.drop_column("player_id")
