"""One broadcaster per game watched on this server (issue 46): a new version is read once and rendered once per
audience, whatever the number of sockets.

An audience is what one socket is sent: a seat (None for spectators and the owner) in a language. On an
announced version the broadcaster loads the game once (in the threadpool), renders each audience's update — the
view and the journal lines after the version it rendered last — and serialises it once; the same text then goes
to every socket of that audience that had everything up to that last version. A socket that is not there (just
connected, slow, or ahead of the broadcaster) is marked behind, and its own writer reads and renders what it
misses, as every socket did for every push before: each socket still gets versions in increasing order, never
one twice, with the journal lines since the last version it got (docs/api.md).

What a socket's credential opens is looked at again on an ``ACCESS`` announcement (a token replaced, a player
signing out) and otherwise at most every ``ACCESS_RECHECK`` seconds before a push, once per distinct credential
(token or session), never once per socket per push. Messages at the table stay per socket: who reads a message
depends on the seat (``kadesh.server.messages_api.pushed``).

What a socket reads on its own — its first update as it joins, a catch-up, the messages after the last it got — is
read once for all the sockets that ask for the same thing (``GameBroadcast.shared``) until the game's next
announcement: ten thousand spectators joining a featured game cost one read and one render, not ten thousand
(issue 60). A read is shared only with sockets that joined before the next announcement was heard, so each one
still gets everything committed after what it read.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, TypeVar

from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket

from kadesh.core.game import Game
from kadesh.server.auth import resolve
from kadesh.server.metrics import PushClock
from kadesh.server.notifier import ACCESS, MESSAGE, RESYNC, TABLE, VERSION, Announcement, Notifier, Subscription
from kadesh.server.problems import DATABASE_UNAVAILABLE, ApiProblem, database_unavailable, from_store_error
from kadesh.store import Access, Store, StoreError

log = logging.getLogger(__name__)

ACCESS_RECHECK = 5.0  # seconds: a credential is looked at again before a push at most this often, unless announced
MAX_OUTBOX = 8  # updates queued for a socket that does not read them; beyond, it catches up on its own render
CLOSE_TRY_AGAIN = 1013  # RFC 6455 "try again later": the database is away; the page reconnects by itself
WAKE_BATCH = 100  # writers a push wakes before the event loop serves anything else (100 sends: 2-3 ms)
MAX_SHARED_READS = 64  # reads kept for the sockets to come, per game (a since per socket could otherwise pile up)

T = TypeVar("T")

Audience = tuple[str | None, str]  # (seat, lang)
CredentialKey = tuple[str | None, str | None]  # (token, session secret)
Rendered = tuple[int, dict[Audience, str]]  # the version rendered, and each audience's update as text


def update(game: Game, seat: str | None, lang: str, since: int) -> dict[str, Any]:
    """A socket's update: the game's version, the seat's journal lines after ``since``, and its view."""
    return {"type": "update", "version": game.version,
            "journal": [{"version": v, "line": line} for v, line in game.journal_entries(seat, lang, since)],
            "view": game.view(seat)}


def as_text(message: dict[str, Any]) -> str:
    """As Starlette's ``send_json`` writes it."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


Written = dict[int, tuple[Any, str]]  # a view's part as text, by the part's id (the part kept: its id stays its own)


def as_text_sharing(message: dict[str, Any], written: Written) -> str:
    """``as_text(message)``, each list or object at the top of its view, last, written once whichever audience's
    view holds it (``written``): the audiences' views of one version share parts (a Royaumes view holds every past
    turn, the same for everyone), and JSON writes an object as its fields' texts joined, so the text is the same."""
    view = message.get("view")
    if list(message)[-1:] != ["view"] or len(message) < 2 or not isinstance(view, dict) or not view \
            or not all(type(key) is str for key in view):
        return as_text(message)
    head = as_text({key: value for key, value in message.items() if key != "view"})
    fields = ",".join(f"{as_text(key)}:{_part(value, written)}" for key, value in view.items())
    return f'{head[:-1]},"view":{{{fields}}}}}'


