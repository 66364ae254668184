"""Nothing sent to a seat reveals another seat's hidden deployment, and nothing reveals the seed early."""

from __future__ import annotations

import json
import random
import re

import pytest

from tests.kadesh_http import auth, create, deployment, legal, make_client, post_action

# What a seat is sent does not depend on the database: view() filters it before the store is written
# (CONTRIBUTING.md, « The suite's budget »).
pytestmark = pytest.mark.sqlite_only

GAMES = 4


@pytest.fixture
def client(db):
    yield from make_client(db)


def _walk(value):
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def _reveals_north(message) -> bool:
    """A deployed/undeployed event of north's, or a north element with a cell."""
    for item in _walk(message):
        if not isinstance(item, dict):
            continue
        if item.get("type") in ("deployed", "undeployed") and item.get("element", {}).get("side") == "north":
            return True
        if item.get("side") == "north" and str(item.get("id", "")).startswith("n") and item.get("cell"):
            return True
    return False


def _assert_south_blind(texts: list[str], north_cells: set[str]) -> None:
    for text in texts:
        assert not _reveals_north(json.loads(text)), text
    for text in texts:  # not even a journal line naming the cell of a north element
        data = json.loads(text)
        lines = [item["line"] for item in _walk(data) if isinstance(item, dict) and "line" in item]
        named = {cell for line in lines for cell in re.findall(r"\b[a-l](?:1[0-2]|[1-9])\b", line, re.IGNORECASE)}
        assert not named & north_cells, lines


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(GAMES))
def test_south_sees_nothing_of_north_deployment_and_nobody_sees_the_seed(client, seed):
    rng = random.Random(seed)
    game = create(client, rng.choice(["bow", "blade"]))
    gid = game["id"]
    north, south, spectator = (game["seats"]["north"]["token"], game["seats"]["south"]["token"],
                               game["spectator"]["token"])
    store = client.app.state.store
    with store.game(gid) as engine_game:
        seed_text = engine_game.seed
    every_text: list[str] = []
    south_texts: list[str] = []

    def south_get(path: str, **params) -> None:
        response = client.get(path, params={"token": south, **params})
        assert response.status_code == 200
        south_texts.append(response.text)

    version = 0
    with client.websocket_connect(f"/ws/games/{gid}?token={south}&since=0") as socket:
        south_texts.append(json.dumps(socket.receive_json()))
        plan = deployment(legal(client, gid, north), rng)
        for action in plan:
            response = post_action(client, gid, north, version, action)
            assert response.status_code == 200
            every_text.append(response.text)
            version = response.json()["version"]
            south_texts.append(json.dumps(socket.receive_json()))  # pushed after every action
            if rng.random() < 0.3:  # change of mind: take it back and put it again
                for redo in ({"type": "undeploy", "element": action["element"]}, action):
                    response = post_action(client, gid, north, version, redo)
                    assert response.status_code == 200
                    version = response.json()["version"]
                    south_texts.append(json.dumps(socket.receive_json()))
            south_get(f"/api/games/{gid}")
            south_get(f"/api/games/{gid}/journal", lang=rng.choice(["fr", "en"]))
        response = client.get(f"/api/games/{gid}/legal", headers=auth(south))
        south_texts.append(response.text)
        # South probes north's cells: the answer must not tell whether a north element is there.
        probe = post_action(client, gid, south, version, {"type": "deploy", "element": "n1", "cell": plan[0]["cell"]})
        assert probe.status_code == 422
        south_texts.append(probe.text)
        north_cells = {a["cell"] for a in plan}
        view = client.get(f"/api/games/{gid}", params={"token": south}).json()["view"]
        assert all(e["cell"] is None for e in view["elements"] if e["side"] == "north")
        _assert_south_blind(south_texts, north_cells)

        for action in deployment(legal(client, gid, south), rng) + [{"type": "ready"}]:
            response = post_action(client, gid, south, version, action)
            assert response.status_code == 200
            south_texts.append(response.text)
            version = response.json()["version"]
            south_texts.append(json.dumps(socket.receive_json()))
        _assert_south_blind(south_texts, north_cells)

        response = post_action(client, gid, north, version, {"type": "ready"})
        version = response.json()["version"]
        battle = socket.receive_json()
        assert battle["view"]["phase"] == "battle"  # now the placement is public
        assert {e["cell"] for e in battle["view"]["elements"] if e["side"] == "north"} == north_cells

    for token in (north, south, spectator, game["owner"]["token"]):
        for path in ("", "/journal"):
            every_text.append(client.get(f"/api/games/{gid}{path}", params={"token": token}).text)
        every_text.append(client.get(f"/api/games/{gid}/export", params={"token": token}).text)
    for text in every_text + south_texts:
        assert seed_text not in text
    assert json.loads(every_text[-1])["code"] == "game_not_over"

    post_action(client, gid, north, version, {"type": "resign"})
    assert client.get(f"/api/games/{gid}", params={"token": south}).json()["seed"] == seed_text
