"""The action route's short way: a well-formed move answered without FastAPI's routing and dependencies.

``POST /api/games/{id}/actions`` is the request a server answers most, and the one a player waits on. FastAPI
spends on it, before and after the route's own work, about as much as the work itself: a dozen layers of routing,
dependency solving and validation. This ASGI layer, the innermost of the app's own (inside the rate limits and
the body's checks, so both still apply), answers a request it recognises with the route's own function
(``api.play_action``) and the app's own exception handlers. Anything else — another path, an unexpected query,
a body the model refuses, a header too long — goes on to the app unchanged, body included, where the route
answers or refuses it in its usual words. The route stays the one in the OpenAPI: both doors give the same
answers, and the tests go through this one.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl

from pydantic import ValidationError
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from kadesh.server.api import act, play_action
from kadesh.server.auth import bearer
from kadesh.server.layers import HttpLayer
from kadesh.server.limits import replaying
from kadesh.server.metrics import ActionClock
from kadesh.server.models import ActionRequest

ACTIONS = re.compile(r"^/api/games/([^/]{1,64})/actions$")  # GameId's bound: a longer id is the route's to refuse
MAX_TOKEN = 256  # TokenQuery's bound
MAX_AUTHORIZATION = 300  # AuthHeader's bound


class ActionPath(HttpLayer):
    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app)
        self.route: Any = None  # the route it stands in for, as the router would name it in the scope

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        matched = ACTIONS.match(scope["path"]) if scope["method"] == "POST" else None
        if matched is None:
            await self.app(scope, receive, send)
            return
        clock = ActionClock()
        message = await receive()  # RequestLimits has read the whole body: it comes in one message
        body = message.get("body", b"")
        read = _read(scope, body)
        if read is None or message.get("more_body"):
            await self.app(scope, replaying(message, receive), send)
            return
        action, token = read
        scope["route"] = self.route = self.route or next(
            route for route in scope["app"].routes if getattr(route, "endpoint", None) is act)
        request = Request(scope, replaying(message, receive), send)
        try:
            response = await play_action(request, matched[1], action, token, clock)
        except Exception as error:  # noqa: BLE001 - each to the app's own handler, as the route's errors go
            handler = _handler(scope["app"].exception_handlers, error)
            if handler is None:
                raise
            response = await handler(request, error)
        await response(scope, receive, send)


def _read(scope: Scope, body: bytes) -> tuple[ActionRequest, str | None] | None:
    """The action and the token, as the route would read them; None for anything the route should see itself."""
    token = None
    if scope["query_string"]:
        query = parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True)
        if len(query) != 1 or query[0][0] != "token" or not 0 < len(query[0][1]) <= MAX_TOKEN:
            return None
        token = query[0][1]
    authorization = next((value for name, value in scope["headers"] if name == b"authorization"), None)
    if authorization is not None:
        if len(authorization) > MAX_AUTHORIZATION:
            return None
        token = token or bearer(authorization.decode("latin-1"))
    try:
        action = ActionRequest.model_validate(json.loads(body))  # as FastAPI reads a JSON body
    except (ValueError, RecursionError, ValidationError):
        return None
    return action, token


def _handler(handlers: dict[Any, Any], error: Exception) -> Any:
    """The app's handler for ``error``: the nearest of its classes that has one, as Starlette looks it up."""
    for cls in type(error).__mro__:
        if cls in handlers:
            return handlers[cls]
    return None
