"""Legal actions, odds, previews, seat lists and games opened from a client's own text, computed away from the
web process.

A page asks for these as its player points and clicks, and their cost is the rules': the odds of a shot in
the largest Front battle, a Royaumes order message's preview, the seats of a map of one's own (its TOML
read) take tens of milliseconds of CPU each. Computed where requests are answered, they took the interpreter
from them: a player's read of their game waited 6-7 times longer at p95 while one client asked for such
checks at its rate limit (bench/bench_abuse.py). So they run in a child process of their own (one per
server, forked from a server that has loaded the rules, keeping its own cache of games read from the
database), at most ``running`` at once and ``waiting`` more per server; beyond, 429 and ``Retry-After``.
A check whose client has gone away before it started is dropped. The legal actions of a version are asked by
every page of the game, and cost the largest battle 0.17 s (14,718 actions): computed once per version and
seat, their answers are kept (``Answers``), so that asking again and again costs the server nothing.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import json
import os
import pickle
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request

from kadesh.ai.base import levels
from kadesh.core import Ruleset, get_ruleset
from kadesh.core.game import replay_views
from kadesh.core.table import seat_title
from kadesh.server.children import children, ended, ruleset_modules
from kadesh.server.places import Places
from kadesh.server.priority import as_batch
from kadesh.server.problems import DATABASE_UNAVAILABLE, RETRY_AFTER_SECONDS, ApiProblem, database_unavailable
from kadesh.store import CreatedGame, Store
from kadesh.store.open_seats import ACCOUNTS
from kadesh.store.table import COMPUTER, NO_TABLE, TableSettings

CHECKS_RUNNING = 1    # child processes per server: the web process keeps a core of its own
CHECKS_WAITING = 32   # per server: more are refused (429) rather than queued
CHECK_CACHE = 32      # games a child keeps replayed, as the server's store does
ANSWERS_KEPT = 32 * 1024 * 1024  # bytes of legal actions' answers a server keeps (the largest battle's: 0.7 MB)
RETRY_AFTER = 1       # seconds, for a client refused because the queue is full
DISCONNECT_CHECK = 0.1  # seconds between looks at whether the client is still there

_url: str | None = None  # in the child: the game database's
_store: Store | None = None  # in the child: its own connection to it, opened at the first check


def _open(url: str, modules: tuple[str, ...]) -> None:
    """The child's start. Nothing here touches the database: a start that failed (the database away) would
    break the pool, and every check would be refused until it came back."""
    global _url  # noqa: PLW0603 - one per child process
    as_batch()  # off the web process's core, above the bots and simulations there (priority.py)
    for module in modules:
        importlib.import_module(module)
    _url = url


def _the_store() -> Store:
    """The child's store, opened at its first check (a database away is then that check's 503)."""
    global _store  # noqa: PLW0603 - one store per child process, opened once
    if _store is None:
        assert _url is not None
        _store = Store(_url, cache_size=CHECK_CACHE, catch_up=True)  # one check at a time: read by nobody else
    return _store


def in_the_child(function: Callable[..., Any]) -> Callable[..., Any]:
    """A check's function, whose database errors come back as what the web process answers: the database away
    is 503 ``database_unavailable``, as anywhere else; any other is told by its text. (A driver's error may not
    rebuild on this side: the pool then took its process for dead, and answered 503 ``checks_unavailable``.)"""

    @functools.wraps(function)
    def checked(*args: Any) -> Any:
        try:
            return function(*args)
        except SQLAlchemyError as error:
            if database_unavailable(error):
                raise ApiProblem(DATABASE_UNAVAILABLE.status, DATABASE_UNAVAILABLE.code, DATABASE_UNAVAILABLE.fr,
                                 DATABASE_UNAVAILABLE.en, retry_after=RETRY_AFTER_SECONDS) from None
            raise RuntimeError(f"{type(error).__name__}: {error}") from None
        except Exception as error:
            if not _rebuilds(error):  # else the pool could not read it back, and would take the process for dead
                raise RuntimeError(f"{type(error).__name__}: {error}") from None
            raise

    return checked


def _rebuilds(error: Exception) -> bool:
    """Whether ``error`` comes back whole from the child (an exception whose arguments differ from its
    constructor's does not)."""
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:  # noqa: BLE001 - any failure to rebuild is the answer
        return False
    return True


@in_the_child
def game_check(kind: str, game_id: str, seat: str, action: Any) -> tuple[int, Any]:
    """In the child: the game's version and the odds or preview of ``action`` for ``seat``."""
    with _the_store().game(game_id) as game:
        return game.version, (game.odds if kind == "odds" else game.preview)(seat, action)


@in_the_child
def legal_answer(game_id: str, seat: str) -> tuple[int, bytes]:
    """In the child: the game's version and ``GET /legal``'s answer there for ``seat``, as JSON (bytes cross
    between processes far faster than the thousands of actions of a large battle would)."""
    with _the_store().game(game_id) as game:
        answer = {"seat": seat, "version": game.version, "actions": game.legal_actions(seat)}
        return game.version, json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()


@in_the_child
def past_views(game_id: str, seat: str | None, first: int, last: int) -> list[dict[str, Any]]:
    """In the child: what ``seat`` (None: the public) saw after each version from ``first`` to ``last``, the game
    replayed once from its record (issue 44's replays); once the game is over, what the rules show of each moment
    then (``Ruleset.view_once_over``: Front's public sees the whole battle, issue 59)."""
    with _the_store().game(game_id) as game:
        record, over = game.to_record(), game.outcome is not None
    return [{"version": version, "view": then.view(seat, game_over=over), "to_act": then.to_act(),
             "outcome": then.outcome} for version, then in replay_views(record, first, last)]


def check_bot(ruleset: str, seats: list[str], seat: str, level: str | None) -> None:
    """ApiProblem unless the computer may take ``seat`` at ``level``."""
    if seat not in seats:
        raise ApiProblem(422, "unknown_seat", f"Siège inconnu : {seat}.", f"Unknown seat: {seat}.")
    if level is not None and level not in levels(ruleset):
        raise ApiProblem(422, "unknown_bot", f"Adversaire inconnu : {level}.", f"Unknown computer opponent: {level}.")
    if level is not None and seat in get_ruleset(ruleset).game_master_seats:
        raise ApiProblem(422, "game_master_seat", f"L'ordinateur ne prend pas le siège du maître du jeu ({seat}).",
                         f"The computer does not take the game master's seat ({seat}).")


def open_game(store: Store, ruleset: str, options: dict[str, Any], bots: dict[str, str],
              open_seats: dict[str, str] | None = None, table: TableSettings = NO_TABLE) -> CreatedGame:
    """A new game with ``bots`` at their seats (their first moves queued if due), ``open_seats`` left for
    others to take (seat: "anyone" or "accounts") and its ``table`` (time per move, rated)."""
    open_seats = open_seats or {}
    if bots or open_seats or table != NO_TABLE:
        rules = get_ruleset(ruleset)
        seats = rules.seats(rules.normalize_options(options))
        for seat, level in bots.items():
            check_bot(rules.name, seats, seat, level)
        check_open_seats(rules, seats, bots, open_seats)
        check_table(rules, seats, bots, open_seats, table)
    lords: tuple[str, ...] = ()
    if table.councils:
        rules = get_ruleset(ruleset)
        lords = tuple(seat for seat in rules.bot_seats(rules.normalize_options(options)) if seat not in bots)
    created = store.create_game(ruleset, options, table=table, lords=lords)
    for seat, level in bots.items():
        store.set_bot(created.id, seat, level)
    if open_seats:
        store.open_seats.open(created.id, open_seats)
        store.look_again_at_clock(created.id)  # no clock runs until every open seat is taken
    return created


def check_open_seats(rules: Ruleset, seats: list[str], bots: dict[str, str], open_seats: dict[str, str]) -> None:
    for seat in open_seats:
        if seat not in seats:
            raise ApiProblem(422, "unknown_seat", f"Siège inconnu : {seat}.", f"Unknown seat: {seat}.")
        if seat in bots:
            raise ApiProblem(422, "seat_not_open", f"Le siège {seat} est à l'ordinateur : il ne peut pas être ouvert.",
                             f"The seat {seat} is the computer's: it cannot be left open.")
    if open_seats and len(open_seats) == len(seats):
        raise ApiProblem(422, "seat_not_open", "Il faut garder au moins un siège : celui de qui ouvre la partie.",
                         "At least one seat must be kept: the opener's.")
    opener = rules.opener_seat
    if opener is not None and opener in open_seats:
        fr, en = (seat_title({}, opener, lang) for lang in ("fr", "en"))
        raise ApiProblem(422, "opener_seat", f"Qui ouvre la partie garde le siège « {fr} » : il ne peut pas être "
                         "ouvert aux autres.", f"Whoever opens the game keeps the seat “{en}”: it cannot be left open.")


def check_table(rules: Ruleset, seats: list[str], bots: dict[str, str], open_seats: dict[str, str],
                table: TableSettings) -> None:
    """A time per move only where the rules keep no deadlines of their own; a rated game between accounts only:
    no computer, the creator's one seat kept, every other open to accounts."""
    masters = rules.game_master_seats
    if table.councils and not rules.council_titles:
        raise ApiProblem(422, "no_council_here", "Dans ce jeu, un camp se joue seul : pas de conseil.",
                         "In this game a side is played alone: no council.")
    if table.master_reads and not masters:
        raise ApiProblem(422, "no_referee_here", "Ce jeu n'a pas de maître du jeu : personne ne lit les canaux.",
                         "This game has no game master: nobody reads the channels.")
    if table.referee and not masters:
        raise ApiProblem(422, "no_referee_here", "Ce jeu n'a pas de maître du jeu : rien à arbitrer.",
                         "This game has no game master: there is nothing to referee.")
    if table.referee and (any(seat in open_seats or seat in bots for seat in masters)
                          or all(seat in open_seats or seat in bots for seat in seats if seat not in masters)):
        raise ApiProblem(422, "referee_seats", "Kadesh arbitre seul : le siège du maître du jeu n'est ni ouvert ni "
                         "à l'ordinateur, et tu gardes un autre siège.", "Kadesh referees alone: the game master's "
                         "seat is neither open nor the computer's, and you keep another seat.")
    own_deadlines = type(rules).deadline is not Ruleset.deadline
    if table.seconds_per_move is not None and own_deadlines and not (table.referee and table.on_timeout == COMPUTER):
        raise ApiProblem(422, "clock_not_here", "Ce jeu a ses propres échéances : un temps par tour seulement quand "
                         "Kadesh arbitre seul et que l'ordinateur joue pour un camp en retard.",
                         "This game keeps its own deadlines: a time per turn only when Kadesh referees alone and "
                         "the computer plays for a late side.")
    if not table.rated:
        return
    if bots or table.on_timeout == COMPUTER:
        raise ApiProblem(422, "rated_with_computer", "Une partie classée se joue entre joueurs, sans l'ordinateur : "
                         "il n'y tient aucun siège et ne joue pas pour un camp en retard.", "A rated game is played "
                         "between players, without the computer: it holds no seat and plays for no late side.")
    playing = [seat for seat in seats if seat not in rules.game_master_seats]
    kept = [seat for seat in playing if seat not in open_seats]
    if len(kept) != 1 or any(open_seats.get(seat) != ACCOUNTS for seat in playing if seat not in kept):
        raise ApiProblem(422, "rated_seats", "Une partie classée : tu gardes un siège, les autres sont ouverts aux "
                         "joueurs qui ont un compte.", "A rated game: you keep one seat, the others are open to "
                         "players with an account.")


@in_the_child
def open_game_here(ruleset: str, options: dict[str, Any], bots: dict[str, str],
                   open_seats: dict[str, str] | None = None, table: TableSettings = NO_TABLE) -> CreatedGame:
    """In the child: ``open_game`` on its own connection to the game database (a text of the client's own, a
    map or a battle, read here rather than where requests are answered)."""
    return open_game(_the_store(), ruleset, options, bots, open_seats, table)


def seats_of(name: str, options: dict[str, Any]) -> dict[str, Any]:
    """In the child: the seats a game with these options would have (reading a map's TOML, say)."""
    rules = get_ruleset(name)
    normalized = rules.normalize_options(options)
    return {"seats": rules.seats(normalized), "bot_seats": rules.bot_seats(normalized),
            "names": rules.seat_names(normalized)}


class Answers:
    """Answers kept by game, version and seat, the oldest dropped past ``most_bytes`` (a version's legal actions
    are the same for every request until the next action: computed once, in the check process)."""

    def __init__(self, most_bytes: int = ANSWERS_KEPT) -> None:
        self.most_bytes, self.bytes = most_bytes, 0
        self._kept: OrderedDict[tuple[str, int, str], bytes] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str, version: int, seat: str) -> bytes | None:
        with self._lock:
            answer = self._kept.get((game_id, version, seat))
            if answer is not None:
                self._kept.move_to_end((game_id, version, seat))
            return answer

    def put(self, game_id: str, version: int, seat: str, answer: bytes) -> None:
        if len(answer) > self.most_bytes:
            return
        with self._lock:
            previous = self._kept.pop((game_id, version, seat), None)
            self.bytes += len(answer) - (len(previous) if previous is not None else 0)
            self._kept[game_id, version, seat] = answer
            while self.bytes > self.most_bytes:
                _, dropped = self._kept.popitem(last=False)
                self.bytes -= len(dropped)


