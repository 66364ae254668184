"""The bare broadcaster ``bench_push.py`` measures Kadesh against: Starlette served by uvicorn, the sockets of each
game kept in memory, and each POST's new version sent to the game's sockets before the answer. No database, no
rules, no token check: the cost of the WebSocket itself. Each update carries the view read from
``KADESH_BENCH_VIEW`` (a JSON file; Kadesh's spectator view of the same game), so that both send as many bytes,
as compressible.

    KADESH_BENCH_VIEW=/tmp/view.json python -m uvicorn bare_push:app --app-dir bench --port 8002
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

VIEW = json.loads(Path(os.environ["KADESH_BENCH_VIEW"]).read_text()) if "KADESH_BENCH_VIEW" in os.environ else {}
versions: dict[str, int] = {}
sockets: dict[str, set[WebSocket]] = {}


def update(version: int) -> str:
    return json.dumps({"type": "update", "version": version, "journal": [], "view": VIEW},
                      separators=(",", ":"), ensure_ascii=False)


async def new_game(request: Request) -> JSONResponse:
    """A new game, under the ``id`` asked for when given (the same game on each of several bare servers)."""
    game_id = request.query_params.get("id") or uuid.uuid4().hex[:12]
    versions[game_id] = 0
    return JSONResponse({"id": game_id}, status_code=201)


async def act(request: Request) -> JSONResponse:
    game_id = request.path_params["game_id"]
    body = await request.json()
    if body.get("expected_version") != versions.get(game_id):
        return JSONResponse({"code": "stale_version"}, status_code=409)
    versions[game_id] += 1
    text = update(versions[game_id])
    for socket in list(sockets.get(game_id, ())):
        try:
            await socket.send_text(text)
        except Exception:  # noqa: BLE001 - a socket gone meanwhile
            sockets[game_id].discard(socket)
    return JSONResponse({"version": versions[game_id]})


async def watch(websocket: WebSocket) -> None:
    game_id = websocket.path_params["game_id"]
    await websocket.accept(subprotocol="kadesh")
    await websocket.send_text(update(versions.get(game_id, 0)))
    sockets.setdefault(game_id, set()).add(websocket)
    try:
        while True:
            await websocket.receive_text()
    except WebSocketDisconnect:
        pass
    finally:
        sockets[game_id].discard(websocket)


async def health(_request: Request) -> JSONResponse:
    return JSONResponse({"status": "ok"})


app = Starlette(routes=[Route("/health", health), Route("/games", new_game, methods=["POST"]),
                        Route("/games/{game_id}/actions", act, methods=["POST"]),
                        WebSocketRoute("/ws/games/{game_id}", watch)])