def _part(value: Any, written: Written) -> str:
    if type(value) is not list and type(value) is not dict:
        return as_text(value)
    if id(value) not in written:
        written[id(value)] = value, as_text(value)
    return written[id(value)][1]


def render_audiences(store: Store, game_id: str, since: int, announced: int, audiences: set[Audience]) -> Rendered:
    """The game's version, and each audience's update after ``since`` as text (none when nothing moved)."""
    with store.announced_game(game_id, announced) as game:
        if game.version <= since:
            return game.version, {}
        written: Written = {}
        return game.version, {(seat, lang): as_text_sharing(update(game, seat, lang, since), written)
                              for seat, lang in audiences}


def credential_problem(store: Store, game_id: str, token: str | None, secret: str | None) -> ApiProblem | None:
    """Why this credential opens the game no more (a token replaced, a session ended), or None."""
    player = store.accounts.session_player(secret) if secret and not token else None
    try:
        resolve(store, game_id, token, player.id if player is not None else None)
    except StoreError as error:
        return from_store_error(error)
    return None


def check_credentials(store: Store, game_id: str, keys: list[CredentialKey]) -> dict[CredentialKey, ApiProblem]:
    if not keys:
        return {}
    found = {key: credential_problem(store, game_id, *key) for key in keys}
    return {key: problem for key, problem in found.items() if problem is not None}


class Wake:
    """What a socket's writer waits on: set from the event loop, as ``asyncio.Event`` but without its queue of
    waiters (760 bytes each, on every idle socket; there is one waiter here)."""

    __slots__ = ("_set", "_waiter")

    def __init__(self) -> None:
        self._set, self._waiter = False, None

    def set(self) -> None:
        self._set = True
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def wait(self) -> None:
        """Until set (at once if set already), then clear."""
        if not self._set:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        self._set = False


def check_and_render(store: Store, game_id: str, due: list[CredentialKey], since: int, announced: int,
                     audiences: set[Audience]) -> tuple[dict[CredentialKey, ApiProblem], Rendered]:
    """The credentials' problems and the audiences' updates: one trip to the threadpool for a push."""
    return check_credentials(store, game_id, due), render_audiences(store, game_id, since, announced, audiences)


@dataclass(eq=False, slots=True)
class Watcher:
    """One open socket as its broadcaster and its writer see it."""

    websocket: WebSocket
    access: Access
    lang: str
    credential: CredentialKey
    last: int  # the version of the last update sent or queued for this socket
    last_message: int = 0
    messages_wanted: int = 0  # the last message announced
    table_changes: int = 0  # how often the game's table had changed by the last table count sent
    table_wanted: int = 0  # the last table count announced
    behind: bool = True  # its writer renders what it misses itself (it starts there: the first update is its own)
    outbox: list[tuple[str, PushClock]] = field(default_factory=list)  # at most MAX_OUTBOX texts, and their push
    refused: tuple[ApiProblem, int] | None = None  # the error frame and close code to end with
    wake: Wake = field(default_factory=Wake)

    @property
    def audience(self) -> Audience:
        return self.access.seat, self.lang

    def refuse(self, problem: ApiProblem, code: int) -> None:
        self.refused = self.refused or (problem, code)
        self.wake.set()


async def wake_writers(watchers: list[Watcher]) -> None:
    """Wake the writers of these sockets, ``WAKE_BATCH`` at a time, the event loop serving what else waits (other
    requests, other games) between batches: each writer sends at once when woken, and 10,000 sends in one go held
    the loop for 200-300 ms (issue 60). What each socket is to send was settled before, in one go."""
    for start in range(0, len(watchers), WAKE_BATCH):
        if start:
            await asyncio.sleep(0)
        for watcher in watchers[start:start + WAKE_BATCH]:
            watcher.wake.set()


