"""WebSocket floods and crowds: the socket that floods is closed (1008), the others and HTTP go on; past its
share of open sockets an address's new ones are refused (4429), and so are all past the server's ceiling."""

from __future__ import annotations

import contextlib
import json
import threading
import time

import httpx
import pytest
from prometheus_client import REGISTRY
from starlette.websockets import WebSocketDisconnect

from kadesh.server.app import create_app
from kadesh.server.rates import RatePolicy
from kadesh.server.socket_limits import SOCKETS_PER_ADDRESS, SOCKETS_PER_SERVER, BadSocketLimit, SocketLimits
from kadesh.server.ws import CLOSE_POLICY, CLOSE_TOO_MANY, MAX_CLIENT_MESSAGE, MAX_CLIENT_MESSAGES
from tests.asgi_client import TestClient
from tests.kadesh_http import create, legal, make_client, play
from tests.server_support import ServerProcess

FLOOD = 5000


@pytest.fixture
def client(db):
    yield from make_client(db)


def _url(game, holder: str = "spectator") -> str:
    token = game["seats"][holder]["token"] if holder in game["seats"] else game[holder]["token"]
    return f"/ws/games/{game['id']}?token={token}"


def _closed_with(socket, code: int, problem: str) -> None:
    message = socket.receive_json()
    while message["type"] == "update":  # pushes sent before the refusal
        message = socket.receive_json()
    assert message["type"] == "error" and message["problem"]["code"] == problem, message
    with pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    assert closed.value.code == code


def test_a_flood_closes_that_socket_only(client):
    game = create(client)
    gid, north = game["id"], game["seats"]["north"]["token"]
    with client.websocket_connect(_url(game)) as calm, client.websocket_connect(_url(game, "south")) as flood:
        assert calm.receive_json()["version"] == 0 and flood.receive_json()["version"] == 0
        for number in range(FLOOD):
            flood.send_text(json.dumps({"type": "ping", "n": number}))
        _closed_with(flood, CLOSE_POLICY, "too_many_messages")
        assert client.get("/api/rulesets").status_code == 200
        version = play(client, gid, north, 0, legal(client, gid, north)[0])["version"]
        assert calm.receive_json()["version"] == version
    with client.websocket_connect(_url(game, "south")) as again:  # the same seat may come back
        assert again.receive_json()["version"] == version


@pytest.mark.parametrize("kind", ["text", "bytes"])
def test_one_oversized_message_closes_the_socket(client, kind):
    game = create(client)
    with client.websocket_connect(_url(game)) as socket:
        socket.receive_json()
        if kind == "text":
            socket.send_text("x" * (MAX_CLIENT_MESSAGE + 1))
        else:
            socket.send_bytes(b"x" * (MAX_CLIENT_MESSAGE + 1))
        _closed_with(socket, CLOSE_POLICY, "message_too_large")


def test_a_few_messages_are_tolerated(client):
    game = create(client)
    gid, north = game["id"], game["seats"]["north"]["token"]
    with client.websocket_connect(_url(game)) as socket:
        socket.receive_json()
        for _ in range(MAX_CLIENT_MESSAGES - 1):
            socket.send_text("ping")
        socket.send_bytes(b"\x00" * MAX_CLIENT_MESSAGE)  # as many as allowed, the longest allowed
        version = play(client, gid, north, 0, legal(client, gid, north)[0])["version"]
        assert socket.receive_json() == socket_update(client, game, version)


def socket_update(client, game, version: int) -> dict:
    """What a spectator's socket is sent for ``version`` when it saw the version before."""
    journal = client.get(f"/api/games/{game['id']}/journal", params={"token": game["spectator"]["token"],
                                                                     "since": version - 1}).json()
    view = client.get(f"/api/games/{game['id']}", params={"token": game["spectator"]["token"]}).json()["view"]
    return {"type": "update", "version": version, "journal": journal, "view": view}


@pytest.fixture
def proxied(db):
    """The app behind a proxy on 127.0.0.1 (an nginx), which tells each socket's address in X-Forwarded-For; an
    address may keep 3 sockets open, the server 5."""
    policy = RatePolicy.from_environment({"KADESH_TRUSTED_PROXIES": "127.0.0.1"})
    app = create_app(db, rate_policy=policy, socket_limits=SocketLimits(per_address=3, per_server=5))
    with TestClient(app, client=("127.0.0.1", 50000)) as test_client:
        yield test_client
    app.state.store.close()


