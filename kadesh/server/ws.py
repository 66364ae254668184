"""WebSocket /ws/games/{id}: the journal and view of one seat, pushed after every action.

On connect the server sends ``{"type": "update", "version", "journal", "view"}`` with the
journal lines after ``since``; then the same message after each new action, with only
the lines that are new for this seat. A refused connection gets ``{"type": "error",
"problem": {...}}`` and is closed with code 4000 + HTTP status (4401, 4403, 4404).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocketDisconnect

from kadesh.server.auth import bearer
from kadesh.server.problems import from_store_error, problem_body
from kadesh.store import Store, StoreError

router = APIRouter()


def snapshot(store: Store, game_id: str, seat: str | None, lang: str, since: int) -> dict[str, Any]:
    with store.game(game_id) as game:
        return {"type": "update", "version": game.version,
                "journal": [{"version": v, "line": line} for v, line in game.journal_entries(seat, lang, since)],
                "view": game.view(seat)}


async def _until_disconnect(websocket: WebSocket) -> None:
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str, token: str | None = None, since: int = 0,
                      lang: str = "fr") -> None:
    store: Store = websocket.app.state.store
    await websocket.accept()
    lang = lang if lang in ("fr", "en") else "fr"
    try:
        access = await run_in_threadpool(store.access, game_id[:64],
                                         token or bearer(websocket.headers.get("authorization")))
    except StoreError as error:
        problem = from_store_error(error)
        await websocket.send_json({"type": "error", "problem": problem_body(problem.status, problem.code,
                                                                            problem.fr, problem.en, **problem.extra)})
        await websocket.close(code=4000 + problem.status)
        return
    subscription = websocket.app.state.notifier.subscribe(game_id)
    listener = asyncio.create_task(_until_disconnect(websocket))
    try:
        message = await run_in_threadpool(snapshot, store, game_id, access.seat, lang, max(since, 0))
        await websocket.send_json(message)
        last = message["version"]
        while True:
            getter = asyncio.create_task(subscription.get())
            done, _ = await asyncio.wait({getter, listener}, return_when=asyncio.FIRST_COMPLETED)
            if listener in done:
                getter.cancel()
                return
            if getter.result() <= last:
                continue
            message = await run_in_threadpool(snapshot, store, game_id, access.seat, lang, last)
            if message["version"] > last:
                await websocket.send_json(message)
                last = message["version"]
    except WebSocketDisconnect:
        return
    finally:
        subscription.close()
        listener.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await listener
