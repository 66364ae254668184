"""Who watches a game, for the workers (issue 40).

A game where the computer holds every seat costs the workers minutes of CPU, and anyone may open one (20 a
minute from one address): played whether or not anyone looks, an anonymous client's games kept the workers
busy long after it had left. So such a game is played only while someone watches it: a server with a page or
WebSocket open on it holds a row here (``open``, ``close``) and renews its rows while they stay open
(``renew``, every ``RENEW_EVERY`` seconds); a row not renewed for ``LEASE`` seconds (its server died) stops
counting. The workers claim a computer-only game's job only while a row of the game is current
(``kadesh.store.jobs``); a game where a person holds a seat is played as ever.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, delete, select
from sqlalchemy.dialects import postgresql, sqlite

from kadesh.store import schema
from kadesh.store.jobs import utc_text

LEASE = 30.0  # seconds a watch lasts unless its server renews it
RENEW_EVERY = 10.0  # seconds between a server's renewals of its watches

watches = schema.watches


def _now() -> datetime:
    return datetime.now(UTC)


class Watches:
    def __init__(self, engine: Engine, writing: threading.Lock | contextlib.nullcontext) -> None:
        self.engine, self._writing = engine, writing
        insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
        statement = insert(watches)
        self._upsert = statement.on_conflict_do_update(index_elements=["game_id", "server"],
                                                       set_={"until": statement.excluded.until})

    def _until(self, now: datetime | None) -> str:
        return utc_text((now or _now()) + timedelta(seconds=LEASE))

    def open(self, game_id: str, server: str, now: datetime | None = None) -> None:
        """``server`` watches the game from now on (a first page or socket opened on it there)."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(self._upsert, {"game_id": game_id, "server": server, "until": self._until(now)})

    def close(self, game_id: str, server: str) -> None:
        """``server`` no longer watches the game (its last page or socket on it has closed)."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(delete(watches).where(watches.c.game_id == game_id, watches.c.server == server))

    def renew(self, server: str, game_ids: Iterable[str], now: datetime | None = None) -> None:
        """``server`` watches exactly ``game_ids``: each for another lease, and no other game."""
        until = self._until(now)
        rows = [{"game_id": game_id, "server": server, "until": until} for game_id in game_ids]
        with self.engine.connect() as conn, self._writing, conn.begin():
            if rows:
                conn.execute(self._upsert, rows)
            conn.execute(delete(watches).where(watches.c.server == server, watches.c.until < until))

    def forget(self, server: str) -> None:
        """``server`` watches nothing any more (it is stopping)."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(delete(watches).where(watches.c.server == server))

    def watched(self, game_id: str, now: datetime | None = None) -> bool:
        with self.engine.connect() as conn:
            return conn.execute(select(watches.c.game_id).where(
                watches.c.game_id == game_id, watches.c.until > utc_text(now or _now()))).first() is not None
