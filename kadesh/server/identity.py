"""Who is signed in (issue 41): the session cookie, and the check that keeps other sites from writing with it.

The cookie holds a session's secret (the store keeps its hash): HttpOnly (no script reads it), SameSite=Lax
(another site's page cannot send it with a write), and Secure except on plain HTTP to a loopback address, where
a developer runs ``kadesh serve`` without a certificate. Every write that the cookie authenticates must also
come from the server's own origin (``Origin``, or ``Sec-Fetch-Site`` where a browser sends no Origin): a
request from another site is refused with 403 ``cross_site`` before it does anything. The seat tokens' paths
(Bearer, the WebSocket's subprotocol) are not affected: a token is never sent by a browser on its own.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from fastapi import Request, Response
from starlette.requests import HTTPConnection

from kadesh.server.problems import ApiProblem
from kadesh.store import Store
from kadesh.store.accounts import SESSION_LIFE, Player

COOKIE = "kadesh_session"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

def not_signed_in() -> ApiProblem:
    return ApiProblem(401, "not_signed_in", "Connecte-toi d'abord.", "Sign in first.")


def cross_site() -> ApiProblem:
    return ApiProblem(403, "cross_site", "Refusé : cette demande vient d'un autre site.",
                      "Refused: this request comes from another site.")


def own_origin(connection: HTTPConnection) -> str:
    """This server's origin as its players see it: ``KADESH_PUBLIC_URL``'s, or the one the request was sent to."""
    public_url = _public_url(connection)
    if public_url:
        parts = urlsplit(public_url)
        return f"{parts.scheme}://{parts.netloc}".lower()
    return f"{connection.url.scheme}://{connection.headers.get('host', connection.url.netloc)}".lower()


def _public_url(connection: HTTPConnection) -> str | None:
    return getattr(getattr(connection.app.state, "notice_settings", None), "public_url", None)


def same_site(request: Request) -> bool:
    """Whether a request comes from a page of this server (or from no page at all: a client that is not a
    browser sends neither header, and carries no cookie of a player unless it was given one)."""
    origin = request.headers.get("origin")
    fetch_site = request.headers.get("sec-fetch-site")
    if origin == "null":
        # A form posted from a page served with ``Referrer-Policy: no-referrer`` (every page of Kadesh) carries
        # ``Origin: null``; so do sandboxed frames and other sites' data: pages, which the fetch metadata tells.
        return fetch_site == "same-origin"
    if origin is not None:
        origin = origin.rstrip("/").lower()
        if _public_url(request):
            return origin == own_origin(request)
        # Behind a proxy that ends TLS the server sees plain HTTP: the host the browser named is what counts.
        return urlsplit(origin).netloc == request.headers.get("host", "").lower()
    return fetch_site is None or fetch_site in ("same-origin", "none")


def check_same_site(request: Request) -> None:
    """Refuse (403) a write authenticated by the cookie that another site's page sent."""
    if request.method not in SAFE_METHODS and not same_site(request):
        raise cross_site()


def session_secret(connection: HTTPConnection) -> str | None:
    secret = connection.cookies.get(COOKIE)
    return secret if secret and len(secret) <= 128 else None


def signed_in(connection: HTTPConnection, store: Store) -> Player | None:
    """The player whose current session the request's cookie holds, if any."""
    secret = session_secret(connection)
    return store.accounts.session_player(secret) if secret else None


def set_session(response: Response, request: Request, secret: str) -> None:
    response.set_cookie(COOKIE, secret, max_age=int(SESSION_LIFE.total_seconds()), path="/", httponly=True,
                        samesite="lax", secure=not _plain_loopback(request))


def clear_session(response: Response, request: Request) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=not _plain_loopback(request))


def _plain_loopback(request: Request) -> bool:
    """Plain HTTP to this machine: a developer's ``kadesh serve``, where a Secure cookie could not be set."""
    if request.url.scheme != "http":
        return False
    host = (request.url.hostname or "").strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
