"""The action route's two doors (``kadesh.server.action_path`` and FastAPI's route) give the same answers."""

from __future__ import annotations

import pytest

from kadesh.server import action_path
from tests.kadesh_http import auth, create, make_client

pytestmark = pytest.mark.sqlite_only

DEPLOY = {"type": "deploy", "element": "n1", "cell": "c1"}


@pytest.fixture
def client(db):
    yield from make_client(db)


@pytest.fixture
def short_way(monkeypatch):
    """How many requests the short way answered itself."""
    taken: list[str] = []
    original = action_path.play_action

    async def counted(request, game_id, body, token, clock):
        taken.append(game_id)
        return await original(request, game_id, body, token, clock)

    monkeypatch.setattr(action_path, "play_action", counted)
    return taken


def both_doors(client, path: str, **request):
    """The same request by the short way and, with a query parameter the short way leaves alone, by the route."""
    short = client.post(path, **request)
    long = client.post(path, params={**request.pop("params", {}), "by": "route"}, **request)
    return short, long


def same(short, long) -> None:
    assert short.status_code == long.status_code, (short.text, long.text)
    assert short.json() == long.json()
    headers = [{name: value for name, value in answer.headers.items() if name not in ("content-length", "date")}
               for answer in (short, long)]
    assert headers[0] == headers[1]


def test_refusals_are_the_same_by_either_door_and_change_nothing(client, short_way):
    game = create(client)
    gid, north = game["id"], game["seats"]["north"]["token"]
    refused = [
        ({"headers": auth(north), "json": {"expected_version": 5, "action": DEPLOY}}, 409),  # ahead of the game
        ({"headers": auth(north), "json": {"expected_version": 0, "action": {"type": "fly"}}}, 422),
        ({"headers": auth("nobody"), "json": {"expected_version": 0, "action": DEPLOY}}, 401),
        ({"headers": auth(game["spectator"]["token"]), "json": {"expected_version": 0, "action": DEPLOY}}, 403),
        ({"json": {"expected_version": 0, "action": DEPLOY}}, 401),  # no token, nobody signed in
        ({"params": {"token": north}, "json": {"expected_version": 0, "action": {"type": "deploy"}}}, 422),
    ]
    for request, status in refused:
        short, long = both_doors(client, f"/api/games/{gid}/actions", **request)
        assert short.status_code == status, short.text
        same(short, long)
    missing_short, missing_long = both_doors(client, "/api/games/nosuchgame/actions", headers=auth(north),
                                             json={"expected_version": 0, "action": DEPLOY})
    assert missing_short.status_code == 404
    same(missing_short, missing_long)
    assert len(short_way) == len(refused) + 1  # every one of them answered by the short way
    assert client.get(f"/api/games/{gid}", headers=auth(north)).json()["version"] == 0


def test_what_the_short_way_does_not_read_goes_to_the_route_in_its_words(client, short_way):
    game = create(client)
    gid, north = game["id"], game["seats"]["north"]["token"]
    odd = [
        {"headers": auth(north), "json": {"expected_version": "0", "action": DEPLOY}},  # a string for a version
        {"headers": auth(north), "json": {"expected_version": 0, "action": DEPLOY, "extra": 1}},
        {"headers": auth(north), "json": [1, 2]},
        {"headers": {**auth(north), "Content-Type": "application/json"}, "content": b"{not json"},
        {"headers": auth(north), "params": {"token": "t" * 300}, "json": {"expected_version": 0, "action": DEPLOY}},
        {"headers": {"Authorization": "Bearer " + "t" * 400}, "json": {"expected_version": 0, "action": DEPLOY}},
    ]
    for request in odd:
        response = client.post(f"/api/games/{gid}/actions", **request)
        assert response.status_code == 422, response.text
        assert response.json()["code"] == "invalid_request"
    long_id = client.post(f"/api/games/{'g' * 65}/actions", headers=auth(north),
                          json={"expected_version": 0, "action": DEPLOY})
    assert long_id.status_code == 422 and long_id.json()["code"] == "invalid_request"
    assert short_way == []
    assert client.get(f"/api/games/{gid}", headers=auth(north)).json()["version"] == 0


def test_a_move_is_answered_alike_by_either_door(client, short_way):
    first, second = create(client), create(client)
    moves = [client.post(f"/api/games/{game['id']}/actions", params=params,
                         headers=auth(game["seats"]["north"]["token"]),
                         json={"expected_version": 0, "action": DEPLOY})
             for game, params in ((first, {}), (second, {"by": "route"}))]
    assert moves[0].status_code == 200, moves[0].text
    same(*moves)
    assert moves[0].json()["version"] == 1 and moves[0].json()["view"]["elements"]
    assert short_way == [first["id"]]
    stale = client.post(f"/api/games/{first['id']}/actions", headers=auth(first["seats"]["north"]["token"]),
                        json={"expected_version": 0, "action": DEPLOY})
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
