"""WebSocket /ws/games/{id}: the journal and view of one seat, pushed after every action.

On connect the server sends ``{"type": "update", "version", "journal", "view"}`` with the
journal lines after ``since``; then the same message after each new action, with only
the lines that are new for this seat. Messages at the table (issue 43) come as ``{"type": "messages", "last",
"messages"}``: on connect those after ``messages_since`` (the latest 300 at most; no frame if there are none), then
each new one this seat reads, in order (``kadesh.server.messages_api``). A refused connection gets ``{"type": "error",
"problem": {...}}`` and is closed with code 4000 + HTTP status (4401, 4403, 4404).

The server needs nothing from the client. A client that floods anyway (more than
``MAX_CLIENT_MESSAGES`` messages in ``FLOOD_WINDOW`` seconds, or one message longer than
``MAX_CLIENT_MESSAGE``) gets an error frame and is closed with 1008; only its own socket.
One server process keeps at most ``MAX_SOCKETS_PER_GAME`` sockets open on one game: the
next ones get an error frame and close code 4429. An open socket whose token the owner
replaced (``POST /api/games/{id}/tokens/{holder}``) is closed with 4401 ``token_revoked``. A browser's page
from another origin than the server's own (or those in ``KADESH_WS_ORIGINS``, or ``KADESH_PUBLIC_URL``'s) is
refused with 4403 ``foreign_origin``.

The token comes in the ``Sec-WebSocket-Protocol`` header, never in the URL (which logs keep): the client
offers the subprotocols ``kadesh`` and ``kadesh.bearer.<token>``, and the server accepts ``kadesh``. An
``Authorization: Bearer`` header (clients other than browsers) and the old ``?token=`` query (links from
before) are still taken; the query is redacted from every log line (``kadesh.server.security``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketDisconnect

from kadesh.server.auth import bearer, resolve
from kadesh.server.identity import signed_in
from kadesh.server.messages_api import pushed
from kadesh.server.notifier import MESSAGE
from kadesh.server.problems import (
    DATABASE_UNAVAILABLE,
    ApiProblem,
    database_unavailable,
    from_store_error,
    problem_body,
)
from kadesh.server.watching import Watching
from kadesh.store import Access, Store, StoreError

router = APIRouter()

MAX_SOCKETS_PER_GAME = 64  # open sockets on one game, per server process
MAX_CLIENT_MESSAGES = 30  # messages a client may send within FLOOD_WINDOW (the page sends none)
FLOOD_WINDOW = 10.0  # seconds
MAX_CLIENT_MESSAGE = 4096  # characters (text) or bytes (binary) in one client message
MAX_FRAME = 64 * 1024  # bytes: uvicorn (kadesh serve) drops a connection sending more in one message
CLOSE_POLICY = 1008  # RFC 6455 "policy violation": flooding
CLOSE_TOO_MANY = 4429  # too many sockets on this game
CLOSE_TRY_AGAIN = 1013  # RFC 6455 "try again later": the database is away; the page reconnects by itself
SUBPROTOCOL = "kadesh"
BEARER_PROTOCOL = "kadesh.bearer."  # followed by the token, in the offered subprotocols

FLOODED = ApiProblem(429, "too_many_messages", "Trop de messages : ce canal ne reçoit rien du navigateur.",
                     "Too many messages: this socket expects nothing from the client.")
TOO_BIG = ApiProblem(413, "message_too_large", f"Message trop long : {MAX_CLIENT_MESSAGE} octets au plus.",
                     f"Message too large: {MAX_CLIENT_MESSAGE} bytes at most.")
CROWDED = ApiProblem(429, "too_many_sockets",
                     f"Trop de connexions sur cette partie ({MAX_SOCKETS_PER_GAME} au plus) : réessaie plus tard.",
                     f"Too many open connections on this game ({MAX_SOCKETS_PER_GAME} at most): try again later.")


def snapshot(store: Store, game_id: str, seat: str | None, lang: str, since: int) -> dict[str, Any]:
    with store.game(game_id) as game:
        return {"type": "update", "version": game.version,
                "journal": [{"version": v, "line": line} for v, line in game.journal_entries(seat, lang, since)],
                "view": game.view(seat)}


FOREIGN = ApiProblem(403, "foreign_origin", "Cette page n'est pas de ce serveur : connexion refusée.",
                     "This page is not this server's: connection refused.")


def socket_origins(environment: dict[str, str], public_url: str | None) -> frozenset[str]:
    """The pages' origins allowed beside the server's own: ``KADESH_WS_ORIGINS`` (comma-separated, ``*`` for
    any) and the origin of ``KADESH_PUBLIC_URL``."""
    listed = {origin.strip().rstrip("/").lower() for origin in environment.get("KADESH_WS_ORIGINS", "").split(",")}
    if public_url:
        parts = urlsplit(public_url)
        listed.add(f"{parts.scheme}://{parts.netloc}".lower())
    return frozenset(listed - {""})


def from_allowed_origin(websocket: WebSocket) -> bool:
    """A browser says which page opens a socket; a page of another site is refused (it could only come with a
    token it stole, but it gets nothing either way). Clients other than browsers send no Origin."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    allowed: frozenset[str] = getattr(websocket.app.state, "socket_origins", frozenset())
    if "*" in allowed or origin in allowed:
        return True
    return urlsplit(origin).netloc == websocket.headers.get("host", "").lower()