class GameBroadcast:
    """The sockets of one game on this server, and the task that hears the game's announcements for them all."""

    def __init__(self, store: Store, game_id: str, subscription: Subscription) -> None:
        self.store, self.game_id, self.subscription = store, game_id, subscription
        self.watchers: set[Watcher] = set()
        self.version: int | None = None  # the version whose updates were rendered last
        self.checked: dict[CredentialKey, float] = {}  # when each credential was last looked at
        self.reads: dict[Hashable, asyncio.Future[Any]] = {}  # what sockets read since the last announcement
        self.task = asyncio.get_running_loop().create_task(self._hear())

    async def shared(self, key: Hashable, read: Callable[..., T], *args: Any) -> T:
        """``read(*args)`` in the threadpool, once for all the sockets that ask for ``key`` until the game's next
        announcement is heard. The key says all the read depends on (seat, language, version since…)."""
        future = self.reads.get(key)
        if future is None:
            if len(self.reads) >= MAX_SHARED_READS:
                self.reads = {}
            future = self.reads[key] = asyncio.ensure_future(run_in_threadpool(read, *args))
            future.add_done_callback(partial(self._read_done, key))
        return await asyncio.shield(future)  # one socket leaving does not cancel the others' read

    def _read_done(self, key: Hashable, future: asyncio.Future[Any]) -> None:
        """A read that failed is not kept: the next socket tries its own (each one that waited was told)."""
        if (future.cancelled() or future.exception() is not None) and self.reads.get(key) is future:
            del self.reads[key]

    async def _hear(self) -> None:
        while True:
            announcements = [await self.subscription.get()]
            while (more := self.subscription.get_nowait()) is not None:
                announcements.append(more)
            self.reads = {}  # read before what is announced: a socket joining from now on reads anew
            try:
                await self._handle(announcements)
            except SQLAlchemyError as error:
                if not database_unavailable(error):
                    log.exception("game %s: push failed", self.game_id)
                for watcher in self.watchers:
                    watcher.refuse(DATABASE_UNAVAILABLE, CLOSE_TRY_AGAIN)
            except StoreError as error:
                problem = from_store_error(error)
                for watcher in self.watchers:
                    watcher.refuse(problem, 4000 + problem.status)
            except Exception:  # a ruleset's view that fails, say: each socket tries its own render, as it used to
                log.exception("game %s: push failed", self.game_id)
                for watcher in self.watchers:
                    watcher.behind = True
                    watcher.wake.set()

    async def _handle(self, announcements: list[Announcement]) -> None:
        versions = [n for kind, n in announcements if kind == VERSION]
        messages = [n for kind, n in announcements if kind == MESSAGE]
        newest = max(versions, default=None)
        forced = any(kind == ACCESS for kind, _ in announcements) or RESYNC in versions  # a resync missed anything
        if newest is not None and (self.version is None or newest > self.version):
            await self._push(newest, forced)
        elif forced:
            due = self._due(every=True)
            self._refuse(await run_in_threadpool(check_credentials, self.store, self.game_id, due))
        if messages:
            for watcher in self.watchers:
                watcher.messages_wanted = max(watcher.messages_wanted, *messages)
            await wake_writers(list(self.watchers))
        tables = [n for kind, n in announcements if kind == TABLE]
        if tables:
            await self._table_changed(max(tables))

    async def _table_changed(self, count: int) -> None:
        """Tell the sockets that do not know it yet that the table changed (its pages ask for it again)."""
        if count == RESYNC:  # what was missed: the count as it is
            count = await run_in_threadpool(self.store.table_changes, self.game_id)
        told = [watcher for watcher in self.watchers if count > watcher.table_changes]
        for watcher in told:
            watcher.table_wanted = max(watcher.table_wanted, count)
        await wake_writers(told)

    def _due(self, every: bool) -> list[CredentialKey]:
        """The credentials to look at again: every one, or those not looked at for ``ACCESS_RECHECK`` seconds
        (counted as looked at from now)."""
        now = time.monotonic()
        keys = {w.credential for w in self.watchers}
        due = [key for key in keys if every or now - self.checked.get(key, 0.0) >= ACCESS_RECHECK]
        self.checked.update(dict.fromkeys(due, now))
        return due

    def _refuse(self, refused: dict[CredentialKey, ApiProblem]) -> None:
        """Close the sockets whose credential opens the game no more."""
        for watcher in self.watchers:
            problem = refused.get(watcher.credential)
            if problem is not None:
                watcher.refuse(problem, 4000 + problem.status)

    async def _push(self, announced: int, every_credential: bool) -> None:
        """The credentials due and the new version's updates, in one call to the threadpool."""
        due = self._due(every_credential)
        if self.version is None:  # nothing rendered yet: learn the version; the sockets catch up on their own
            self._refuse(await run_in_threadpool(check_credentials, self.store, self.game_id, due))
            version = await run_in_threadpool(self.store.current_version, self.game_id)
            await wake_writers(self._deliver(version or 0, {}, since=None))
            return
        since = self.version
        audiences = {w.audience for w in self.watchers if w.refused is None}
        refused, (version, texts) = await run_in_threadpool(check_and_render, self.store, self.game_id, due, since,
                                                            announced, audiences)
        self._refuse(refused)
        await wake_writers(self._deliver(version, texts, since))

    def _deliver(self, version: int, texts: dict[Audience, str], since: int | None) -> list[Watcher]:
        """Queue the text of each socket's audience, or mark the socket behind when the text does not follow
        what it has; on the event loop, with no wait, so no socket joins or moves meanwhile. The sockets whose
        writers are to wake."""
        woken: list[Watcher] = []
        queued: list[tuple[Watcher, str]] = []
        for watcher in self.watchers:
            if watcher.last >= version:
                continue
            text = texts.get(watcher.audience)
            if text is None or watcher.behind or watcher.last != since or len(watcher.outbox) >= MAX_OUTBOX:
                watcher.behind = True
                woken.append(watcher)
            else:
                queued.append((watcher, text))
        push = PushClock(self.subscription.announced_at, len(queued))
        for watcher, text in queued:
            watcher.outbox.append((text, push))
            watcher.last = version
            woken.append(watcher)
        self.version = max(version, self.version or 0)
        return woken

    def caught_up(self, watcher: Watcher, version: int) -> None:
        """A socket's own render reached ``version``: it follows the broadcast again if that is where it is."""
        watcher.last = max(watcher.last, version)
        if self.version is None:
            self.version = version
        watcher.behind = watcher.last < self.version


