"""One broadcaster per watched game (issue 46): one read and one render per audience per version, credentials
looked at once per credential, a socket that is behind catching up on its own, and a featured game's spectators
joining on one read and render (issue 60)."""

from __future__ import annotations

import contextlib
import time
from collections import Counter

import pytest
from starlette.websockets import WebSocketDisconnect

from kadesh.server import broadcast, ws
from kadesh.server.app import create_app
from kadesh.server.socket_limits import SocketLimits
from tests.asgi_client import TestClient
from tests.kadesh_http import auth, create, deploy_side, legal, make_client, play
from tests.webauthn_support import ORIGIN, make_account


@pytest.fixture
def client(db):
    yield from make_client(db)


def _url(game, holder: str, lang: str = "fr") -> str:
    token = game["seats"][holder]["token"] if holder in game["seats"] else game[holder]["token"]
    return f"/ws/games/{game['id']}?token={token}&lang={lang}"


def _settled(client: TestClient, game_id: str, sockets: int) -> broadcast.GameBroadcast:
    """The game's broadcaster once each of its sockets follows it (their first updates all sent)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = next(iter(client.app.state.broadcasts.of(game_id)), None)
        if found and len(found.watchers) == sockets and not any(w.behind for w in found.watchers):
            return found
        time.sleep(0.01)
    raise AssertionError("the sockets never caught up with their broadcast")


def _counting(monkeypatch, module, name: str) -> list[tuple]:
    calls: list[tuple] = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_one_render_per_audience_per_version(client, monkeypatch):
    game = create(client)
    gid, north = game["id"], game["seats"]["north"]["token"]
    holders = [("spectator", "fr")] * 5 + [("spectator", "en")] * 3
    holders += [("owner", "fr"), ("north", "fr"), ("south", "en")]
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(_url(game, h, lang))) for h, lang in holders]
        for socket in sockets:
            assert socket.receive_json()["version"] == 0
        _settled(client, gid, len(sockets))
        shared = _counting(monkeypatch, broadcast, "update")
        own = _counting(monkeypatch, ws, "update")
        version = play(client, gid, north, 0, legal(client, gid, north)[0])["version"]
        updates = [socket.receive_json() for socket in sockets]
    assert all(u["type"] == "update" and u["version"] == version for u in updates)
    # Spectators and the owner share a view: (None, fr), (None, en), (north, fr), (south, en).
    assert sorted((seat or "", lang) for _, seat, lang, _ in shared) == [("", "en"), ("", "fr"), ("north", "fr"),
                                                                         ("south", "en")]
    assert own == []
    assert updates[0] == updates[4] == updates[8]


def test_a_socket_behind_its_broadcast_gets_every_missing_line_on_its_own(client, monkeypatch):
    """A socket that cannot take the shared updates (here: no room in its queue at all) reads what it misses
    itself: versions in increasing order, none twice, the lines put together being its seat's journal."""
    monkeypatch.setattr(broadcast, "MAX_OUTBOX", 0)
    game = create(client)
    gid, north, south = game["id"], game["seats"]["north"]["token"], game["seats"]["south"]["token"]
    with client.websocket_connect(_url(game, "spectator")) as socket:
        assert socket.receive_json()["version"] == 0
        version = deploy_side(client, gid, north, 0)
        version = deploy_side(client, gid, south, version)
        seen, lines = [], []
        while not seen or seen[-1] < version:
            message = socket.receive_json()
            seen.append(message["version"])
            lines.extend(message["journal"])
    assert seen == sorted(set(seen)) and seen[-1] == version
    journal = client.get(f"/api/games/{gid}/journal", params={"token": game["spectator"]["token"]}).json()
    assert lines == journal and lines


def test_a_replaced_token_closes_its_sockets_at_once_with_one_look_per_credential(client, monkeypatch):
    game = create(client)
    gid = game["id"]
    with contextlib.ExitStack() as stack:
        old = [stack.enter_context(client.websocket_connect(_url(game, "north"))) for _ in range(3)]
        watchers = [stack.enter_context(client.websocket_connect(_url(game, "spectator"))) for _ in range(3)]
        for socket in old + watchers:
            assert socket.receive_json()["version"] == 0
        _settled(client, gid, 6)
        looks = _counting(monkeypatch, broadcast, "credential_problem")
        new = client.post(f"/api/games/{gid}/tokens/north", headers=auth(game["owner"]["token"])).json()["token"]
        for socket in old:  # no push first: the game did not move
            message = socket.receive_json()
            assert message["type"] == "error" and message["problem"]["code"] == "token_revoked"
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 4401
        # The north token and the spectators' token, each once per announcement (on PostgreSQL this server hears
        # its own NOTIFY too), never once per socket.
        per_credential = Counter(token for _, _, token, _ in looks)
        assert set(per_credential) == {game["seats"]["north"]["token"], game["spectator"]["token"]}
        assert max(per_credential.values()) <= 2
        version = play(client, gid, new, 0, legal(client, gid, new)[0])["version"]
        for socket in watchers:
            assert socket.receive_json()["version"] == version


