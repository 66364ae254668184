"""The base of Kadesh's own ASGI layers, which act on HTTP requests only.

A WebSocket's session (for as long as a page watches its game) goes straight to the app below: the layer hands
back the app's own awaitable rather than awaiting it, so none of its coroutines is held for the session's life.
Each held coroutine is objects that the collector's full passes go through, for every open socket (10,000 on a
featured game: docs/performance.md, « One game watched by 10,000 sockets »).
"""

from __future__ import annotations

from collections.abc import Awaitable

from starlette.types import ASGIApp, Receive, Scope, Send


class HttpLayer:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        return self.http(scope, receive, send)

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The layer's work on an HTTP request."""
        raise NotImplementedError
