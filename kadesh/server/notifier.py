"""Who is told when a game moves on, its table gets a message or changes: an interface, and its in-process
implementation.

A notification carries only the game id and what changed: its new version, its new last message, that a token of
the game was replaced, or how often its table has changed (a seat taken, a vacation: ``kadesh.store.table_changes``).
The store's PostgreSQL NOTIFY payloads are "<id> <version>", "<id> m<seq>", "<id> a" and "<id> t<count>"; each
listener then reads what its own seat may see or read from the store. Several servers on one PostgreSQL database
hear each other through ``PostgresNotifier``.
"""

from __future__ import annotations

import asyncio
import sys
import threading
import time
from typing import Protocol

# Announced to every listener when notifications may have been missed (a lost database
# connection): greater than any version or message number, so each listener reads the game again.
RESYNC = sys.maxsize
VERSION, MESSAGE = "version", "message"  # what an announcement numbers: the game's version, or its last message
ACCESS = "access"  # a token was replaced or a player signed out: open sockets look at their credentials again
TABLE = "table"  # the table changed outside the game's actions: open pages ask for it again
Announcement = tuple[str, int]


class Subscription(Protocol):
    # When the announcement ``get`` returned last was made (``time.perf_counter``): the commit for this process's
    # own actions, the moment it heard of them for another process's (a push's clock starts there).
    announced_at: float

    async def get(self) -> Announcement:
        """Wait for the next announcement for the game: (VERSION, version), (MESSAGE, seq), (ACCESS, 0) or
        (TABLE, table changes)."""

    def get_nowait(self) -> Announcement | None:
        """The next announcement already there, if any (to take several at once)."""

    def close(self) -> None: ...


class Notifier(Protocol):
    def publish(self, game_id: str, version: int) -> None:
        """Announce a new version; callable from any thread."""

    def publish_message(self, game_id: str, seq: int) -> None:
        """Announce a new message (its number); callable from any thread."""

    def publish_access(self, game_id: str) -> None:
        """Announce that a credential of the game may have been withdrawn; callable from any thread."""

    def publish_table(self, game_id: str, count: int) -> None:
        """Announce that the game's table changed (how often it has now); callable from any thread."""

    def subscribe(self, game_id: str) -> Subscription:
        """Listen to a game; call from the event loop that will ``await get()``."""

    def start(self) -> None:
        """Begin hearing other processes, if this notifier can (at server start-up)."""

    def stop(self) -> None: ...


class _LocalSubscription:
    def __init__(self, hub: InProcessNotifier, game_id: str) -> None:
        self.hub, self.game_id = hub, game_id
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[tuple[Announcement, float]] = asyncio.Queue()
        self.announced_at = 0.0

    async def get(self) -> Announcement:
        announcement, self.announced_at = await self.queue.get()
        return announcement

    def get_nowait(self) -> Announcement | None:
        return None if self.queue.empty() else self.queue.get_nowait()[0]

    def close(self) -> None:
        self.hub._remove(self)


class InProcessNotifier:
    """Pub/sub between the threads and event loops of one process."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[_LocalSubscription]] = {}
        self._lock = threading.Lock()

    def start(self) -> None:
        """Nothing to hear beyond this process."""

    def stop(self) -> None:
        pass

    def subscribe(self, game_id: str) -> _LocalSubscription:
        subscription = _LocalSubscription(self, game_id)
        with self._lock:
            self._subscribers.setdefault(game_id, set()).add(subscription)
        return subscription

    def publish(self, game_id: str, version: int) -> None:
        self._announce(game_id, (VERSION, version))

    def publish_message(self, game_id: str, seq: int) -> None:
        self._announce(game_id, (MESSAGE, seq))

    def publish_access(self, game_id: str) -> None:
        self._announce(game_id, (ACCESS, 0))

    def publish_table(self, game_id: str, count: int) -> None:
        self._announce(game_id, (TABLE, count))

    def _announce(self, game_id: str, announcement: Announcement) -> None:
        with self._lock:
            subscribers = list(self._subscribers.get(game_id, ()))
        announced_at = time.perf_counter()
        for subscription in subscribers:
            try:
                subscription.loop.call_soon_threadsafe(subscription.queue.put_nowait, (announcement, announced_at))
            except RuntimeError:  # its event loop is closed: the listener is gone
                subscription.close()

    def resync(self) -> None:
        """Tell every listener to read its game and its messages again."""
        with self._lock:
            games = list(self._subscribers)
        for game_id in games:
            self.publish(game_id, RESYNC)
            self.publish_message(game_id, RESYNC)
            self.publish_table(game_id, RESYNC)

    def _remove(self, subscription: _LocalSubscription) -> None:
        with self._lock:
            subscribers = self._subscribers.get(subscription.game_id)
            if subscribers is not None:
                subscribers.discard(subscription)
                if not subscribers:
                    del self._subscribers[subscription.game_id]


class PollingNotifier(InProcessNotifier):
    """On a SQLite file, where other processes (the workers) write too: local actions and messages are heard at
    once, and a thread reads the versions, message counts and table changes of the games someone listens to every
    ``interval`` seconds, announcing any that moved (the table's only so). Only games with listeners are read;
    nothing runs while nobody listens."""

    def __init__(self, stamps, interval: float = 0.1) -> None:
        """``stamps(ids)``: the current version, last message number and table changes of each of these games (a
        dict of triples)."""
        super().__init__()
        self.stamps = stamps
        self.interval = interval
        self._seen: dict[str, int] = {}
        self._seen_messages: dict[str, int] = {}
        self._seen_tables: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._watch, name="kadesh-versions", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def publish(self, game_id: str, version: int) -> None:
        if version != RESYNC:  # a resync is no version: what was seen stays
            with self._lock:
                self._seen[game_id] = max(version, self._seen.get(game_id, 0))
        super().publish(game_id, version)

    def publish_message(self, game_id: str, seq: int) -> None:
        if seq != RESYNC:
            with self._lock:
                self._seen_messages[game_id] = max(seq, self._seen_messages.get(game_id, 0))
        super().publish_message(game_id, seq)

    def publish_table(self, game_id: str, count: int) -> None:
        if count != RESYNC:
            with self._lock:
                self._seen_tables[game_id] = max(count, self._seen_tables.get(game_id, 0))
        super().publish_table(game_id, count)

    def subscribe(self, game_id: str) -> _LocalSubscription:
        subscription = super().subscribe(game_id)
        with self._lock:
            self._seen.setdefault(game_id, 0)  # any version read later is news to a new listener's page
            self._seen_messages.setdefault(game_id, 0)
        return subscription

    def _watch(self) -> None:
        while not self._stop.wait(self.interval):
            with self._lock:
                watched = list(self._subscribers)
            if not watched:
                continue
            try:
                current = self.stamps(watched)
            except Exception:  # the database is away for a moment: look again next time
                continue
            for game_id, (version, seq, table) in current.items():
                with self._lock:
                    known = self._seen.get(game_id)
                    self._seen[game_id] = version
                    known_seq = self._seen_messages.get(game_id)
                    self._seen_messages[game_id] = seq
                    known_table = self._seen_tables.get(game_id)
                    self._seen_tables[game_id] = table
                if known is not None and version > known:
                    super().publish(game_id, version)
                if known_seq is not None and seq > known_seq:
                    super().publish_message(game_id, seq)
                if known_table is None or table > known_table:  # at first, for a socket that read the table as
                    super().publish_table(game_id, table)       # it joined, before the change: it knows which