def offered(websocket: WebSocket) -> tuple[bool, str | None]:
    """Whether the client offered Kadesh's subprotocol, and the token it carries there, if any."""
    protocols = [p.strip() for p in websocket.headers.get("sec-websocket-protocol", "").split(",") if p.strip()]
    token = next((p.removeprefix(BEARER_PROTOCOL) for p in protocols if p.startswith(BEARER_PROTOCOL)), None)
    return SUBPROTOCOL in protocols, token or None


async def _listen(websocket: WebSocket) -> ApiProblem | None:
    """Read what the client sends until it leaves (None) or floods (the problem to tell it)."""
    times: deque[float] = deque()
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        data = message.get("text") or message.get("bytes") or ""
        if len(data) > MAX_CLIENT_MESSAGE:
            return TOO_BIG
        now = time.monotonic()
        times.append(now)
        while now - times[0] > FLOOD_WINDOW:
            times.popleft()
        if len(times) > MAX_CLIENT_MESSAGES:
            return FLOODED


async def _refuse(websocket: WebSocket, problem: ApiProblem, code: int) -> None:
    """Send the problem as an error frame and close (the client may be gone already)."""
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", "problem": problem_body(problem.status, problem.code, problem.fr,
                                                                            problem.en, **problem.extra)})
    with contextlib.suppress(Exception):
        await websocket.close(code=code)


def _resolve(websocket: WebSocket, store: Store, game_id: str, token: str | None) -> Access:
    """What the socket's token opens; without one, what the signed-in player's account holds (a browser sends
    its cookie with the handshake; ``from_allowed_origin`` has kept other sites' pages out)."""
    player = None if token else signed_in(websocket, store)
    return resolve(store, game_id, token, player.id if player is not None else None)


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str, token: str | None = None, since: int = 0,
                      lang: str = "fr", messages_since: int = 0) -> None:
    store: Store = websocket.app.state.store
    speaks_kadesh, offered_token = offered(websocket)
    await websocket.accept(subprotocol=SUBPROTOCOL if speaks_kadesh else None)
    game_id = game_id[:64]
    lang = lang if lang in ("fr", "en") else "fr"
    token = offered_token or bearer(websocket.headers.get("authorization")) or token
    if not from_allowed_origin(websocket):
        await _refuse(websocket, FOREIGN, 4403)
        return
    try:
        access = await run_in_threadpool(_resolve, websocket, store, game_id, token)
    except StoreError as error:
        problem = from_store_error(error)
        await _refuse(websocket, problem, 4000 + problem.status)
        return
    except SQLAlchemyError as error:
        if not database_unavailable(error):
            raise
        await _refuse(websocket, DATABASE_UNAVAILABLE, CLOSE_TRY_AGAIN)
        return
    watching: Watching = websocket.app.state.watching
    if watching.sockets.get(game_id, 0) >= MAX_SOCKETS_PER_GAME:
        await _refuse(websocket, CROWDED, CLOSE_TOO_MANY)
        return
    subscription = websocket.app.state.notifier.subscribe(game_id)
    listener = asyncio.create_task(_listen(websocket))
    getter: asyncio.Task[tuple[str, int]] | None = None
    try:
        await watching.opened(game_id)  # counted at once, before its first wait: closed below whatever happens
        message = await run_in_threadpool(snapshot, store, game_id, access.seat, lang, max(since, 0))
        await websocket.send_json(message)
        last = message["version"]
        talk = await run_in_threadpool(pushed, store, game_id, access, max(messages_since, 0))
        if talk["messages"]:  # a table without messages sends none: the socket's first frame stays the game's
            await websocket.send_json(talk)
        last_message = talk["last"]
        while True:
            getter = asyncio.create_task(subscription.get())
            done, _ = await asyncio.wait({getter, listener}, return_when=asyncio.FIRST_COMPLETED)
            if listener in done:
                problem = None if listener.cancelled() or listener.exception() else listener.result()
                if problem is not None:
                    await _refuse(websocket, problem, CLOSE_POLICY)
                return
            try:  # the owner may have replaced this token (or the player signed out) since the last push
                await run_in_threadpool(_resolve, websocket, store, game_id, token)
            except StoreError as error:
                problem = from_store_error(error)
                await _refuse(websocket, problem, 4000 + problem.status)
                return
            kind, number = getter.result()
            if kind == MESSAGE:
                if number > last_message:
                    talk = await run_in_threadpool(pushed, store, game_id, access, last_message)
                    if talk["messages"]:
                        await websocket.send_json(talk)
                    last_message = talk["last"]
                continue
            if number <= last:
                continue
            message = await run_in_threadpool(snapshot, store, game_id, access.seat, lang, last)
            if message["version"] > last:
                await websocket.send_json(message)
                last = message["version"]
    except WebSocketDisconnect:
        return
    except SQLAlchemyError as error:
        if not database_unavailable(error):
            raise
        await _refuse(websocket, DATABASE_UNAVAILABLE, CLOSE_TRY_AGAIN)
    finally:
        subscription.close()
        for task in (listener, getter):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await watching.closed(game_id)