def test_a_credential_is_looked_at_again_only_every_few_seconds(client, monkeypatch):
    game = create(client)
    gid, north = game["id"], game["seats"]["north"]["token"]
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(_url(game, "spectator"))) for _ in range(4)]
        for socket in sockets:
            socket.receive_json()
        _settled(client, gid, 4)
        looks = _counting(monkeypatch, broadcast, "credential_problem")
        version = deploy_side(client, gid, north, 0, ready=False)
        for socket in sockets:
            while socket.receive_json()["version"] < version:
                pass
        assert looks == []  # the spectators' token was resolved as they connected, not ACCESS_RECHECK ago
        monkeypatch.setattr(broadcast, "ACCESS_RECHECK", 0.0)
        version = play(client, gid, north, version, {"type": "ready"})["version"]
        for socket in sockets:
            while socket.receive_json()["version"] < version:
                pass
        assert len(looks) == 1  # due again: once for the four sockets


def test_a_signed_out_players_socket_stops_at_once(db):
    app = create_app(db, local_workers=0)
    with TestClient(app, base_url=ORIGIN) as client:
        make_account(client, "Néfertari", ORIGIN)
        game = create(client)
        gid = game["id"]
        client.post(f"/api/games/{gid}/claim", headers=auth(game["seats"]["north"]["token"]))
        cookie = {"Cookie": f"kadesh_session={client.cookies['kadesh_session']}"}
        with client.websocket_connect(f"/ws/games/{gid}", headers={"Origin": ORIGIN, **cookie}) as socket:
            assert socket.receive_json()["version"] == 0
            assert client.delete("/api/sessions").status_code == 204
            message = socket.receive_json()
            assert message["type"] == "error" and message["problem"]["status"] == 401
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            assert closed.value.code == 4401
    app.state.store.close()


def test_after_a_resync_a_socket_reads_its_messages_once_not_at_every_push(client, monkeypatch):
    """A resync (the LISTEN connection back) announces everything as new once: messages read again once."""
    game = create(client)
    gid, north = game["id"], game["seats"]["north"]["token"]
    with client.websocket_connect(_url(game, "spectator")) as socket:
        socket.receive_json()
        _settled(client, gid, 1)
        reads = _counting(monkeypatch, ws, "pushed")
        client.app.state.notifier.resync()
        version = deploy_side(client, gid, north, 0, ready=False)
        while socket.receive_json()["version"] < version:
            pass
    assert len(reads) == 1


def test_a_render_that_fails_in_the_broadcast_leaves_each_socket_to_its_own(client, monkeypatch):
    def failing(*_args):
        raise RuntimeError("a view that fails once")

    game = create(client)
    gid, north = game["id"], game["seats"]["north"]["token"]
    with client.websocket_connect(_url(game, "spectator")) as socket:
        socket.receive_json()
        _settled(client, gid, 1)
        monkeypatch.setattr(broadcast, "render_audiences", failing)
        version = play(client, gid, north, 0, legal(client, gid, north)[0])["version"]
        assert socket.receive_json()["version"] == version


FEATURED = 100  # spectators: more than one server took on one game before (64)


@pytest.fixture
def featured_client(db):
    yield from make_client(db, socket_limits=SocketLimits(per_address=None))  # every socket from one test client


def test_a_featured_games_spectators_join_on_one_read_and_get_every_update(featured_client, monkeypatch):
    client = featured_client
    game = create(client)
    gid, north = game["id"], game["seats"]["north"]["token"]
    said = client.post(f"/api/games/{gid}/messages", headers=auth(north),
                       json={"channel": "spectators", "text": "Salut"})
    assert said.status_code == 201, said.text
    renders = _counting(monkeypatch, ws, "snapshot")
    message_reads = _counting(monkeypatch, ws, "pushed")
    with contextlib.ExitStack() as stack:
        sockets = [stack.enter_context(client.websocket_connect(_url(game, "spectator"))) for _ in range(FEATURED)]
        firsts = [socket.receive_json() for socket in sockets]
        talks = [socket.receive_json() for socket in sockets]
        assert all(first == firsts[0] for first in firsts) and firsts[0]["version"] == 0
        assert "table_changes" in firsts[0]
        assert talks[0]["type"] == "messages" and len(talks[0]["messages"]) == 1
        assert all(talk == talks[0] for talk in talks)
        # Not one read per socket: one, and one more if an announcement came as they joined (the notifier's first
        # look at the game's table, say), after which a socket reads anew.
        assert len(renders) <= 2 and len(message_reads) <= 2, (len(renders), len(message_reads))
        _settled(client, gid, FEATURED)
        joined = len(renders)
        versions = [play(client, gid, north, 0, legal(client, gid, north)[0])["version"]]
        versions.append(play(client, gid, north, versions[0], legal(client, gid, north)[0])["version"])
        for socket in sockets:
            assert [socket.receive_json()["version"] for _ in versions] == versions
        assert len(renders) == joined  # the pushes were the broadcaster's
        with client.websocket_connect(_url(game, "spectator")) as late:  # a read from before is not served now
            assert late.receive_json()["version"] == versions[-1]
        assert len(renders) == joined + 1
