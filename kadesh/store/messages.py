"""Messages at a game's table (issue 43): who may read and write which channel, and the messages themselves.

Messages live beside the game in the store, not in its record: writing one never changes the game's version or
state, and the rules never read them (``view`` stays the one filter of what a seat sees of the game; this module is
the one filter of what it reads of the talk). Each message has exactly one channel, and its readers are that
channel's:

- ``table``: everyone at the table (every seat, each kingdom's Seigneur, the game master) and the game's owner;
- ``spectators``: the spectators' own, which every player may read too (or hide on their page);
- ``pair:a,b``: two seats, where the game has more than two (a kingdom and the game master's seat, always, unless
  nobody holds his seat);
- ``council:k`` and ``draft:k``: a kingdom's Chef militaire and Seigneur (its talk, and its draft of orders);
- ``moderation``: what is reported to the moderator (the game master's seat where there is one, and the owner).

The moderators (the game master, the owner) read the pairs between kingdoms and the councils' talk only when the
table says so (``master_reads``, off by default: Imhotep judges the orders he receives, not the talk behind them);
a council's draft of orders is its own, never theirs: the orders reach Imhotep when the Chef sends them. Press
(``full``, ``public``, ``none``) says who may write: under ``none`` a seat writes only to the game master; a
kingdom's draft of orders is no press and is always kept.

A message's ``seq`` is its game's counter (``games.messages``) taken under the game row's lock, in the message's
own transaction: messages commit in their order, so a reader who asks for "after n" misses none.
"""

from __future__ import annotations

import contextlib
import threading
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, select, update

from kadesh.store import schema
from kadesh.store.errors import StoreError
from kadesh.store.jobs import JobQueue, utc_text
from kadesh.store.table import FULL, NO_PRESS, TableSettings
from kadesh.store.tokens import LORD, OWNER, SEAT, SPECTATOR, Access

TABLE, SPECTATORS, MODERATION = "table", "spectators", "moderation"
PAIR, COUNCIL, DRAFT = "pair:", "council:", "draft:"
TEXT, DRAFTED, ALLIANCE, HIDDEN, REPORT = "text", "draft", "alliance", "hidden", "report"
COMPUTER = "computer"  # the writer's role when a computer kingdom announces its alliances

MAX_TEXT = 2_000  # characters in one message
MAX_DRAFT = 20_000  # characters in a draft of orders: as many as an order message (Royaumes' orders.MAX_TEXT)
HISTORY = 300  # the latest messages a reader gets at once (a page's first load, a socket's first frame)
NOTICE_GAP = 300  # seconds: a seat's notices of new messages group what comes within this long, one at most per gap
MESSAGE_NOTICE = "messages"  # the notice job's kind (kadesh.store.jobs.NOTICES)
NOTIFIED = (TEXT, ALLIANCE, DRAFTED, REPORT)  # what a notice of messages tells (not moderations)

messages = schema.messages


class MessageRefused(StoreError):
    """A message that may not be written or read as asked: the status and the words to answer."""

    def __init__(self, status: int, code: str, fr: str, en: str) -> None:
        super().__init__(en)
        self.status, self.code, self.fr, self.en = status, code, fr, en


