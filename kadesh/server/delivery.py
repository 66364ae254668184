"""Sending notices: e-mail over SMTP and webhooks over HTTP, by the worker processes, never on an action's path.

Each notice is a job of the store's queue aimed at one subscription (``kadesh.store.subscriptions``), queued in
the transaction of the action that makes it due. A ``Deliverer`` runs a few threads in a worker process; each
claims one notice at a time, sends it, and deletes the job (or gives it back to be tried again later, with a
doubling pause). A mail server or a webhook that does not answer holds one of these threads for
``timeout`` seconds at most, and never an action nor a bot's move.

Settings come from the environment (docs/operations.md): ``KADESH_SMTP_HOST`` (no host: no e-mail),
``KADESH_SMTP_PORT``, ``KADESH_SMTP_SECURITY`` (``starttls``, ``ssl`` or ``none``), ``KADESH_SMTP_USER``,
``KADESH_SMTP_PASSWORD``, ``KADESH_SMTP_FROM``, ``KADESH_PUBLIC_URL`` (the links' origin),
``KADESH_WEBHOOKS_PRIVATE=allow`` (webhooks to loopback, private and other special-use addresses, refused
by default: a subscriber must not make the server call inside its own network), ``KADESH_NOTICE_TIMEOUT``,
``KADESH_NOTICE_RETRY`` (the first pause before a failed notice is tried again, in seconds),
``KADESH_EMAILS_PER_HOUR`` (every e-mail of the server in an hour: past it, notices wait and confirmations are
refused). An e-mail subscription is sent its confirmation and nothing else until it is confirmed.
"""

from __future__ import annotations

import functools
import http.client
import ipaddress
import json
import logging
import os
import smtplib
import socket
import ssl
import threading
import unicodedata
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import urlsplit

from kadesh.core.tomlcheck import UNPRINTABLE
from kadesh.server.notices import SIGN_IN_WORDS, Confirmation, Notice, compose, compose_messages, confirmation
from kadesh.server.talk import sender_words
from kadesh.store import SEAT, Access, Store
from kadesh.store.accounts import SIGN_IN_LINK_LIFE
from kadesh.store.jobs import Job
from kadesh.store.messages import COMPUTER, MESSAGE_NOTICE, NOTIFIED
from kadesh.store.metrics import NOTICES
from kadesh.store.store import due_at
from kadesh.store.subscriptions import CONFIRM_WITHIN, EMAILS_PER_HOUR, Mailing, Subscription

log = logging.getLogger(__name__)

NOTICE_THREADS = 4  # notices sent at once by one worker process
NOTICE_ATTEMPTS = 8  # a notice that failed this many times is dropped (and the failure stays on the seat's page)
NOTICE_RETRY = 30.0  # seconds before a failed notice is tried again, doubled each time (30 s … 32 min)
NOTICE_TIMEOUT = 10.0  # seconds a mail server or a webhook has to answer
IDLE = 0.25  # seconds between looks at an empty queue of notices
DISCORD_LIMIT = 2000  # characters of a Discord message


class Postponed(Exception):
    """Sending now would pass a sending limit: the notice waits ``wait`` seconds (it is not a failure)."""

    def __init__(self, wait: int) -> None:
        super().__init__(f"{wait} s")
        self.wait = wait


