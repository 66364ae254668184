"""Vacations (issue 42), as webDiplomacy and Advance Wars By Web allow: an account pauses the clocks of the seats
it keeps, ``VACATION_DAYS_PER_YEAR`` days over any 365, in stays of whole days that begin at once and may end
early (only the days taken count). A seat's time per move is lengthened by the part of its holder's vacations
that falls after its turn began and before its (lengthened) deadline."""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, select, update

from kadesh.store import schema
from kadesh.store.errors import StoreError
from kadesh.store.jobs import utc_moment, utc_text
from kadesh.store.table_changes import running_games_of, table_changed

VACATION_DAYS_PER_YEAR = 14  # as many as webDiplomacy's usual allowance of two weeks
YEAR = timedelta(days=365)

vacations, claims = schema.vacations, schema.claims


class NoVacationLeft(StoreError):
    """The stay asked for goes over the days left this year."""

    def __init__(self, days_left: float) -> None:
        super().__init__(f"{days_left:.1f} days of vacation left")
        self.days_left = days_left


class AlreadyAway(StoreError):
    """A vacation is under way already."""


@dataclass(frozen=True, slots=True)
class Stay:
    starts: datetime
    ends: datetime


def lengthened(deadline: datetime, began: datetime, stays: list[Stay]) -> datetime:
    """A deadline pushed back by the time of the stays that fall after ``began`` and before it (which moves)."""
    for stay in sorted(stays, key=lambda s: s.starts):
        if stay.starts < deadline and stay.ends > began:
            deadline += stay.ends - max(stay.starts, began)
    return deadline


class Vacations:
    def __init__(self, engine: Engine, writing: threading.Lock | contextlib.nullcontext) -> None:
        self.engine, self._writing = engine, writing

    def of(self, player_id: str) -> list[Stay]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(vacations.c.starts_at, vacations.c.ends_at)
                                .where(vacations.c.player_id == player_id).order_by(vacations.c.starts_at)).all()
        return [Stay(utc_moment(row.starts_at), utc_moment(row.ends_at)) for row in rows]

    def days_left(self, player_id: str, now: datetime | None = None) -> float:
        """The days not taken over the last 365, the stay under way counted whole: its days are the player's
        until they come back (coming back early gives the rest back)."""
        moment = now or datetime.now(UTC)
        taken = sum(((stay.ends - stay.starts) for stay in self.of(player_id)
                     if moment - YEAR < stay.starts <= moment), timedelta())
        return max(0.0, VACATION_DAYS_PER_YEAR - taken / timedelta(days=1))

    def away_until(self, player_id: str, now: datetime | None = None) -> datetime | None:
        moment = now or datetime.now(UTC)
        return next((stay.ends for stay in self.of(player_id) if stay.starts <= moment < stay.ends), None)

    def leave(self, player_id: str, days: int, now: datetime | None = None) -> Stay:
        """Begin a stay of ``days`` now (NoVacationLeft, AlreadyAway)."""
        moment = now or datetime.now(UTC)
        if self.away_until(player_id, moment) is not None:
            raise AlreadyAway(player_id)
        left = self.days_left(player_id, moment)
        if days > left:
            raise NoVacationLeft(left)
        stay = Stay(moment, moment + timedelta(days=days))
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(vacations.insert().values(player_id=player_id, starts_at=utc_text(stay.starts),
                                                   ends_at=utc_text(stay.ends)))
            table_changed(conn, running_games_of(conn, player_id))
        return stay

    def come_back(self, player_id: str, now: datetime | None = None) -> bool:
        """End the stay under way now (only the time taken counts); whether there was one."""
        moment = now or datetime.now(UTC)
        with self.engine.connect() as conn, self._writing, conn.begin():
            ended = conn.execute(update(vacations).where(
                vacations.c.player_id == player_id, vacations.c.starts_at <= utc_text(moment),
                vacations.c.ends_at > utc_text(moment)).values(ends_at=utc_text(moment))).rowcount > 0
            if ended:
                table_changed(conn, running_games_of(conn, player_id))
            return ended

    def of_seats(self, game_id: str) -> dict[str, list[Stay]]:
        """The stays of the accounts keeping the game's seats, by seat (seats kept by nobody: none)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(claims.c.seat, vacations.c.starts_at, vacations.c.ends_at)
                                .join(vacations, vacations.c.player_id == claims.c.player_id)
                                .where(claims.c.game_id == game_id, claims.c.role == "seat")).all()
        stays: dict[str, list[Stay]] = {}
        for row in rows:
            stays.setdefault(row.seat, []).append(Stay(utc_moment(row.starts_at), utc_moment(row.ends_at)))
        return stays
