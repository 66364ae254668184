"""Worker processes: the computer's moves and the games' deadlines, off the web process.

``kadesh worker`` runs one ``Worker``: it takes the oldest job of the store's queue (``kadesh.store.jobs``),
plays that one bot action through the same store path as people (version check, rules, write), and
gives the job back to be tried again if it fails; now and then it also sends the actions whose deadline
has passed (``Ruleset.deadline``). Any number of workers may run, on any machines that reach the database:
each job is one action, so games take turns, and the versioned write keeps each action once when two
workers race or one dies mid-thought.

``kadesh serve`` starts a few local workers itself (``LocalWorkers``), as separate processes, so that a
search never takes the web process's interpreter away from the requests: forked from its fork server
(``kadesh.server.children``), which has the rules, the bots and the store loaded already.
"""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import signal
import socket
import threading
import time
from collections import OrderedDict
from datetime import UTC, datetime
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from kadesh.ai.base import Bot, legal_for, levels, make_bot
from kadesh.core import Game
from kadesh.core.errors import RuleError
from kadesh.server.children import children, ended
from kadesh.server.delivery import NOTICE_THREADS, Deliverer
from kadesh.server.priority import as_batch
from kadesh.store import SEAT, Access, Store, StoreError
from kadesh.store.errors import StaleVersion
from kadesh.store.jobs import BOT, LEASE, RATE, Job
from kadesh.store.messages import COMPUTER as COMPUTER_WRITER
from kadesh.store.messages import TABLE, pair_channel
from kadesh.store.metrics import BOT_THINKING
from kadesh.store.table import COMPUTER

log = logging.getLogger(__name__)

KEPT_BOTS = 256  # bots kept between their moves (a search bot may reuse what it learnt); others are made again
IDLE_FIRST, IDLE_MOST = 0.02, 0.25  # seconds between looks at an empty queue: short after work, then longer
ERROR_PAUSE = 1.0  # seconds before looking again when the database did not answer
DEADLINE_POLL = 5.0  # seconds between two looks for games whose deadline has passed
LOCAL_WORKER_NAME = "kadesh-worker"  # a local worker's process name (at most 15 characters)
LOCAL_NICENESS = 10  # local workers yield the cores to the web process on the same machine: requests first
STAND_IN_ACTIONS = 500  # the most actions the computer plays for a late seat in one turn (a turn ends far sooner)


