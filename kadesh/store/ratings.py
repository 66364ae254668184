"""Players' ratings (issue 42): one per account and ruleset, openskill's Plackett-Luce model.

A rated game that ends queues one job (``RATE``, in the transaction of its last action); a worker then settles
it here, once: the game's row in ``rating_results`` is the proof it was taken into account (a second worker, or
the same job tried again, finds it and changes nothing). Every settlement takes one lock (PostgreSQL's advisory
lock; SQLite's single writer), so the results' order is the order in which ratings moved, and replaying the
results in that order from the games' records gives the same numbers (``recompute``).

A game counts when each of its playing seats is held by an account of its own at the end, no seat is the
computer's, each seat made its first moves (``MOVES_TO_COUNT``: a game resigned or abandoned before is aborted,
as on Lichess), and the same accounts have not had ``SAME_PLAYERS_PER_DAY`` counted games in the last day
(farming with a second account); otherwise it is recorded as not counted, with the reason. The computer's
strength depends on the time a server gives it: a rating earned against it, or by it, would lie. A resignation
or a time-out after the first moves is a loss like any other.

Numbers: a newcomer starts at mu 25, sigma 25/3 (openskill's defaults); a page shows ``60 × mu`` (1500 to start,
as on Lichess), marked provisional while sigma is above ``PROVISIONAL_SIGMA`` (about the first nine games).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Engine, func, select, text
from sqlalchemy.dialects import postgresql, sqlite

from kadesh.core.table import CANCEL, CLAIM_TIMEOUT
from kadesh.store import schema
from kadesh.store.jobs import utc_text
from kadesh.store.table_changes import table_changed

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300
DISPLAY_SCALE = 60  # a rating on a page is 60 × mu: 1500 for a newcomer
PROVISIONAL_SIGMA = 6.5  # above: the rating is marked provisional (« 1500 ? »)
LEADERBOARD_SIZE = 50
HISTORY_POINTS = 200  # a player's chart: the latest changes, at most
RATINGS_LOCK = 0x72617465  # PostgreSQL advisory lock key ("rate"): one settlement at a time
MOVES_TO_COUNT = 1  # a game counts once each playing seat made this many moves of its own
NOT_A_MOVE = frozenset({"resign", CLAIM_TIMEOUT, CANCEL})  # actions that end a game without playing it
SAME_PLAYERS_PER_DAY = 3  # counted games between the same accounts in any 24 hours, whatever the game
DAY = timedelta(days=1)

# Why a rated game was not counted (``rating_results.reason``).
SEATS_NOT_HELD = "seats"  # a playing seat not held by an account of its own at the end
COMPUTER_SEAT = "computer"  # the computer held a seat
TOO_SHORT = "too_short"  # a seat made no move of its own before the game ended
SAME_PLAYERS = "same_players"  # the same accounts' counted games of the day were spent
CANCELLED = "cancelled"  # its creator withdrew it before all its players had come

ratings, results, changes = schema.ratings, schema.rating_results, schema.rating_changes


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def shown(self) -> int:
        return round(DISPLAY_SCALE * self.mu)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA


NEW = Rating()


@dataclass(frozen=True, slots=True)
class Standing:
    player_id: str
    name: str
    rating: Rating


@dataclass(frozen=True, slots=True)
class Change:
    game_id: str
    at: str
    before: Rating
    after: Rating


def ranks_of(outcome: dict, seats: list[str]) -> dict[str, int]:
    """Each seat's place (1 first): the winner first and the others tied second; a draw ties everyone."""
    winner = outcome.get("winner")
    return {seat: 1 if winner in (None, seat) else 2 for seat in seats}


def rate(current: dict[str, Rating], players: dict[str, str], ranks: dict[str, int]) -> dict[str, Rating]:
    """The new ratings of ``players`` (seat: player id) from their ``current`` ones and their seats' ``ranks``."""
    seats = sorted(players)
    teams = [[MODEL.rating(mu=current[players[seat]].mu, sigma=current[players[seat]].sigma)] for seat in seats]
    rated = MODEL.rate(teams, ranks=[ranks[seat] for seat in seats])
    return {players[seat]: Rating(team[0].mu, team[0].sigma, current[players[seat]].games + 1)
            for seat, team in zip(seats, rated, strict=True)}


def counts(players: dict[str, str], seats: list[str]) -> bool:
    """Whether a game's seats count: every playing seat held by an account, each by its own."""
    held = [players.get(seat) for seat in seats]
    return len(seats) > 1 and all(held) and len(set(held)) == len(held)


