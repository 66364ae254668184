"""The bare endpoint ``bench_http.py`` measures Kadesh against: FastAPI served by uvicorn, one row inserted per
POST into a SQLite file in WAL mode with ``synchronous=FULL`` (the same durability as Kadesh's store), with
Python's own ``sqlite3`` and nothing else. Its file comes from ``KADESH_BENCH_SQLITE``.

    KADESH_BENCH_SQLITE=/tmp/bare.sqlite3 python -m uvicorn bare_insert:app --app-dir bench --port 8001
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import uuid
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel

PATH = os.environ["KADESH_BENCH_SQLITE"]
local = threading.local()
app = FastAPI()


def connection() -> sqlite3.Connection:
    """One connection per worker thread (sqlite3's rule), each with the same settings."""
    if not hasattr(local, "db"):
        local.db = sqlite3.connect(PATH, timeout=30, isolation_level=None)
        local.db.execute("PRAGMA journal_mode=WAL")
        local.db.execute("PRAGMA synchronous=FULL")
        local.db.execute("CREATE TABLE IF NOT EXISTS actions (game_id TEXT, seq INTEGER, action TEXT, "
                         "PRIMARY KEY (game_id, seq))")
    return local.db


class Body(BaseModel):
    expected_version: int
    action: dict[str, Any]


@app.post("/games")
def new_game() -> dict[str, str]:
    connection()
    return {"id": uuid.uuid4().hex}


@app.post("/bare/{game_id}")
def insert(game_id: str, body: Body) -> dict[str, int]:
    connection().execute("INSERT INTO actions VALUES (?, ?, ?)",
                         (game_id, body.expected_version + 1, json.dumps(body.action)))
    return {"version": body.expected_version + 1}
