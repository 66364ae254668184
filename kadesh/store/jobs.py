"""The job queue of the worker processes, in the store's own database (SQLite or PostgreSQL).

A job is a row of ``jobs``. A bot's job is one action of one game at one version: the transaction that brings
a game to a version where a computer seat must act writes the job too (``enqueue``, in ``Store._write``), so a
job exists exactly when its action is due. Workers claim the oldest free job (``claim``; but see below): one
statement that marks it theirs for a lease; on PostgreSQL ``FOR UPDATE SKIP LOCKED`` lets workers claim side by
side, on SQLite the file's single writer makes them take turns. A worker that dies leaves its claim to expire,
and another takes the job again; the game's versioned write refuses the second of two answers, so an action
is played once. Games take turns because each job is one action: a game's next action queues behind the
others'.

Among the bots' jobs, those of games where a person waits (``PERSON_WAITS``) come before those of games where
the computer holds every seat (``COMPUTER_ONLY``), whatever their age (issue 40): anyone may open computer-only
games, and they must never delay a person's. They play when no person's game has a job free, so they may wait
as long as people's games keep every worker busy, and only while someone watches them (``kadesh.store.watches``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, Engine, and_, bindparam, delete, exists, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from kadesh.store import schema
from kadesh.store.metrics import JOB_WAIT
from kadesh.store.prepared import Prepared

log = logging.getLogger(__name__)

BOT = "bot"
RATE = "rate"  # a rated game ended: its players' ratings to update (kadesh.store.ratings)
GAME_KINDS = (BOT, RATE)  # the jobs of the workers' main loop; the others are notices, sent by their own threads
# Jobs that send one subscription a message; "messages" groups the messages at the table that came since the last
# such notice (one pending a subscription: its version is always 0).
NOTICES = ("turn", "ready", "over", "remind", "test", "confirm", "messages")
LEASE = 60.0  # seconds a claim lasts: a worker silent for longer is taken for dead (a bot's ceiling is far less)
MAX_ATTEMPTS = 5  # a job that failed this many times is dropped, and the failure logged
RETRY_PAUSE = 1.0  # seconds before a failed job is tried again, doubled at each attempt
# A bot job's priority, lowest first: a game where a person plays at least one seat, then a game where the
# computer plays every seat (a game master, person or not, plays none: four computer kingdoms are a computer-only
# campaign, which its game master watches). The column's default is a person's: a server of the previous
# release, which writes no priority, queues as before.
PERSON_WAITS, COMPUTER_ONLY = 0, 1

jobs = schema.jobs


@dataclass(frozen=True, slots=True)
class Job:
    id: int
    kind: str
    game_id: str
    version: int
    attempts: int
    target: str = ""  # a notice's subscription


def bot_priority(seats: Iterable[str], bots: Iterable[str]) -> int:
    """The priority of a game's bot jobs: a person waits unless the computer holds every one of ``seats``."""
    return COMPUTER_ONLY if set(seats) <= set(bots) else PERSON_WAITS


def utc_text(moment: datetime) -> str:
    """UTC as sortable text, the store's way of writing times it compares (``due_at``)."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def utc_moment(text: str) -> datetime:
    """The moment ``utc_text`` wrote."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def _now() -> datetime:
    return datetime.now(UTC)


def _enqueue_statement(dialect: str):  # noqa: ANN202 - a dialect's INSERT … ON CONFLICT DO NOTHING
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return (insert(jobs).values(kind=bindparam("kind"), game_id=bindparam("game_id"), version=bindparam("version"),
                                run_after=bindparam("run_after"), attempts=bindparam("attempts"),
                                target=bindparam("target"), priority=bindparam("priority"))
            .on_conflict_do_nothing(index_elements=["kind", "game_id", "version", "target"]))


_free = jobs.alias("free")


def _candidate(bots: bool):  # noqa: ANN202 - a SELECT
    """The first free job among the bots' (``bots``: a person's games first, then the oldest) or the oldest
    among the notices."""
    kind = _free.c.kind.in_(GAME_KINDS) if bots else _free.c.kind.not_in(GAME_KINDS)
    if bots:  # a computer-only game is played while someone watches it (kadesh.store.watches)
        watched = exists().where(schema.watches.c.game_id == _free.c.game_id,
                                 schema.watches.c.until > bindparam("now"))
        kind = and_(kind, or_(_free.c.priority == PERSON_WAITS, watched))
    order = (_free.c.priority, _free.c.id) if bots else (_free.c.id,)
    return (select(_free.c.id)
            .where(kind, _free.c.run_after <= bindparam("now"),
                   or_(_free.c.claimed_until.is_(None), _free.c.claimed_until < bindparam("now")))
            .order_by(*order).limit(1))


def _claim_statement(bots: bool):  # noqa: ANN202 - an UPDATE … RETURNING
    """Claim the first free job among the bots' (``bots``) or among the notices (``_candidate``)."""
    candidate = _candidate(bots).with_for_update(skip_locked=True)  # PostgreSQL: workers pass each other's claims
    return (update(jobs).where(jobs.c.id == candidate.scalar_subquery())
            .values(claimed_by=bindparam("worker"), claimed_until=bindparam("until"), attempts=jobs.c.attempts + 1)
            .returning(jobs.c.id, jobs.c.kind, jobs.c.game_id, jobs.c.version, jobs.c.attempts, jobs.c.target,
                       jobs.c.run_after, jobs.c.priority))