class Worker:
    def __init__(self, store: Store, budget: float | None = None, name: str | None = None,
                 deadline_poll: float = DEADLINE_POLL, lease: float = LEASE,
                 notice_threads: int = NOTICE_THREADS) -> None:
        """``budget``: the thinking time per action of the bots that search (None: each bot's own);
        ``lease``: how long a claimed job stays this worker's before others take it for abandoned;
        ``notice_threads``: how many notices are sent at once (``kadesh.server.delivery``)."""
        self.store = store
        self.budget = budget
        self.lease = lease
        self.name = name or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        self.deadline_poll = deadline_poll
        self._bots: OrderedDict[tuple[str, str, str], Bot] = OrderedDict()  # least recently used first
        self._next_deadlines = 0.0
        self.deliverer = Deliverer(store, self.name, threads=notice_threads, lease=lease)

    def run(self, stop: threading.Event, parent: int | None = None) -> None:
        """Work until ``stop`` is set (or, with ``parent``, until that process is gone)."""
        self.store.queue_waiting_bots()
        notices = self.deliverer.start(stop)
        pause = IDLE_FIRST
        while not stop.is_set() and (parent is None or os.getppid() == parent):
            try:
                worked = self.work_once()
                pause = IDLE_FIRST if worked else min(pause * 2, IDLE_MOST)
            except Exception:  # the database away for a while: wait, then look again
                log.exception("worker %s could not reach its jobs", self.name)
                worked, pause = False, ERROR_PAUSE
            if not worked:
                stop.wait(pause)
        stop.set()  # the parent gone: the notice threads stop too, once the notices on their way are sent
        notices.join(3 * self.deliverer.settings.timeout + 5)

    def work_once(self) -> bool:
        """One job, and the due deadlines when it is time; whether there was anything to do."""
        did = self.send_due_actions() if time.monotonic() >= self._next_deadlines else 0
        job = self.store.jobs.claim(self.name, self.lease)
        if job is None:
            return did > 0
        try:
            written = self.play(job)
        except Exception:  # a bot must never stop the worker; the job is tried again later
            log.exception("job %s failed (game %s at version %s)", job.id, job.game_id, job.version)
            self.store.jobs.retry(job, self.name)
        else:
            if not written:
                self.store.jobs.finish(job, self.name)
        return True

    def play(self, job: Job) -> bool:
        """The bot's action the job is for, if the game still waits for it at the job's version; whether it was
        written (the write deletes the job and queues the next one if a bot acts next)."""
        if job.kind == RATE:
            self.store.settle_rating(job.game_id)
            return False  # the job is finished by its caller (the settlement is once, by its own key)
        if job.kind != BOT:
            log.error("job %s of unknown kind %r dropped", job.id, job.kind)
            return False
        bots = self.store.bots(job.game_id)
        with self.store.game(job.game_id) as game:
            if game.version != job.version or game.outcome is not None:
                return False  # the game moved on: the job of its new version, if any, is queued already
            seat = next((s for s in game.to_act() if s in bots), None)
            if seat is None:
                return False  # the seat went back to people
            bot = self._bot(job.game_id, game.ruleset.name, seat, bots[seat])
            view, legal = game.view(seat), legal_for(game, seat, bot)
            began = turn_began_at(game, seat)
        if began is not None:
            bot.turn_started((datetime.now(UTC) - began).total_seconds())
        action = chosen(bot, game.ruleset.name, bots[seat], view, seat, legal)
        told = self._announcements(job.game_id, job.version, seat, action)
        try:
            self.store.act(job.game_id, seat, job.version, action, job=job.id)
        except StaleVersion:
            return False  # someone acted first: their write queued what comes next
        except RuleError:
            log.exception("bot %s refused in game %s", bots[seat], job.game_id)
            return False
        self._announce(job.game_id, seat, told)
        return True

    def _announcements(self, game_id: str, version: int, seat: str, action: dict) -> list[dict]:
        """What the computer's seat will say of its action (its alliances), read before the action changes the
        state; it never reads a message."""
        with self.store.game(game_id) as game:
            return game.ruleset.announcements(game.state, seat, action) if game.version == version else []

    def _announce(self, game_id: str, seat: str, told: list[dict]) -> None:
        """Each announcement on the seat's private channel with its addressee, or on the whole table where the
        press is public only (none under no press)."""
        if not told:
            return
        shape = self.store.shape(game_id)
        speaker = Access(game_id, SEAT, seat)
        for item in told:
            channel = next((c for c in (pair_channel(seat, item["to"]), TABLE)
                            if shape.write_problem(speaker, c) is None), None)
            if channel is not None:
                self.store.messages.post(game_id, shape, channel, item["kind"], Access(game_id, COMPUTER_WRITER, seat),
                                         item["fr"], None, {**item["data"], "words": {"fr": item["fr"],
                                                                                     "en": item["en"]}})

    def send_due_actions(self) -> int:
        """Send every action whose deadline has passed, and queue the reminders of deadlines that come near; how
        many of both (each once: the write is versioned, and so is a subscription's reminder)."""
        self._next_deadlines = time.monotonic() + self.deadline_poll
        try:
            sent = self.store.subscriptions.queue_reminders()
            self.store.subscriptions.expire()
        except Exception:  # the reminders must not hold back the deadlines
            log.exception("worker %s could not queue the reminders", self.name)
            sent = 0
        for game_id in self.store.due_games():
            try:
                sent += self.stand_in(game_id)
                sent += self.store.act_when_due(game_id) is not None
            except (RuleError, StoreError):
                log.exception("the due action of game %s was refused", game_id)
        return sent

    def stand_in(self, game_id: str, now: datetime | None = None) -> int:
        """In a game whose creator chose so, the computer plays the turn of each seat whose time per move ran out
        (the lobby's first level, as any computer opponent through the versioned write); the seat's next turn is
        its holder's again, with a new time. How many actions it played."""
        moment = now or datetime.now(UTC)
        if self.store.tables.of(game_id).on_timeout != COMPUTER:
            return 0
        with self.store.game(game_id) as game:
            late = {seat: game.turn_began[seat] for seat, deadline in self.store.clock(game_id, game).items()
                    if deadline <= moment}
            ruleset = game.ruleset.name
        played = 0
        for seat, turn in late.items():
            bot = make_bot(ruleset, levels(ruleset)[0], seed=secrets.randbits(64), budget=self.budget)
            for _ in range(STAND_IN_ACTIONS):
                with self.store.game(game_id) as game:
                    if game.outcome is not None or game.turn_began.get(seat) != turn:
                        break  # that turn is over (its next one, if it has begun, is its holder's)
                    version, view, legal = game.version, game.view(seat), legal_for(game, seat, bot)
                action = chosen(bot, ruleset, levels(ruleset)[0], view, seat, legal)
                told = self._announcements(game_id, version, seat, action)
                try:
                    self.store.act(game_id, seat, version, action)
                    played += 1
                except StaleVersion:
                    continue  # another seat acted meanwhile: look again
                self._announce(game_id, seat, told)
        return played

    def _bot(self, game_id: str, ruleset: str, seat: str, level: str) -> Bot:
        key = (game_id, seat, level)
        bot = self._bots.get(key)
        if bot is None:
            bot = self._bots[key] = make_bot(ruleset, level, seed=secrets.randbits(64), budget=self.budget)
        self._bots.move_to_end(key)
        while len(self._bots) > KEPT_BOTS:
            self._bots.popitem(last=False)
        return bot


