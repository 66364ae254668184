"""SQLite's single writer: one thread per store plays the players' actions, every action queued by the
time its turn comes in one transaction, so that one sync to disk acknowledges them all.

SQLite lets one writer at a time into a file and each commit waits for its sync to disk. Threads taking
turns at the file wait on each other, and Python hands the interpreter from thread to thread slowly when
many are ready at once (the tail of the latencies grows). One thread that writes in groups does neither.
Nobody is answered before the commit that holds their action is on disk.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from queue import SimpleQueue
from typing import Any

MAX_GROUP = 64  # actions in one transaction at most: a long queue is written in several commits


@dataclass(slots=True)
class Play:
    """A player's action as ``Store.play`` takes it, and where its answer goes."""

    game_id: str
    token: str | None
    expected_version: int
    action: Any
    after: Callable[..., Any] | None = None
    answer: Future[Any] = field(default_factory=Future)


class SingleWriter:
    """The thread that hands queued ``Play``s to ``write_group`` (started on first use, stopped by ``close``)."""

    def __init__(self, write_group: Callable[[list[Play]], None], name: str = "kadesh-writer") -> None:
        self.write_group = write_group
        self.name = name
        self._queue: SimpleQueue[Play | None] = SimpleQueue()
        self._thread: threading.Thread | None = None
        self._guard = threading.Lock()

    def submit(self, play: Play) -> Future[Any]:
        with self._guard:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
        self._queue.put(play)
        return play.answer

    def close(self) -> None:
        with self._guard:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)
            thread.join()

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is None:
                return
            group = [first]
            while len(group) < MAX_GROUP and not self._queue.empty():
                queued = self._queue.get()
                if queued is None:
                    stopping = True
                    break
                group.append(queued)
            try:
                self.write_group(group)
            except BaseException as error:  # never leave a player waiting for an answer
                for play in group:
                    if not play.answer.done():
                        play.answer.set_exception(error)
