"""Players' accounts beside the games (issue 41): players, their passkeys and sessions, sign-in links, and the
seats they hold from their accounts. Rules never read any of it; a game is played by its links as ever.

Secrets are kept as SHA-256 hashes (a session's cookie, a sign-in link's key once sent), as the games' tokens
are. Times are UTC text, as ``due_at`` (``kadesh.store.jobs.utc_text``): they sort and compare as text.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, Engine, and_, delete, func, select, update
from sqlalchemy.exc import IntegrityError

from kadesh.store import schema
from kadesh.store.errors import StoreError
from kadesh.store.jobs import utc_text
from kadesh.store.maps import author_gone
from kadesh.store.names import clean_name, name_key
from kadesh.store.subscriptions import Mailing, Subscriptions
from kadesh.store.tokens import LORD, OWNER, SEAT, token_hash

SESSION_LIFE = timedelta(days=30)  # a session unused this long ends (each use pushes it on)
SESSION_SEEN_EVERY = timedelta(hours=1)  # a session's last use is written at most this often
CEREMONY_LIFE = timedelta(minutes=5)  # a passkey's ceremony must end within this
SIGN_IN_LINK_LIFE = timedelta(minutes=15)  # an e-mailed sign-in link works once, within this
GAMES_LISTED = 200  # an account's games listed at most (the latest active)

players, passkeys, sessions = schema.players, schema.passkeys, schema.sessions
ceremonies, sign_in_links, claims = schema.ceremonies, schema.sign_in_links, schema.claims
account_webhooks = schema.account_webhooks
WEBHOOKS_PER_ACCOUNT = 3  # an account's webhooks at most (each also takes a place among a seat's subscriptions)


class NameTaken(StoreError):
    """Another player has this name, or one that looks like it (409)."""

    code = "name_taken"


class PasskeyTaken(StoreError):
    """Another account has a passkey of this credential id already (409)."""

    code = "passkey_taken"


class AddressTaken(StoreError):
    """Another account has this confirmed address (409)."""

    code = "address_taken"


@dataclass(frozen=True, slots=True)
class SignInLink:
    address: str
    lang: str
    player_id: str | None  # the account that asked to add the address; None: a sign-in link


class SeatClaimed(StoreError):
    """The seat is held by another account, or this account holds another seat of the game (409)."""

    code = "seat_claimed"


@dataclass(frozen=True, slots=True)
class Player:
    id: str
    name: str
    lang: str
    email: str | None
    created_at: str


@dataclass(frozen=True, slots=True)
class Passkey:
    id: str
    credential_id: str
    player_id: str
    public_key: str
    sign_count: int
    label: str
    created_at: str
    used_at: str | None


@dataclass(frozen=True, slots=True)
class Ceremony:
    id: str
    kind: str  # "register" or "sign_in"
    challenge: str
    player_id: str | None
    user_handle: str | None
    name: str | None
    lang: str | None


@dataclass(frozen=True, slots=True)
class AccountWebhook:
    id: str
    player_id: str
    address: str
    style: str
    lang: str
    created_at: str


class TooManyWebhooks(StoreError):
    """An account has ``WEBHOOKS_PER_ACCOUNT`` webhooks already (422)."""

    code = "too_many_webhooks"


@dataclass(frozen=True, slots=True)
class HeldGame:
    game_id: str
    role: str
    seat: str | None
    ruleset: str
    version: int
    due_at: str | None
    outcome: dict | None
    last_activity: str  # UTC text


@dataclass(frozen=True, slots=True)
class Claim:
    game_id: str
    role: str  # SEAT or OWNER
    seat: str  # "" for the owner
    player_id: str


def _now() -> datetime:
    return datetime.now(UTC)


def email_key(address: str) -> str:
    return token_hash(address.strip().lower())


def utc_of(moment: datetime | str) -> str:
    """A stored moment (a DateTime column's value, naive on SQLite, or UTC text) as UTC text."""
    if isinstance(moment, str):
        return moment
    return utc_text(moment if moment.tzinfo else moment.replace(tzinfo=UTC))


def _new_id() -> str:
    return uuid.uuid4().hex


class Accounts:
    def __init__(self, engine: Engine, writing: threading.Lock | contextlib.nullcontext) -> None:
        self.engine, self._writing = engine, writing

    def _write(self, *statements):  # noqa: ANN001, ANN202 - SQLAlchemy statements; the last one's result
        with self.engine.connect() as conn, self._writing, conn.begin():
            result = None
            for statement in statements:
                result = conn.execute(statement)
            return result

    # -- players ---------------------------------------------------------------------------------------------

    def free_name(self, raw: str, player_id: str | None = None) -> str:
        """``raw`` cleaned, if no other player has it or a look-alike of it: BadName or NameTaken otherwise."""
        name = clean_name(raw)
        with self.engine.connect() as conn:
            holder = conn.execute(select(players.c.id).where(players.c.name_key == name_key(name))).scalar()
        if holder is not None and holder != player_id:
            raise NameTaken(f"the name {name!r} (or one like it) is taken")
        return name

    def create_player(self, name: str, lang: str, email: str | None = None, player_id: str | None = None,
                      passkey: tuple[str, str, int, str] | None = None) -> Player:
        """A new player; with ``passkey`` (credential id, public key, sign count, label), their first passkey in
        the same transaction: PasskeyTaken leaves no account behind."""
        name = self.free_name(name)
        player = Player(player_id or _new_id(), name, lang, email, utc_text(_now()))
        statements = [players.insert().values(id=player.id, name=name, name_key=name_key(name), lang=lang,
                                              email=email, email_key=email_key(email) if email else None,
                                              created_at=player.created_at)]
        if passkey is not None:
            statements.append(self._passkey_row(player.id, *passkey)[1])
        if passkey is not None and self.passkey(passkey[0]) is not None:
            raise PasskeyTaken("another account has this passkey")
        try:
            self._write(*statements)
        except IntegrityError as error:  # a look-alike written meanwhile, the address or the passkey another's
            if passkey is not None and self.passkey(passkey[0]) is not None:
                raise PasskeyTaken("another account has this passkey") from error
            raise NameTaken(f"the name {name!r} (or one like it) is taken") from error
        return player

    def player(self, player_id: str) -> Player | None:
        return self._player(players.c.id == player_id)

    def by_name(self, name: str) -> Player | None:
        return self._player(players.c.name_key == name_key(name))

    def by_email(self, address: str) -> Player | None:
        return self._player(players.c.email_key == email_key(address))

    def _player(self, where) -> Player | None:  # noqa: ANN001 - a SQLAlchemy condition
        columns = (players.c.id, players.c.name, players.c.lang, players.c.email, players.c.created_at)
        with self.engine.connect() as conn:
            row = conn.execute(select(*columns).where(where)).first()
        return Player(*row) if row is not None else None

    def update_player(self, player_id: str, name: str | None = None, lang: str | None = None) -> Player:
        values: dict[str, str] = {}
        if name is not None:
            values["name"] = self.free_name(name, player_id)
            values["name_key"] = name_key(values["name"])
        if lang is not None:
            values["lang"] = lang
        if values:
            try:
                self._write(update(players).where(players.c.id == player_id).values(**values))
            except IntegrityError as error:
                raise NameTaken(f"the name {name!r} (or one like it) is taken") from error
        return self.player(player_id)  # type: ignore[return-value]

    def set_email(self, player_id: str, address: str) -> None:
        """The player's confirmed address (a link the player asked for reached it); AddressTaken if it is
        another account's."""
        try:
            self._write(update(players).where(players.c.id == player_id).values(email=address,
                                                                               email_key=email_key(address)))
        except IntegrityError as error:
            raise AddressTaken("another account has this address") from error

    def delete_player(self, player_id: str) -> None:
        """The player and everything personal: names, passkeys, sessions, claims, the name on their messages, their
        drafts of maps. Their games stay, played by their links, with nobody's name at the seat; their published
        maps stay on the shelf, by « auteur supprimé »."""
        gone = self.player(player_id)
        messages = schema.messages
        written = messages.c.author_id == player_id
        if gone is not None:  # messages written before their writer's account was recorded beside its name
            written = written | (messages.c.author_id.is_(None) & (messages.c.author == gone.name))
        self._write(update(messages).where(written).values(author=None, author_id=None),
                    *author_gone(player_id),
                    update(sign_in_links).where(sign_in_links.c.player_id == player_id)
                    .values(used_at=utc_text(_now())),
                    *(delete(table).where(table.c.player_id == player_id)
                      for table in (claims, passkeys, sessions, account_webhooks, schema.ratings,
                                    schema.rating_changes, schema.pairing_queue, schema.vacations)),
                    delete(ceremonies).where(ceremonies.c.player_id == player_id),
                    delete(players).where(players.c.id == player_id))

    # -- passkeys --------------------------------------------------------------------------------------------

    def add_passkey(self, player_id: str, credential_id: str, public_key: str, sign_count: int,
                    label: str) -> Passkey:
        """Another passkey of the player: PasskeyTaken if an account (theirs or another) has it already."""
        passkey, statement = self._passkey_row(player_id, credential_id, public_key, sign_count, label)
        try:
            self._write(statement)
        except IntegrityError as error:
            raise PasskeyTaken("an account has this passkey already") from error
        return passkey

    @staticmethod
    def _passkey_row(player_id: str, credential_id: str, public_key: str, sign_count: int, label: str):  # noqa: ANN205
        """A new passkey's row: used as it is made (its ceremony signs the player in)."""
        now = utc_text(_now())
        passkey = Passkey(_new_id(), credential_id, player_id, public_key, sign_count, label, now, now)
        return passkey, passkeys.insert().values(id=passkey.id, credential_id=credential_id, player_id=player_id,
                                                 public_key=public_key, sign_count=sign_count, label=label,
                                                 created_at=now, used_at=now)

    def passkey(self, credential_id: str) -> Passkey | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(*_passkey_columns()).where(passkeys.c.credential_id == credential_id)).first()
        return Passkey(*row) if row is not None else None

    def passkeys_of(self, player_id: str) -> list[Passkey]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(*_passkey_columns()).where(passkeys.c.player_id == player_id)
                                .order_by(passkeys.c.created_at)).all()
        return [Passkey(*row) for row in rows]

    def passkey_used(self, passkey_id: str, sign_count: int) -> None:
        self._write(update(passkeys).where(passkeys.c.id == passkey_id)
                    .values(sign_count=sign_count, used_at=utc_text(_now())))

    def remove_passkey(self, player_id: str, passkey_id: str) -> bool:
        gone = self._write(delete(passkeys).where(passkeys.c.id == passkey_id, passkeys.c.player_id == player_id))
        return bool(gone.rowcount)

    # -- ceremonies (WebAuthn's challenges, for any server of the database) --------------------------------------

    def begin(self, kind: str, challenge: str, player_id: str | None = None, user_handle: str | None = None,
              name: str | None = None, lang: str | None = None) -> str:
        ceremony_id, now = _new_id(), _now()
        self._write(delete(ceremonies).where(ceremonies.c.expires_at < utc_text(now)),
                    ceremonies.insert().values(id=ceremony_id, kind=kind, challenge=challenge, player_id=player_id,
                                               user_handle=user_handle, name=name, lang=lang,
                                               expires_at=utc_text(now + CEREMONY_LIFE)))
        return ceremony_id

    def end(self, ceremony_id: str, kind: str) -> Ceremony | None:
        """The ceremony, once (it is deleted): None if unknown, of another kind, ended or expired."""
        columns = (ceremonies.c.id, ceremonies.c.kind, ceremonies.c.challenge, ceremonies.c.player_id,
                   ceremonies.c.user_handle, ceremonies.c.name, ceremonies.c.lang)
        with self.engine.connect() as conn, self._writing, conn.begin():
            row = conn.execute(select(*columns).where(ceremonies.c.id == ceremony_id, ceremonies.c.kind == kind,
                                                      ceremonies.c.expires_at > utc_text(_now()))).first()
            gone = conn.execute(delete(ceremonies).where(ceremonies.c.id == ceremony_id)).rowcount
        return Ceremony(*row) if row is not None and gone else None

    # -- sessions --------------------------------------------------------------------------------------------

    def open_session(self, player_id: str) -> str:
        """A new session of the player: its secret, for the cookie (only its hash is kept)."""
        secret, now = secrets.token_urlsafe(32), _now()
        self._write(delete(sessions).where(sessions.c.expires_at < utc_text(now)),
                    sessions.insert().values(hash=token_hash(secret), player_id=player_id, created_at=utc_text(now),
                                             seen_at=utc_text(now), expires_at=utc_text(now + SESSION_LIFE)))
        return secret

    def session_player(self, secret: str) -> Player | None:
        """Whose session this is, if it is current; its life goes on from now (written at most hourly)."""
        now = _now()
        with self.engine.connect() as conn:
            row = conn.execute(select(sessions.c.player_id, sessions.c.seen_at).where(
                sessions.c.hash == token_hash(secret), sessions.c.expires_at > utc_text(now))).first()
        if row is None:
            return None
        if row.seen_at < utc_text(now - SESSION_SEEN_EVERY):
            self._write(update(sessions).where(sessions.c.hash == token_hash(secret))
                        .values(seen_at=utc_text(now), expires_at=utc_text(now + SESSION_LIFE)))
        return self.player(row.player_id)

    def close_session(self, secret: str) -> None:
        self._write(delete(sessions).where(sessions.c.hash == token_hash(secret)))

    def close_sessions(self, player_id: str) -> int:
        """Every session of the player, on every server: how many there were."""
        return self._write(delete(sessions).where(sessions.c.player_id == player_id)).rowcount

    def session_count(self, player_id: str) -> int:
        with self.engine.connect() as conn:
            return len(conn.execute(select(sessions.c.hash).where(sessions.c.player_id == player_id,
                                                                  sessions.c.expires_at > utc_text(_now()))).all())

    # -- sign-in links ---------------------------------------------------------------------------------------

    def new_sign_in_link(self, address: str, lang: str, base: str, mailing: Mailing | None = None,
                         player_id: str | None = None) -> str:
        """A sign-in link's key for ``address``; the link (``base``/sign-in/key) is kept in clear until a worker
        sends it (``take_link_to_send``). With ``player_id`` (a signed-in player asked), the link confirms the
        address for that account only; without, it signs in to the address's own account, or makes one.
        Counted as a confirmation is, when it is asked for: TooManyEmails past the address's daily share or the
        server's hourly one."""
        key, now = secrets.token_urlsafe(32), _now()
        with self.engine.connect() as conn, self._writing, conn.begin():
            Subscriptions.promise_email(conn, address.strip(), mailing or Mailing(), now)
            conn.execute(delete(sign_in_links).where(sign_in_links.c.expires_at < utc_text(now - SIGN_IN_LINK_LIFE)))
            conn.execute(sign_in_links.insert().values(hash=token_hash(key), address=address.strip(), lang=lang,
                                                       link=f"{base}/sign-in/{key}", created_at=utc_text(now),
                                                       expires_at=utc_text(now + SIGN_IN_LINK_LIFE),
                                                       player_id=player_id))
        return key

    def take_link_to_send(self) -> tuple[str, str, str] | None:
        """One link waiting to be sent, taken by this caller alone (it leaves the table): address, language,
        link. At most once: a failed send loses the link, and the player asks for another."""
        now = utc_text(_now())
        with self.engine.connect() as conn, self._writing, conn.begin():
            row = conn.execute(select(sign_in_links.c.hash, sign_in_links.c.address, sign_in_links.c.lang,
                                      sign_in_links.c.link)
                               .where(sign_in_links.c.link.is_not(None), sign_in_links.c.expires_at > now)
                               .order_by(sign_in_links.c.created_at).limit(1)).first()
            if row is None:
                return None
            taken = conn.execute(update(sign_in_links).where(sign_in_links.c.hash == row.hash,
                                                             sign_in_links.c.link.is_not(None)).values(link=None))
        return (row.address, row.lang, row.link) if taken.rowcount else None

    def use_sign_in_link(self, key: str) -> SignInLink | None:
        """The link, the first time it is used within its life; None after."""
        now = utc_text(_now())
        with self.engine.connect() as conn, self._writing, conn.begin():
            used = conn.execute(update(sign_in_links).where(
                sign_in_links.c.hash == token_hash(key), sign_in_links.c.used_at.is_(None),
                sign_in_links.c.expires_at > now).values(used_at=now, link=None))
            if not used.rowcount:
                return None
            row = conn.execute(select(sign_in_links.c.address, sign_in_links.c.lang, sign_in_links.c.player_id)
                               .where(sign_in_links.c.hash == token_hash(key))).first()
        return SignInLink(*row)

    def sign_in_link(self, key: str) -> SignInLink | None:
        """A link that may still be used; None if unknown, used or expired."""
        with self.engine.connect() as conn:
            row = conn.execute(select(sign_in_links.c.address, sign_in_links.c.lang, sign_in_links.c.player_id)
                               .where(sign_in_links.c.hash == token_hash(key), sign_in_links.c.used_at.is_(None),
                                      sign_in_links.c.expires_at > utc_text(_now()))).first()
        return SignInLink(*row) if row is not None else None

    # -- the account's webhooks ------------------------------------------------------------------------------

    def webhooks_of(self, player_id: str) -> list[AccountWebhook]:
        columns = (account_webhooks.c.id, account_webhooks.c.player_id, account_webhooks.c.address,
                   account_webhooks.c.style, account_webhooks.c.lang, account_webhooks.c.created_at)
        with self.engine.connect() as conn:
            rows = conn.execute(select(*columns).where(account_webhooks.c.player_id == player_id)
                                .order_by(account_webhooks.c.created_at)).all()
        return [AccountWebhook(*row) for row in rows]

    def add_webhook(self, player_id: str, address: str, style: str, lang: str) -> AccountWebhook:
        """A webhook of the account (TooManyWebhooks past ``WEBHOOKS_PER_ACCOUNT``)."""
        hook = AccountWebhook(_new_id(), player_id, address, style, lang, utc_text(_now()))
        with self.engine.connect() as conn, self._writing, conn.begin():
            # The player's row written first: two adds of one account follow each other (and are counted so).
            conn.execute(update(players).where(players.c.id == player_id).values(lang=players.c.lang))
            count = len(conn.execute(select(account_webhooks.c.id)
                                     .where(account_webhooks.c.player_id == player_id)).all())
            if count >= WEBHOOKS_PER_ACCOUNT:
                raise TooManyWebhooks(f"{WEBHOOKS_PER_ACCOUNT} webhooks at most")
            conn.execute(account_webhooks.insert().values(id=hook.id, player_id=player_id, address=address,
                                                          style=style, lang=lang, created_at=hook.created_at))
        return hook

    def remove_webhook(self, player_id: str, webhook_id: str) -> AccountWebhook | None:
        """The webhook removed, or None if the account has no such webhook."""
        hook = next((h for h in self.webhooks_of(player_id) if h.id == webhook_id), None)
        if hook is not None:
            self._write(delete(account_webhooks).where(account_webhooks.c.id == webhook_id,
                                                       account_webhooks.c.player_id == player_id))
        return hook

    # -- claims ----------------------------------------------------------------------------------------------

    def claim(self, game_id: str, role: str, seat: str | None, player_id: str) -> None:
        """The player holds this seat (or owns the game) from their account. One account a seat, and one seat an
        account in a game: SeatClaimed otherwise. Claiming again what one holds already changes nothing."""
        key = (game_id, role, seat or "")
        held = self.claims_in(game_id)
        if any((c.game_id, c.role, c.seat) == key and c.player_id == player_id for c in held):
            return
        if role in (SEAT, LORD) and any(c.role in (SEAT, LORD) and c.player_id == player_id for c in held):
            raise SeatClaimed("this account holds another seat of this game")  # or a Seigneur's place
        try:
            with self.engine.connect() as conn, self._writing, conn.begin():
                self.claim_in(conn, game_id, role, seat, player_id, _now())
        except IntegrityError as error:  # the seat another's, or another seat this account's, written meanwhile
            raise SeatClaimed("another account holds this seat, or this account another seat") from error

    @staticmethod
    def claim_in(conn: Connection, game_id: str, role: str, seat: str | None, player_id: str, now: datetime) -> None:
        """In the caller's transaction: the claim's row (IntegrityError if the seat is held, or if this account
        holds another seat or Seigneur's place of the game: the database's keys decide every race)."""
        conn.execute(claims.insert().values(game_id=game_id, role=role, seat=seat or "", player_id=player_id,
                                            claimed_at=utc_text(now)))

    def claims_in(self, game_id: str) -> list[Claim]:
        return self._claims(claims.c.game_id == game_id)

    def claims_of(self, player_id: str) -> list[Claim]:
        return self._claims(claims.c.player_id == player_id)

    def holding(self, game_id: str, player_id: str) -> list[Claim]:
        return self._claims(and_(claims.c.game_id == game_id, claims.c.player_id == player_id))

    def _claims(self, where) -> list[Claim]:  # noqa: ANN001 - a SQLAlchemy condition
        with self.engine.connect() as conn:
            rows = conn.execute(select(claims.c.game_id, claims.c.role, claims.c.seat, claims.c.player_id)
                                .where(where).order_by(claims.c.claimed_at)).all()
        return [Claim(*row) for row in rows]

    def games_of(self, player_id: str, limit: int = GAMES_LISTED) -> list[HeldGame]:
        """The games the player holds a seat of (or owns), the latest active first, at most ``limit``."""
        last_action = (select(schema.actions.c.game_id, func.max(schema.actions.c.created_at).label("at"))
                       .group_by(schema.actions.c.game_id).subquery())
        games = schema.games
        query = (select(claims.c.game_id, claims.c.role, claims.c.seat, games.c.ruleset, games.c.version,
                        games.c.due_at, games.c.outcome, games.c.created_at, last_action.c.at)
                 .join(games, games.c.id == claims.c.game_id)
                 .outerjoin(last_action, last_action.c.game_id == claims.c.game_id)
                 .where(claims.c.player_id == player_id))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        held: dict[str, HeldGame] = {}
        for row in rows:  # a seat and the ownership of one game: one entry, as the seat
            entry = HeldGame(row.game_id, row.role, row.seat or None, row.ruleset, row.version, row.due_at,
                             row.outcome, utc_of(row.at or row.created_at))
            if row.game_id not in held or entry.role == SEAT:
                held[row.game_id] = entry
        return sorted(held.values(), key=lambda game: game.last_activity, reverse=True)[:limit]

    def seat_names(self, game_id: str) -> dict[str, str]:
        """The names of the players holding the game's seats from their accounts, by seat."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(claims.c.seat, players.c.name).join(players, players.c.id == claims.c.player_id)
                                .where(claims.c.game_id == game_id, claims.c.role == SEAT)).all()
        return {row.seat: row.name for row in rows}


def held_in(conn: Connection, game_id: str, player_id: str) -> Claim | None:
    """What the account holds in the game: its seat, else the game as its owner, else None."""
    rows = conn.execute(select(claims.c.game_id, claims.c.role, claims.c.seat, claims.c.player_id)
                        .where(claims.c.game_id == game_id, claims.c.player_id == player_id)).all()
    held = sorted((Claim(*row) for row in rows), key=lambda claim: (claim.role != SEAT, claim.role != LORD))
    return held[0] if held else None


def _passkey_columns():  # noqa: ANN202 - the columns of Passkey, in its order
    return (passkeys.c.id, passkeys.c.credential_id, passkeys.c.player_id, passkeys.c.public_key,
            passkeys.c.sign_count, passkeys.c.label, passkeys.c.created_at, passkeys.c.used_at)


__all__ = ["OWNER", "SEAT", "AccountWebhook", "Accounts", "AddressTaken", "Claim", "NameTaken", "Passkey",
           "PasskeyTaken", "Player", "SeatClaimed", "SignInLink", "TooManyWebhooks"]
