"""The event-sourced game store.

A game is its creation record (ruleset, version, options, secret seed and its public
commitment) plus an append-only list of actions, each with the events it produced.
The state is never stored: it is rebuilt by replaying the actions and kept in a small
in-process LRU cache, which is checked against the database's version on every use
and reloaded whenever it is behind (another process may have written).

Two actions racing for the same version: the conditional ``UPDATE games ... WHERE
version = :expected`` and the unique (game_id, seq) constraint let exactly one land.
"""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    ARRAY,
    JSON,
    Connection,
    Engine,
    Integer,
    Select,
    String,
    any_,
    bindparam,
    func,
    literal_column,
    select,
    text,
    true,
    union_all,
    update,
)
from sqlalchemy.exc import IntegrityError

from kadesh.core import Event, Game, get_ruleset, new_game
from kadesh.core.dice import dice_from_record
from kadesh.core.errors import GAME_OVER, NOT_LATE, RuleError, bad_action
from kadesh.core.table import CANCEL, CLAIM_TIMEOUT
from kadesh.store import schema
from kadesh.store.accounts import Accounts, SeatClaimed, held_in, utc_of
from kadesh.store.db import make_engine, migrate, normalize_url
from kadesh.store.errors import (
    BadToken,
    GameNotFound,
    GameNotOver,
    NotASeat,
    NotHeld,
    SeatNotOpen,
    StaleVersion,
    StoreError,
    TokenRevoked,
    WrongGame,
)
from kadesh.store.jobs import BOT, COMPUTER_ONLY, PERSON_WAITS, RATE, JobQueue, bot_priority, utc_text
from kadesh.store.maps import Maps
from kadesh.store.messages import Messages, Shape
from kadesh.store.open_seats import OpenSeats
from kadesh.store.pairing import Pairing
from kadesh.store.prepared import Prepared, run_together
from kadesh.store.ratings import NEW, Rating, Ratings, ranks_of, rate, refusal
from kadesh.store.subscriptions import Subscriptions
from kadesh.store.table import COMPUTER, NO_TABLE, Tables, TableSettings, late_seats, seat_deadlines
from kadesh.store.table_changes import table_changed
from kadesh.store.tokens import LORD, OWNER, SEAT, SPECTATOR, Access, new_token, token_hash
from kadesh.store.vacations import Stay, Vacations
from kadesh.store.watches import Watches
from kadesh.store.writer import GroupWriter, Play

log = logging.getLogger(__name__)

EXPORT_FORMAT = "kadesh-export/1"
MAX_ACTION_DEPTH = 32
# Threads writing the players' actions in groups (kadesh.store.writer), by database: SQLite takes one writer
# at a time; on PostgreSQL, a second one plays its group while the first waits for its sync to disk.
WRITERS = {"sqlite": 1, "postgresql": 2}
NOTIFY_CHANNEL = schema.NOTIFY_CHANNEL


# The action path's statements, compiled once per store for its database and run on the driver's cursor.
_VERSION = select(schema.games.c.version).where(schema.games.c.id == bindparam("game_id"))
# The game's version and what the token opens, in one read (no token row: unknown token).
_ENTRY = (select(schema.games.c.version, schema.tokens.c.game_id.label("token_game"), schema.tokens.c.role,
                 schema.tokens.c.seat)
          .select_from(schema.games.outerjoin(schema.tokens, schema.tokens.c.hash == bindparam("hash")))
          .where(schema.games.c.id == bindparam("game_id")))
_REVOKED = select(schema.revoked_tokens.c.hash).where(schema.revoked_tokens.c.hash == bindparam("hash"),
                                                      schema.revoked_tokens.c.game_id == bindparam("game_id"))
_BUMP = (update(schema.games)
         .where(schema.games.c.id == bindparam("game_id"), schema.games.c.version == bindparam("current"))
         .values(version=bindparam("next"), outcome=bindparam("new_outcome", type_=JSON),
                 due_at=bindparam("new_due", type_=String)))
_MOVE_DUE = (update(schema.games)
             .where(schema.games.c.id == bindparam("game_id"), schema.games.c.version == bindparam("current"))
             .values(due_at=bindparam("due", type_=String)))
_TOUCH = update(schema.games).where(schema.games.c.id == bindparam("game_id")).values(version=schema.games.c.version)
_RECORD = schema.actions.insert()
# Who watches the game's turns, in one read: its computer seats (subscription "") and the seats' subscriptions.
_WATCHERS = union_all(
    select(schema.seat_bots.c.seat, literal_column("''", String).label("subscription"))
    .where(schema.seat_bots.c.game_id == bindparam("game_id")),
    select(schema.subscriptions.c.seat, schema.subscriptions.c.id)
    .where(schema.subscriptions.c.game_id == bindparam("game_id"), schema.subscriptions.c.confirmed_at.is_not(None)))
# PostgreSQL: a writer's group's entries in one read (``_ENTRY``'s for each action, and its lock): the games' rows
# are locked in the order of their ids, as the writers take them.
_ASKED = (func.unnest(bindparam("game_ids", type_=ARRAY(String)), bindparam("tokens", type_=ARRAY(String)))
          .table_valued("game_id", "hash").render_derived(name="asked"))
_GROUP_ENTRIES = (select(_ASKED.c.game_id, _ASKED.c.hash, schema.games.c.version,
                         schema.tokens.c.game_id.label("token_game"), schema.tokens.c.role, schema.tokens.c.seat)
                  .select_from(_ASKED.join(schema.games, schema.games.c.id == _ASKED.c.game_id)
                               .outerjoin(schema.tokens, schema.tokens.c.hash == _ASKED.c.hash))
                  .order_by(schema.games.c.id).with_for_update(of=schema.games))
# PostgreSQL: the watchers (``_WATCHERS``) of a writer's group's games, read just after its entries locked them.
_GROUP_WATCHERS = union_all(
    select(schema.seat_bots.c.game_id, schema.seat_bots.c.seat, literal_column("''", String).label("subscription"))
    .where(schema.seat_bots.c.game_id == any_(bindparam("game_ids", type_=ARRAY(String)))),
    select(schema.subscriptions.c.game_id, schema.subscriptions.c.seat, schema.subscriptions.c.id)
    .where(schema.subscriptions.c.game_id == any_(bindparam("game_ids", type_=ARRAY(String))),
           schema.subscriptions.c.confirmed_at.is_not(None)))
_ANNOUNCE = func.pg_notify(bindparam("channel", type_=String), bindparam("payload", type_=String))


def _bump_record_notify_watchers() -> Select:
    """PostgreSQL: the version's bump, the action's row, the announcement and the game's watchers in one
    statement (one round trip and one driver call instead of four). Nothing is recorded nor announced unless
    the bump took the row. Rows of (actions written: 1 or 0, watcher's seat, subscription), a row with no
    seat if nobody watches."""
    bumped = _BUMP.returning(schema.games.c.id).cte("bumped")
    recorded = (schema.actions.insert()
                .from_select(["game_id", "seq", "seat", "action", "events", "created_at"],
                             select(bumped.c.id, bindparam("seq", type_=Integer), bindparam("seat", type_=String),
                                    bindparam("action", type_=JSON), bindparam("events", type_=JSON),
                                    bindparam("created_at", type_=schema.actions.c.created_at.type)))
                .returning(schema.actions.c.game_id).cte("recorded"))
    announced = select(_ANNOUNCE.label("sent")).select_from(recorded).cte("announced")
    written = select(func.count().label("written")).select_from(announced).cte("written")
    watchers = _WATCHERS.subquery("watchers")
    return (select(written.c.written, watchers.c.seat, watchers.c.subscription)
            .select_from(written.outerjoin(watchers, true())))


