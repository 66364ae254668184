"""kadesh serve as a real process: it prints the URL to open, and every acknowledged action survives a kill -9 and a
restart."""

from __future__ import annotations

import httpx
import pytest

from tests.kadesh_http import deployment
from tests.server_support import ServerProcess


@pytest.mark.slow
def test_acknowledged_actions_survive_kill_9(db, tmp_path):
    server = ServerProcess(db, tmp_path / "serve.log").start()
    base = server.url
    # The address to open, where passkeys work (no server of its own: 2 s of CPU)
    assert f"open http://localhost:{server.port}/ " in server.output()
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            game = http.post("/api/games", json={"ruleset": "manoeuvre", "options": {"choice": "bow"}}).json()
            north = {"Authorization": f"Bearer {game['seats']['north']['token']}"}
            legal = http.get(f"/api/games/{game['id']}/legal", headers=north).json()["actions"]
            acknowledged = []
            for version, action in enumerate(deployment(legal)[:7]):
                answer = http.post(f"/api/games/{game['id']}/actions", headers=north,
                                   json={"expected_version": version, "action": action})
                assert answer.status_code == 200
                acknowledged.append(action)
            seen = http.get(f"/api/games/{game['id']}", headers=north).json()
    finally:
        server.kill()

    server.start()
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            after = http.get(f"/api/games/{game['id']}", headers=north).json()
            assert after["version"] == len(acknowledged)
            assert after["view"] == seen["view"]
            next_action = deployment(http.get(f"/api/games/{game['id']}/legal", headers=north).json()["actions"])[0]
            assert http.post(f"/api/games/{game['id']}/actions", headers=north,
                             json={"expected_version": len(acknowledged), "action": next_action}).status_code == 200
    finally:
        server.kill()
    from kadesh.store import Store

    store = Store(db)
    assert [a["action"] for a in store.rebuild(game["id"]).actions][: len(acknowledged)] == acknowledged
    store.close()

