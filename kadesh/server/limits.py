"""Request limits, checked before FastAPI sees a request: body size (413), JSON only (415), and
no lone UTF-16 surrogate (``"\\ud800"``) in the JSON (400): such a string cannot be written out as UTF-8."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kadesh.server.layers import HttpLayer
from kadesh.server.problems import problem_response
from kadesh.store.metrics import REFUSALS

MAX_BODY = 64 * 1024
# A body over the limit is still read (and dropped) up to this size before the 413 goes out: a proxy
# such as nginx that is still sending it would otherwise see the connection close under it and answer
# 502 instead of Kadesh's 413. Anything bigger is answered at once and the connection closed.
DRAIN_LIMIT = 1024 * 1024
_BODY_METHODS = {"POST", "PUT", "PATCH"}
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


FORM_PATHS = ("/unsubscribe/", "/confirm/", "/sign-in/")  # the only routes that take a form (the e-mails' links' pages)


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (media.startswith("application/") and media.endswith("+json"))


class RequestLimits(HttpLayer):
    """Read the whole body up front (at most ``max_body`` bytes) and refuse what is not JSON."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        super().__init__(app)
        self.max_body = max_body

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        length = headers.get("content-length", "")
        if length.isdigit() and int(length) > DRAIN_LIMIT:
            await self._too_large(scope, receive, send)
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > DRAIN_LIMIT:
                break
            if size <= self.max_body:
                chunks.append(chunk)
            more = message.get("more_body", False)
        if size > self.max_body:
            await self._too_large(scope, receive, send)
            return
        body = b"".join(chunks)
        form = scope["path"].startswith(FORM_PATHS)  # a mail reader's one-click unsubscribe posts a form
        if body and scope["method"] in _BODY_METHODS and not form and not _is_json(headers.get("content-type", "")):
            response = problem_response(415, "unsupported_media_type", "Le corps doit être du JSON (application/json).",
                                        "The body must be JSON (application/json).")
            await response(scope, receive, send)
            return
        if body and _has_lone_surrogate(body):
            response = problem_response(400, "invalid_unicode",
                                        "Texte invalide : le JSON contient un demi-caractère UTF-16 isolé.",
                                        "Invalid text: the JSON holds a lone UTF-16 surrogate.")
            await response(scope, receive, send)
            return
        await self.app(scope, replaying({"type": "http.request", "body": body, "more_body": False}, receive), send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        REFUSALS.labels("too_large", "").inc()
        kib = self.max_body // 1024
        response = problem_response(413, "too_large", f"Requête trop grande : {kib} Kio au plus.",
                                    f"Request too large: {kib} KiB at most.")
        await response(scope, receive, send)


def _has_lone_surrogate(body: bytes) -> bool:
    """Whether the JSON body holds a string (or key) that is not valid Unicode; rare, so parsed only then."""
    if not _SURROGATE_ESCAPE.search(body):
        return False
    try:
        value: Any = json.loads(body)
    except (ValueError, RecursionError):
        return False  # FastAPI refuses it as it would anyway
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
    return False


def replaying(message: Message, receive: Receive) -> Receive:
    """``receive`` with ``message`` given first (a body read up front, handed on to the app as if unread)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return message
        return await receive()

    return replay