def _from(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def _refused_as_crowded(socket, limit: str) -> None:
    message = socket.receive_json()
    assert message["type"] == "error" and message["problem"]["code"] == "too_many_sockets", message
    assert message["problem"]["status"] == 429 and message["problem"]["limit"] == limit
    assert message["problem"]["fr"] and message["problem"]["en"]
    with pytest.raises(WebSocketDisconnect) as closed:
        socket.receive_json()
    assert closed.value.code == CLOSE_TOO_MANY


def _refusals(limit: str) -> float:
    return REGISTRY.get_sample_value("kadesh_refusals_total", {"code": "too_many_sockets", "limit": limit}) or 0.0


def _held_by(client, address: str, count: int) -> None:
    """Wait until the server counts ``count`` sockets open from ``address`` (a closed one is given back as its
    task ends)."""
    deadline = time.monotonic() + 10
    while client.app.state.open_sockets.by_address.get(address, 0) != count:
        assert time.monotonic() < deadline, client.app.state.open_sockets.by_address
        time.sleep(0.01)


def test_sockets_past_an_addresss_share_are_refused_clearly(proxied):
    game = create(proxied)
    gid, north = game["id"], game["seats"]["north"]["token"]
    with contextlib.ExitStack() as stack:
        mine = [stack.enter_context(proxied.websocket_connect(_url(game), headers=_from("192.0.2.1")))
                for _ in range(3)]
        for socket in mine:
            assert socket.receive_json()["type"] == "update"
        counted = _refusals("address")
        for holder in ("spectator", "north"):  # whatever its token opens
            with proxied.websocket_connect(_url(game, holder), headers=_from("192.0.2.1")) as refused:
                _refused_as_crowded(refused, "address")
        assert _refusals("address") == counted + 2  # kadesh_refusals_total, for the operator
        with proxied.websocket_connect(_url(game), headers=_from("192.0.2.2")) as other:  # another address
            assert other.receive_json()["type"] == "update"
        version = play(proxied, gid, north, 0, legal(proxied, gid, north)[0])["version"]
        for socket in mine:  # the sockets let in still get every update
            assert socket.receive_json()["version"] == version
        mine.pop().close()
        _held_by(proxied, "192.0.2.1", 2)
        with proxied.websocket_connect(_url(game), headers=_from("192.0.2.1")) as again:  # room once one closed
            assert again.receive_json()["version"] == version


def test_sockets_past_the_servers_ceiling_are_refused_clearly(proxied):
    game = create(proxied)
    with contextlib.ExitStack() as stack:
        for address in ("192.0.2.1", "192.0.2.1", "192.0.2.1", "192.0.2.2", "192.0.2.2"):
            socket = stack.enter_context(proxied.websocket_connect(_url(game), headers=_from(address)))
            assert socket.receive_json()["type"] == "update"
        with proxied.websocket_connect(_url(game), headers=_from("192.0.2.3")) as refused:
            _refused_as_crowded(refused, "server")
    _held_by(proxied, "192.0.2.1", 0)
    assert proxied.app.state.open_sockets.total == 0


def test_the_socket_limits_read_from_the_environment():
    assert SocketLimits.from_environment({}) == SocketLimits(SOCKETS_PER_ADDRESS, SOCKETS_PER_SERVER)
    assert SocketLimits.from_environment({"KADESH_SOCKETS_PER_ADDRESS": "20000", "KADESH_SOCKETS_PER_SERVER": "none"}
                                         ) == SocketLimits(20000, None)
    with pytest.raises(BadSocketLimit, match="KADESH_SOCKETS_PER_ADDRESS"):
        SocketLimits.from_environment({"KADESH_SOCKETS_PER_ADDRESS": "lots"})


@pytest.mark.slow
def test_a_flood_on_a_real_server(tmp_path):
    """Through uvicorn and real frames: a flood, a huge frame, and the server still serves everyone."""
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    server = ServerProcess(f"sqlite:///{tmp_path / 'kadesh.sqlite3'}", tmp_path / "server.log").start()
    try:
        game = httpx.post(f"{server.url}/api/games", json={"ruleset": "manoeuvre"}).json()
        gid, north = game["id"], game["seats"]["north"]["token"]
        base = f"ws://127.0.0.1:{server.port}"
        with connect(base + _url(game)) as calm:
            assert json.loads(calm.recv(timeout=10))["version"] == 0
            closes = {}

            def flood(name: str, payloads: list[str | bytes]) -> None:
                with connect(base + _url(game, "south"), max_size=None) as socket:
                    socket.recv(timeout=10)
                    try:
                        for payload in payloads:
                            socket.send(payload)
                        while True:
                            socket.recv(timeout=10)
                    except ConnectionClosed as error:
                        closes[name] = error.rcvd.code if error.rcvd else "cut"

            threads = [threading.Thread(target=flood, args=("many", ["ping"] * FLOOD)),
                       threading.Thread(target=flood, args=("huge", [b"x" * (4 << 20)]))]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
            # 1009: uvicorn's ws_max_size. The server closes with most of the huge frame unread in its buffer, so
            # its kernel may reset the connection before the client reads the close frame (seen under load): cut
            # either way, never served.
            assert closes["many"] == CLOSE_POLICY and closes["huge"] in (1009, "cut"), closes
            legal_actions = httpx.get(f"{server.url}/api/games/{gid}/legal", params={"token": north}).json()
            response = httpx.post(f"{server.url}/api/games/{gid}/actions", params={"token": north},
                                  json={"expected_version": 0, "action": legal_actions["actions"][0]})
            assert response.status_code == 200
            assert json.loads(calm.recv(timeout=10))["version"] == 1
    finally:
        server.kill()
    assert "Traceback" not in server.output() and " 500 " not in server.output()