@dataclass(frozen=True, slots=True)
class Shape:
    """What the channels of a game depend on: its seats, its game master's, and its table's settings."""

    seats: tuple[str, ...]
    masters: tuple[str, ...] = ()
    press: str = FULL
    councils: bool = False
    master_reads: bool = False
    unread: tuple[str, ...] = ()  # seats nobody holds to read (the game master's where Kadesh referees alone)

    @classmethod
    def of(cls, seats: Iterable[str], masters: Iterable[str], table: TableSettings) -> Shape:
        masters = tuple(masters)
        return cls(tuple(seats), masters, table.press, table.councils, table.master_reads,
                   masters if table.referee else ())

    @property
    def kingdoms(self) -> tuple[str, ...]:
        """The seats that may have a council: every seat but the game master's."""
        return tuple(seat for seat in self.seats if seat not in self.masters)

    def pairs(self) -> list[str]:
        """The private channels: every two seats where there are more than two, else none; a seat and the game
        master's always, unless nobody holds his seat (a channel nobody reads is not offered)."""
        many = len(self.seats) > 2
        return [pair_channel(a, b) for i, a in enumerate(self.seats) for b in self.seats[i + 1:]
                if (many or a in self.masters or b in self.masters) and not {a, b} & set(self.unread)]

    def channels(self) -> list[str]:
        out = [TABLE, SPECTATORS, *self.pairs()]
        if self.councils:
            out += [f"{prefix}{kingdom}" for kingdom in self.kingdoms for prefix in (COUNCIL, DRAFT)]
        return [*out, MODERATION]

    def is_master(self, access: Access) -> bool:
        return access.role == SEAT and access.seat in self.masters

    def moderates(self, access: Access) -> bool:
        """The game master where there is one, and the owner: they hide messages and receive reports."""
        return access.role == OWNER or self.is_master(access)

    def reads(self, access: Access, channel: str) -> bool:
        """Whether ``access`` may read ``channel`` (one of ``channels()``)."""
        player = access.role in (SEAT, LORD)
        if channel == TABLE:
            return player or access.role == OWNER
        if channel == SPECTATORS:
            return True
        if channel == MODERATION:
            return self.moderates(access)
        overseer = self.master_reads and self.moderates(access) and not channel.startswith(DRAFT)
        if channel.startswith(PAIR):
            return (player and access.seat in pair_members(channel)) or overseer
        kingdom = channel.partition(":")[2]
        return (player and access.seat == kingdom) or overseer

    def readable(self, access: Access) -> list[str]:
        return [channel for channel in self.channels() if self.reads(access, channel)]

    def write_problem(self, access: Access, channel: str, signed_in: bool = False) -> MessageRefused | None:
        """Why ``access`` may not write ``channel``, or None. ``signed_in``: a spectator who writes from an account
        (a public game's spectators have no link of their own: without an account they only read)."""
        if channel not in self.channels():
            return MessageRefused(422, "unknown_channel", "Ce canal n'existe pas dans cette partie.",
                                  "This channel does not exist in this game.")
        if channel == MODERATION or channel.startswith(DRAFT):
            return MessageRefused(422, "not_a_message_channel", "On n'écrit pas de message sur ce canal.",
                                  "Messages are not written on this channel.")
        if not self.reads(access, channel) or (channel == TABLE and access.role == OWNER):
            return MessageRefused(403, "not_your_channel", "Ce canal n'est pas le tien : tu ne peux pas y écrire.",
                                  "This channel is not yours: you cannot write on it.")
        if access.role == SPECTATOR and not signed_in:
            return MessageRefused(403, "sign_in_to_write", "Les spectateurs écrivent depuis leur compte ou le lien "
                                  "des spectateurs.", "Spectators write from their account or the spectators' link.")
        if access.role in (SEAT, LORD) and not self._press_allows(access, channel):
            return MessageRefused(403, "press_closed", "Cette partie n'autorise pas ces messages (presse « "
                                  f"{PRESS_WORDS[self.press][0]} »).", "This game does not allow these messages "
                                  f"(press: {PRESS_WORDS[self.press][1]}).")
        return None

    def _press_allows(self, access: Access, channel: str) -> bool:
        if self.is_master(access) or (channel.startswith(PAIR) and any(m in pair_members(channel)
                                                                          for m in self.masters)):
            return True  # the game master speaks, and is written to, whatever the press
        if self.press == NO_PRESS:
            return False
        return self.press == FULL or channel in (TABLE, SPECTATORS)

    def audience(self, channel: str) -> list[Access]:
        """Every seat-holder who reads ``channel`` (for notices): seats and their Seigneurs."""
        holders = [Access("", SEAT, seat) for seat in self.seats]
        if self.councils:
            holders += [Access("", LORD, seat) for seat in self.kingdoms]
        return [holder for holder in holders if self.reads(holder, channel)]


PRESS_WORDS = {"full": ("complète", "full"), "public": ("publique seulement", "public only"),
               "none": ("aucune", "none")}


def pair_channel(a: str, b: str) -> str:
    return PAIR + ",".join(sorted((a, b)))


def pair_members(channel: str) -> tuple[str, ...]:
    return tuple(channel.removeprefix(PAIR).split(","))


