"""Deadlines: a game whose ruleset names a time to act by itself (``Ruleset.deadline``, such as
Royaumes' turn deadline, when Imhotep adjudicates) is acted on once that time has passed.

The rules never read a clock; this watcher does, every ``poll`` seconds, through the same store
path as people, and announces the new version like any other action."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from kadesh.core.errors import RuleError
from kadesh.server.bots import BotRunner
from kadesh.server.notifier import Notifier
from kadesh.store import Store, StoreError

log = logging.getLogger(__name__)


class DeadlineWatcher:
    def __init__(self, store: Store, notifier: Notifier, bots: BotRunner, poll: float = 5.0) -> None:
        self.store = store
        self.notifier = notifier
        self.bots = bots
        self.poll = poll
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._watch())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _watch(self) -> None:
        while True:
            try:
                await asyncio.to_thread(self.act_on_due_games)
            except Exception:  # a bad game must not stop the watch for every other game
                log.exception("deadline watch failed")
            await asyncio.sleep(self.poll)

    def act_on_due_games(self) -> int:
        """Send every due action now; returns how many were sent."""
        sent = 0
        for game_id in self.store.due_games():
            try:
                result = self.store.act_when_due(game_id)
            except (RuleError, StoreError):
                log.exception("the due action of game %s was refused", game_id)
                continue
            if result is not None:
                sent += 1
                self.notifier.publish(game_id, result.version)
                self.bots.kick(game_id)
        return sent
