"""A game's table changing outside its actions: a seat taken, its open seats closed, a holder's vacation, its
rating settled. Each such write moves the game's ``table_changes`` count on in its own transaction, and on
PostgreSQL tells every server (``NOTIFY``, payload ``"<game id> t<count>"``); a server hears it there, or on SQLite by
reading the count with the versions (``kadesh.server.notifier.PollingNotifier``), and the game's open pages ask
for their table again. The table changes seldom: no page polls for it."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, func, select, update

from kadesh.store import schema

games = schema.games


def table_changed(conn: Connection, game_ids: Iterable[str]) -> None:
    """Within the change's transaction: each game's table count moves on (in the order of their ids, so that two
    writers locking several games' rows never wait on each other)."""
    for game_id in sorted(set(game_ids)):
        count = conn.execute(update(games).where(games.c.id == game_id)
                             .values(table_changes=games.c.table_changes + 1)
                             .returning(games.c.table_changes)).scalar_one()
        if conn.dialect.name == "postgresql":
            conn.execute(select(func.pg_notify(schema.NOTIFY_CHANNEL, f"{game_id} t{count}")))


def running_games_of(conn: Connection, player_id: str) -> list[str]:
    """The games not over in which the account keeps a seat (a vacation moves their clocks)."""
    rows = conn.execute(select(games.c.id, games.c.outcome).join(schema.claims, schema.claims.c.game_id == games.c.id)
                        .where(schema.claims.c.player_id == player_id, schema.claims.c.role == "seat")).all()
    return [row.id for row in rows if row.outcome is None]  # JSON's null is read as None