BUSY = ApiProblem(429, "checks_busy", "Trop de calculs en cours sur ce serveur : réessaie dans un instant.",
                  "Too many checks under way on this server: try again in a moment.", retry_after=RETRY_AFTER)


class Checks:
    """This server's check process: how many checks run and wait."""

    def __init__(self, db_url: str, running: int = CHECKS_RUNNING, waiting: int = CHECKS_WAITING) -> None:
        self.db_url, self.running = db_url, running
        self.places = Places(running, waiting, BUSY, DISCONNECT_CHECK)
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False  # a warm-up that comes after the server has stopped starts nothing
        self._lock = threading.Lock()

    def warm(self) -> None:
        """Start the check process now (the server is starting; call it in a thread: the fork server's first
        start takes a second or so), so that the first page's legal actions do not wait for it."""
        with self._lock:
            if self._pool is None and not self._closed:
                self._pool = self._new_pool()
                self._pool.submit(os.getpid)  # the pool starts its process at its first task

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:  # the first check, if the process is not warm yet (or it died)
                self._pool = self._new_pool()
            return self._pool

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(self.running, mp_context=children(), initializer=_open,
                                   initargs=(self.db_url, ruleset_modules()))

    async def run(self, request: Request, function: Callable[..., Any], *args: Any) -> Any:
        """``function(*args)`` computed in the check process; None if the client went away first. Nothing is
        handed to the pool before it can start: its own queue could not drop what it holds."""
        async with self.places.taken(request) as mine:
            if not mine:
                return None
            # Off the event loop: the first check starts the process (and the fork server, which loads the
            # rules), seconds in which no other request would be answered.
            future = await asyncio.to_thread(self._submit, function, *args)
            return await self._wait(request, future)

    def _submit(self, function: Callable[..., Any], *args: Any) -> Future:
        try:
            return self._executor().submit(function, *args)
        except BrokenProcessPool:  # the child died (killed, out of memory): a new one for this check
            self._discard()
            return self._executor().submit(function, *args)

    async def _wait(self, request: Request, future: Future) -> Any:
        waiting = asyncio.wrap_future(future)
        while True:
            done, _ = await asyncio.wait({waiting}, timeout=DISCONNECT_CHECK)
            if done:
                try:
                    return waiting.result()
                except BrokenProcessPool:
                    self._discard()
                    raise ApiProblem(503, "checks_unavailable", "Le calcul a été interrompu : réessaie.",
                                     "The check was interrupted: try again.", retry_after=RETRY_AFTER) from None
            if await request.is_disconnected():
                future.cancel()  # dropped if it has not started; one that has is short, and finishes
                return None

    def _discard(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            processes = list((pool._processes or {}).values())  # the pool's own; it says nothing of them otherwise
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                ended(process)

    def close(self) -> None:
        """Stop the check process (the server is stopping)."""
        with self._lock:
            self._closed = True
        self._discard()