# PostgreSQL: a writer's group's moves written in one statement, after its entries' read locked their games: each
# game's version bumped from where the group found it to where its last move leaves it, every move's row, and the
# announcement of each. A game whose version was not the one found is left as it was, its moves unwritten. Rows
# of (game, written, its version before the statement): once COMMIT went with it, nothing more is read.
_GROUP_WRITE = text("""
WITH moved AS (
    SELECT * FROM json_to_recordset(CAST(:games AS JSON))
        AS moved (id VARCHAR, current INTEGER, next INTEGER, outcome JSON, due VARCHAR)
), bumped AS (
    UPDATE games SET version = moved.next, outcome = COALESCE(moved.outcome, CAST('null' AS JSON)), due_at = moved.due
    FROM moved WHERE games.id = moved.id AND games.version = moved.current
    RETURNING games.id
), recorded AS (
    INSERT INTO actions (game_id, seq, seat, action, events, created_at)
    SELECT played.game_id, played.seq, played.seat, played.action, played.events, played.created_at
    FROM json_to_recordset(CAST(:moves AS JSON))
        AS played (game_id VARCHAR, seq INTEGER, seat VARCHAR, action JSON, events JSON, created_at TIMESTAMPTZ)
    JOIN bumped ON bumped.id = played.game_id
    RETURNING actions.game_id, actions.seq
), announced AS (
    SELECT count(pg_notify(:channel, recorded.game_id || ' ' || recorded.seq)) AS sent
    FROM (SELECT * FROM recorded ORDER BY recorded.game_id, recorded.seq) AS recorded
)
SELECT moved.id, bumped.id IS NOT NULL, games.version
FROM moved JOIN games ON games.id = moved.id LEFT JOIN bumped ON bumped.id = moved.id CROSS JOIN announced
""")

class _Entries:
    """What a writer's group opens, read at once (``_GROUP_ENTRIES``): by (game, token hash), the token's game,
    role and seat; each game's version, moved on by each action of the group as it is played; each game's
    watchers (``_GROUP_WATCHERS``), read once the games were locked."""

    __slots__ = ("hashes", "opened", "versions", "watchers")

    def __init__(self, hashes: dict[str, str], rows: list[Any], watchers: list[Any]) -> None:
        self.hashes = hashes  # by token
        self.opened = {(game_id, hashed): (token_game, role, seat)
                       for game_id, hashed, _, token_game, role, seat in rows}
        self.versions = {game_id: version for game_id, _, version, *_ in rows}
        self.watchers: dict[str, list[tuple[str, str]]] = {}
        for game_id, seat, subscription in watchers:
            self.watchers.setdefault(game_id, []).append((seat, subscription))


@dataclass(frozen=True, slots=True)
class CreatedGame:
    """A new game and its secret tokens: shown once, never stored in clear."""

    id: str
    ruleset: str
    commitment: str
    seat_tokens: dict[str, str]
    spectator_token: str
    owner_token: str
    lord_tokens: dict[str, str] = field(default_factory=dict)  # a kingdom's Seigneur's, where councils are kept


@dataclass(frozen=True, slots=True)
class ActResult:
    version: int
    events: list[Event] = field(default_factory=list)
    after: Any = None  # what the ``after`` callback returned, computed before anyone else could act
    has_bots: bool = False  # whether the computer holds a seat of the game, read as the action was written
    noticed: bool = False  # whether the action queued notices for the seats' subscriptions
    due: bool = False  # whether the game now has a deadline (a worker will act when it passes)
    rated: bool = False  # whether the action ended a rated game (a worker updates the ratings)


@dataclass(slots=True)
class _Move:
    """An action played on the kept game and not yet written: what its write, its jobs and its answer need."""

    game_id: str
    current: int  # the version it was played at: it brings the game to the next
    seat: str
    action: Any
    events: list[Event]
    outcome: dict[str, Any] | None
    due: str | None  # when the game next acts by itself (``due_at``)
    next_seats: frozenset[str]  # the seats to act after it
    seats: list[str]  # the game's playing seats
    notices: list[tuple[str, str]]  # (kind, seat), ``notices_due``
    moment: datetime
    rate: bool = False  # it ended a rated game
    pause: float = 0.0  # a computer-only game's bot waits this long before a new round

    def row(self) -> dict[str, Any]:
        """Its row of ``actions`` but for the game and the version."""
        return {"seat": self.seat, "action": self.action, "events": [event.to_dict() for event in self.events],
                "created_at": self.moment}

    def result(self, after: Any, has_bots: bool, noticed: bool) -> ActResult:
        return ActResult(self.current + 1, self.events, after, has_bots=has_bots, due=self.due is not None,
                         noticed=noticed, rated=self.rate)