class DeliveryError(Exception):
    """The notice was not delivered: ``code`` says why (the page puts it in words), ``detail`` what answered."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(f"{code}: {detail}" if detail else code)
        self.code, self.detail = code, detail

    @property
    def recorded(self) -> str:
        """As kept on the subscription: ``code`` or ``code:detail`` (an HTTP status, a host, an error's name)."""
        return f"{self.code}:{self.detail}" if self.detail else self.code


DEFAULT_FROM = "Kadesh <kadesh@localhost>"  # an e-mail's sender when KADESH_SMTP_FROM is unset


@dataclass(frozen=True, slots=True)
class Settings:
    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_security: str = "starttls"
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_from: str = DEFAULT_FROM
    public_url: str | None = None
    private_webhooks: bool = False
    timeout: float = NOTICE_TIMEOUT
    retry: float = NOTICE_RETRY
    emails_per_hour: int = EMAILS_PER_HOUR

    @property
    def email(self) -> bool:
        return bool(self.smtp_host)

    @property
    def mailing(self) -> Mailing:
        return Mailing(per_hour=self.emails_per_hour)

    @classmethod
    def from_environment(cls, environment: dict[str, str] | None = None) -> Settings:
        env = os.environ if environment is None else environment
        security = env.get("KADESH_SMTP_SECURITY", "").lower()
        port = int(env.get("KADESH_SMTP_PORT") or (465 if security == "ssl" else 587))
        if security not in ("starttls", "ssl", "none"):
            security = "ssl" if port == 465 else "none" if port == 25 or not env.get("KADESH_SMTP_USER") else "starttls"
        return cls(smtp_host=env.get("KADESH_SMTP_HOST") or None, smtp_port=port, smtp_security=security,
                   smtp_user=env.get("KADESH_SMTP_USER") or None, smtp_password=env.get("KADESH_SMTP_PASSWORD"),
                   smtp_from=env.get("KADESH_SMTP_FROM") or DEFAULT_FROM,
                   public_url=(env.get("KADESH_PUBLIC_URL") or "").rstrip("/") or None,
                   private_webhooks=env.get("KADESH_WEBHOOKS_PRIVATE", "").lower() == "allow",
                   timeout=float(env.get("KADESH_NOTICE_TIMEOUT") or NOTICE_TIMEOUT),
                   retry=float(env.get("KADESH_NOTICE_RETRY") or NOTICE_RETRY),
                   emails_per_hour=int(env.get("KADESH_EMAILS_PER_HOUR") or EMAILS_PER_HOUR))


# Special-use ranges that ``ipaddress`` may still call global, or that reach an internal IPv4 address through
# a translation (RFC 6890 and the IANA special-purpose registries): none of them is a webhook's home.
SPECIAL_USE = tuple(ipaddress.ip_network(net) for net in (
    "0.0.0.0/8", "100.64.0.0/10", "192.0.0.0/24", "192.0.2.0/24", "192.88.99.0/24", "198.18.0.0/15",
    "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
    "::/96", "::ffff:0:0/96", "64:ff9b::/96", "64:ff9b:1::/48", "100::/64", "2001::/32", "2001:2::/48",
    "2001:10::/28", "2001:20::/28", "2001:db8::/32", "2002::/16", "3fff::/20", "5f00::/16", "fc00::/7",
    "fe80::/10", "fec0::/10", "ff00::/8"))


def public_address(address: str) -> bool:
    """Whether a webhook may be called at ``address``: a global unicast address outside every special-use
    range (NAT64, 6to4, Teredo, IPv4-mapped and -compatible forms included, whatever they embed)."""
    ip = ipaddress.ip_address(address.split("%")[0])
    special = any(ip in net for net in SPECIAL_USE if net.version == ip.version)
    return ip.is_global and not ip.is_multicast and not special


def check_webhook(url: str, settings: Settings) -> list[str]:
    """The addresses to call ``url`` at; DeliveryError unless it is an http(s) URL whose host's every address
    is public. The call must go to one of these, not to a new lookup of the name, which may answer otherwise
    the second time (DNS rebinding). Where private addresses are allowed, nothing is looked up: [] (any)."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port  # a port out of range or not a number: ValueError
    except ValueError as error:
        raise DeliveryError("bad_url") from error
    if parts.scheme not in ("http", "https") or not host:
        raise DeliveryError("bad_url")
    if settings.private_webhooks:
        return []
    try:
        addresses = sorted({info[4][0] for info in socket.getaddrinfo(host, port or 443, proto=socket.IPPROTO_TCP)})
    except (OSError, UnicodeError) as error:
        raise DeliveryError("unknown_host", parts.hostname) from error
    if not all(public_address(address) for address in addresses):
        raise DeliveryError("private_host", parts.hostname)
    return addresses


def unsubscribe_link(subscription: Subscription) -> str:
    parts = urlsplit(subscription.link)
    return f"{parts.scheme}://{parts.netloc}/unsubscribe/{subscription.unsubscribe_key}"


def confirm_link(subscription: Subscription) -> str:
    parts = urlsplit(subscription.link)
    return f"{parts.scheme}://{parts.netloc}/confirm/{subscription.confirm_key}"


def one_line(text: str) -> str:
    """``text`` with every control, format and separator character made a space: a header stays one header."""
    return "".join(" " if unicodedata.category(char) in UNPRINTABLE else char for char in text)


def send_email(notice: Notice | Confirmation, subscription: Subscription, settings: Settings) -> None:
    if not settings.email:
        raise DeliveryError("no_smtp")
    unsubscribe = unsubscribe_link(subscription)
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = subscription.address
    message["Subject"] = one_line(notice.subject)  # names written by people: checked on entry, and again here
    # The same notice sent twice (a worker lost after the send) carries the same id: mail readers show it once.
    nonce = f".{notice.nonce}" if notice.nonce else ""
    message["Message-ID"] = f"<{notice.game_id}.{notice.version}.{notice.kind}.{subscription.id}{nonce}@kadesh>"
    message["List-Unsubscribe"] = f"<{unsubscribe}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message["Auto-Submitted"] = "auto-generated"
    message.set_content(notice.text(unsubscribe))
    _smtp_send(message, settings)


def send_sign_in_link(address: str, lang: str, link: str, settings: Settings) -> None:
    """The e-mail that carries a sign-in link (``kadesh.store.accounts``): it is sent once, or lost."""
    if not settings.email:
        raise DeliveryError("no_smtp")
    subject, body = SIGN_IN_WORDS[lang if lang in SIGN_IN_WORDS else "fr"]
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = address
    message["Subject"] = subject
    message["Auto-Submitted"] = "auto-generated"
    minutes = int(SIGN_IN_LINK_LIFE.total_seconds() // 60)
    message.set_content(body.format(server=urlsplit(link).netloc, link=link, minutes=minutes))
    _smtp_send(message, settings)


@functools.cache
def _tls() -> ssl.SSLContext:
    """The TLS settings of every e-mail and webhook this process sends: made once, since making them loads the
    system's certificates (50 ms of CPU on the test machine), and a context may be shared by connections."""
    return ssl.create_default_context()


def counted(channel: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A sending function, counted as sent or failed (DeliveryError) on its channel (``kadesh_notices_total``)."""
    sent, failed = NOTICES.labels(channel, "sent"), NOTICES.labels(channel, "failed")

    def decorate(send: Callable[..., None]) -> Callable[..., None]:
        @functools.wraps(send)
        def counting(*args: object) -> None:
            try:
                send(*args)
            except DeliveryError:
                failed.inc()
                raise
            sent.inc()
        return counting
    return decorate


@counted("email")
def _smtp_send(message: EmailMessage, settings: Settings) -> None:
    try:
        if settings.smtp_security == "ssl":
            server: smtplib.SMTP = smtplib.SMTP_SSL(settings.smtp_host, settings.smtp_port, timeout=settings.timeout,
                                                   context=_tls())
        else:
            server = smtplib.SMTP(settings.smtp_host, settings.smtp_port, timeout=settings.timeout)
        with server:
            if settings.smtp_security == "starttls":
                server.starttls(context=_tls())
            if settings.smtp_user:
                server.login(settings.smtp_user, settings.smtp_password or "")
            server.send_message(message)
    except (OSError, smtplib.SMTPException) as error:
        raise DeliveryError("smtp_failed", type(error).__name__) from error


def webhook_body(notice: Notice, style: str) -> dict:
    """The JSON a webhook receives: Kadesh's own, or the shape Discord's or Slack's incoming webhooks take."""
    if style == "discord":
        return {"content": notice.text(max_length=DISCORD_LIMIT), "allowed_mentions": {"parse": []}}
    if style == "slack":
        return {"text": notice.text()}
    return notice.payload()


@counted("webhook")
def send_webhook(notice: Notice, subscription: Subscription, settings: Settings) -> None:
    """POST the notice to the webhook, at an address checked just now. A redirect is a failure: following
    it would call an address never checked (inside the server's own network, say)."""
    addresses = check_webhook(subscription.address, settings)  # again: the name may point elsewhere by now
    body = json.dumps(webhook_body(notice, subscription.style)).encode()
    try:
        status = _post_at(subscription.address, addresses[0] if addresses else None, body, settings.timeout)
    except (OSError, ValueError, http.client.HTTPException) as error:
        raise DeliveryError("no_answer", type(error).__name__) from error
    if not 200 <= status < 300:
        raise DeliveryError("http_status", str(status))


def _post_at(url: str, address: str | None, body: bytes, timeout: float) -> int:
    """POST ``body`` to ``url`` through a connection to ``address`` (the name still in Host and in TLS's
    checks; None: wherever the name leads); the answer's status."""
    parts = urlsplit(url)
    if parts.scheme == "https":
        connection: http.client.HTTPConnection = http.client.HTTPSConnection(
            parts.hostname, parts.port, timeout=timeout, context=_tls())
    else:
        connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    if address is not None:  # http.client opens its socket through this attribute: no second lookup
        connection._create_connection = _dial(address)  # type: ignore[attr-defined]  # noqa: SLF001
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        connection.request("POST", path, body=body, headers={"Content-Type": "application/json",
                                                             "User-Agent": "Kadesh notices"})
        response = connection.getresponse()
        response.read(1024)
        return response.status
    finally:
        connection.close()


def _dial(address: str):  # noqa: ANN202
    def create_connection(where: tuple[str, int], *args):  # noqa: ANN002, ANN202
        return socket.create_connection((address, where[1]), *args)
    return create_connection


def prepare(store: Store, job: Job, settings: Settings) -> tuple[Subscription, Notice | Confirmation] | None:
    """The subscription and message a job is for; None when there is nothing to send any more (unsubscribed,
    not confirmed, already confirmed, or a reminder for a seat that has acted since)."""
    subscription = store.subscriptions.get(job.target)
    if subscription is None or subscription.game_id != job.game_id:
        return None
    if job.kind == "confirm":
        if subscription.confirmed or subscription.confirm_key is None:
            return None
        with store.game(job.game_id) as game:
            hours = int(CONFIRM_WITHIN.total_seconds() // 3600)
            return subscription, confirmation(game, job.game_id, subscription.lang, confirm_link(subscription),
                                              urlsplit(subscription.link).netloc, hours)
    if not subscription.confirmed:
        return None
    if job.kind == MESSAGE_NOTICE:
        return _messages_notice(store, job, subscription)
    with store.game(job.game_id) as game:
        waiting = game.outcome is None and subscription.seat in game.to_act()
        if job.kind == "remind" and not waiting:
            return None
        deadline = due_at(game) if waiting else None
        link = subscription.link
        notice = compose(game, job.game_id, job.kind, min(job.version, game.version), subscription.seat,
                         subscription.lang, link, deadline,
                         nonce=str(job.version) if job.kind == "test" else "")  # each test its own id
    return subscription, notice


def _messages_notice(store: Store, job: Job, subscription: Subscription) -> tuple[Subscription, Notice] | None:
    """The messages this subscription's seat reads that came since its last notice of them (not its own)."""
    seat = subscription.seat
    shape = store.shape(job.game_id)
    reader = Access(job.game_id, SEAT, seat)
    seen = store.messages.notified(job.game_id, subscription.id)
    read = store.messages.read(job.game_id, reader, shape, after=seen)
    found = [m for m in read
             if m.kind in NOTIFIED and not m.hidden and not (m.seat == seat and m.role in (SEAT, COMPUTER))]
    if not found:
        return None
    holders = store.accounts.seat_names(job.game_id)
    with store.game(job.game_id) as game:
        said = [(sender_words(game, shape, m, holders)[subscription.lang], m.kind, m.body) for m in found]
        notice = compose_messages(game, job.game_id, seat, subscription.lang, subscription.link, read[-1].seq, said)
    return subscription, notice


def deliver(store: Store, job: Job, settings: Settings) -> bool:
    """Send the job's message; whether one was sent (DeliveryError if it failed, Postponed if a sending limit
    holds it back: a confirmation was counted when it was asked for, a notice is counted here)."""
    prepared = prepare(store, job, settings)
    if prepared is None:
        return False
    subscription, message = prepared
    if subscription.channel != "email":
        send_webhook(message, subscription, settings)  # type: ignore[arg-type]  # a webhook has no confirmation
        _told(store, job, subscription, message)
        return True
    counted = job.kind != "confirm"
    if counted:
        wait = store.subscriptions.email_wait(subscription.address, settings.mailing)
        if wait:
            raise Postponed(wait)
    send_email(message, subscription, settings)
    if counted:
        store.subscriptions.count_email(subscription.address, job.kind)
    _told(store, job, subscription, message)
    return True


def _told(store: Store, job: Job, subscription: Subscription, message: Notice | Confirmation) -> None:
    """A notice of messages sent: its next one starts after the last it told."""
    if job.kind == MESSAGE_NOTICE:
        store.messages.mark_notified(job.game_id, subscription.id, message.version)


class Deliverer:
    """The notice-sending threads of one worker process: one of them looks at the queue (an idle worker
    reads it four times a second, whatever its number of threads), and hands each notice to a free sender."""

    def __init__(self, store: Store, name: str, settings: Settings | None = None, threads: int = NOTICE_THREADS,
                 lease: float = 60.0) -> None:
        self.store, self.name, self.threads, self.lease = store, name, threads, lease
        self.settings = settings or Settings.from_environment()

    def start(self, stop: threading.Event) -> threading.Thread:
        """The looking thread, started; join it after setting ``stop``: it returns once the notices on their
        way are sent (or have failed), so that a stopping worker does not leave them to be sent again."""
        thread = threading.Thread(target=self.run, args=(stop,), name="kadesh-notices", daemon=True)
        thread.start()
        return thread

    def run(self, stop: threading.Event) -> None:
        free = threading.Semaphore(self.threads)
        with ThreadPoolExecutor(self.threads, thread_name_prefix="kadesh-notice") as senders:
            while not stop.is_set():
                if not free.acquire(timeout=IDLE):
                    continue
                try:
                    self.send_sign_in_links()
                    job = self.claim()
                except Exception:  # the database away for a while: wait, then look again
                    log.exception("notices: could not reach the queue")
                    job = None
                if job is None:
                    free.release()
                    stop.wait(IDLE)
                    continue
                senders.submit(self._send_then_free, job, free)

    def send_sign_in_links(self) -> int:
        """Send the sign-in links waiting (each is taken by one worker alone, and sent once or lost): how many."""
        sent = 0
        while (taken := self.store.accounts.take_link_to_send()) is not None:
            address, lang, link = taken
            try:
                send_sign_in_link(address, lang, link, self.settings)
                sent += 1
            except DeliveryError as error:
                log.warning("a sign-in link was not sent: %s", error)
        return sent

    def _send_then_free(self, job: Job, free: threading.Semaphore) -> None:
        try:
            self.send(job)
        finally:
            free.release()

    def claim(self) -> Job | None:
        # A send is a few exchanges, each within the timeout: the claim outlasts them all, so that no other
        # worker takes the notice while it is on its way (a receiver that dribbles for longer may get it twice).
        return self.store.jobs.claim(self.name, self.lease + 3 * self.settings.timeout, notices=True)

    def work_once(self) -> bool:
        """One notice sent (or given back) in this thread; whether there was one."""
        job = self.claim()
        if job is None:
            return False
        self.send(job)
        return True

    def send(self, job: Job) -> None:
        try:
            sent = deliver(self.store, job, self.settings)
        except Postponed as postponed:
            log.info("notice %s (game %s) waits %s s: a sending limit", job.kind, job.game_id, postponed.wait)
            self._safely(self.store.jobs.postpone, job, self.name, postponed.wait)
        except DeliveryError as error:
            log.warning("notice %s (game %s, subscription %s) not delivered: %s", job.kind, job.game_id, job.target,
                        error)
            self._safely(self.store.subscriptions.record, job.target, error.recorded)
            self._safely(self.store.jobs.retry, job, self.name, pause=self.settings.retry, attempts=NOTICE_ATTEMPTS)
        except Exception:  # a fault of Kadesh's: in the log, and said on the seat's page, not kept silent
            log.exception("notice %s of game %s failed", job.kind, job.game_id)
            self._safely(self.store.subscriptions.record, job.target, "server_fault")
            self._safely(self.store.jobs.retry, job, self.name, pause=self.settings.retry, attempts=NOTICE_ATTEMPTS)
        else:
            if sent:
                self._safely(self.store.subscriptions.record, job.target, None)
            self._safely(self.store.jobs.finish, job, self.name)

    @staticmethod
    def _safely(write, *args, **kwargs) -> None:
        """A bookkeeping write that may fail with the database away: the job's claim runs out and it is
        taken again (a notice is then sent a second time, with the same id)."""
        try:
            write(*args, **kwargs)
        except Exception:
            log.exception("notices: could not record a delivery")
