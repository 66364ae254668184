"""Starlette's TestClient, its plain HTTP requests sent to the app in one call to the app's event loop.

Starlette's own transport streams each answer back across threads: some eight calls into the event loop's thread
per request (events, a memory stream, a cancel scope, the app's task, each chunk of the body), 3.6 ms of CPU for a
request the app answers in 0.6 ms (``GET /api/session``, measured; docs/performance.md « The suite's own time »).
Here the app runs on the same loop, in the same thread, as under Starlette's client, and its whole answer comes back
in one call: the same scope, the same messages, the same exceptions raised in the test. WebSockets keep Starlette's
own way. No route of Kadesh streams an answer without end (one would never come back here).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

import anyio
import httpx
from fastapi.testclient import TestClient as StarletteTestClient
from starlette.testclient import _TestClientTransport

DEFAULT_PORTS = {"http": 80, "https": 443}


class _OneCallTransport(_TestClientTransport):
    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme not in DEFAULT_PORTS:  # ws, wss: Starlette's session
            return super().handle_request(request)
        scope = self._scope(request)
        body = request.read()
        with self.portal_factory() as portal:
            try:
                start, chunks = portal.call(_answer, self.app, scope, body)
            except Exception:
                if self.raise_server_exceptions:
                    raise
                start, chunks = {"status": 500, "headers": []}, []
        if start is None:
            if self.raise_server_exceptions:
                raise AssertionError("TestClient did not receive any response.")
            start = {"status": 500, "headers": []}
        headers = [(key.decode(), value.decode()) for key, value in start.get("headers", [])]
        content = b"" if request.method == "HEAD" else b"".join(chunks)
        return httpx.Response(start["status"], headers=headers, stream=httpx.ByteStream(content), request=request)

    def _scope(self, request: httpx.Request) -> dict[str, Any]:
        """The HTTP scope Starlette's transport builds for ``request``."""
        url = request.url
        headers = [] if "host" in request.headers else [(b"host", url.netloc)]
        headers += [(key.lower().encode(), value.encode()) for key, value in request.headers.multi_items()]
        return {
            "type": "http",
            "http_version": "1.1",
            "method": request.method,
            "path": unquote(url.path),
            "raw_path": url.raw_path.split(b"?", 1)[0],
            "root_path": self.root_path,
            "scheme": url.scheme,
            "query_string": url.query,
            "headers": headers,
            "client": self.client,
            "server": [url.raw_host.decode("ascii"), url.port or DEFAULT_PORTS[url.scheme]],
            "extensions": {"http.response.debug": {}, "http.response.trailers": {}},
            "state": self.app_state.copy(),
        }


async def _answer(app: Any, scope: dict[str, Any], body: bytes) -> tuple[dict[str, Any] | None, list[bytes]]:
    """Run ``app`` on ``scope`` with ``body``: its response's start message and its body's chunks. Asked for more
    once the request is read, the app waits, as under Starlette's client, until it has answered: the client is
    still there."""
    start: dict[str, Any] | None = None
    chunks: list[bytes] = []
    answered = anyio.Event()
    read = False

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read:
            await answered.wait()
            return {"type": "http.disconnect"}
        read = True
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            start = message
        elif message["type"] == "http.response.body":
            chunks.append(bytes(message.get("body", b"")))

    try:
        await app(scope, receive, send)
    finally:
        answered.set()
    return start, chunks


class TestClient(StarletteTestClient):
    """``fastapi.testclient.TestClient``, each plain HTTP request in one call to the app's loop."""

    __test__ = False

    def __init__(self, app: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(app, *args, **kwargs)
        old = self._transport
        self._transport = _OneCallTransport(old.app, portal_factory=old.portal_factory,
                                            raise_server_exceptions=old.raise_server_exceptions,
                                            root_path=old.root_path, client=old.client, app_state=old.app_state)
        self._mounts = {}
