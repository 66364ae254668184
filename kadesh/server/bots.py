"""The computer at the table: after every action, the bots whose seat must act play, in a worker
thread, through the same store path as people (version check, rules, write, announcement)."""

from __future__ import annotations

import logging
import secrets
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

from kadesh.ai.base import Bot, legal_for, make_bot
from kadesh.core.errors import RuleError
from kadesh.server.notifier import Notifier
from kadesh.store import Store, StoreError
from kadesh.store.errors import StaleVersion

log = logging.getLogger(__name__)

KEPT_BOTS = 256  # bots kept between their moves (a search bot may reuse what it learnt); others are made again


class BotRunner:
    def __init__(self, store: Store, notifier: Notifier, budget: float | None = None,
                 workers: int = 2) -> None:
        """``budget``: thinking time per action of the bots that search; None: each bot's own default."""
        self.store = store
        self.notifier = notifier
        self.budget = budget
        self.workers = workers
        self._pool: ThreadPoolExecutor | None = None  # made on first use, again after a shutdown
        self._lock = threading.Lock()
        self._running: set[str] = set()
        self._again: set[str] = set()
        self._bots: OrderedDict[tuple[str, str, str], Bot] = OrderedDict()  # least recently used first

    def kick(self, game_id: str) -> None:
        """Let the game's bots play if it is their turn (at most one worker per game at a time)."""
        with self._lock:
            if game_id in self._running:
                self._again.add(game_id)
                return
            self._running.add(game_id)
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="kadesh-bot")
            pool = self._pool
        pool.submit(self._run, game_id)

    def shutdown(self) -> None:
        """Stop the workers; games keep their bots, and the next kick starts workers again."""
        with self._lock:
            pool, self._pool = self._pool, None
            self._running.clear()
            self._again.clear()
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _run(self, game_id: str) -> None:
        try:
            while True:
                while self._play_one(game_id):
                    pass
                with self._lock:
                    if game_id not in self._again:
                        self._running.discard(game_id)
                        return
                    self._again.discard(game_id)
        except Exception:  # a bot must never take the server down; the game simply waits
            log.exception("bot failed in game %s", game_id)
            with self._lock:
                self._running.discard(game_id)
                self._again.discard(game_id)

    def _play_one(self, game_id: str) -> bool:
        """One bot action if a bot must act now; False when no bot has anything to do."""
        bots = self.store.bots(game_id)
        if not bots:
            return False
        with self.store.game(game_id) as game:
            if game.outcome is not None:
                self._forget(game_id)
                return False
            seat = next((s for s in game.to_act() if s in bots), None)
            if seat is None:
                return False
            bot = self._bot(game_id, game.ruleset.name, seat, bots[seat])
            view, legal, version = game.view(seat), legal_for(game, seat, bot), game.version
        action = bot.choose(view, seat, legal)
        try:
            result = self.store.act(game_id, seat, version, action)
        except StaleVersion:
            return True  # someone else moved first: look again
        except (RuleError, StoreError):
            log.exception("bot %s refused in game %s", bots[seat], game_id)
            return False
        self.notifier.publish(game_id, result.version)
        return True

    def _bot(self, game_id: str, ruleset: str, seat: str, level: str) -> Bot:
        key = (game_id, seat, level)
        with self._lock:
            bot = self._bots.get(key)
            if bot is None:
                bot = self._bots[key] = make_bot(ruleset, level, seed=secrets.randbits(64), budget=self.budget)
            self._bots.move_to_end(key)
            while len(self._bots) > KEPT_BOTS:
                self._bots.popitem(last=False)
            return bot

    def _forget(self, game_id: str) -> None:
        """A finished game's bots are not needed any more."""
        with self._lock:
            for key in [key for key in self._bots if key[0] == game_id]:
                del self._bots[key]
