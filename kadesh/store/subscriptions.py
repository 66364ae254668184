"""Each seat's subscriptions: where it wants to hear that it is its turn (an e-mail address, a webhook URL).

A subscription belongs to a seat, not to a person (seats are links, there are no accounts). It keeps the
seat's link, which every notice carries, so it lives exactly as long as that link: reissuing the seat's
token deletes it (``Store.reissue_token``). Notices are queued in the transaction of the action that makes
them due (``Store._write``) as jobs aimed at one subscription; ``kadesh.server.delivery`` sends them.

An e-mail subscription is sent one message, its confirmation, and nothing else until the address's owner opens
the link it carries (``confirm``); one left unconfirmed for ``CONFIRM_WITHIN`` is deleted. Whoever holds a seat
can type any address: confirmations to one address are counted (``CONFIRMATIONS_PER_ADDRESS`` a day), and so
are a whole server's (``Mailing.per_hour``), in the ``emails`` table that every worker and server shares.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

from sqlalchemy import ColumnElement, Connection, Engine, delete, func, select, true, update

from kadesh.store import schema
from kadesh.store.errors import TokenRevoked
from kadesh.store.jobs import JobQueue, utc_text

subscriptions = schema.subscriptions
emails = schema.emails

MAX_PER_SEAT = 5  # a seat's subscriptions at most: enough for a mail and a chat or two
REMINDER_HORIZON = timedelta(days=7)  # the longest reminder offered (``remind_before`` is in minutes)
CONFIRM_WITHIN = timedelta(hours=24)  # an e-mail subscription not confirmed by then is deleted
CONFIRMATIONS_PER_ADDRESS = 3  # confirmation messages to one address per day: a typo, then a second try
EMAILS_PER_ADDRESS_HOUR = 30  # notices to one address per hour: a busy player's many games; beyond, they wait
EMAILS_PER_HOUR = 500  # every e-mail of the server per hour, by default (KADESH_EMAILS_PER_HOUR): the SMTP's quota
DAY, HOUR = timedelta(days=1), timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class Subscription:
    id: str
    game_id: str
    seat: str
    channel: str  # "email" or "webhook"
    address: str
    style: str  # a webhook's body: "kadesh", "discord", "slack"; "" for e-mail
    lang: str
    link: str  # the seat's link: its secret
    unsubscribe_key: str
    remind_before: int | None  # minutes
    last_sent_at: str | None
    last_error: str | None
    last_error_at: str | None
    confirmed_at: str | None = None  # None: an e-mail address not confirmed yet
    confirm_key: str | None = None

    @classmethod
    def from_row(cls, row: Any) -> Subscription:
        return cls(row.id, row.game_id, row.seat, row.channel, row.address, row.style, row.lang, row.link,
                   row.unsubscribe_key, row.remind_before, row.last_sent_at, row.last_error, row.last_error_at,
                   row.confirmed_at, row.confirm_key)

    @property
    def confirmed(self) -> bool:
        return self.confirmed_at is not None


class TooManySubscriptions(Exception):
    """The seat has ``MAX_PER_SEAT`` subscriptions already."""


class TooManyEmails(Exception):
    """A confirmation message would pass a sending limit; ``wait``: seconds until it would not."""

    def __init__(self, limit: str, wait: int) -> None:
        super().__init__(f"{limit}: {wait} s")
        self.limit, self.wait = limit, wait


def address_key(address: str) -> str:
    """How the ``emails`` table names an address: a hash, the same whatever its letters' case."""
    return hashlib.sha256(address.strip().lower().encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Mailing:
    """The sending limits: confirmations per address and day, notices per address and hour, every e-mail of
    the server per hour."""

    confirmations_per_address: int = CONFIRMATIONS_PER_ADDRESS
    per_address_hour: int = EMAILS_PER_ADDRESS_HOUR
    per_hour: int = EMAILS_PER_HOUR


def _wait(conn: Any, where: Any, since: datetime, limit: int, window: timedelta, now: datetime) -> int:
    """Seconds until fewer than ``limit`` rows of ``emails`` matching ``where`` fall in the window; 0: now."""
    rows = conn.execute(select(emails.c.at).where(where, emails.c.at > utc_text(since))
                        .order_by(emails.c.at.desc()).limit(limit)).scalars().all()
    if len(rows) < limit:
        return 0
    return max(1, int((_parse(rows[-1]) + window - now).total_seconds()) + 1)


class Subscriptions:
    def __init__(self, engine: Engine, jobs: JobQueue) -> None:
        self.engine = engine
        self.jobs = jobs

    def add(self, game_id: str, seat: str, channel: str, address: str, style: str, lang: str, link: str,
            remind_before: int | None = None, holder: str | None = None, mailing: Mailing = Mailing(),
            now: datetime | None = None, confirmed: bool = False) -> Subscription:
        """A new subscription of ``seat`` (TooManySubscriptions past ``MAX_PER_SEAT``). ``holder``, the hash of
        the token the subscriber showed, must still be the seat's when the row is written (TokenRevoked if a
        reissue replaced it meanwhile: the subscription would carry a dead link to its old holder). An e-mail
        subscription waits for its confirmation, whose message is queued here (TooManyEmails past a limit),
        unless its address is ``confirmed`` already (an account's: a sign-in link reached it)."""
        moment = now or datetime.now(UTC)
        email = channel == "email" and not confirmed
        row = {"id": secrets.token_hex(8), "game_id": game_id, "seat": seat, "channel": channel, "address": address,
               "style": style, "lang": lang, "link": link, "unsubscribe_key": secrets.token_urlsafe(24),
               "remind_before": remind_before, "reminded_for": None, "created_at": moment,
               "last_sent_at": None, "last_error": None, "last_error_at": None,
               "confirmed_at": None if email else utc_text(moment),
               "confirm_key": secrets.token_urlsafe(24) if email else None}
        with self.engine.begin() as conn:
            # The first statement writes the game's row: SQLite's write lock, PostgreSQL's row lock, as a
            # reissue takes them; the token and the count are then read with no reissue or subscription between.
            conn.execute(update(schema.games).where(schema.games.c.id == game_id)
                         .values(version=schema.games.c.version))
            if holder is not None and conn.execute(select(schema.tokens.c.hash).where(
                    schema.tokens.c.hash == holder, schema.tokens.c.game_id == game_id,
                    schema.tokens.c.seat == seat)).first() is None:
                raise TokenRevoked("token replaced by a reissue")
            count = conn.execute(select(func.count()).select_from(subscriptions).where(
                subscriptions.c.game_id == game_id, subscriptions.c.seat == seat)).scalar_one()
            if count >= MAX_PER_SEAT:
                raise TooManySubscriptions()
            if email:
                self.promise_email(conn, address, mailing, moment)
            conn.execute(subscriptions.insert().values(**row))
            if email:
                self.jobs.enqueue(conn, "confirm", game_id, 0, row["id"])
        return Subscription.from_row(SimpleNamespace(**row))

    @staticmethod
    def promise_email(conn: Connection, address: str, mailing: Mailing, moment: datetime) -> None:
        """Count the confirmation message (or sign-in link) to ``address`` now, when it is asked for (a request
        is what an abuser repeats), unless it would pass the address's daily share or the server's hourly one."""
        key = address_key(address)
        wait = _wait(conn, (emails.c.address == key) & (emails.c.kind == "confirm"), moment - DAY,
                     mailing.confirmations_per_address, DAY, moment)
        if wait:
            raise TooManyEmails("address", wait)
        wait = _wait(conn, true(), moment - HOUR, mailing.per_hour, HOUR, moment)
        if wait:
            raise TooManyEmails("server", wait)
        conn.execute(emails.insert().values(address=key, kind="confirm", at=utc_text(moment)))

    def email_wait(self, address: str, mailing: Mailing, now: datetime | None = None) -> int:
        """Seconds a notice to ``address`` must wait to stay within the sending limits; 0: send it now."""
        moment = now or datetime.now(UTC)
        with self.engine.connect() as conn:
            return (_wait(conn, emails.c.address == address_key(address), moment - HOUR, mailing.per_address_hour,
                          HOUR, moment)
                    or _wait(conn, true(), moment - HOUR, mailing.per_hour, HOUR, moment))

    def count_email(self, address: str, kind: str, now: datetime | None = None) -> None:
        """A notice was mailed to ``address``: it counts towards the limits for the next hour."""
        with self.engine.begin() as conn:
            conn.execute(emails.insert().values(address=address_key(address), kind=kind,
                                                at=utc_text(now or datetime.now(UTC))))

    def confirm(self, key: str, now: datetime | None = None) -> Subscription | None:
        """The confirmation link's work: the subscription it names, confirmed (already, or now if it has not
        expired); None if there is none."""
        moment = now or datetime.now(UTC)
        with self.engine.begin() as conn:
            conn.execute(update(subscriptions).where(
                subscriptions.c.confirm_key == key, subscriptions.c.confirmed_at.is_(None),
                subscriptions.c.created_at > moment - CONFIRM_WITHIN).values(confirmed_at=utc_text(moment)))
            row = conn.execute(select(subscriptions).where(subscriptions.c.confirm_key == key)).first()
        found = Subscription.from_row(row) if row is not None else None
        return found if found is not None and found.confirmed else None

    def by_confirm_key(self, key: str) -> Subscription | None:
        return self._first(subscriptions.c.confirm_key == key)

    def expire(self, now: datetime | None = None) -> int:
        """Delete the e-mail subscriptions left unconfirmed for ``CONFIRM_WITHIN``, and the counts of e-mails
        older than a day (no limit looks further back); how many subscriptions went."""
        moment = now or datetime.now(UTC)
        with self.engine.begin() as conn:
            gone = conn.execute(delete(subscriptions).where(
                subscriptions.c.confirmed_at.is_(None), subscriptions.c.created_at <= moment - CONFIRM_WITHIN)).rowcount
            conn.execute(delete(emails).where(emails.c.at <= utc_text(moment - DAY)))
        return gone

    def of_seat(self, game_id: str, seat: str) -> list[Subscription]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(subscriptions).where(subscriptions.c.game_id == game_id,
                                                            subscriptions.c.seat == seat)
                                .order_by(subscriptions.c.created_at, subscriptions.c.id)).all()
        return [Subscription.from_row(row) for row in rows]

    def get(self, subscription_id: str) -> Subscription | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(subscriptions).where(subscriptions.c.id == subscription_id)).first()
        return Subscription.from_row(row) if row is not None else None

    def by_key(self, key: str) -> Subscription | None:
        return self._first(subscriptions.c.unsubscribe_key == key)

    def _first(self, condition: ColumnElement[bool]) -> Subscription | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(subscriptions).where(condition)).first()
        return Subscription.from_row(row) if row is not None else None

    def remove(self, game_id: str, seat: str, subscription_id: str) -> bool:
        """Delete one of the seat's subscriptions; whether there was one."""
        with self.engine.begin() as conn:
            return conn.execute(delete(subscriptions).where(
                subscriptions.c.id == subscription_id, subscriptions.c.game_id == game_id,
                subscriptions.c.seat == seat)).rowcount == 1

    def remove_by_key(self, key: str) -> bool:
        """The unsubscribe link's work: delete the subscription it names; whether there was one."""
        with self.engine.begin() as conn:
            return conn.execute(delete(subscriptions).where(subscriptions.c.unsubscribe_key == key)).rowcount == 1

    def ask_test(self, subscription: Subscription) -> None:
        """Queue a test notice (one a second at most: a double click sends one)."""
        with self.engine.begin() as conn:
            self.jobs.enqueue(conn, "test", subscription.game_id, int(datetime.now(UTC).timestamp()),
                              subscription.id)

    def record(self, subscription_id: str, error: str | None, now: datetime | None = None) -> None:
        """How the last delivery went: sent (``error`` None) or failed, and why (shown on the seat's page)."""
        moment = utc_text(now or datetime.now(UTC))
        values = ({"last_sent_at": moment, "last_error": None, "last_error_at": None} if error is None
                  else {"last_error": error[:300], "last_error_at": moment})
        with self.engine.begin() as conn:
            conn.execute(update(subscriptions).where(subscriptions.c.id == subscription_id).values(**values))

    def queue_reminders(self, now: datetime | None = None) -> int:
        """Queue a reminder for every subscription whose seat must still act before its game's deadline and
        whose time to be reminded has come; once per deadline, whichever worker looks first (the subscription's
        ``reminded_for`` is set in the same transaction, on condition). How many were queued."""
        moment = now or datetime.now(UTC)
        games = schema.games
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(subscriptions.c.id, subscriptions.c.seat, subscriptions.c.remind_before,
                       subscriptions.c.reminded_for, games.c.id.label("game_id"), games.c.due_at, games.c.version)
                .join(games, games.c.id == subscriptions.c.game_id)
                .where(subscriptions.c.remind_before.is_not(None), subscriptions.c.confirmed_at.is_not(None),
                       games.c.due_at.is_not(None),
                       games.c.due_at > utc_text(moment),
                       games.c.due_at <= utc_text(moment + REMINDER_HORIZON))).all()
        queued = 0
        for row in rows:
            if row.reminded_for == row.due_at or _parse(row.due_at) - timedelta(minutes=row.remind_before) > moment:
                continue
            with self.engine.begin() as conn:
                taken = conn.execute(update(subscriptions).where(
                    subscriptions.c.id == row.id,
                    (subscriptions.c.reminded_for.is_(None)) | (subscriptions.c.reminded_for != row.due_at))
                    .values(reminded_for=row.due_at)).rowcount
                if taken == 1:
                    self.jobs.enqueue(conn, "remind", row.game_id, row.version, row.id)
                    queued += 1
        return queued


def _parse(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
