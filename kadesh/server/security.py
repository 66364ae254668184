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

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((value.decode("latin-1") for name, value in scope["headers"] if name == b"host"), None)
        policy = content_security_policy(host)
        # The API's answers carry views, journals and tokens: no cache (a browser's, a proxy's) may keep one.
        private = scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = policy
                headers["Referrer-Policy"] = "no-referrer"
                headers["X-Content-Type-Options"] = "nosniff"
                headers["X-Frame-Options"] = "DENY"
                headers["Permissions-Policy"] = PERMISSIONS
                headers["Cross-Origin-Opener-Policy"] = "same-origin"
                if private and "cache-control" not in headers:
                    headers["Cache-Control"] = "no-store"
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