def moves_made(actions: Iterable[dict], seats: list[str]) -> dict[str, int]:
    """How many moves of its own each seat made in a game's record (a resignation or a claim is none)."""
    made = dict.fromkeys(seats, 0)
    for entry in actions:
        action = entry.get("action")
        kind = action.get("type") if isinstance(action, dict) else None
        if entry.get("seat") in made and kind not in NOT_A_MOVE:
            made[entry["seat"]] += 1
    return made


def refusal(players: dict[str, str], seats: list[str], actions: Iterable[dict], bots: Iterable[str]) -> str | None:
    """Why an ended rated game does not count, from its record and seats alone; None if it may."""
    actions = list(actions)
    if any(isinstance(entry.get("action"), dict) and entry["action"].get("type") == CANCEL for entry in actions):
        return CANCELLED
    if set(bots) & set(seats):
        return COMPUTER_SEAT
    if not counts(players, seats):
        return SEATS_NOT_HELD
    if min(moves_made(actions, seats).values()) < MOVES_TO_COUNT:
        return TOO_SHORT
    return None


class Ratings:
    def __init__(self, engine: Engine, writing: threading.Lock | contextlib.nullcontext) -> None:
        self.engine, self._writing = engine, writing
        insert = postgresql.insert if engine.dialect.name == "postgresql" else sqlite.insert
        self._first = insert(results).on_conflict_do_nothing(index_elements=["game_id"]).returning(results.c.id)

    def settle(self, game_id: str, ruleset: str, players: dict[str, str], seats: list[str],
               ranks: dict[str, int], refused: str | None = None) -> bool | None:
        """Take an ended game into its players' ratings, once; whether it counted (None: it was settled
        before). ``players``: the seats' accounts; ``seats``: the playing seats; ``ranks``: their places;
        ``refused``: why the game's record already says it does not count (``refusal``)."""
        moment = datetime.now(UTC)
        now = utc_text(moment)
        reason = refused or (None if counts(players, seats) else SEATS_NOT_HELD)
        with self.engine.connect() as conn, self._writing, conn.begin():
            if self.engine.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": RATINGS_LOCK})
            # First a write: on SQLite it takes the file's write lock before anything is read.
            result_id = conn.execute(self._first.values(game_id=game_id, ruleset=ruleset, players=players,
                                                        counted=False, reason=reason, at=now)).scalar()
            if result_id is None:
                return None
            if reason is None and self._same_players_today(conn, result_id, players, seats, moment):
                reason = SAME_PLAYERS
            counted = reason is None
            conn.execute(results.update().where(results.c.id == result_id).values(counted=counted, reason=reason))
            if counted:
                current = self._current(conn, ruleset, players.values())
                playing = {seat: players[seat] for seat in seats}
                self._write(conn, result_id, ruleset, current, rate(current, playing, ranks), now)
            table_changed(conn, [game_id])
        return counted

    @staticmethod
    def _same_players_today(conn: Connection, result_id: int, players: dict[str, str], seats: list[str],
                            moment: datetime) -> bool:
        """Whether the same accounts had ``SAME_PLAYERS_PER_DAY`` counted games in the 24 hours before."""
        these = {players[seat] for seat in seats}
        rows = conn.execute(select(results.c.players).where(results.c.counted.is_(True), results.c.id != result_id,
                                                            results.c.at > utc_text(moment - DAY))).scalars()
        return sum(1 for earlier in rows if set(earlier.values()) == these) >= SAME_PLAYERS_PER_DAY

    def _current(self, conn: Connection, ruleset: str, player_ids: Iterable[str]) -> dict[str, Rating]:
        ids = sorted(set(player_ids))
        rows = conn.execute(select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.games)
                            .where(ratings.c.ruleset == ruleset, ratings.c.player_id.in_(ids))).all()
        known = {row.player_id: Rating(row.mu, row.sigma, row.games) for row in rows}
        return {player_id: known.get(player_id, NEW) for player_id in ids}

    def _write(self, conn: Connection, result_id: int, ruleset: str, before: dict[str, Rating],
               after: dict[str, Rating], now: str) -> None:
        for player_id, rating in after.items():
            values = {"mu": rating.mu, "sigma": rating.sigma, "games": rating.games, "updated_at": now}
            if before[player_id].games:
                conn.execute(ratings.update().where(ratings.c.player_id == player_id, ratings.c.ruleset == ruleset)
                             .values(**values))
            else:
                conn.execute(ratings.insert().values(player_id=player_id, ruleset=ruleset, **values))
            conn.execute(changes.insert().values(
                result_id=result_id, player_id=player_id, ruleset=ruleset, mu_before=before[player_id].mu,
                sigma_before=before[player_id].sigma, mu=rating.mu, sigma=rating.sigma, at=now))

    # -- reading ------------------------------------------------------------------------------------------------

    def of(self, player_id: str) -> dict[str, Rating]:
        """A player's rating in each ruleset they were rated in."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings).where(ratings.c.player_id == player_id)).all()
        return {row.ruleset: Rating(row.mu, row.sigma, row.games) for row in rows}

    def leaderboard(self, ruleset: str, limit: int = LEADERBOARD_SIZE) -> list[Standing]:
        """The best ratings of a ruleset, highest first (provisional ones included, and marked)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings.c.player_id, schema.players.c.name, ratings.c.mu, ratings.c.sigma,
                                       ratings.c.games)
                                .join(schema.players, schema.players.c.id == ratings.c.player_id)
                                .where(ratings.c.ruleset == ruleset)
                                .order_by(ratings.c.mu.desc(), schema.players.c.name).limit(limit)).all()
        return [Standing(row.player_id, row.name, Rating(row.mu, row.sigma, row.games)) for row in rows]

    def history(self, player_id: str, ruleset: str, limit: int = HISTORY_POINTS) -> list[Change]:
        """A player's latest rating changes in a ruleset, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(changes, results.c.game_id)
                                .join(results, results.c.id == changes.c.result_id)
                                .where(changes.c.player_id == player_id, changes.c.ruleset == ruleset)
                                .order_by(changes.c.result_id.desc()).limit(limit)).all()
        return [Change(row.game_id, row.at, Rating(row.mu_before, row.sigma_before), Rating(row.mu, row.sigma))
                for row in reversed(rows)]

    def settled(self, game_id: str) -> bool | None:
        """Whether the game counted; None if it was not settled (not rated, or not over yet)."""
        with self.engine.connect() as conn:
            counted = conn.execute(select(results.c.counted).where(results.c.game_id == game_id)).scalar()
        return None if counted is None else bool(counted)

    def reason(self, game_id: str) -> str | None:
        """Why a settled game did not count (``SEATS_NOT_HELD``…); None if it counted or is not settled."""
        with self.engine.connect() as conn:
            return conn.execute(select(results.c.reason).where(results.c.game_id == game_id)).scalar()

    def results(self) -> Iterator[tuple[str, str, dict[str, str], bool]]:
        """Every settled game in the order ratings took them: (game id, ruleset, players, counted)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(results.c.game_id, results.c.ruleset, results.c.players, results.c.counted)
                                .order_by(results.c.id)).all()
        for row in rows:
            yield row.game_id, row.ruleset, dict(row.players), bool(row.counted)

    def stored(self) -> dict[tuple[str, str], Rating]:
        """Every stored rating, by (player id, ruleset)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(ratings)).all()
        return {(row.player_id, row.ruleset): Rating(row.mu, row.sigma, row.games) for row in rows}

    def replace(self, computed: dict[tuple[str, str], Rating]) -> None:
        """Every stored rating replaced by its recomputed value (those of deleted accounts left out)."""
        now = utc_text(datetime.now(UTC))
        with self.engine.connect() as conn, self._writing, conn.begin():
            existing = set(conn.execute(select(schema.players.c.id)).scalars())
            conn.execute(ratings.delete())
            rows = [{"player_id": player, "ruleset": ruleset, "mu": rating.mu, "sigma": rating.sigma,
                     "games": rating.games, "updated_at": now}
                    for (player, ruleset), rating in computed.items() if player in existing]
            if rows:
                conn.execute(ratings.insert(), rows)

    def count(self) -> int:
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(results)).scalar_one()


def differences(computed: dict[tuple[str, str], Rating],
                stored: dict[tuple[str, str], Rating]) -> dict[tuple[str, str], tuple[Rating | None, Rating | None]]:
    """(stored, recomputed) where they differ, by (player id, ruleset). A deleted account's recomputed rating,
    which nothing stores any more, is no difference: its results still count for the others."""
    return {key: (stored.get(key), computed.get(key)) for key in stored
            if stored[key] != computed.get(key)}
