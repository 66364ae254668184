"""Two actions sent at the same version: exactly one lands, the other gets 409 stale_version."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from kadesh.server.app import create_app
from tests.asgi_client import TestClient
from tests.kadesh_http import auth, create, game_of

PAIRS = 20


def _race(clients, game_id, token, version, actions):
    barrier = threading.Barrier(len(actions))

    def send(index):
        barrier.wait()
        return clients[index].post(f"/api/games/{game_id}/actions", headers=auth(token),
                                   json={"expected_version": version, "action": actions[index]})

    with ThreadPoolExecutor(len(actions)) as pool:
        return list(pool.map(send, range(len(actions))))


def test_twenty_racing_pairs_one_lands_each_time_across_two_servers(db):
    # Two app instances on one database: their in-process locks cannot help, only the database can.
    apps = [create_app(db), create_app(db)]
    with TestClient(apps[0]) as first, TestClient(apps[1]) as second:
        game = create(first)
        token = game["seats"]["north"]["token"]
        winners = []
        for version in range(PAIRS):
            cells = ("c1", "d1") if version % 2 == 0 else ("e2", "f2")
            actions = [{"type": "deploy", "element": "n1", "cell": cell} for cell in cells]
            responses = _race([first, second], game["id"], token, version, actions)
            statuses = sorted(r.status_code for r in responses)
            assert statuses == [200, 409], [r.text for r in responses]
            lost = next(r for r in responses if r.status_code == 409).json()
            assert lost["code"] == "stale_version" and lost["version"] == version + 1
            winners.append(next(a for a, r in zip(actions, responses, strict=True) if r.status_code == 200))
        for app in apps:
            assert app.state.store.action_count(game["id"]) == PAIRS
        seen_by_second = game_of(second, game["id"], token)
        assert seen_by_second["version"] == PAIRS
        cell = next(e["cell"] for e in seen_by_second["view"]["elements"] if e["id"] == "n1")
        assert cell == winners[-1]["cell"]
        rebuilt = apps[0].state.store.rebuild(game["id"])
        assert [a["action"] for a in rebuilt.actions] == winners
    for app in apps:
        app.state.store.close()


def test_racing_pairs_in_one_server(db):
    app = create_app(db)
    with TestClient(app) as client:
        game = create(client)
        token = game["seats"]["south"]["token"]
        for version in range(PAIRS):
            actions = [{"type": "deploy", "element": "s2", "cell": cell} for cell in ("c11", "d12")]
            statuses = sorted(r.status_code for r in _race([client, client], game["id"], token, version, actions))
            assert statuses == [200, 409]
        assert app.state.store.action_count(game["id"]) == PAIRS
    app.state.store.close()