def json_value(value: Any, what: str = "action") -> Any:
    """``value`` as plain JSON (finite numbers, bounded nesting), or a RuleError ``bad_action``."""
    if _depth(value) > MAX_ACTION_DEPTH:
        raise bad_action(f"Objet JSON trop imbriqué ({what}).", f"JSON nested too deeply ({what}).")
    try:
        # Encoded as UTF-8: a lone surrogate ("\ud800") is refused here, not stored to break every later read.
        return json.loads(json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8"))
    except (TypeError, ValueError) as error:
        raise bad_action(f"JSON invalide ({what}).", f"Invalid JSON ({what}).") from error


def _depth(value: Any) -> int:
    """Nesting depth of a JSON value, without recursion: one level of it at a time."""
    deepest, level = 0, [value]
    while level:
        deepest += 1
        if deepest > MAX_ACTION_DEPTH:
            return deepest
        below: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                below.extend(item.values())
            elif isinstance(item, list | tuple):
                below.extend(item)
        level = below
    return deepest


def _steps_after(conn: Connection, game_id: str, version: int) -> list[Any]:
    """The game's actions written after ``version``, in order: seat, action, when."""
    return conn.execute(select(schema.actions.c.seat, schema.actions.c.action, schema.actions.c.created_at)
                        .where(schema.actions.c.game_id == game_id, schema.actions.c.seq > version)
                        .order_by(schema.actions.c.seq)).all()


def _replay(game: Game, steps: list[Any]) -> None:
    for step in steps:
        game.replay(step.seat, step.action)
        game.written_at.append(_aware(step.created_at))


class GameCache:
    """An LRU of rebuilt games keyed by id; an entry is only used at the database's version."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int) -> Game | None:
        with self._lock:
            game = self._games.get(game_id)
            if game is None or game.version != version:
                return None
            self._games.move_to_end(game_id)
            return game

    def behind(self, game_id: str, version: int) -> Game | None:
        """The game kept at a version before ``version``, to be brought up to it; None if none is."""
        with self._lock:
            game = self._games.get(game_id)
            return game if game is not None and game.version < version else None

    def put(self, game_id: str, game: Game) -> None:
        with self._lock:
            self._games[game_id] = game
            self._games.move_to_end(game_id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)

    def clear(self) -> None:
        with self._lock:
            self._games.clear()


class Store:
    """Games in a SQL database (SQLite file by default, or PostgreSQL), migrated on opening."""

    def __init__(self, url: str | None = None, cache_size: int = 256, engine: Engine | None = None,
                 catch_up: bool = False) -> None:
        """``catch_up``: a kept game behind the database is brought up to it in place (``_caught_up``), for a store
        whose games nobody reads meanwhile: a check's child, one check at a time. A server's are read without
        the game's lock while it writes (``set_bot``, ``take_seat``): changed only by its writes, as before."""
        self.url = normalize_url(url)
        self.engine = engine or make_engine(self.url)
        self.announces = self.engine.dialect.name == "postgresql"
        # Told (game id, version) of each action written through ``play_soon``, from the writer's thread, the
        # moment it is committed and before its answer: the server's sockets hear it while the answer is made.
        self.on_commit: Callable[[str, int], None] | None = None
        migrate(self.engine)
        dialect = self.engine.dialect
        self._version, self._entry_row, self._revoked = (Prepared(_VERSION, dialect), Prepared(_ENTRY, dialect),
                                                         Prepared(_REVOKED, dialect))
        # Before an action, PostgreSQL's reads lock the game's row until the action commits (SQLite's writer
        # has the file to itself): whatever the action's write then reads is as of after that lock.
        self._version_to_write, self._entry_to_write = (
            (Prepared(_VERSION.with_for_update(), dialect), Prepared(_ENTRY.with_for_update(of=schema.games),
                                                                     dialect))
            if self.announces else (self._version, self._entry_row))
        self._bump, self._touch, self._record, self._watchers = (
            Prepared(_BUMP, dialect), Prepared(_TOUCH, dialect), Prepared(_RECORD, dialect),
            Prepared(_WATCHERS, dialect))
        self.jobs = JobQueue(self.engine)
        self.subscriptions = Subscriptions(self.engine, self.jobs)
        self._bump_record_notify_watchers = (Prepared(_bump_record_notify_watchers(), dialect) if self.announces
                                             else None)
        self._group_entries = Prepared(_GROUP_ENTRIES, dialect) if self.announces else None
        self._group_write = Prepared(_GROUP_WRITE, dialect) if self.announces else None
        self._group_watchers = Prepared(_GROUP_WATCHERS, dialect) if self.announces else None
        self.cache = GameCache(cache_size)
        self.catch_up = catch_up
        self._stamps: dict[int, Prepared] = {}  # ``stamps``' reads, by the number of games
        # A game's lock lives while someone holds or waits for it: a busy server does not keep one per game ever seen.
        self._locks: weakref.WeakValueDictionary[str, threading.Lock] = weakref.WeakValueDictionary()
        self._locks_guard = threading.Lock()
        # SQLite lets one writer at a time into a file: this process's writers take turns here rather than
        # in SQLite's busy handler, which sleeps and retries (up to 100 ms a time). A writer has its
        # connection before it waits for its turn: whoever holds the turn never waits for the pool.
        sqlite = self.engine.dialect.name == "sqlite"
        self._writing: threading.Lock | contextlib.nullcontext[None] = (
            threading.Lock() if sqlite else contextlib.nullcontext())
        self.watches = Watches(self.engine, self._writing)
        self.accounts = Accounts(self.engine, self._writing)
        self.open_seats = OpenSeats(self.engine, self._writing)
        self.tables = Tables(self.engine)
        self.pairing = Pairing(self.engine, self._writing)
        self.vacations = Vacations(self.engine, self._writing)
        self.ratings = Ratings(self.engine, self._writing)
        self.messages = Messages(self.engine, self._writing, self.jobs)
        self.maps = Maps(self.engine, self._writing)
        # Players' actions: written in groups by a few threads (kadesh.store.writer).
        self._writer = GroupWriter(self._write_group, self.engine.connect, WRITERS.get(self.engine.dialect.name, 1))

    def close(self) -> None:
        self._writer.close()
        self.engine.dispose()

    # -- creating ---------------------------------------------------------------
    def create_game(self, ruleset: str, options: dict[str, Any] | None = None, seed: str | None = None,
                    table: TableSettings = NO_TABLE, lords: tuple[str, ...] = ()) -> CreatedGame:
        """A new game with a fresh 256-bit seed (RuleError ``bad_options``, UnknownRuleset if refused), and its
        ``table``: a time per move, rated or not; ``lords``: the seats that get a Seigneur's link beside their own."""
        seed = seed if seed is not None else secrets.token_hex(32)
        game = new_game(ruleset, seed=seed, options=json_value(options or {}, "options"))
        now = _now()
        game.written_at.append(now)
        game_id = secrets.token_hex(8)
        seat_tokens = {seat: new_token() for seat in game.seats}
        spectator, owner = new_token(), new_token()
        rows = [{"hash": token_hash(t), "game_id": game_id, "role": SEAT, "seat": s} for s, t in seat_tokens.items()]
        rows.append({"hash": token_hash(spectator), "game_id": game_id, "role": SPECTATOR, "seat": None})
        rows.append({"hash": token_hash(owner), "game_id": game_id, "role": OWNER, "seat": None})
        lord_tokens = {seat: new_token() for seat in lords if seat in seat_tokens}
        rows += [{"hash": token_hash(t), "game_id": game_id, "role": LORD, "seat": s} for s, t in lord_tokens.items()]
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(schema.games.insert().values(
                id=game_id, ruleset=game.ruleset.name, ruleset_version=game.ruleset.version,
                options=game.options, seed=game.seed, commitment=game.commitment,
                dice=game.dice.describe(), version=0, outcome=None, created_at=now, due_at=due_at(game, table)))
            conn.execute(schema.tokens.insert(), rows)
            self.tables.write(conn, game_id, table)
        self.cache.put(game_id, game)
        return CreatedGame(game_id, game.ruleset.name, game.commitment, seat_tokens, spectator, owner, lord_tokens)

    # -- reading ----------------------------------------------------------------
    def shape(self, game_id: str) -> Shape:
        """What the game's message channels depend on (kadesh.store.messages): its seats and its table."""
        with self.game(game_id) as game:
            seats, masters = list(game.seats), game.ruleset.game_master_seats
        return Shape.of(seats, masters, self.tables.of(game_id))

    def exists(self, game_id: str) -> bool:
        return self.current_version(game_id) is not None

    def versions(self, game_ids: list[str]) -> dict[str, int]:
        """The current version of each of these games (those that exist)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.games.c.id, schema.games.c.version)
                                .where(schema.games.c.id.in_(game_ids))).all()
        return {row.id: row.version for row in rows}

    def stamps(self, game_ids: list[str]) -> dict[str, tuple[int, int, int]]:
        """The current version, last message number and table changes of each of these games (those that exist).
        Asked ten times a second while a socket is open (``PollingNotifier``): prepared, as the action path's
        reads."""
        if not game_ids:
            return {}
        with self.engine.connect() as conn:
            rows = self._stamps_of(len(game_ids)).run(conn, **{f"id{n}": gid for n, gid in enumerate(game_ids)})
            return {game_id: tuple(stamp) for game_id, *stamp in rows.fetchall()}

    def table_changes(self, game_id: str) -> int:
        """How often the game's table changed outside its actions (``kadesh.store.table_changes``); 0 if unknown."""
        with self.engine.connect() as conn:
            count = conn.execute(select(schema.games.c.table_changes).where(schema.games.c.id == game_id)).scalar()
        return count or 0

    def _stamps_of(self, count: int) -> Prepared:
        """``stamps``' read of ``count`` games, prepared once for each count."""
        if count not in self._stamps:
            games = schema.games
            self._stamps[count] = Prepared(select(games.c.id, games.c.version, games.c.messages, games.c.table_changes)
                                           .where(games.c.id.in_([bindparam(f"id{n}") for n in range(count)])),
                                           self.engine.dialect)
        return self._stamps[count]

    def has_background_work(self) -> bool:
        """Whether workers have anything to do: a job queued, a deadline set, or a game with a computer seat."""
        with self.engine.connect() as conn:
            for query in (select(schema.jobs.c.id).limit(1),
                          select(schema.games.c.id).where(schema.games.c.due_at.is_not(None)).limit(1)):
                if conn.execute(query).first() is not None:
                    return True
        return bool(self.games_with_bots())

    def created_at(self, game_id: str) -> str | None:
        """When the game was made, UTC text; None if there is no such game."""
        with self.engine.connect() as conn:
            moment = conn.execute(select(schema.games.c.created_at).where(schema.games.c.id == game_id)).scalar()
        return None if moment is None else utc_of(moment)

    def current_version(self, game_id: str) -> int | None:
        if _impossible_id(game_id):
            return None
        with self.engine.connect() as conn:
            row = self._version.run(conn, game_id=game_id).fetchone()
        return row[0] if row is not None else None

    def is_over(self, game_id: str) -> bool:
        """Whether the game has ended: its address alone then opens its public replay (issue 44)."""
        if _impossible_id(game_id):
            return False
        with self.engine.connect() as conn:
            outcome = conn.execute(select(schema.games.c.outcome).where(schema.games.c.id == game_id)).scalar()
        return outcome is not None

    def access(self, game_id: str, token: str | None, player_id: str | None = None) -> Access:
        """What ``token`` opens in ``game_id``: GameNotFound, BadToken (none or unknown), TokenRevoked
        (replaced by a reissue), WrongGame. Without a token, what the account ``player_id`` holds there
        (its seat, else the game as its owner): NotHeld if nothing."""
        with self.engine.connect() as conn:
            return self._entry(conn, game_id, token, player_id=player_id)[0]

    def _entry(self, conn: Connection, game_id: str, token: str | None, to_write: bool = False,
               player_id: str | None = None, known: _Entries | None = None) -> tuple[Access, int]:
        """What ``token`` (or, without one, the account ``player_id``) opens in ``game_id`` and the game's
        version, in one read (errors as ``access``); ``to_write``: before an action, the game's row locked on
        PostgreSQL; ``known``: the writer's group's entries, read already."""
        if _impossible_id(game_id):
            raise GameNotFound(game_id)
        if not token and player_id is not None:
            return self._held(conn, game_id, player_id, to_write)
        if known is not None:
            hashed = known.hashes.get(token) if token else None
            opened = known.opened.get((game_id, hashed))
            row = (known.versions[game_id], *opened) if opened is not None else None
        else:
            hashed = token_hash(token) if token else None
            row = (self._entry_to_write if to_write else self._entry_row).run(conn, game_id=game_id,
                                                                             hash=hashed).fetchone()
        if row is None:
            raise GameNotFound(game_id)
        version, token_game, role, seat = row
        if not token:
            raise BadToken("no token")
        if role is None:
            if self._revoked.run(conn, hash=hashed, game_id=game_id).fetchone() is not None:
                raise TokenRevoked("token replaced by a reissue")
            raise BadToken("unknown token")
        if token_game != game_id:
            raise WrongGame("token for another game")
        return Access(game_id, role, seat), version

    def _held(self, conn: Connection, game_id: str, player_id: str, to_write: bool) -> tuple[Access, int]:
        row = (self._version_to_write if to_write else self._version).run(conn, game_id=game_id).fetchone()
        if row is None:
            raise GameNotFound(game_id)
        held = held_in(conn, game_id, player_id)
        if held is None:
            raise NotHeld("this account holds nothing in this game")
        return Access(game_id, held.role, held.seat or None), row[0]

    def reissue_token(self, game_id: str, role: str, seat: str | None = None) -> str:
        """A new token for ``seat`` (role ``seat``), the spectators or the owner; the one it replaces is revoked.

        Tokens never expire by time (a game may last months): this is how a leaked link is cut off.
        The caller checks that the seat exists; GameNotFound if the game does not."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            return self._reissue(conn, game_id, role, seat)

    def _reissue(self, conn: Connection, game_id: str, role: str, seat: str | None) -> str:
        token = new_token()
        which = [schema.tokens.c.game_id == game_id, schema.tokens.c.role == role,
                 schema.tokens.c.seat.is_(None) if seat is None else schema.tokens.c.seat == seat]
        # The first statement writes: it takes SQLite's write lock and PostgreSQL's lock on the game's
        # row, so two reissues of one game follow each other (the second revokes the first's new token).
        bumped = self._touch.run(conn, game_id=game_id).rowcount
        if bumped != 1:
            raise GameNotFound(game_id)
        old = conn.execute(select(schema.tokens.c.hash).where(*which)).scalars().all()
        if old:
            conn.execute(schema.tokens.delete().where(schema.tokens.c.hash.in_(old)))
            conn.execute(schema.revoked_tokens.insert(), [
                {"hash": h, "game_id": game_id, "role": role, "seat": seat, "revoked_at": _now()} for h in old])
        conn.execute(schema.tokens.insert().values(hash=token_hash(token), game_id=game_id, role=role, seat=seat))
        if seat is not None:  # they hold the old link, which their notices would carry
            conn.execute(schema.subscriptions.delete().where(schema.subscriptions.c.game_id == game_id,
                                                             schema.subscriptions.c.seat == seat))
        if self.announces:  # other servers' open sockets look at their token again
            conn.execute(select(func.pg_notify(NOTIFY_CHANNEL, f"{game_id} a")))
        return token

    def take_seat(self, game_id: str, seat: str, player_id: str | None = None) -> str:
        """Take a seat left open, in one transaction: the seat is marked taken (its clock starts now), the
        account ``player_id`` (if any) keeps it, and its link is replaced (the new token is answered). Nothing
        of it is done if any part is refused: SeatNotOpen if it was taken first, SeatClaimed if the account
        holds another seat of the game (whatever the races)."""
        now = _now()
        try:
            with self.engine.connect() as conn, self._writing, conn.begin():
                self._touch.run(conn, game_id=game_id)  # the game's row first: takes of one game follow each other
                if not OpenSeats.take_in(conn, game_id, seat, now):
                    raise SeatNotOpen(f"the seat {seat} is not open")
                if player_id is not None:
                    Accounts.claim_in(conn, game_id, SEAT, seat, player_id, now)
                token = self._reissue(conn, game_id, SEAT, seat)
                self._look_again_at_clock(conn, game_id)
                table_changed(conn, [game_id])
        except IntegrityError as error:
            raise SeatClaimed("this account holds another seat of this game") from error
        return token

    def look_again_at_clock(self, game_id: str) -> None:
        """The game's next look by a worker, now that its seats' clocks have changed (seats left open: none runs)."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            self._look_again_at_clock(conn, game_id)

    def cancel_open_game(self, game_id: str, seat: str) -> ActResult:
        """Withdraw a game that waits for its players from the open games: its open seats closed and the game
        ended as cancelled by ``seat`` (a seat of its creator's), in one transaction; SeatNotOpen if no seat is
        open any more (all taken meanwhile: the game is on)."""
        def closing_too(conn: Connection, write: Callable[[Connection], Any]) -> Any:
            def close_and_write(conn: Connection) -> Any:
                if not OpenSeats.close_in(conn, game_id):
                    raise SeatNotOpen("no seat of the game is open")
                return write(conn)
            return self._commit_alone(conn, close_and_write)

        with self._lock(game_id), self.engine.connect() as conn:
            current = self._version.run(conn, game_id=game_id).fetchone()[0]
            return self._act_at(conn, game_id, seat, current, current, {"type": CANCEL}, None, closing_too,
                                table=True)

    def _look_again_at_clock(self, conn: Connection, game_id: str) -> None:
        """The game's next look by a worker, now that a seat's clock has changed (in the caller's transaction)."""
        settings = self.tables.of(game_id)
        if settings.seconds_per_move is None:
            return
        version = self._version.run(conn, game_id=game_id).fetchone()[0]
        game = self._load(game_id, version)
        due = due_at(game, settings, self.vacations.of_seats(game_id), OpenSeats.seated_in(conn, game_id))
        conn.execute(_MOVE_DUE, {"game_id": game_id, "current": version, "due": due})

    @contextmanager
    def game(self, game_id: str) -> Iterator[Game]:
        """The game at its database version, held under the game's lock: read it, don't change it."""
        with self._lock(game_id):
            yield self._load(game_id)

    @contextmanager
    def announced_game(self, game_id: str, version: int) -> Iterator[Game]:
        """The game under its lock, as ``game``, without reading its version when the cache holds it at
        ``version``: one announced as committed (a socket's push, ``kadesh.server.broadcast``). A newer version
        written meanwhile is announced in its turn."""
        with self._lock(game_id):
            cached = self.cache.get(game_id, version)
            yield cached if cached is not None else self._load(game_id)

    def _load(self, game_id: str, version: int | None = None) -> Game:
        version = self.current_version(game_id) if version is None else version
        if version is None:
            raise GameNotFound(game_id)
        game = self.cache.get(game_id, version)
        if game is None:
            game = (self._caught_up(game_id, version) if self.catch_up else None) or self.rebuild(game_id)
            self.cache.put(game_id, game)
        return game

    def rebuild(self, game_id: str) -> Game:
        """Replay the game from the database alone (the cache is not the source of truth)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(schema.games).where(schema.games.c.id == game_id)).first()
            if row is None:
                raise GameNotFound(game_id)
            steps = _steps_after(conn, game_id, 0)
        game = unplayed_game(row.ruleset, row.options, row.seed, row.dice)
        game.written_at.append(_aware(row.created_at))
        _replay(game, steps)
        return game

    def _caught_up(self, game_id: str, version: int) -> Game | None:
        """The game kept behind ``version`` (the web process wrote since, for a check's child), brought up to the
        database with the actions written after it: a game's actions are only ever
        added, so it is then the game ``rebuild`` replays, for the new actions' cost alone. None if none is kept,
        or if an action fails (``rebuild`` says how)."""
        game = self.cache.behind(game_id, version)
        if game is None:
            return None
        with self.engine.connect() as conn:
            steps = _steps_after(conn, game_id, game.version)
        try:
            _replay(game, steps)
        except Exception:  # noqa: BLE001 - left half played: never kept; the rebuild raises it again
            self.cache.drop(game_id)
            return None
        return game if game.version >= version else None

    def action_count(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(schema.actions)
                                .where(schema.actions.c.game_id == game_id)).scalar_one()

    def stored_events(self, game_id: str) -> list[list[dict[str, Any]]]:
        """The events of each action as written, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.actions.c.events).where(schema.actions.c.game_id == game_id)
                                .order_by(schema.actions.c.seq)).all()
        return [row.events for row in rows]

    # -- acting -----------------------------------------------------------------
    def act(self, game_id: str, seat: str, expected_version: int, action: Any,
            after: Callable[[Game], Any] | None = None, job: int | None = None) -> ActResult:
        """Check the version, then the rules, then write: StaleVersion or RuleError leave nothing written.

        ``after(game)`` runs on the game just after the write, still under the game's lock; ``job``, the
        worker's job this action answers, is deleted in the action's own transaction.
        """
        if _impossible_id(game_id):
            raise GameNotFound(game_id)
        with self._lock(game_id), self.engine.connect() as conn:
            row = self._version_to_write.run(conn, game_id=game_id).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            return self._act_at(conn, game_id, seat, expected_version, row[0], action, after, self._commit_alone,
                                job)

    def play(self, game_id: str, token: str | None, expected_version: int, action: Any,
             after: Callable[[Game, str], Any] | None = None, player_id: str | None = None) -> tuple[Access, ActResult]:
        """``act`` for whoever holds ``token``: one read gives both who they are and the game's version.

        Refused as ``access`` refuses, NotASeat for a spectator's or the owner's token, then as ``act``;
        ``after(game, seat)`` as in ``act``. Without a token, for the seat the account ``player_id`` holds."""
        with self._lock(game_id), self.engine.connect() as conn:
            return self._play_at(conn, Play(game_id, token, expected_version, action, after, player_id),
                                 self._commit_alone)

    def play_soon(self, game_id: str, token: str | None, expected_version: int, action: Any,
                  after: Callable[[Game, str], Any] | None = None,
                  player_id: str | None = None) -> Future[tuple[Access, ActResult]]:
        """``play``, answered in a future by one of the store's writers (with the others queued meanwhile)."""
        return self._writer.submit(Play(game_id, token, expected_version, action, after, player_id))

    def _play_at(self, conn: Connection, play: Play, commit: Commit) -> tuple[Access, ActResult]:
        """``play`` under the game's lock, its statements through ``conn``, written by ``commit``."""
        access, seat, current = self._seat_of(conn, play)
        after = play.after
        then = (lambda game: after(game, seat)) if after is not None else None
        return access, self._act_at(conn, play.game_id, seat, play.expected_version, current, play.action, then,
                                    commit)

    def _write_group(self, group: list[Play], conn: Connection) -> None:
        """A writer's turn: every action of ``group`` in one transaction, one commit.

        The games are taken in the order of their ids (one game's actions in the order they came): two
        writers, of this server or another, never wait for each other's games in a circle. A refused action
        changes nothing and the others go on. Should the transaction fail, nothing of it is written, and each
        action is played again alone, so that a failure is only its own."""
        group = sorted(group, key=lambda play: play.game_id)
        locks = [self._lock(game_id) for game_id in dict.fromkeys(play.game_id for play in group)]
        answers: list[tuple[Play, Any, BaseException | None]] = []
        for lock in locks:  # before the turn to write, as every writer takes them
            lock.acquire()
        try:
            with self._writing, conn.begin():
                known = self._entries_of(conn, group)
                answers = (self._played_one_by_one(conn, group) if known is None
                           else self._played_together(conn, group, known))
        except Exception as error:
            for play in group:
                self.cache.drop(play.game_id)  # the games were played ahead of a database that has none of it
            answers = [] if len(group) > 1 else [(group[0], None, error)]
        finally:
            for lock in locks:
                lock.release()
        if not answers:
            for play in group:
                _answer(play, lambda play=play: self.play(play.game_id, play.token, play.expected_version,
                                                          play.action, play.after, play.player_id))
            return
        self._tell_committed(answers)
        for play, value, error in answers:
            if error is not None:
                play.answer.set_exception(error)
            else:
                play.answer.set_result(value)

    def _played_one_by_one(self, conn: Connection, group: list[Play]) -> list[tuple[Play, Any, BaseException | None]]:
        """SQLite: each action of the group played and written in turn in the group's transaction."""
        answers: list[tuple[Play, Any, BaseException | None]] = []
        for play in group:
            try:
                answers.append((play, self._play_at(conn, play, _in_open_transaction), None))
            except (RuleError, StoreError) as refusal:  # raised before this action changed anything
                answers.append((play, None, refusal))
        return answers

    def _played_together(self, conn: Connection, group: list[Play],
                         known: _Entries) -> list[tuple[Play, Any, BaseException | None]]:
        """PostgreSQL: every action of the group played on its game, then all written by one statement
        (``_GROUP_WRITE``), then their jobs; each answer's ``after`` computed before the next action of its game
        changes it. Without jobs to queue, the transaction's COMMIT goes with the write."""
        answers: list[tuple[Play, Any, BaseException | None]] = []
        moved: list[tuple[Play, Access, _Move, Any]] = []
        for play in group:
            try:
                access, seat, _ = self._seat_of(conn, play, known)
                # Where the group's moves leave the game, not yet written: not the database's version.
                move, game = self._move(play.game_id, seat, play.expected_version, known.versions[play.game_id],
                                        play.action)
            except (RuleError, StoreError) as refusal:  # raised before this action changed anything
                answers.append((play, None, refusal))
                continue
            known.versions[play.game_id] = move.current + 1
            moved.append((play, access, move, play.after(game, seat) if play.after is not None else None))
        if not moved:
            return answers
        jobs = [_jobs_of(move, known.watchers.get(move.game_id, [])) for _, _, move, _ in moved]
        queued = any(due for due, _, _ in jobs)
        written = self._write_moves(conn, [move for _, _, move, _ in moved], commit=not queued)
        for (play, access, move, after), (due, has_bots, noticed) in zip(moved, jobs, strict=True):
            found, version = written[move.game_id]
            if not found:  # another writer moved the game first: none of its moves is written
                self.cache.drop(move.game_id)
                answers.append((play, None, StaleVersion(move.current, version)))
                continue
            for kind, target, priority, delay in due:
                self.jobs.enqueue(conn, kind, move.game_id, move.current + 1, target, priority=priority, delay=delay)
            answers.append((play, (access, move.result(after, has_bots, noticed)), None))
        return answers

    def _write_moves(self, conn: Connection, moves: list[_Move], commit: bool) -> dict[str, tuple[bool, int]]:
        """PostgreSQL: ``moves`` (each game's in order) written at once, and the transaction committed with
        ``commit``; by game, whether its moves were written, and its version before them."""
        first: dict[str, _Move] = {}
        last: dict[str, _Move] = {}
        for move in moves:
            first.setdefault(move.game_id, move)
            last[move.game_id] = move
        # Two JSON documents, each the JSON text its values would have alone (the standard library's, as
        # SQLAlchemy's JSON type writes them): PostgreSQL's json type keeps the text as it is given.
        games = json.dumps([{"id": game_id, "current": first[game_id].current, "next": move.current + 1,
                             "outcome": move.outcome, "due": move.due} for game_id, move in last.items()])
        played = json.dumps([{**move.row(), "game_id": move.game_id, "seq": move.current + 1,
                              "created_at": move.moment.isoformat()} for move in moves])
        (written,) = run_together(conn, [(self._group_write, {"games": games, "moves": played,
                                                               "channel": NOTIFY_CHANNEL})], commit=commit)
        return {game_id: (found, version) for game_id, found, version in written}

    def _seat_of(self, conn: Connection, play: Play, known: _Entries | None = None) -> tuple[Access, str, int]:
        """What the play's token (or account) opens in its game, the seat it plays and the game's version in the
        database (its row locked on PostgreSQL); NotASeat for a spectator's or the owner's token; ``known``: the
        entries of the writer's group, read already."""
        access, version = self._entry(conn, play.game_id, play.token, to_write=True, player_id=play.player_id,
                                      known=known)
        if not access.may_act or access.seat is None:
            raise NotASeat("this token is for watching, not playing")
        return access, access.seat, version

    def _entries_of(self, conn: Connection, group: list[Play]) -> _Entries | None:
        """PostgreSQL: the group's entries in one read, its games' rows locked in the order of their ids, then
        their watchers, both sent with the transaction's BEGIN (each action's own read on SQLite, whose writer
        has the file to itself)."""
        if self._group_entries is None or self._group_watchers is None:
            return None
        hashes = {play.token: token_hash(play.token) for play in group if play.token}
        asked = [(play.game_id, hashes.get(play.token) if play.token else None) for play in group
                 if not _impossible_id(play.game_id)]
        game_ids = [game_id for game_id, _ in asked]
        entries, watchers = run_together(conn, [
            (self._group_entries, {"game_ids": game_ids, "tokens": [hashed for _, hashed in asked]}),
            (self._group_watchers, {"game_ids": game_ids})])
        return _Entries(hashes, entries.fetchall(), watchers.fetchall())

    def _tell_committed(self, answers: list[tuple[Play, Any, BaseException | None]]) -> None:
        if self.on_commit is None:
            return
        for play, value, error in answers:
            if error is None:
                try:
                    self.on_commit(play.game_id, value[1].version)
                except Exception:  # the answer goes out whatever a listener does
                    log.exception("on_commit failed for game %s", play.game_id)

    def _act_at(self, conn: Connection, game_id: str, seat: str, expected_version: int, current: int,
                action: Any, after: Callable[[Game], Any] | None, commit: Commit, job: int | None = None,
                table: bool = False) -> ActResult:
        """The action at the database's ``current`` version, under the game's lock, written through ``conn``
        by ``commit``; ``table``: one of the table's actions (``kadesh.core.table``), not a player's."""
        move, game = self._move(game_id, seat, expected_version, current, action, table)
        try:
            has_bots, noticed = self._write(conn, move, commit, job)
        except BaseException:
            self.cache.drop(game_id)  # the cached game is ahead of the database now
            raise
        return move.result(after(game) if after is not None else None, has_bots, noticed)

    def _move(self, game_id: str, seat: str, expected_version: int, current: int, action: Any,
              table: bool = False) -> tuple[_Move, Game]:
        """The action played on the game kept at the database's ``current`` version (under the game's lock), not
        yet written; the game as it leaves it."""
        if expected_version > current:
            raise StaleVersion(expected_version, current)
        game = self._load(game_id, current)
        if game.version > current:  # rebuilt after another process wrote (SQLite's readers do not wait for it)
            raise StaleVersion(current, game.version)
        if game.version < current:
            # Kept at a version a writer's group had moved it to, then dropped (a ruleset's failure, the cache
            # full) and rebuilt from a database that has none of the group's moves yet.
            raise _OutOfStep(game_id)
        # Only news the sender could have seen makes its version stale: the other side's hidden moves do not.
        if expected_version != current and not game.unseen_since(seat, expected_version):
            raise StaleVersion(expected_version, current)
        settings = self.tables.of(game_id)
        action = json_value(action)
        now = _now()
        try:  # the ruleset's code, a plugin's maybe: whatever it raises, the action is refused, never a 500
            before = frozenset(game.to_act()) if game.outcome is None else frozenset()
            round_before = game.ruleset.round(game.state)
            events = game.table_act(seat, action) if table else game.act(seat, action)  # RuleError: nothing changed
            game.written_at.append(now)
            next_seats = frozenset(game.to_act()) if game.outcome is None else frozenset()
            new_round = game.ruleset.round(game.state) != round_before
            due = due_at(game, settings, **self._seat_times(game_id, settings))
        except RuleError:
            raise
        except Exception as error:  # a ruleset bug must not leave a half-changed game in the cache
            self.cache.drop(game_id)
            log.exception("ruleset %s failed on an action", game.ruleset.name)
            raise bad_action("Action refusée.", "Action refused.") from error
        notices = notices_due(seat, before, next_seats, game.outcome, game.seats, game.ruleset.game_master_seats,
                              new_round)
        return _Move(game_id, current, seat, action, events, game.outcome, due, next_seats, playing_seats(game),
                     notices, now, rate=settings.rated and game.outcome is not None,
                     pause=game.ruleset.computer_round_pause if new_round else 0.0), game

    def _write(self, conn: Connection, move: _Move, commit: Commit, job: int | None = None) -> tuple[bool, bool]:
        """Write ``move`` at its version, with its jobs (``_queue_jobs``; ``job``: the worker's job that played
        it, done); whether the game has computer seats, and whether notices were queued."""
        game_id, current = move.game_id, move.current
        row = move.row()

        def write(conn: Connection) -> tuple[bool, bool]:
            # The watchers are read after the game's row is this transaction's: a seat given to the computer by
            # a transaction that committed before is seen (set_bot takes the row first too).
            if self._bump_record_notify_watchers is not None:
                # PostgreSQL: the row was locked by the read before the action (``_entry``), so this statement,
                # which reads as of its start, comes after. Every listening server hears it if it commits.
                rows = self._bump_record_notify_watchers.run(
                    conn, game_id=game_id, current=current, next=current + 1, new_outcome=move.outcome,
                    new_due=move.due, seq=current + 1, **row, channel=NOTIFY_CHANNEL,
                    payload=f"{game_id} {current + 1}").fetchall()
                if rows[0][0] != 1:
                    raise _Lost()
                watchers = [(seat, subscription) for _, seat, subscription in rows if seat is not None]
            else:  # SQLite: the first statement writes, so SQLite takes its write lock at once
                if self._bump.run(conn, game_id=game_id, current=current, next=current + 1,
                                  new_outcome=move.outcome, new_due=move.due).rowcount != 1:
                    raise _Lost()
                self._record.run(conn, game_id=game_id, seq=current + 1, **row)
                watchers = self._watchers.run(conn, game_id=game_id).fetchall()
            return self._queue_jobs(conn, move, watchers, job)

        try:
            return commit(conn, write)
        except _Lost:
            found = self._version.run(conn, game_id=game_id).fetchone()  # on ``conn``: no second connection
            raise StaleVersion(current, found[0] if found is not None else current) from None

    def _queue_jobs(self, conn: Connection, move: _Move, watchers: list[tuple[str, str]],
                    job: int | None = None) -> tuple[bool, bool]:
        """The jobs a written move makes due (``_jobs_of``), queued in its transaction, and ``job`` done; whether
        the game has computer seats, and whether notices were queued."""
        jobs, has_bots, noticed = _jobs_of(move, watchers)
        for kind, target, priority, delay in jobs:
            self.jobs.enqueue(conn, kind, move.game_id, move.current + 1, target, priority=priority, delay=delay)
        if job is not None:
            self.jobs.done(conn, job)
        return has_bots, noticed

    def _commit_alone(self, conn: Connection, write: Callable[[Connection], Any]) -> Any:
        """``write`` in its own transaction; _Lost if another writer took the action's place first. A read of
        the account's seat (``_held``) began the transaction already: the write ends that one."""
        try:
            with self._writing:
                if not conn.in_transaction():
                    conn.begin()
                try:
                    written = write(conn)
                except BaseException:
                    conn.rollback()
                    raise
                conn.commit()
                return written
        except IntegrityError:  # the (game, seq) row is someone else's: nothing of this one was written
            raise _Lost() from None

    def _lock(self, game_id: str) -> threading.Lock:
        with self._locks_guard:
            lock = self._locks.get(game_id)
            if lock is None:
                lock = self._locks[game_id] = threading.Lock()
            return lock

    # -- seats played by the computer ----------------------------------------------
    def set_bot(self, game_id: str, seat: str, level: str | None) -> None:
        """Give ``seat`` to the computer at ``level`` (its job queued if it must act now), or back to people
        with None; the game's queued bot jobs take the priority its seats now give."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            # The game's row first: an action being written meanwhile either sees this seat or is seen by
            # this seat's bot (PostgreSQL makes them take turns on the row).
            if self._touch.run(conn, game_id=game_id).rowcount != 1:
                raise GameNotFound(game_id)
            conn.execute(schema.seat_bots.delete().where(schema.seat_bots.c.game_id == game_id,
                                                         schema.seat_bots.c.seat == seat))
            if level is not None:
                conn.execute(schema.seat_bots.insert().values(game_id=game_id, seat=seat, level=level))
            version = self._version.run(conn, game_id=game_id).fetchone()[0]  # after every write before ours
            game = self._load(game_id, version)
            bots = conn.execute(select(schema.seat_bots.c.seat).where(schema.seat_bots.c.game_id == game_id)
                                ).scalars().all()
            priority = bot_priority(playing_seats(game), bots)
            if level is not None and game.outcome is None and seat in game.to_act():
                self.jobs.enqueue(conn, BOT, game_id, version, priority=priority)
            # The jobs already queued follow the seats: a game whose last seat goes to the computer (as each
            # seat of a computer-only game does at its creation) drops behind the people's games, and one whose
            # seat goes back to a person is claimed among theirs at once (its job may be the next bot seat's,
            # or is dropped by the worker if it was this seat's).
            self.jobs.reprioritize(conn, game_id, priority)

    def queue_waiting_bots(self) -> int:
        """Queue the job of every unfinished game whose computer seat must act and has none (a database from
        before the job queue); how many were queued."""
        queued = 0
        for game_id in self.games_with_bots():
            bots = self.bots(game_id)
            with self.game(game_id) as game:
                waiting = game.outcome is None and any(seat in bots for seat in game.to_act())
                version, priority = game.version, bot_priority(playing_seats(game), bots)
            if waiting:
                with self.engine.begin() as conn:
                    self.jobs.enqueue(conn, BOT, game_id, version, priority=priority)
                queued += 1
        return queued

    def bots(self, game_id: str) -> dict[str, str]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.seat_bots.c.seat, schema.seat_bots.c.level)
                                .where(schema.seat_bots.c.game_id == game_id)).all()
        return {row.seat: row.level for row in rows}

    def games_with_bots(self) -> list[str]:
        """Unfinished games where the computer holds a seat (to wake their bots after a restart)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.games.c.id, schema.games.c.outcome)
                                .where(schema.games.c.id.in_(select(schema.seat_bots.c.game_id)))).all()
        return [row.id for row in rows if row.outcome is None]  # JSON null and SQL NULL alike

    # -- deadlines ----------------------------------------------------------------
    def due_games(self, now: datetime | None = None) -> list[str]:
        """Games whose deadline (``Ruleset.deadline``) has passed (a finished game has none)."""
        moment = utc_text(now or _now())
        with self.engine.connect() as conn:
            rows = conn.execute(select(schema.games.c.id).where(schema.games.c.due_at <= moment)).all()
        return [row.id for row in rows]

    def act_when_due(self, game_id: str, now: datetime | None = None) -> ActResult | None:
        """Send the game's due action if its deadline has passed; None if nothing is due (any more).

        A seat whose time per move ran out is the other side's to claim (``claim_on_time``): nothing to send,
        and the worker stops looking at the game until its next action."""
        with self.game(game_id) as game:
            due = game.ruleset.deadline(game.state) if game.outcome is None else None
            version = game.version
            moment = now or _now()
            settings = self.tables.of(game_id)
            clock = seat_deadlines(game, settings, **self._seat_times(game_id, settings)) if not due else {}
        if not due:  # a seat's time ran out (its side's to claim), a vacation moved it, or none runs: look again then
            later = [deadline for deadline in clock.values() if deadline > moment]
            with self.engine.connect() as conn, self._writing, conn.begin():
                conn.execute(_MOVE_DUE, {"game_id": game_id, "current": version,
                                         "due": utc_text(min(later)) if later and len(later) == len(clock) else None})
        if due is None or due_at_text(due[0]) > utc_text(moment):
            return None
        _, seat, action = due
        try:
            return self.act(game_id, seat, version, action)
        except StaleVersion:
            return None  # somebody acted meanwhile: the next look decides again

    def claim_on_time(self, game_id: str, token: str | None, player_id: str | None = None,
                      now: datetime | None = None) -> tuple[Access, ActResult]:
        """End the game as a win for whoever holds ``token`` (or the account ``player_id``'s seat), another
        seat to act having run out of time; refused as ``play`` is, and with RuleError ``not_late`` when no
        other seat's time has run out."""
        with self._lock(game_id), self.engine.connect() as conn:
            access, current = self._entry(conn, game_id, token, to_write=True, player_id=player_id)
            if not access.may_act or access.seat is None:
                raise NotASeat("this token is for watching, not playing")
            game = self._load(game_id, current)
            if game.outcome is not None:
                raise RuleError(GAME_OVER, "La partie est terminée.", "The game is over.")
            settings = self.tables.of(game_id)
            if settings.seconds_per_move is None:
                raise RuleError("no_clock", "Cette partie n'a pas de temps par coup : rien à réclamer.",
                                "This game has no time per move: there is nothing to claim.")
            if settings.on_timeout == COMPUTER:
                raise RuleError("computer_plays", "Dans cette partie, l'ordinateur joue le tour d'un camp en "
                                "retard : il n'y a rien à réclamer.", "In this game the computer plays a late "
                                "side's turn: there is nothing to claim.")
            late = late_seats(game, settings, access.seat, now or _now(), **self._seat_times(game_id, settings))
            if not late:
                raise RuleError(NOT_LATE, "Le temps de l'autre camp n'est pas écoulé : on ne peut rien réclamer.",
                                "The other side still has time: there is nothing to claim.")
            action = {"type": CLAIM_TIMEOUT, "against": late[0]}
            return access, self._act_at(conn, game_id, access.seat, current, current, action, None,
                                        self._commit_alone, table=True)

    def clock(self, game_id: str, game: Game) -> dict[str, datetime]:
        """When each seat to act runs out of its time per move, its holder's vacations counted; {} if none."""
        settings = self.tables.of(game_id)
        return seat_deadlines(game, settings, **self._seat_times(game_id, settings))

    def lengthened_by_vacations(self, game_id: str, game: Game) -> list[str]:
        """The seats to act whose deadline their holder's vacations lengthened."""
        settings = self.tables.of(game_id)
        times = self._seat_times(game_id, settings)
        if not times:
            return []
        plain = seat_deadlines(game, settings, seated=times["seated"])
        return [seat for seat, moment in seat_deadlines(game, settings, **times).items() if moment > plain[seat]]

    def _seat_times(self, game_id: str, settings: TableSettings) -> dict[str, Any]:
        """What moves a seat's clock beside its turn: its holder's vacations, and when a seat left open was
        taken (``seat_deadlines``' ``stays`` and ``seated``)."""
        if settings.seconds_per_move is None:
            return {}
        seated = self.open_seats.seated(game_id) if settings.public else {}
        return {"stays": self.vacations.of_seats(game_id), "seated": seated}

    # -- ratings ------------------------------------------------------------------
    def settle_rating(self, game_id: str) -> bool | None:
        """Take a rated game that ended into its players' ratings, once (``kadesh.store.ratings``): whether it
        counted; None if it is not over, or was settled before."""
        with self.game(game_id) as game:
            outcome, ruleset, seats, actions = game.outcome, game.ruleset.name, playing_seats(game), list(game.actions)
        if outcome is None:
            return None
        players = {claim.seat: claim.player_id for claim in self.accounts.claims_in(game_id) if claim.role == SEAT}
        refused = refusal(players, seats, actions, self.bots(game_id))
        return self.ratings.settle(game_id, ruleset, players, seats, ranks_of(outcome, seats), refused)

    def recompute_ratings(self) -> dict[tuple[str, str], Rating]:
        """Every rating from scratch: each settled game replayed from its record, in the order they were
        settled, by (player id, ruleset)."""
        computed: dict[tuple[str, str], Rating] = {}
        for game_id, ruleset, players, counted in self.ratings.results():
            if not counted:
                continue
            game = self.rebuild(game_id)
            seats = playing_seats(game)
            playing = {seat: players[seat] for seat in seats}
            current = {player: computed.get((player, ruleset), NEW) for player in playing.values()}
            for player, rating in rate(current, playing, ranks_of(game.outcome or {}, seats)).items():
                computed[(player, ruleset)] = rating
        return computed

    # -- records ------------------------------------------------------------------
    def export(self, game_id: str, force: bool = False) -> dict[str, Any]:
        """The full record with the seed and every action's stored events; only once the game is over."""
        with self.game(game_id) as game:
            if game.outcome is None and not force:
                raise GameNotOver(game_id)
            record = game.to_record()
            commitment = game.commitment
            outcome = game.outcome
        with self.engine.connect() as conn:
            created = conn.execute(select(schema.games.c.created_at).where(schema.games.c.id == game_id)).scalar()
        events = self.stored_events(game_id)[: len(record["actions"])]
        return {"format": EXPORT_FORMAT, "id": game_id, "created_at": _iso(created), "commitment": commitment,
                "outcome": outcome, "record": record, "events": events}


