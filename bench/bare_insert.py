"""The bare endpoint ``bench_http.py`` measures Kadesh against: FastAPI served by uvicorn, one row inserted and
committed per POST, and nothing else. Into a SQLite file (``KADESH_BENCH_SQLITE``) in WAL mode with
``synchronous=FULL`` with Python's own ``sqlite3``, or into PostgreSQL (``KADESH_BENCH_PG``, a psycopg URL)
with psycopg: the same durability as Kadesh's store on each.

Two routes: ``/bare/{id}``, a plain ``def`` run in Starlette's thread pool with one connection per thread, and
``/bare-async/{id}``, an ``async def`` that inserts on one shared connection under a lock, on the event loop as
an ``async`` route of Kadesh's is (the baseline issue 60 was measured against).

    KADESH_BENCH_SQLITE=/tmp/bare.sqlite3 python -m uvicorn bare_insert:app --app-dir bench --port 8001
"""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import threading
import uuid
from typing import Any

import psycopg
from fastapi import FastAPI
from pydantic import BaseModel

SQLITE_PATH = os.environ.get("KADESH_BENCH_SQLITE")
POSTGRES_URL = os.environ.get("KADESH_BENCH_PG")
TABLE = "CREATE TABLE IF NOT EXISTS actions (game_id TEXT, seq INTEGER, action TEXT, PRIMARY KEY (game_id, seq))"
local = threading.local()
shared_lock = asyncio.Lock()
app = FastAPI()


def connection() -> Any:
    """One connection per worker thread (sqlite3's rule), each with the same settings."""
    if not hasattr(local, "db"):
        if POSTGRES_URL:
            local.db = psycopg.connect(POSTGRES_URL, autocommit=True)  # each INSERT its own committed transaction
        else:
            local.db = sqlite3.connect(SQLITE_PATH, timeout=30, isolation_level=None)
            local.db.execute("PRAGMA journal_mode=WAL")
            local.db.execute("PRAGMA synchronous=FULL")
        local.db.execute(TABLE)
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
    placeholders = "%s, %s, %s" if POSTGRES_URL else "?, ?, ?"
    connection().execute(f"INSERT INTO actions VALUES ({placeholders})",
                         (game_id, body.expected_version + 1, json.dumps(body.action)))
    return {"version": body.expected_version + 1}


@app.post("/bare-async/{game_id}")
async def insert_on_the_loop(game_id: str, body: Body) -> dict[str, int]:
    async with shared_lock:
        return insert(game_id, body)
