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
A game has no ceiling of sockets: its spectators share its broadcaster's reads and renders. One client address
keeps at most ``SOCKETS_PER_ADDRESS`` sockets open on one server, and a server at most ``SOCKETS_PER_SERVER``
(``kadesh.server.socket_limits``): the next ones get an error frame and close code 4429. An open socket whose
token the owner replaced (``POST /api/games/{id}/tokens/{holder}``) is closed with 4401 ``token_revoked``. A
browser's page from another origin than the server's own (or those in ``KADESH_WS_ORIGINS``, or
``KADESH_PUBLIC_URL``'s) is refused with 4403 ``foreign_origin``.

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
from kadesh.server.broadcast import CLOSE_TRY_AGAIN, Broadcasts, GameBroadcast, Watcher, as_text, update
from kadesh.server.identity import session_secret, signed_in
from kadesh.server.messages_api import pushed
from kadesh.server.problems import (
    DATABASE_UNAVAILABLE,
    ApiProblem,
    database_unavailable,
    from_store_error,
    problem_body,
)
from kadesh.server.rates import client_key
from kadesh.server.socket_limits import OpenSockets
from kadesh.server.watching import Watching
from kadesh.store import Access, Store, StoreError
from kadesh.store.metrics import REFUSALS

router = APIRouter()

MAX_CLIENT_MESSAGES = 30  # messages a client may send within FLOOD_WINDOW (the page sends none)
FLOOD_WINDOW = 10.0  # seconds
MAX_CLIENT_MESSAGE = 4096  # characters (text) or bytes (binary) in one client message
MAX_FRAME = 64 * 1024  # bytes: uvicorn (kadesh serve) drops a connection sending more in one message
CLOSE_POLICY = 1008  # RFC 6455 "policy violation": flooding
CLOSE_TOO_MANY = 4429  # too many sockets from this address, or on this server
SUBPROTOCOL = "kadesh"
BEARER_PROTOCOL = "kadesh.bearer."  # followed by the token, in the offered subprotocols

FLOODED = ApiProblem(429, "too_many_messages", "Trop de messages : ce canal ne reçoit rien du navigateur.",
                     "Too many messages: this socket expects nothing from the client.")
TOO_BIG = ApiProblem(413, "message_too_large", f"Message trop long : {MAX_CLIENT_MESSAGE} octets au plus.",
                     f"Message too large: {MAX_CLIENT_MESSAGE} bytes at most.")


def snapshot(store: Store, game_id: str, seat: str | None, lang: str, since: int,
             first: bool = False) -> dict[str, Any]:
    """One socket's own update (its first, or one its broadcast could not queue for it). The first also says how
    often the table had changed (``table_changes``): a page that read the table before sees whether it must again."""
    table_changes = store.table_changes(game_id) if first else None  # read first: a change after it is announced
    with store.game(game_id) as game:
        message = update(game, seat, lang, since)
    if first:
        message["table_changes"] = table_changes
    return message


Frame = tuple[int, int, str]  # an update's version, the table's changes (a first update's), the update as text


def frame(store: Store, game_id: str, seat: str | None, lang: str, since: int, first: bool) -> Frame:
    """``snapshot`` as the text sent, for every socket that asks the same of its broadcast."""
    message = snapshot(store, game_id, seat, lang, since, first)
    return message["version"], message.get("table_changes") or 0, as_text(message)


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
    times: deque[float] | None = None  # made at the first message: most sockets never send one
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        data = message.get("text") or message.get("bytes") or ""
        if len(data) > MAX_CLIENT_MESSAGE:
            return TOO_BIG
        now = time.monotonic()
        times = times if times is not None else deque()
        times.append(now)
        while now - times[0] > FLOOD_WINDOW:
            times.popleft()
        if len(times) > MAX_CLIENT_MESSAGES:
            return FLOODED


async def _refuse(websocket: WebSocket, problem: ApiProblem, code: int) -> None:
    """Send the problem as an error frame and close (the client may be gone already)."""
    if problem.status in (413, 429):  # a socket refused for its rate or size, as requests are (kadesh.server.rates)
        REFUSALS.labels(problem.code, problem.extra.get("limit", "")).inc()  # too_many_sockets: address, server
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
    speaks_kadesh, offered_token = offered(websocket)
    await websocket.accept(subprotocol=SUBPROTOCOL if speaks_kadesh else None)
    if not from_allowed_origin(websocket):
        await _refuse(websocket, FOREIGN, 4403)
        return
    open_sockets: OpenSockets = websocket.app.state.open_sockets
    address = client_key(websocket.scope, websocket.app.state.proxies)
    crowded = open_sockets.take(address)
    if crowded is not None:  # before any read: a client past its share costs nothing more
        await _refuse(websocket, crowded, CLOSE_TOO_MANY)
        return
    try:
        token = offered_token or bearer(websocket.headers.get("authorization")) or token
        await _serve(websocket, game_id[:64], token, max(since, 0), lang if lang in ("fr", "en") else "fr",
                     max(messages_since, 0))
    finally:
        open_sockets.give_back(address)


async def _serve(websocket: WebSocket, game_id: str, token: str | None, since: int, lang: str,
                 messages_since: int) -> None:
    """The socket's life once let in: what its credential opens, its first frames, then each push."""
    store: Store = websocket.app.state.store
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
    broadcasts: Broadcasts = websocket.app.state.broadcasts
    credential = (token, None if token else session_secret(websocket))
    watcher = Watcher(websocket, access, lang, credential, last=since, last_message=messages_since)
    broadcast = broadcasts.join(game_id, watcher)  # before the first read: nothing committed from now on is missed
    listener = asyncio.create_task(_listen(websocket))
    listener.add_done_callback(lambda _: watcher.wake.set())
    writer: asyncio.Task[None] | None = None
    try:
        await watching.opened(game_id)  # counted at once, before its first wait: closed below whatever happens
        await _catch_up(watcher, broadcast, first=True)
        await _send_messages(watcher, broadcast)
        # A task of its own: woken at each push, it resumes _write alone, not the twenty coroutines of the
        # middlewares and routing that await this one (a third of a push's time to 10,000 sockets, issue 60).
        writer = asyncio.create_task(_write(watcher, broadcast, listener))
        await writer
    except WebSocketDisconnect:
        return
    except StoreError as error:  # the game gone since the socket's token was read
        problem = from_store_error(error)
        await _refuse(websocket, problem, 4000 + problem.status)
    except SQLAlchemyError as error:
        if not database_unavailable(error):
            raise
        await _refuse(websocket, DATABASE_UNAVAILABLE, CLOSE_TRY_AGAIN)
    finally:
        for task in (writer, listener):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        broadcasts.leave(game_id, watcher)
        await watching.closed(game_id)


async def _catch_up(watcher: Watcher, broadcast: GameBroadcast, first: bool = False) -> None:
    """The socket's own update of what it misses (its first, or one it was not there for), read and rendered once
    for the sockets of its audience that miss the same."""
    seat, since = watcher.access.seat, watcher.last
    # A catch-up is never served a read from before the version its broadcast reached: it would be served the same
    # old version again and again, without ever yielding to the loop.
    reached = None if first else broadcast.version
    version, table_changes, text = await broadcast.shared(("update", watcher.audience, since, first, reached), frame,
                                                          broadcast.store, broadcast.game_id, seat, watcher.lang,
                                                          since, first)
    watcher.table_changes = max(watcher.table_changes, table_changes)
    if first or version > watcher.last:
        await watcher.websocket.send_text(text)
    broadcast.caught_up(watcher, version)


async def _send_messages(watcher: Watcher, broadcast: GameBroadcast) -> None:
    """The messages this socket reads after the last it got, read once for the sockets with the same access that
    got as many; a table without messages sends none (the socket's first frame stays the game's)."""
    after = watcher.last_message
    talk = await broadcast.shared(("messages", watcher.access, after), pushed, broadcast.store, broadcast.game_id,
                                  watcher.access, after)
    if talk["messages"]:
        await watcher.websocket.send_text(as_text(talk))
    watcher.last_message = talk["last"]


async def _write(watcher: Watcher, broadcast: GameBroadcast, listener: asyncio.Task[ApiProblem | None]) -> None:
    """Send the socket what its broadcast queues for it, until the client leaves, floods or is refused."""
    websocket = watcher.websocket
    while True:
        await watcher.wake.wait()
        if listener.done():
            problem = None if listener.cancelled() or listener.exception() else listener.result()
            if problem is not None:
                await _refuse(websocket, problem, CLOSE_POLICY)
            return
        if watcher.refused is not None:
            await _refuse(websocket, *watcher.refused)
            return
        while watcher.outbox:
            text, push = watcher.outbox.pop(0)
            await websocket.send_text(text)
            push.written()
        while watcher.behind and watcher.refused is None:
            await _catch_up(watcher, broadcast)
        if watcher.table_wanted > watcher.table_changes and watcher.refused is None:
            watcher.table_changes = watcher.table_wanted
            await websocket.send_json({"type": "table", "changes": watcher.table_changes})
        if watcher.messages_wanted > watcher.last_message and watcher.refused is None:
            watcher.messages_wanted = 0  # taken (a resync announces sys.maxsize); any new one raises it again
            await _send_messages(watcher, broadcast)
