"""Rate limits per client address on everything a client without any right can make the server create or work
for: games and rematches, simulations, subscriptions and test notices, and the checks that cost the rules'
time (odds, previews, a set-up's seats).

Counted with the ``limits`` library in each server's memory (a moving window per address and kind): several
servers on one database each count their own, so behind a load balancer a client gets up to that many times the
figures (docs/operations.md « Limits »). The client is the connection's peer, unless that peer is one of the
operator's proxies (``KADESH_TRUSTED_PROXIES``): then the nearest address of ``X-Forwarded-For`` that is not a
proxy. IPv6 clients count by their /64, the block one household or machine usually holds.
"""

from __future__ import annotations

import ipaddress
import math
import re
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from kadesh.server.layers import HttpLayer
from kadesh.server.problems import problem_response
from kadesh.store.metrics import REFUSALS

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# kind: (method, path, default limits, environment setting). A request is counted when it arrives, whatever
# its answer: the server did the work of refusing it too.
KINDS: dict[str, tuple[str, re.Pattern[str], str]] = {
    "games": ("POST", re.compile(r"^/api/games(/[^/]+/rematch)?/?$"), "20/minute;200/day"),
    "simulations": ("POST", re.compile(r"^/api/rulesets/[^/]+/simulate/?$"), "30/minute;300/hour"),
    # A seat's subscriptions and an account's webhooks (each webhook's host is looked up when it is given).
    "subscriptions": ("POST", re.compile(r"^/api/(games/[^/]+/subscriptions|account/webhooks)/?$"), "10/hour;30/day"),
    "test_notices": ("POST", re.compile(r"^/api/games/[^/]+/subscriptions/[^/]+/test/?$"), "10/hour;30/day"),
    "checks": ("POST", re.compile(r"^/api/(games/[^/]+/(odds|preview)|rulesets/[^/]+/seats)/?$"), "600/minute"),
    # The e-mails' links, answered without a token (one indexed read or write each): generous, since a mail
    # provider's servers send many readers' one-click unsubscribes from a few addresses.
    "links": ("POST", re.compile(r"^/(confirm|unsubscribe)/[^/]+/?$"), "300/minute"),
    # Passkeys' ceremonies (each begun one writes a short-lived row) and the sign-in links' pages.
    "sign_in": ("POST", re.compile(r"^/(api/(session/passkey|account/passkeys)(/options)?|sign-in/[^/]+)/?$"),
                "30/minute;300/day"),
    # The lists anyone may read that load games or ratings (a player's page: up to 200 games, their ratings' 200
    # last changes in each game; the open games: up to 50; the games to watch: 30, with their views; a
    # leaderboard: 50; where accounts wait for an opponent: a count per game and time per move).
    "lists": ("GET", re.compile(r"^/api/(open-games|watch|pairing/waiting|players/[^/]+(/ratings)?"
                                r"|leaderboards/[^/]+|maps)/?$"), "120/minute"),
    # Open seats taken (each a new link written; a seat is taken once).
    "seats": ("POST", re.compile(r"^/api/games/[^/]+/seats/[^/]+/take/?$"), "30/minute;300/day"),
    # Looks for an opponent (each may make a game for the pair; a waiting page looks again every 5 s).
    "pairing": ("POST", re.compile(r"^/api/pairing/?$"), "30/minute;2000/day"),
    # Messages at the table, drafts of orders and reports (issue 43): each one row, pushed to every reader.
    "messages": ("POST|PUT", re.compile(r"^/api/games/[^/]+/(messages(/[0-9]+/report)?|draft)/?$"),
                 "20/minute;1000/day"),
    # Replays (issue 44): a past version of a game, replayed from its record in the check process; a finished public
    # game's replay is anyone's. A page steps through batches of 64 versions, one request each.
    "replays": ("GET", re.compile(r"^/api/games/[^/]+(?:/replay/?$|/?\?(?:.*&)?at=)"), "120/minute;3000/day"),
    # Maps checked or previewed as they are drawn (issue 61): each reads a text of the client's own in the check
    # process, as a game opened on it would; a designer page asks as its player paints, a second or so apart.
    "maps_check": ("POST", re.compile(r"^/api/maps/(check|preview)/?$"), "240/minute"),
    # Maps saved, changed, published, withdrawn, deleted or reported (each one row, and a check of its text).
    "maps": ("POST|PUT|DELETE", re.compile(r"^/api/maps(/[^/]+(/(publish|unpublish|report))?)?/?$"),
             "30/minute;500/day"),
    # A sign-in link is an e-mail: beside the e-mails' own limits per address and per server.
    "sign_in_emails": ("POST", re.compile(r"^/api/session/email/?$"), "5/hour;20/day"),
}
UNLIMITED = ("none", "off", "0")  # a setting's words for no limit at all
SETTING = "KADESH_LIMIT_{}"  # KADESH_LIMIT_GAMES…: the limits of one kind, e.g. "20/minute;200/day", or "none"
PROXIES_SETTING = "KADESH_TRUSTED_PROXIES"  # addresses or networks, comma-separated
IPV6_PREFIX = 64  # IPv6 clients are counted by this block


