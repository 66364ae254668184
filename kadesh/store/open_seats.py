"""Seats left open when a game was made (issue 42): listed in the lobby, taken once each.

A seat is taken by marking its row with the moment (``taken_at``): of two takers at the same instant, on one
server or several sharing a PostgreSQL database, exactly one marks it (the other marks nothing and is told the
seat is gone). The moment stays: the seat's clock starts then (``kadesh.store.table.seat_deadlines``).
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Connection, Engine, delete, select, update

from kadesh.store import schema
from kadesh.store.jobs import utc_moment, utc_text
from kadesh.store.table_changes import table_changed

ANYONE, ACCOUNTS = "anyone", "accounts"
OPEN_GAMES_LISTED = 50  # the lobby's « Parties ouvertes »: the latest open games, at most
READ_PER_GAME = 16  # rows read per game listed: a game's open seats, and room for finished games' left-overs

open_seats, games = schema.open_seats, schema.games


@dataclass(frozen=True, slots=True)
class OpenSeat:
    game_id: str
    seat: str
    open_to: str
    opened_at: str


@dataclass(frozen=True, slots=True)
class OpenGame:
    game_id: str
    ruleset: str
    options: dict
    seats: list[OpenSeat]


class OpenSeats:
    def __init__(self, engine: Engine, writing: threading.Lock | contextlib.nullcontext) -> None:
        self.engine, self._writing = engine, writing

    def open(self, game_id: str, seats: dict[str, str]) -> None:
        """Leave ``seats`` (seat: ``ANYONE`` or ``ACCOUNTS``) of the game open."""
        now = utc_text(datetime.now(UTC))
        rows = [{"game_id": game_id, "seat": seat, "open_to": open_to, "opened_at": now}
                for seat, open_to in seats.items()]
        if rows:
            with self.engine.connect() as conn, self._writing, conn.begin():
                conn.execute(open_seats.insert(), rows)

    def of_game(self, game_id: str) -> list[OpenSeat]:
        """The game's seats still open."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(open_seats).where(open_seats.c.game_id == game_id,
                                                         open_seats.c.taken_at.is_(None))
                                .order_by(open_seats.c.seat)).all()
        return [OpenSeat(row.game_id, row.seat, row.open_to, row.opened_at) for row in rows]

    def seated(self, game_id: str) -> dict[str, datetime | None]:
        """Each seat of the game that was left open: when it was taken, or None while it is still open."""
        with self.engine.connect() as conn:
            return self.seated_in(conn, game_id)

    @staticmethod
    def seated_in(conn: Connection, game_id: str) -> dict[str, datetime | None]:
        rows = conn.execute(select(open_seats.c.seat, open_seats.c.taken_at)
                            .where(open_seats.c.game_id == game_id)).all()
        return {row.seat: utc_moment(row.taken_at) if row.taken_at else None for row in rows}

    @staticmethod
    def take_in(conn: Connection, game_id: str, seat: str, now: datetime) -> bool:
        """In the caller's transaction: whether it took the seat (it was open, and nobody took it first)."""
        return conn.execute(update(open_seats).where(open_seats.c.game_id == game_id, open_seats.c.seat == seat,
                                                     open_seats.c.taken_at.is_(None))
                            .values(taken_at=utc_text(now))).rowcount == 1

    @staticmethod
    def close_in(conn: Connection, game_id: str) -> int:
        """In the caller's transaction, no seat of the game is open any more (its creator withdrew it, which
        cancels it: ``Store.cancel_open_game``): how many were."""
        closed = conn.execute(delete(open_seats).where(open_seats.c.game_id == game_id,
                                                       open_seats.c.taken_at.is_(None))).rowcount
        if closed:
            table_changed(conn, [game_id])
        return closed

    def games(self, limit: int = OPEN_GAMES_LISTED) -> list[OpenGame]:
        """The games with a seat open and no outcome, the latest opened first."""
        with self.engine.connect() as conn:
            # A game's outcome is JSON: "no outcome yet" is JSON's null, told apart once read.
            rows = conn.execute(select(open_seats, games.c.ruleset, games.c.options, games.c.outcome)
                                .join(games, games.c.id == open_seats.c.game_id)
                                .where(open_seats.c.taken_at.is_(None))
                                .order_by(open_seats.c.opened_at.desc(), open_seats.c.game_id, open_seats.c.seat)
                                .limit(limit * READ_PER_GAME)).all()
        listed: dict[str, OpenGame] = {}
        for row in rows:
            if row.outcome is not None:
                continue
            if row.game_id not in listed:
                if len(listed) == limit:
                    break
                listed[row.game_id] = OpenGame(row.game_id, row.ruleset, row.options, [])
            listed[row.game_id].seats.append(OpenSeat(row.game_id, row.seat, row.open_to, row.opened_at))
        return list(listed.values())
