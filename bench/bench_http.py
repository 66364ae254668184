"""Actions per second through the full HTTP stack, against a bare endpoint doing the same insert.

    python bench/bench_http.py [--actions 500]

Full stack: POST /api/games/{id}/actions through the real app (token check, version
check, rules, write, notification), alternating Manœuvre deploy/undeploy of one element.
Bare: a FastAPI endpoint on the same kind of database (SQLite file, WAL, synchronous=FULL)
that only inserts the same row into the same ``actions`` table. Both go through
Starlette's TestClient in one process, so the ratio is the cost of Kadesh's own work.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel

from kadesh.server import create_app
from kadesh.store import Store, schema


def full_stack(db: str, count: int) -> float:
    app = create_app(db)
    with TestClient(app) as client:
        game = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
        url = f"/api/games/{game['id']}/actions"
        headers = {"Authorization": f"Bearer {game['seats']['north']['token']}"}
        deploy, undeploy = {"type": "deploy", "element": "n1", "cell": "c1"}, {"type": "undeploy", "element": "n1"}
        start = time.perf_counter()
        for version in range(count):
            action = deploy if version % 2 == 0 else undeploy
            response = client.post(url, headers=headers, json={"expected_version": version, "action": action})
            assert response.status_code == 200, response.text
        elapsed = time.perf_counter() - start
    app.state.store.close()
    return count / elapsed


class Body(BaseModel):
    expected_version: int
    action: dict[str, Any]


def bare(db: str, count: int) -> float:
    store = Store(db)  # same engine settings and migrated tables; only its engine is used
    game_id = store.create_game("manoeuvre").id
    app = FastAPI()

    @app.post("/bare/{game_id}")
    def insert(game_id: str, body: Body) -> dict[str, int]:
        with store.engine.begin() as conn:
            conn.execute(schema.actions.insert().values(
                game_id=game_id, seq=body.expected_version + 1, seat="north", action=body.action,
                events=[], created_at=datetime.now(UTC)))
        return {"version": body.expected_version + 1}

    with TestClient(app) as client:
        start = time.perf_counter()
        for version in range(count):
            action = {"type": "deploy", "element": "n1", "cell": "c1"} if version % 2 == 0 else {"type": "undeploy"}
            response = client.post(f"/bare/{game_id}", json={"expected_version": version, "action": action})
            assert response.status_code == 200, response.text
        elapsed = time.perf_counter() - start
    store.close()
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        full = full_stack(f"sqlite:///{Path(folder) / 'full.sqlite3'}", args.actions)
        base = bare(f"sqlite:///{Path(folder) / 'bare.sqlite3'}", args.actions)
    print(f"full stack: {full:8.1f} actions/s")
    print(f"bare insert: {base:8.1f} actions/s")
    print(f"ratio full/bare: {full / base:.2f}")


if __name__ == "__main__":
    main()