def clean_text(text: str, most: int) -> str:
    """Plain text as written: line breaks kept (at most two in a row), tabs as spaces, every other control or
    format character refused; empty or longer than ``most`` refused."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n").replace("\t", " ")).strip()
    if any(ch != "\n" and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co") for ch in text):
        raise MessageRefused(422, "control_character", "Un message est du texte : pas de caractère de contrôle.",
                             "A message is text: no control character.")
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    if not text:
        raise MessageRefused(422, "empty_message", "Le message est vide.", "The message is empty.")
    if len(text) > most:
        raise MessageRefused(422, "message_too_long", f"Un message a {most} caractères au plus.",
                             f"A message has {most} characters at most.")
    return text


@dataclass(frozen=True, slots=True)
class Message:
    seq: int
    channel: str
    kind: str
    role: str
    seat: str | None
    author: str | None
    body: str
    data: dict[str, Any] | None
    created_at: str
    hidden: bool

    def seen_as(self) -> dict[str, Any]:
        """The message as its readers get it: a hidden one without its words."""
        out = {"seq": self.seq, "channel": self.channel, "kind": self.kind, "role": self.role, "seat": self.seat,
               "author": self.author, "at": self.created_at, "hidden": self.hidden,
               "body": "" if self.hidden else self.body}
        if self.data and not self.hidden:
            out["data"] = self.data
        return out


def _message(row: Any) -> Message:
    return Message(row.seq, row.channel, row.kind, row.role, row.seat, row.author, row.body, row.data,
                   row.created_at, bool(row.hidden))


class Messages:
    def __init__(self, engine: Engine, writing: threading.Lock | contextlib.nullcontext, jobs: JobQueue) -> None:
        self.engine, self._writing, self.jobs = engine, writing, jobs

    # -- writing ------------------------------------------------------------------
    def post(self, game_id: str, shape: Shape, channel: str, kind: str, writer: Access, body: str,
             author: str | None = None, data: dict[str, Any] | None = None, author_id: str | None = None) -> Message:
        """Write one message (its rights checked by the caller): its number taken under the game row's lock, and
        its readers' notices queued in the same transaction. ``author``: the writer's account name, ``author_id``
        that account (deleting it wipes the name)."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            return self._post(conn, game_id, shape, channel, kind, writer.role, writer.seat, body, author, data,
                              author_id)

    def _post(self, conn: Connection, game_id: str, shape: Shape, channel: str, kind: str, role: str,
              seat: str | None, body: str, author: str | None, data: dict[str, Any] | None,
              author_id: str | None = None) -> Message:
        seq = conn.execute(update(schema.games).where(schema.games.c.id == game_id)
                           .values(messages=schema.games.c.messages + 1)
                           .returning(schema.games.c.messages)).scalar_one()
        now = utc_text(datetime.now(UTC))
        conn.execute(insert(messages).values(game_id=game_id, seq=seq, channel=channel, kind=kind, role=role,
                                             seat=seat, author=author, author_id=author_id, body=body, data=data,
                                             created_at=now))
        if kind in NOTIFIED:
            self._queue_notices(conn, game_id, shape, channel, seat if role in (SEAT, COMPUTER) else None)
        if conn.dialect.name == "postgresql":
            conn.execute(select(func.pg_notify(schema.NOTIFY_CHANNEL, f"{game_id} m{seq}")))
        return Message(seq, channel, kind, role, seat, author, body, data, now, False)

    def _queue_notices(self, conn: Connection, game_id: str, shape: Shape, channel: str, writer: str | None) -> None:
        """A notice of messages for each confirmed subscription of a seat that reads ``channel`` (not the writer's),
        ``NOTICE_GAP`` from now unless one is pending already: it takes whatever comes meanwhile."""
        readers = {holder.seat for holder in shape.audience(channel) if holder.role == SEAT} - {writer}
        if not readers:
            return
        subscriptions = schema.subscriptions
        found = conn.execute(select(subscriptions.c.id).where(
            subscriptions.c.game_id == game_id, subscriptions.c.seat.in_(readers),
            subscriptions.c.confirmed_at.is_not(None))).scalars()
        for subscription in found:
            self.jobs.enqueue(conn, MESSAGE_NOTICE, game_id, 0, target=subscription, delay=NOTICE_GAP)

    def notified(self, game_id: str, subscription: str) -> int:
        """The last message a subscription's notices told of (0: none yet)."""
        table = schema.message_notices
        with self.engine.connect() as conn:
            return conn.execute(select(table.c.seen).where(table.c.game_id == game_id,
                                                           table.c.subscription == subscription)).scalar() or 0

    def mark_notified(self, game_id: str, subscription: str, seen: int) -> None:
        table = schema.message_notices
        which = (table.c.game_id == game_id, table.c.subscription == subscription)
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(delete(table).where(*which))
            conn.execute(insert(table).values(game_id=game_id, subscription=subscription, seen=seen))

    def hide(self, game_id: str, seq: int, moderator: Access, shape: Shape) -> Message:
        """Hide message ``seq`` for everyone; the act itself is a line of the same channel (kind ``hidden``), which
        its readers see and the exports keep, and, for a reported message, a line of the reports too: every
        moderator learns that it was hidden, even one who does not read its channel. 404 if the moderator could not
        have seen it."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            target = self._one(conn, game_id, seq)
            reported = self._reported(conn, game_id, seq)
            if target is None or not (shape.reads(moderator, target.channel) or reported):
                raise _no_message()
            if target.kind in (HIDDEN, REPORT) or target.hidden:
                raise MessageRefused(409, "already_hidden", "Ce message est déjà masqué (ou ne se masque pas).",
                                     "This message is hidden already (or cannot be).")
            conn.execute(update(messages).where(messages.c.game_id == game_id, messages.c.seq == seq)
                         .values(hidden=True))
            if reported:
                self._post(conn, game_id, shape, MODERATION, HIDDEN, moderator.role, moderator.seat, "", None,
                           {"target": seq, "seat": target.seat, "role": target.role})
            return self._post(conn, game_id, shape, target.channel, HIDDEN, moderator.role, moderator.seat, "", None,
                              {"target": seq, "seat": target.seat, "role": target.role})

    def report(self, game_id: str, seq: int, reporter: Access, reporter_key: str, shape: Shape) -> Message:
        """Forward message ``seq``, which ``reporter`` reads, to the moderator (once per reporter)."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            target = self._one(conn, game_id, seq)
            if target is None or not shape.reads(reporter, target.channel) or target.kind in (HIDDEN, REPORT):
                raise _no_message()
            done = conn.execute(select(schema.message_reports.c.seq).where(
                schema.message_reports.c.game_id == game_id, schema.message_reports.c.seq == seq,
                schema.message_reports.c.reporter == reporter_key)).first()
            if done is not None:
                raise MessageRefused(409, "already_reported", "Tu as déjà signalé ce message.",
                                     "You have reported this message already.")
            conn.execute(insert(schema.message_reports).values(game_id=game_id, seq=seq, reporter=reporter_key))
            return self._post(conn, game_id, shape, MODERATION, REPORT, reporter.role, reporter.seat,
                              "" if target.hidden else target.body, None,
                              {"target": seq, "channel": target.channel, "seat": target.seat, "role": target.role,
                               "author": target.author})

    def mute(self, game_id: str, seat: str, muted: str, on: bool) -> None:
        table = schema.message_mutes
        which = (table.c.game_id == game_id, table.c.seat == seat, table.c.muted == muted)
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(delete(table).where(*which))
            if on:
                conn.execute(insert(table).values(game_id=game_id, seat=seat, muted=muted))

    # -- reading ------------------------------------------------------------------
    def muted_by(self, game_id: str, seat: str | None) -> list[str]:
        if seat is None:
            return []
        table = schema.message_mutes
        with self.engine.connect() as conn:
            return list(conn.execute(select(table.c.muted).where(table.c.game_id == game_id, table.c.seat == seat)
                                     .order_by(table.c.muted)).scalars())

    def last(self, game_id: str) -> int:
        with self.engine.connect() as conn:
            return conn.execute(select(schema.games.c.messages).where(schema.games.c.id == game_id)).scalar() or 0

    def read(self, game_id: str, access: Access, shape: Shape, after: int = 0, channels: Iterable[str] | None = None,
             limit: int = HISTORY) -> list[Message]:
        """What ``access`` reads after ``after``, oldest first: the ``limit`` latest of its channels (``channels``,
        or every one it reads), without the seats it muted (moderation lines always come)."""
        allowed = shape.readable(access)
        wanted = [c for c in (channels if channels is not None else allowed) if c in allowed]
        if not wanted:
            return []
        muted = self.muted_by(game_id, access.seat) if access.role in (SEAT, LORD) else []
        query = (select(messages).where(messages.c.game_id == game_id, messages.c.seq > after,
                                        messages.c.channel.in_(wanted))
                 .order_by(messages.c.seq.desc()).limit(limit))
        if muted:
            query = query.where((messages.c.seat.is_(None)) | (messages.c.seat.not_in(muted))
                                | (messages.c.kind == HIDDEN) | (messages.c.channel == MODERATION))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [_message(row) for row in reversed(rows)]

    def draft(self, game_id: str, kingdom: str) -> Message | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(messages).where(messages.c.game_id == game_id,
                                                      messages.c.channel == DRAFT + kingdom)
                               .order_by(messages.c.seq.desc()).limit(1)).first()
        return _message(row) if row is not None else None

    def _one(self, conn: Connection, game_id: str, seq: int) -> Message | None:
        row = conn.execute(select(messages).where(messages.c.game_id == game_id, messages.c.seq == seq)).first()
        return _message(row) if row is not None else None

    def _reported(self, conn: Connection, game_id: str, seq: int) -> bool:
        table = schema.message_reports
        return conn.execute(select(table.c.seq).where(table.c.game_id == game_id, table.c.seq == seq)
                            .limit(1)).first() is not None


def _no_message() -> MessageRefused:
    return MessageRefused(404, "message_not_found", "Message inconnu.", "Unknown message.")