class Broadcasts:
    """This server's broadcasters, one per game with a socket open here and event loop (uvicorn runs one; a test
    client may run several)."""

    def __init__(self, store: Store, notifier: Notifier) -> None:
        self.store, self.notifier = store, notifier
        self.games: dict[tuple[asyncio.AbstractEventLoop, str], GameBroadcast] = {}

    def of(self, game_id: str) -> list[GameBroadcast]:
        return [broadcast for (_, watched), broadcast in self.games.items() if watched == game_id]

    def join(self, game_id: str, watcher: Watcher) -> GameBroadcast:
        """Add a socket to its game's broadcast (subscribed from now on: nothing committed later is missed)."""
        key = (asyncio.get_running_loop(), game_id)
        broadcast = self.games.get(key)
        if broadcast is None:
            broadcast = self.games[key] = GameBroadcast(self.store, game_id, self.notifier.subscribe(game_id))
        broadcast.watchers.add(watcher)
        broadcast.checked.setdefault(watcher.credential, time.monotonic())  # it was resolved as it connected
        return broadcast

    def leave(self, game_id: str, watcher: Watcher) -> None:
        """Take a socket out; the last one's going ends the broadcast (no wait: the socket's task may be cancelled
        as it ends, and its ``watches`` row must still be closed after this)."""
        key = (asyncio.get_running_loop(), game_id)
        broadcast = self.games.get(key)
        if broadcast is None:
            return
        broadcast.watchers.discard(watcher)
        if broadcast.watchers:
            if not any(w.credential == watcher.credential for w in broadcast.watchers):
                broadcast.checked.pop(watcher.credential, None)
            return
        del self.games[key]
        broadcast.subscription.close()
        broadcast.task.cancel()