def unplayed_game(ruleset: str, options: dict[str, Any], seed: str, dice: dict[str, Any]) -> Game:
    """A game as its creation record describes it, before any action."""
    rules = get_ruleset(ruleset)
    return Game(rules, rules.normalize_options(options), seed, dice_from_record(dice, seed))


def notices_due(actor: str, before: frozenset[str], after: frozenset[str], outcome: dict[str, Any] | None,
                seats: list[str], game_masters: frozenset[str] | tuple[str, ...],
                new_round: bool = False) -> list[tuple[str, str]]:
    """The notices an action makes due, as (kind, seat): ``turn`` to each seat whose turn it has just become
    (to act now and not before the action, or to act in a round that has just begun), ``ready`` to the game
    master when every awaited seat has acted (another's action ended the round, or left nobody to act),
    ``over`` to every seat but the actor's when the game has just ended."""
    if outcome is not None:
        return [("over", seat) for seat in seats if seat != actor]
    due = [("turn", seat) for seat in seats if seat in after and (new_round or seat not in before)]
    if actor not in game_masters and before and (new_round or not after):
        due += [("ready", seat) for seat in seats if seat in game_masters]
    return due


def _jobs_of(move: _Move, watchers: list[tuple[str, str]]) -> tuple[list[tuple[str, str, int, float]], bool, bool]:
    """The jobs a move makes due, as (kind, target, priority, delay): the bot's if a computer seat is among those
    to act next (after a person's games' if the computer holds all of the playing seats, and then the move's
    pause), a notice's for each subscription of a person's seat in its notices, the rating's if it ended a rated
    game. ``watchers``: the game's (seat, subscription) read after its row was this transaction's, "" the
    subscription of a computer's seat. With whether the game has computer seats (a seat given to the computer
    meanwhile is seen here or sees this action), and whether notices are among the jobs."""
    jobs: list[tuple[str, str, int, float]] = []
    bots = {seat for seat, subscription in watchers if not subscription}
    if bots & move.next_seats:
        priority = bot_priority(move.seats, bots)
        jobs.append((BOT, "", priority, move.pause if priority == COMPUTER_ONLY else 0.0))
    noticed = False
    for kind, noticed_seat in move.notices:
        if noticed_seat in bots:
            continue
        for watcher, subscription in watchers:
            if subscription and watcher == noticed_seat:
                jobs.append((kind, subscription, PERSON_WAITS, 0.0))
                noticed = True
    if move.rate:
        jobs.append((RATE, "", PERSON_WAITS, 0.0))
    return jobs, bool(bots), noticed