def chosen(bot: Bot, ruleset: str, level: str, view: Any, seat: str, legal: Any) -> Any:
    """The bot's choice, its time counted (``kadesh_bot_thinking_seconds``, by ruleset and level)."""
    started = time.perf_counter()
    action = bot.choose(view, seat, legal)
    BOT_THINKING.labels(ruleset, level).observe(time.perf_counter() - started)
    return action


def turn_began_at(game: Game, seat: str) -> datetime | None:
    """When ``seat``'s current turn began, as the store wrote it (the version that gave it the turn): a search
    bot's turn budget counts from there, whichever worker played the turn's first decisions."""
    version = game.turn_began.get(seat)
    return game.written_at[version] if version is not None and version < len(game.written_at) else None


def run_worker(url: str | None, budget: float | None = None, deadline_poll: float = DEADLINE_POLL,
               parent: int | None = None, lease: float = LEASE, notice_threads: int = NOTICE_THREADS) -> None:
    """``kadesh worker``: work until SIGTERM or SIGINT (or until ``parent`` is gone)."""
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    store = Store(url)
    try:
        Worker(store, budget=budget, deadline_poll=deadline_poll, lease=lease,
               notice_threads=notice_threads).run(stop, parent=parent)
    finally:
        store.close()


def settle(nice: int = 0, beside_web: bool = False) -> None:
    """A worker process's logging and place: ``nice`` lower priority; ``beside_web``, batch work off the web
    process's cores (``kadesh.server.priority``)."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    if nice:
        os.nice(nice)
    if beside_web:
        as_batch()


class LocalWorkers:
    """Worker processes started by this server for its own machine, at the first sign of work. Forked from the
    server's fork server rather than started as ``kadesh worker``: a new interpreter spent some 0.8 s of CPU
    importing the rules, the bots and the store, half of a short-lived worker's time (docs/performance.md)."""

    def __init__(self, url: str, count: int, budget: float | None = None,
                 deadline_poll: float = DEADLINE_POLL) -> None:
        self.url, self.count, self.budget, self.deadline_poll = url, count, budget, deadline_poll
        self.processes: list[BaseProcess] = []
        self._lock = threading.Lock()

    def ensure(self) -> None:
        """Start the workers if they are not running (cheap when they are)."""
        if self.count <= 0 or (self.processes and all(p.is_alive() for p in self.processes)):
            return
        with self._lock:
            for process in self.processes:
                if not process.is_alive():
                    ended(process)
            self.processes = [p for p in self.processes if p.is_alive()]
            context = children()
            while len(self.processes) < self.count:
                # The environment as it is now (the fork server's is the one it started with): the notices'
                # settings are read from it; the database's address is not on a command line for ps to show.
                # Daemonic: a server that exits without stopping them (no lifespan's end) stops them on its way
                # out, rather than waiting for them.
                process = context.Process(target=run_local_worker, name="kadesh worker", daemon=True,
                                          args=(self.url, self.budget, self.deadline_poll, dict(os.environ)))
                process.start()
                self.processes.append(process)

    def stop(self) -> None:
        with self._lock:
            processes, self.processes = self.processes, []
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(timeout=10)
            if process.is_alive():
                process.kill()
                process.join()
            ended(process)


def run_local_worker(url: str, budget: float | None, deadline_poll: float, environment: dict[str, str]) -> None:
    """A local worker, in a child of the server's fork server: as ``kadesh worker --nice 10 --beside-web``, until
    stopped or until the fork server, which ends with the server, is gone."""
    with contextlib.suppress(OSError):  # its name for ps and top (Linux): a fork shows its fork server's command line
        Path("/proc/self/comm").write_text(LOCAL_WORKER_NAME)
    os.environ.clear()
    os.environ.update(environment)
    settle(nice=LOCAL_NICENESS, beside_web=True)
    run_worker(url, budget=budget, deadline_poll=deadline_poll, parent=os.getppid())
