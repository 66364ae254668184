"""Who is told when a game moves on: an interface, and its in-process implementation.

A notification carries only the game id and its new version (the store's PostgreSQL NOTIFY
payload); each listener then reads what its own seat may see from the store. Several
servers on one PostgreSQL database hear each other through ``PostgresNotifier``.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import Protocol

# Announced to every listener when notifications may have been missed (a lost database
# connection): greater than any version, so each listener reads the game again.
RESYNC = sys.maxsize


class Subscription(Protocol):
    async def get(self) -> int:
        """Wait for the next version announced for the game."""

    def close(self) -> None: ...


class Notifier(Protocol):
    def publish(self, game_id: str, version: int) -> None:
        """Announce a new version; callable from any thread."""

    def subscribe(self, game_id: str) -> Subscription:
        """Listen to a game; call from the event loop that will ``await get()``."""

    def start(self) -> None:
        """Begin hearing other processes, if this notifier can (at server start-up)."""

    def stop(self) -> None: ...


class _LocalSubscription:
    def __init__(self, hub: InProcessNotifier, game_id: str) -> None:
        self.hub, self.game_id = hub, game_id
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[int] = asyncio.Queue()

    async def get(self) -> int:
        return await self.queue.get()

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
        with self._lock:
            subscribers = list(self._subscribers.get(game_id, ()))
        for subscription in subscribers:
            try:
                subscription.loop.call_soon_threadsafe(subscription.queue.put_nowait, version)
            except RuntimeError:  # its event loop is closed: the listener is gone
                subscription.close()

    def resync(self) -> None:
        """Tell every listener to read its game again."""
        with self._lock:
            games = list(self._subscribers)
        for game_id in games:
            self.publish(game_id, RESYNC)

    def _remove(self, subscription: _LocalSubscription) -> None:
        with self._lock:
            subscribers = self._subscribers.get(subscription.game_id)
            if subscribers is not None:
                subscribers.discard(subscription)
                if not subscribers:
                    del self._subscribers[subscription.game_id]
