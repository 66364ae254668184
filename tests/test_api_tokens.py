"""The owner replaces a link: POST /api/games/{id}/tokens/{seat|spectator|owner}; the old token is refused."""

from __future__ import annotations

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.kadesh_http import auth, create, legal, make_client, play


@pytest.fixture
def client(db):
    yield from make_client(db)


def reissue(client, game, holder: str, token: str | None = None):
    return client.post(f"/api/games/{game['id']}/tokens/{holder}", headers=auth(token or game["owner"]["token"]))


def assert_revoked(response) -> None:
    assert response.status_code == 401, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "token_revoked" and "propriétaire" in body["fr"] and "owner" in body["en"]


def test_a_seat_link_is_replaced_and_the_old_token_is_refused_everywhere(client):
    game = create(client)
    gid, old = game["id"], game["seats"]["north"]["token"]
    response = reissue(client, game, "north")
    assert response.status_code == 200, response.text
    new = response.json()
    assert set(new) == {"token", "link"} and new["token"] != old and new["link"] == f"/play/{gid}#token={new['token']}"
    assert_revoked(client.get(f"/api/games/{gid}", params={"token": old}))
    assert_revoked(client.get(f"/api/games/{gid}/legal", headers=auth(old)))
    assert_revoked(client.post(f"/api/games/{gid}/actions", headers=auth(old),
                               json={"expected_version": 0, "action": {"type": "resign"}}))
    with client.websocket_connect(f"/ws/games/{gid}?token={old}") as socket:
        assert socket.receive_json()["problem"]["code"] == "token_revoked"
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
    assert closed.value.code == 4401
    # The new token plays north; the other holders are untouched.
    assert client.get(f"/api/games/{gid}", params={"token": new["token"]}).json()["seat"] == "north"
    version = play(client, gid, new["token"], 0, legal(client, gid, new["token"])[0])["version"]
    assert version == 1
    for token in (game["seats"]["south"]["token"], game["spectator"]["token"], game["owner"]["token"]):
        assert client.get(f"/api/games/{gid}", params={"token": token}).status_code == 200
    with client.websocket_connect(f"/ws/games/{gid}?token={new['token']}") as socket:
        assert socket.receive_json()["version"] == 1


def test_spectator_and_owner_links_are_replaced_too(client):
    game = create(client)
    gid = game["id"]
    spectator = reissue(client, game, "spectator").json()["token"]
    assert_revoked(client.get(f"/api/games/{gid}", params={"token": game["spectator"]["token"]}))
    assert client.get(f"/api/games/{gid}", params={"token": spectator}).json()["role"] == "spectator"
    owner = reissue(client, game, "owner").json()["token"]
    assert_revoked(reissue(client, game, "south"))  # the old owner token cannot replace anything any more
    assert client.get(f"/api/games/{gid}", params={"token": owner}).json()["role"] == "owner"
    assert reissue(client, game, "south", owner).status_code == 200


def test_replacing_twice_revokes_both_earlier_tokens(client):
    game = create(client)
    first = reissue(client, game, "south").json()["token"]
    second = reissue(client, game, "south").json()["token"]
    for token in (game["seats"]["south"]["token"], first):
        assert_revoked(client.get(f"/api/games/{game['id']}", params={"token": token}))
    assert client.get(f"/api/games/{game['id']}", params={"token": second}).json()["seat"] == "south"


def test_only_the_owner_replaces_links_and_only_of_real_holders(client):
    game, other = create(client), create(client)
    gid = game["id"]
    for token in (game["seats"]["north"]["token"], game["seats"]["south"]["token"], game["spectator"]["token"]):
        response = reissue(client, game, "north", token)
        assert response.status_code == 403 and response.json()["code"] == "not_the_owner"
    response = reissue(client, game, "north", other["owner"]["token"])
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert client.post(f"/api/games/{gid}/tokens/north").status_code == 401
    for holder in ("east", "seat", "NORTH", "x" * 64):
        response = reissue(client, game, holder)
        assert response.status_code == 422 and response.json()["code"] == "unknown_seat"
    assert reissue(client, game, "x" * 65).status_code == 422
    assert client.post("/api/games/nothing/tokens/north", headers=auth(game["owner"]["token"])).status_code == 404
    for token in (game["seats"]["north"]["token"], game["spectator"]["token"]):  # nothing was replaced
        assert client.get(f"/api/games/{gid}", params={"token": token}).status_code == 200


def test_a_revoked_token_is_only_unknown_elsewhere(client):
    game, other = create(client), create(client)
    old = game["seats"]["north"]["token"]
    reissue(client, game, "north")
    response = client.get(f"/api/games/{other['id']}", params={"token": old})
    assert response.status_code == 401 and response.json()["code"] == "unauthorized"


def test_an_open_socket_of_the_old_token_is_closed_and_the_others_go_on(client):
    game = create(client)
    gid, south = game["id"], game["seats"]["south"]["token"]
    with client.websocket_connect(f"/ws/games/{gid}?token={game['seats']['north']['token']}") as north_socket, \
            client.websocket_connect(f"/ws/games/{gid}?token={south}") as south_socket:
        assert north_socket.receive_json()["type"] == "update"
        assert south_socket.receive_json()["type"] == "update"
        new = reissue(client, game, "north").json()["token"]
        message = north_socket.receive_json()
        assert message["type"] == "error" and message["problem"]["code"] == "token_revoked"
        with pytest.raises(WebSocketDisconnect) as closed:
            north_socket.receive_json()
        assert closed.value.code == 4401
        version = play(client, gid, new, 0, legal(client, gid, new)[0])["version"]
        assert south_socket.receive_json()["version"] == version


def test_revocation_survives_a_restart(db):
    clients = make_client(db)
    client = next(clients)
    game = create(client)
    reissue(client, game, "north")
    next(clients, None)  # closes the first server
    again = make_client(db)
    client = next(again)
    try:
        assert_revoked(client.get(f"/api/games/{game['id']}", params={"token": game["seats"]["north"]["token"]}))
    finally:
        next(again, None)
