"""A seat's link is the seat: keeping tokens out of logs, and a browser that trusts only Kadesh.

``SecurityHeaders`` puts on every HTTP response (pages, API, static files, errors) a strict
Content-Security-Policy (scripts and styles from this server only, no inline script or style attribute,
connections to its own WebSocket, never framed), ``Referrer-Policy: no-referrer`` (a page opened from an
old ``?token=`` link sends that link nowhere), ``X-Content-Type-Options: nosniff``, and a
``Permissions-Policy`` that turns off what the pages do not use; and on every API answer (views, journals,
tokens) ``Cache-Control: no-store``. Browser notifications are asked for
through the Notification API's own prompt, which no Permissions-Policy feature governs.

``RedactTokens`` is a logging filter for every logger that writes a URL (uvicorn's access and WebSocket
lines): the value of any ``token`` parameter becomes ``[redacted]`` before the line is written, the
parameter's name read as the server reads it (``?%74oken=`` is a token too), and so does any value that
carries a token once decoded (``?next=%2Fplay%3Ftoken%3D…``).
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote_plus

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kadesh.server.layers import HttpLayer

PERMISSIONS = ("accelerometer=(), autoplay=(), camera=(), display-capture=(), fullscreen=(), geolocation=(), "
               "gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), usb=(), "
               "clipboard-write=(self)")  # the « Copier » buttons copy a link
_HOST = re.compile(r"^[A-Za-z0-9.\-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$")


def content_security_policy(host: str | None) -> str:
    """The policy of every response; ``host`` (the request's Host) names the page's own WebSocket."""
    sockets = f" ws://{host} wss://{host}" if host and _HOST.match(host) else ""
    return ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
            f"connect-src 'self'{sockets}; object-src 'none'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")


STATIC_HEADERS = [(b"referrer-policy", b"no-referrer"), (b"x-content-type-options", b"nosniff"),
                  (b"x-frame-options", b"DENY"), (b"permissions-policy", PERMISSIONS.encode()),
                  (b"cross-origin-opener-policy", b"same-origin")]
NO_STORE = (b"cache-control", b"no-store")
POLICIES_KEPT = 64  # hosts whose Content-Security-Policy is kept written (a server answers to few names)


class SecurityHeaders(HttpLayer):
    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app)
        self.policies: dict[bytes | None, bytes] = {}  # by Host: the headers are written once per name, not per answer

    def _policy(self, host: bytes | None) -> bytes:
        policy = self.policies.get(host)
        if policy is None:
            policy = content_security_policy(host.decode("latin-1") if host is not None else None).encode("latin-1")
            if len(self.policies) >= POLICIES_KEPT:  # a client may send any Host: never more than this kept
                self.policies.clear()
            self.policies[host] = policy
        return policy

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        host = next((value for name, value in scope["headers"] if name == b"host"), None)
        added = [(b"content-security-policy", self._policy(host)), *STATIC_HEADERS]
        # The API's answers carry views, journals and tokens: no cache (a browser's, a proxy's) may keep one.
        private = scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # As MutableHeaders would set them (each replacing one the answer had), without its copies.
                names = {name for name, _ in added}
                headers = [(name, value) for name, value in message.get("headers", ()) if name.lower() not in names]
                if private and not any(name.lower() == b"cache-control" for name, _ in headers):
                    headers.append(NO_STORE)
                message["headers"] = headers + added
            await send(message)

        await self.app(scope, receive, send_with_headers)


_PARAMETER = re.compile(r"(?P<lead>^|[?&;\s\"'])(?P<name>[^=&;?\s\"']+)=(?P<value>[^&;\s\"']*)")
REDACTED = "[redacted]"
SECRET_NAMES = frozenset({"token"})
_DECODINGS = 3  # a name or value is read as a server would, and as one that decodes it again would


def _decoded_forms(text: str) -> list[str]:
    forms = [text]
    for _ in range(_DECODINGS):
        forms.append(unquote_plus(forms[-1]))
    return [form.lower() for form in forms]


def _secret(name: str, value: str) -> bool:
    """A token's parameter, however its name is spelled (``%74oken``, ``TOKEN``), or a value that
    carries one (an address in ``?next=``, percent-encoded or not)."""
    if any(form.strip() in SECRET_NAMES for form in _decoded_forms(name)):
        return True
    return any(f"{secret}=" in form for form in _decoded_forms(value) for secret in SECRET_NAMES)


def redact(text: str) -> str:
    """``text`` with the value of every parameter that is or carries a token replaced."""
    if "=" not in text:
        return text
    return _PARAMETER.sub(lambda match: match.group(0) if not _secret(match["name"], match["value"])
                          else f"{match['lead']}{match['name']}={REDACTED}", text)


class RedactTokens(logging.Filter):
    """Redacts in place, the record's shape kept: uvicorn's access formatter unpacks its five arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: redact(value) if isinstance(value, str) else value
                           for key, value in record.args.items()}
        return True


LOGGERS_WITH_URLS = ("uvicorn.access", "uvicorn.error", "uvicorn", "kadesh", "")  # "": the root's handlers


def redact_logs() -> None:
    """Put ``RedactTokens`` on the loggers that may write a URL and on their handlers (once)."""
    for name in LOGGERS_WITH_URLS:
        logger = logging.getLogger(name)
        for target in (logger, *logger.handlers):
            if not any(isinstance(existing, RedactTokens) for existing in target.filters):
                target.addFilter(RedactTokens())
