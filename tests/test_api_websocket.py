"""WebSocket /ws/games/{id}: the current state on connect, then a push after every action."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from kadesh.server.ws import socket_origins
from tests.kadesh_http import create, deploy_side, make_client, play, to_battle


@pytest.fixture
def client(db):
    yield from make_client(db)


def test_connect_sends_version_journal_and_view(client):
    game = create(client)
    version = to_battle(client, game)
    with client.websocket_connect(f"/ws/games/{game['id']}?token={game['spectator']['token']}&lang=en") as socket:
        first = socket.receive_json()
    assert first["type"] == "update" and first["version"] == version
    assert first["view"]["phase"] == "battle"
    assert first["journal"] and all(set(line) == {"version", "line"} for line in first["journal"])


def test_since_skips_older_lines(client):
    game = create(client)
    version = to_battle(client, game)
    url = f"/ws/games/{game['id']}?token={game['spectator']['token']}&since={version - 1}"
    with client.websocket_connect(url) as socket:
        lines = socket.receive_json()["journal"]
    assert lines and all(line["version"] == version for line in lines)


def test_each_action_is_pushed_with_only_new_lines(client):
    game = create(client)
    north, south = game["seats"]["north"]["token"], game["seats"]["south"]["token"]
    version = deploy_side(client, game["id"], north, 0, ready=False)
    with client.websocket_connect(f"/ws/games/{game['id']}?token={north}") as socket:
        assert socket.receive_json()["version"] == version
        action = {"type": "deploy", "element": "n1", "cell": "j2"}
        version = play(client, game["id"], north, version, action)["version"]
        moved = socket.receive_json()  # one action, one push
        assert moved["version"] == version
        assert next(e["cell"] for e in moved["view"]["elements"] if e["id"] == "n1") == "j2"
        # Several actions before the listener wakes up may come as one push: versions only grow,
        # and the lines put together are the seat's journal, each once.
        since = version
        version = play(client, game["id"], north, version, {"type": "ready"})["version"]
        version = deploy_side(client, game["id"], south, version)
        seen, pushed = [], []
        while not seen or seen[-1] < version:
            message = socket.receive_json()
            seen.append(message["version"])
            pushed.extend(message["journal"])
    assert seen == sorted(set(seen)) and seen[-1] == version
    assert message["view"]["phase"] == "battle"
    journal = client.get(f"/api/games/{game['id']}/journal", params={"token": north, "since": since}).json()
    assert pushed == journal and pushed


@pytest.mark.parametrize(("token", "code"), [("", 4401), ("nope", 4401)])
def test_bad_token_gets_a_problem_and_is_closed(client, token, code):
    game = create(client)
    with client.websocket_connect(f"/ws/games/{game['id']}?token={token}") as socket:
        message = socket.receive_json()
        assert message["type"] == "error" and message["problem"]["status"] == code - 4000
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == code


def test_other_games_token_is_4403_and_unknown_game_4404(client):
    first, second = create(client), create(client)
    with client.websocket_connect(f"/ws/games/{first['id']}?token={second['owner']['token']}") as socket:
        assert socket.receive_json()["problem"]["code"] == "forbidden"
    with client.websocket_connect(f"/ws/games/nothing?token={second['owner']['token']}") as socket:
        assert socket.receive_json()["problem"]["code"] == "game_not_found"


def test_a_page_of_another_site_is_refused_its_socket(client):
    """A browser says which page opens the socket (Origin): the server's own pages connect, another site's
    are refused with 4403 even with a good token; clients other than browsers send no Origin."""
    game = create(client)
    url = f"/ws/games/{game['id']}?token={game['spectator']['token']}"
    with client.websocket_connect(url, headers={"Origin": "https://elsewhere.example"}) as socket:
        assert socket.receive_json()["problem"]["code"] == "foreign_origin"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4403
    for origin in ("http://testserver", None):
        with client.websocket_connect(url, headers={"Origin": origin} if origin else {}) as socket:
            assert socket.receive_json()["type"] == "update"


def test_the_operator_may_allow_other_origins():
    allowed = socket_origins({"KADESH_WS_ORIGINS": "https://club.example, https://B.example/"}, "https://kadesh.example/x")
    assert allowed == {"https://club.example", "https://b.example", "https://kadesh.example"}
    assert socket_origins({}, None) == frozenset()
