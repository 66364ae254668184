"""Pairing (issue 42): « Trouver un adversaire ». An account waits in ``pairing_queue`` for a game and a time per
move, one place each; a seeker is paired with the nearest rating waiting for the same.

A seeker's transaction writes its own place first (a second request of the same account finds it and pairs
nothing), then marks the nearest free place and its own as matched with each other: on PostgreSQL the partner's
row is locked and skipped by every other seeker, on SQLite the file's single writer makes seekers take turns.
So a waiting account is taken by one seeker at most, and a seeker takes one partner at most: no account is ever
paired twice. The game made for the pair is then written on both places; each goes once its player is told.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from kadesh.store import schema
from kadesh.store.jobs import utc_text

queue = schema.pairing_queue


@dataclass(frozen=True, slots=True)
class Place:
    player_id: str
    ruleset: str
    seconds_per_move: int
    mu: float
    queued_at: str
    matched_with: str | None
    game_id: str | None


class Pairing:
    def __init__(self, engine: Engine, writing: threading.Lock | contextlib.nullcontext) -> None:
        self.engine, self._writing = engine, writing
        self._postgresql = engine.dialect.name == "postgresql"
        insert = postgresql.insert if self._postgresql else sqlite.insert
        self._join = (insert(queue).on_conflict_do_nothing(index_elements=["player_id"])
                      .returning(queue.c.player_id))  # a row when it joined (rowcount is -1 on PostgreSQL here)

    def seek(self, player_id: str, ruleset: str, seconds_per_move: int, mu: float) -> tuple[Place, str | None]:
        """Wait for an opponent, or take the nearest one waiting: the player's place and the partner's id (None
        while nobody fits). An account already waiting keeps its place as it is, and takes nobody."""
        now = utc_text(datetime.now(UTC))
        with self.engine.connect() as conn, self._writing, conn.begin():
            joined = conn.execute(self._join.values(player_id=player_id, ruleset=ruleset,
                                                    seconds_per_move=seconds_per_move, mu=mu, queued_at=now)).scalar()
            if joined is None:
                return self._place(conn, player_id), None
            nearest = (select(queue.c.player_id)
                       .where(queue.c.ruleset == ruleset, queue.c.seconds_per_move == seconds_per_move,
                              queue.c.matched_with.is_(None), queue.c.player_id != player_id)
                       .order_by(func.abs(queue.c.mu - mu), queue.c.queued_at, queue.c.player_id).limit(1))
            if self._postgresql:
                nearest = nearest.with_for_update(skip_locked=True)
            partner = conn.execute(nearest).scalar()
            if partner is not None and conn.execute(
                    update(queue).where(queue.c.player_id == partner, queue.c.matched_with.is_(None))
                    .values(matched_with=player_id)).rowcount == 1:
                conn.execute(update(queue).where(queue.c.player_id == player_id).values(matched_with=partner))
            else:
                partner = None
            return self._place(conn, player_id), partner

    def retry(self, player_id: str) -> str | None:
        """A waiting player looks again, for someone who began to wait before them (two seekers at the same
        instant each miss the other, still unwritten; the later one takes the earlier when it looks again, and
        never the other way round, so that two looks never wait on each other): the partner's id, or None."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            mine = select(queue).where(queue.c.player_id == player_id, queue.c.matched_with.is_(None))
            me = conn.execute(mine.with_for_update() if self._postgresql else mine).first()
            if me is None:
                return None
            earlier = (queue.c.queued_at < me.queued_at) | ((queue.c.queued_at == me.queued_at)
                                                             & (queue.c.player_id < player_id))
            nearest = (select(queue.c.player_id)
                       .where(queue.c.ruleset == me.ruleset, queue.c.seconds_per_move == me.seconds_per_move,
                              queue.c.matched_with.is_(None), queue.c.player_id != player_id, earlier)
                       .order_by(func.abs(queue.c.mu - me.mu), queue.c.queued_at, queue.c.player_id).limit(1))
            if self._postgresql:
                nearest = nearest.with_for_update(skip_locked=True)
            partner = conn.execute(nearest).scalar()
            if partner is None or conn.execute(
                    update(queue).where(queue.c.player_id == partner, queue.c.matched_with.is_(None))
                    .values(matched_with=player_id)).rowcount != 1:
                return None
            conn.execute(update(queue).where(queue.c.player_id == player_id).values(matched_with=partner))
            return partner

    def paired(self, player_id: str, partner: str, game_id: str) -> None:
        """The pair's game is made: written on the partner's place, and the seeker's own place goes."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(update(queue).where(queue.c.player_id == partner, queue.c.matched_with == player_id)
                         .values(game_id=game_id))
            conn.execute(delete(queue).where(queue.c.player_id == player_id))

    def place(self, player_id: str) -> Place | None:
        with self.engine.connect() as conn:
            return self._place(conn, player_id)

    def waiting(self, but: str | None = None) -> list[tuple[str, int, int]]:
        """Where accounts wait, not paired yet: (ruleset, seconds per move, how many), the asker ``but`` left out."""
        query = (select(queue.c.ruleset, queue.c.seconds_per_move, func.count())
                 .where(queue.c.matched_with.is_(None))
                 .group_by(queue.c.ruleset, queue.c.seconds_per_move)
                 .order_by(queue.c.ruleset, queue.c.seconds_per_move))
        if but is not None:
            query = query.where(queue.c.player_id != but)
        with self.engine.connect() as conn:
            return [(ruleset, seconds, count) for ruleset, seconds, count in conn.execute(query).all()]

    def told(self, player_id: str) -> None:
        """The player has learnt their game: their place goes."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(delete(queue).where(queue.c.player_id == player_id, queue.c.game_id.is_not(None)))

    def leave(self, player_id: str) -> bool:
        """Stop waiting; False if the player was paired meanwhile (their place then tells the game)."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            return conn.execute(delete(queue).where(queue.c.player_id == player_id,
                                                    queue.c.matched_with.is_(None))).rowcount == 1

    @staticmethod
    def _place(conn, player_id: str) -> Place | None:  # noqa: ANN001 - a SQLAlchemy connection
        row = conn.execute(select(queue).where(queue.c.player_id == player_id)).first()
        return Place(row.player_id, row.ruleset, row.seconds_per_move, row.mu, row.queued_at, row.matched_with,
                     row.game_id) if row is not None else None