_CLAIM_BOT, _CLAIM_NOTICE = _claim_statement(bots=True), _claim_statement(bots=False)
_ANY_BOT, _ANY_NOTICE = _candidate(bots=True), _candidate(bots=False)
# The jobs free to be claimed now, by kind (``waiting``).
_WAITING = (select(jobs.c.kind, func.count()).where(
    jobs.c.run_after <= bindparam("now"), or_(jobs.c.claimed_until.is_(None), jobs.c.claimed_until < bindparam("now")))
    .group_by(jobs.c.kind))
_FINISH = delete(jobs).where(jobs.c.id == bindparam("job"), jobs.c.claimed_by == bindparam("worker"))
_DONE = delete(jobs).where(jobs.c.id == bindparam("job"))
_REPRIORITIZE = (update(jobs).where(jobs.c.game_id == bindparam("game"), jobs.c.kind == BOT)
                 .values(priority=bindparam("priority")))
# A computer-only game's paused job (``Ruleset.computer_round_pause``), due now that a person plays a seat; a failed
# job keeps its pause before the next attempt.
_HURRY = (update(jobs).where(jobs.c.game_id == bindparam("game"), jobs.c.kind == BOT, jobs.c.attempts == 0,
                             jobs.c.run_after > bindparam("now"))
          .values(run_after=bindparam("now")))
_POSTPONE = (update(jobs).where(jobs.c.id == bindparam("job"), jobs.c.claimed_by == bindparam("worker"))
             .values(claimed_by=None, claimed_until=None, run_after=bindparam("later"), attempts=jobs.c.attempts - 1))
_RETRY = (update(jobs).where(jobs.c.id == bindparam("job"), jobs.c.claimed_by == bindparam("worker"))
          .values(claimed_by=None, claimed_until=None, run_after=bindparam("later")))


class JobQueue:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        dialect = engine.dialect
        self._enqueue = Prepared(_enqueue_statement(dialect.name), dialect)
        self._done = Prepared(_DONE, dialect)

    def enqueue(self, conn: Connection, kind: str, game_id: str, version: int, target: str = "",
                priority: int = PERSON_WAITS, delay: float = 0.0) -> None:
        """Queue a job inside the caller's transaction, to run ``delay`` seconds from now at the soonest; a job
        already queued for that version (and target) stays one, with its priority and its time."""
        run_after = _now() + timedelta(seconds=delay) if delay else _now()
        self._enqueue.run(conn, kind=kind, game_id=game_id, version=version, run_after=utc_text(run_after),
                          attempts=0, target=target, priority=priority)

    def reprioritize(self, conn: Connection, game_id: str, priority: int) -> None:
        """Give the game's queued bot jobs ``priority``, inside the caller's transaction (its seats changed
        hands); a person's game does not wait for a computer-only game's pause."""
        conn.execute(_REPRIORITIZE, {"game": game_id, "priority": priority})
        if priority == PERSON_WAITS:
            conn.execute(_HURRY, {"game": game_id, "now": utc_text(_now())})

    def done(self, conn: Connection, job: int) -> None:
        """Delete a job inside the caller's transaction: the one that wrote the job's action."""
        self._done.run(conn, job=job)

    def claim(self, worker: str, lease: float = LEASE, notices: bool = False) -> Job | None:
        """The first free bot's job (a person's games first, then the oldest) or the oldest notice's (with
        ``notices``), now this worker's for ``lease`` seconds; None when there is none."""
        now = _now()
        with self.engine.connect() as conn:  # a read first: an idle worker takes no write lock (SQLite's is one)
            if conn.execute(_ANY_NOTICE if notices else _ANY_BOT, {"now": utc_text(now)}).first() is None:
                return None
        with self.engine.begin() as conn:
            row = conn.execute(_CLAIM_NOTICE if notices else _CLAIM_BOT, {
                "now": utc_text(now), "worker": worker, "until": utc_text(now + timedelta(seconds=lease))}).first()
        if row is None:
            return None
        if row.priority == PERSON_WAITS:  # a computer-only game's job waits for a watcher by design: not a delay
            JOB_WAIT.labels(row.kind).observe(max(0.0, (now - utc_moment(row.run_after)).total_seconds()))
        return Job(row.id, row.kind, row.game_id, row.version, row.attempts, row.target)

    def finish(self, job: Job, worker: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(_FINISH, {"job": job.id, "worker": worker})

    def retry(self, job: Job, worker: str, pause: float = RETRY_PAUSE, attempts: int = MAX_ATTEMPTS) -> bool:
        """Give a failed job back, to be tried again after ``pause`` (doubled at each attempt); dropped after
        ``attempts``. Whether it will be tried again."""
        if job.attempts >= attempts:
            log.error("job %s (%s, game %s at version %s) dropped after %s attempts", job.id, job.kind,
                      job.game_id, job.version, job.attempts)
            self.finish(job, worker)
            return False
        later = _now() + timedelta(seconds=pause * 2 ** (job.attempts - 1))
        with self.engine.begin() as conn:
            conn.execute(_RETRY, {"job": job.id, "worker": worker, "later": utc_text(later)})
        return True

    def postpone(self, job: Job, worker: str, seconds: float) -> None:
        """Give a job back to be tried in ``seconds``, as if it had not been tried (a sending limit, not a fault)."""
        later = _now() + timedelta(seconds=seconds)
        with self.engine.begin() as conn:
            conn.execute(_POSTPONE, {"job": job.id, "worker": worker, "later": utc_text(later)})

    def waiting(self) -> dict[str, int]:
        """How many jobs of each kind are free to be claimed now (due, and nobody's claim)."""
        with self.engine.connect() as conn:
            return dict(conn.execute(_WAITING, {"now": utc_text(_now())}).all())

    def pending(self) -> int:
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(jobs)).scalar_one()