def _impossible_id(game_id: str) -> bool:
    """An id no game holds and PostgreSQL would refuse in a query (a NUL character): no such game."""
    return "\x00" in game_id


class _Lost(Exception):
    """Another writer took this version first (nothing was changed)."""


class _OutOfStep(Exception):
    """The game could not be had at the version its action is played at (nothing was changed): not a refusal, so
    a writer's group that meets it is written again action by action."""


Commit = Callable[[Connection, Callable[[Connection], Any]], Any]


def _in_open_transaction(conn: Connection, write: Callable[[Connection], Any]) -> Any:
    """Commit for a writer's group: the group's transaction is already open, and commits later."""
    return write(conn)


def _answer(play: Play, compute: Callable[[], Any]) -> None:
    try:
        play.answer.set_result(compute())
    except Exception as error:
        play.answer.set_exception(error)


def due_at_text(iso: str) -> str:
    return utc_text(datetime.fromisoformat(iso.replace("Z", "+00:00")))


def due_at(game: Game, settings: TableSettings = NO_TABLE, stays: dict[str, list[Stay]] | None = None,
           seated: dict[str, datetime | None] | None = None) -> str | None:
    """When a worker next looks at the game: the rules' deadline, or the first seat's time running out."""
    due = game.ruleset.deadline(game.state) if game.outcome is None else None
    moments = [due_at_text(due[0])] if due is not None else []
    moments += [utc_text(deadline) for deadline in seat_deadlines(game, settings, stays, seated).values()]
    return min(moments, default=None)


def playing_seats(game: Game) -> list[str]:
    """The seats that play (and are rated): all but a game master's. Where the computer plays all of them, the game
    is computer-only whoever referees: played after the people's games and while someone (its game master among
    others) watches it (``kadesh.store.jobs``), not a person's game that never ends."""
    return [seat for seat in game.seats if seat not in game.ruleset.game_master_seats]


def _aware(moment: datetime) -> datetime:
    """A stored moment in UTC (SQLite gives it back without its zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None