class BadLimits(ValueError):
    """A setting that does not read as limits or addresses (said at start-up)."""


@dataclass(frozen=True)
class RatePolicy:
    """How much each kind of request one address may make, and which peers are the operator's proxies."""

    limits: Mapping[str, tuple[RateLimitItem, ...]] = field(default_factory=dict)
    proxies: tuple[Network, ...] = ()

    @classmethod
    def defaults(cls, **overrides: str) -> RatePolicy:
        """The defaults of ``KINDS``, with some kinds given other limits (``games="5/minute"``, or "none")."""
        return cls.from_environment({SETTING.format(kind.upper()): value for kind, value in overrides.items()})

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> RatePolicy:
        limits = {}
        for kind, (_method, _path, default) in KINDS.items():
            name = SETTING.format(kind.upper())
            limits[kind] = _parse_limits(name, environ.get(name, default))
        return cls(limits, _parse_proxies(environ.get(PROXIES_SETTING, "")))

    @classmethod
    def unlimited(cls) -> RatePolicy:
        return cls({kind: () for kind in KINDS})


def _parse_limits(name: str, text: str) -> tuple[RateLimitItem, ...]:
    if text.strip().lower() in UNLIMITED:
        return ()
    try:
        return tuple(parse_many(text))
    except ValueError:
        raise BadLimits(f"{name}={text!r}: limits are written like '20/minute;200/day' (or 'none')") from None


def _parse_proxies(text: str) -> tuple[Network, ...]:
    networks = []
    for part in filter(None, (piece.strip() for piece in text.split(","))):
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise BadLimits(f"{PROXIES_SETTING}: {part!r} is not an address or a network") from None
    return tuple(networks)


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped or address


def _trusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address, proxies: Iterable[Network]) -> bool:
    return any(address.version == network.version and address in network for network in proxies)


def client_key(scope: Scope, proxies: tuple[Network, ...]) -> str:
    """Who is counted: the peer, or behind the operator's proxies the nearest address they were told of."""
    peer = scope.get("client")
    address = _address(peer[0]) if peer else None
    if address is None:
        return peer[0] if peer else "unknown"  # a test client, a Unix socket: one key for all
    if _trusted(address, proxies):
        forwarded = [value.decode("latin-1") for name, value in scope.get("headers", []) if name == b"x-forwarded-for"]
        for hop in reversed(",".join(forwarded).split(",")):
            told = _address(hop)
            if told is None:
                break  # a forged or garbled entry: the last address a proxy vouched for is kept
            address = told
            if not _trusted(told, proxies):
                break
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/{IPV6_PREFIX}", strict=False))
    return str(address)


