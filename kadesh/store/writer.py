"""The players' writers: a few threads per store play the players' actions, each taking every action queued
by the time its turn comes into one transaction, so that one sync to disk acknowledges them all.

Each commit waits for its sync to disk. A thread per action would make as many transactions and syncs as
actions, and Python hands the interpreter from thread to thread slowly when many are ready at once (the
tail of the latencies grows). A few threads that write in groups do neither. SQLite lets one writer at a
time into a file: it has one such thread. PostgreSQL takes writers side by side: while one group waits for
its sync, the next is played. Nobody is answered before the commit that holds their action is on disk.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from queue import SimpleQueue
from typing import Any

from kadesh.store.metrics import WRITER_WAIT

MAX_GROUP = 64  # actions in one transaction at most: a long queue is written in several commits
# A writer keeps its database connection from one group to the next while it has work: the pool's check that
# a connection is still alive (a round trip to PostgreSQL) is made again only after this long without use.
KEEP_CONNECTION_SECONDS = 1.0


@dataclass(slots=True)
class Play:
    """A player's action as ``Store.play`` takes it, and where its answer goes."""

    game_id: str
    token: str | None
    expected_version: int
    action: Any
    after: Callable[..., Any] | None = None
    player_id: str | None = None  # without a token: the account whose seat plays
    answer: Future[Any] = field(default_factory=Future)
    queued_at: float = field(default_factory=time.perf_counter)


class GroupWriter:
    """The threads that hand queued ``Play``s to ``write_group`` (started on first use, stopped by ``close``)."""

    def __init__(self, write_group: Callable[[list[Play], Any], None], connect: Callable[[], Any],
                 threads: int = 1, name: str = "kadesh-writer") -> None:
        """``write_group(group, connection)``, a connection being what ``connect()`` opens (closed with
        ``close()``)."""
        self.write_group = write_group
        self.connect = connect
        self.name = name
        self.size = threads
        self._queue: SimpleQueue[Play | None] = SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._guard = threading.Lock()

    def submit(self, play: Play) -> Future[Any]:
        with self._guard:
            if not self._threads:
                self._threads = [threading.Thread(target=self._run, name=f"{self.name}-{number}", daemon=True)
                                 for number in range(self.size)]
                for thread in self._threads:
                    thread.start()
        self._queue.put(play)
        return play.answer

    def close(self) -> None:
        with self._guard:
            threads, self._threads = self._threads, []
        for _ in threads:
            self._queue.put(None)  # each thread stops at the first None it takes
        for thread in threads:
            thread.join()

    def _run(self) -> None:
        connection, used_at = None, 0.0
        try:
            while (group := self._next_group()) is not None:
                if connection is not None and time.monotonic() - used_at > KEEP_CONNECTION_SECONDS:
                    connection.close()
                    connection = None
                _timed(group)
                try:
                    if connection is None:
                        connection = self.connect()
                    self.write_group(group, connection)
                except BaseException as error:  # never leave a player waiting for an answer
                    for play in group:
                        if not play.answer.done():
                            play.answer.set_exception(error)
                used_at = time.monotonic()
        finally:
            if connection is not None:
                connection.close()

    def _next_group(self) -> list[Play] | None:
        """The next action and every one queued behind it (up to MAX_GROUP); None once told to stop (after
        the actions queued before the stop are written)."""
        first = self._queue.get()
        if first is None:
            return None
        group = [first]
        while len(group) < MAX_GROUP and not self._queue.empty():
            queued = self._queue.get()
            if queued is None:
                self._queue.put(None)  # stop after this group
                break
            group.append(queued)
        return group


def _timed(group: list[Play]) -> None:
    """How long each action of the group waited for its writer (``kadesh_db_writer_wait_seconds``)."""
    now = time.perf_counter()
    for play in group:
        WRITER_WAIT.observe(now - play.queued_at)