class RateLimits(HttpLayer):
    """ASGI middleware: 429 ``rate_limited`` with ``Retry-After`` once an address has made its share of a kind
    of request; nothing of the request is read (its body neither)."""

    def __init__(self, app: ASGIApp, policy: RatePolicy) -> None:
        super().__init__(app)
        self.policy = policy
        self.limiter = MovingWindowRateLimiter(MemoryStorage())

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = _kind(scope)
        items = self.policy.limits.get(kind, ()) if kind else ()
        if items:
            key = client_key(scope, self.policy.proxies)
            wait = self._refusal(kind, key, items)
            if wait is not None:
                await _refuse(kind, wait)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refusal(self, kind: str, key: str, items: tuple[RateLimitItem, ...]) -> int | None:
        """Count the request, or the seconds until it may be made again (nothing counted then)."""
        full = [item for item in items if not self.limiter.test(item, kind, key)]
        if not full:
            for item in items:
                self.limiter.hit(item, kind, key)
            return None
        reset = max(self.limiter.get_window_stats(item, kind, key).reset_time for item in full)
        return max(1, math.ceil(reset - time.time()))


def _by_method() -> dict[str, re.Pattern[str]]:
    """Per method, one pattern of every kind made by that method, in ``KINDS``' order, each kind a named group:
    one match a request, not one per kind."""
    methods = {method for listed, _path, _default in KINDS.values() for method in listed.split("|")}
    return {method: re.compile("|".join(f"(?P<{kind}>{path.pattern})" for kind, (listed, path, _) in KINDS.items()
                                        if method in listed.split("|")))
            for method in methods}


BY_METHOD = _by_method()


def _kind(scope: Scope) -> str | None:
    """The kind a request counts as: its method and path, or (for a kind that a query names, a replay's ``?at=``)
    its path with its query."""
    pattern = BY_METHOD.get(scope["method"])
    if pattern is None:
        return None
    matched = pattern.match(scope["path"])
    if matched is None and scope.get("query_string"):
        matched = pattern.match(f"{scope['path']}?{scope['query_string'].decode('latin-1')}")
    if matched is None:
        return None
    return next(kind for kind, found in matched.groupdict().items() if found is not None)


WORDS = {
    "games": ("de parties créées", "games created"),
    "simulations": ("de simulations", "simulations"),
    "subscriptions": ("d'abonnements", "subscriptions"),
    "test_notices": ("d'avis d'essai", "test notices"),
    "checks": ("de calculs de chances ou d'aperçus", "odds or previews"),
    "links": ("de confirmations ou de désabonnements", "confirmations or unsubscriptions"),
    "sign_in": ("de connexions", "sign-ins"),
    "seats": ("de sièges pris", "seats taken"),
    "pairing": ("de recherches d'adversaire", "searches for an opponent"),
    "lists": ("de listes demandées", "lists asked for"),
    "sign_in_emails": ("de liens de connexion demandés", "sign-in links asked for"),
    "messages": ("de messages", "messages"),
    "replays": ("de replays demandés", "replays asked for"),
    "maps_check": ("de cartes vérifiées", "maps checked"),
    "maps": ("de cartes enregistrées", "maps saved"),
}


def _refuse(kind: str, wait: int):  # noqa: ANN202 - a Response
    REFUSALS.labels("rate_limited", kind).inc()
    fr, en = WORDS[kind]
    response = problem_response(429, "rate_limited",
                                f"Trop {fr} depuis cette adresse : réessaie dans {_duration(wait)}.",
                                f"Too many {en} from this address: try again in {_duration(wait)}.",
                                limit=kind, retry_after=wait)
    response.headers["Retry-After"] = str(wait)
    return response


def _duration(seconds: int) -> str:
    """Seconds as people count them (the same symbols in French and English)."""
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{math.ceil(seconds / 60)} min"
    return f"{math.ceil(seconds / 3600)} h"
