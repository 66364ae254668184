"""Royaumes over HTTP: secret first-only orders, and deadlines the server keeps (Imhotep adjudicates)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

from kadesh.server.app import create_app
from kadesh.store import Store
from tests.asgi_client import TestClient
from tests.kadesh_http import auth, game_of, play
from tests.waiting import wait_until


def _royaumes(store: Store) -> tuple[str, dict[str, str]]:
    created = store.create_game("royaumes")
    return created.id, created.seat_tokens


def test_the_store_acts_only_once_the_deadline_has_passed(db):
    store = Store(db)
    game_id, _ = _royaumes(store)
    soon = datetime.now(UTC) + timedelta(hours=1)
    store.act(game_id, "imhotep", 0, {"type": "set_deadline", "deadline": soon.isoformat()})
    assert store.due_games() == [] and store.act_when_due(game_id) is None
    later = soon + timedelta(seconds=1)
    assert store.due_games(later) == [game_id]
    result = store.act_when_due(game_id, later)
    assert result is not None and any(e.type == "adjudication" for e in result.events)
    with store.game(game_id) as game:
        assert game.state.turn == 2 and game.state.deadline is None
    assert store.due_games(later) == []  # adjudicated once, not at every look
    store.close()


def test_the_server_adjudicates_when_the_deadline_passes(db):
    app = create_app(db, deadline_poll=0.05)
    with TestClient(app) as client:
        created = client.post("/api/games", json={"ruleset": "royaumes"})
        assert created.status_code == 201, created.text
        body = created.json()
        game_id, tokens = body["id"], {seat: link["token"] for seat, link in body["seats"].items()}
        play(client, game_id, tokens["koush"], 0, {"type": "orders", "text": "G19 -> G18"})
        past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
        play(client, game_id, tokens["imhotep"], 1, {"type": "set_deadline", "deadline": past})
        view = wait_until(lambda: (v := game_of(client, game_id, tokens["koush"])["view"])["turn"] != 1 and v,
                          "the adjudication of the turn whose deadline passed")
        assert view["turn"] == 2
        assert {"kingdom": "koush", "cell": "G18", "count": 1, "new": 0} in view["armies"]
        journal = client.get(f"/api/games/{game_id}/journal", headers=auth(tokens["koush"]))
        assert journal.status_code == 200 and "Imhotep juge le tour 1" in journal.text
    app.state.store.close()


def test_orders_over_http_are_secret_first_only_and_checked(db):
    app = create_app(db)
    with TestClient(app) as client:
        body = client.post("/api/games", json={"ruleset": "royaumes"}).json()
        game_id, tokens = body["id"], {seat: link["token"] for seat, link in body["seats"].items()}
        malformed = client.post(f"/api/games/{game_id}/actions", headers=auth(tokens["koush"]),
                                json={"expected_version": 0, "action": {"type": "orders", "moves": "G19->G18"}})
        assert malformed.status_code == 422 and game_of(client, game_id, tokens["koush"])["version"] == 0
        play(client, game_id, tokens["koush"], 0, {"type": "orders", "text": "G19 -> G18\nespion: Thèbes"})
        again = client.post(f"/api/games/{game_id}/actions", headers=auth(tokens["koush"]),
                            json={"expected_version": 1, "action": {"type": "orders", "text": "G19 -> F18"}})
        assert again.status_code == 409 and "premier message" in again.text
        for seat in ("basse_egypte", "haute_egypte", "libye"):
            seen = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).text
            journal = client.get(f"/api/games/{game_id}/journal", headers=auth(tokens[seat])).text
            assert "G18" not in seen and "G18" not in journal and "espion" not in journal
            assert "Koush sont arrivés" in journal  # that the orders arrived is public
        own = client.get(f"/api/games/{game_id}", params={"token": tokens["koush"]}).json()
        assert own["view"]["you"]["orders"]["moves"][0]["to"] == "G18"
        assert "G18" in client.get(f"/api/games/{game_id}", params={"token": tokens["imhotep"]}).text
        assert client.get(f"/api/games/{game_id}/legal", headers=auth(tokens["koush"])).json()["actions"] == []
    app.state.store.close()


def test_a_deadline_adjudicates_exactly_once_across_a_restart(db):
    """The server stops before the deadline; two servers start on the same database after it
    (a restart with two workers): the turn is adjudicated once, by one of them."""
    url = db
    first = create_app(url, deadline_poll=0.05)
    with TestClient(first) as client:
        body = client.post("/api/games", json={"ruleset": "royaumes"}).json()
        game_id, tokens = body["id"], {seat: link["token"] for seat, link in body["seats"].items()}
        due = datetime.now(UTC) + timedelta(seconds=1)
        play(client, game_id, tokens["imhotep"], 0, {"type": "set_deadline", "deadline": due.isoformat()})
    first.state.store.close()
    time.sleep(max(0.0, (due - datetime.now(UTC)).total_seconds()) + 0.2)  # the deadline passes while down

    second, third = create_app(url, deadline_poll=0.05), create_app(url, deadline_poll=0.05)
    with TestClient(second) as one, TestClient(third):
        wait_until(lambda: game_of(one, game_id, tokens["koush"])["view"]["turn"] != 1,
                   "the adjudication of the turn whose deadline passed while the server was down")
        time.sleep(0.5)  # ten more looks by each server
        assert game_of(one, game_id, tokens["koush"])["view"]["turn"] == 2
    events = second.state.store.stored_events(game_id)
    assert sum(1 for action in events for event in action if event["type"] == "adjudication") == 1
    assert len(events) == 2  # set_deadline, then the one adjudication
    for app in (second, third):
        app.state.store.close()


def test_a_text_order_can_be_read_back_before_it_is_sent(db):
    app = create_app(db)
    with TestClient(app) as client:
        body = client.post("/api/games", json={"ruleset": "royaumes"}).json()
        game_id, koush = body["id"], body["seats"]["koush"]["token"]
        read = client.post(f"/api/games/{game_id}/preview", headers=auth(koush),
                           json={"action": {"type": "orders", "text": "G19 -> G18\n\nattaquez\nguerre: Thèbes"}})
        assert read.status_code == 200, read.text
        preview = read.json()["preview"]
        assert [(line["line"], line["understood"]) for line in preview["lines"]] == [(1, True), (3, False), (4, True)]
        assert preview["order"]["stances"] == {"haute_egypte": "war"}
        assert game_of(client, game_id, koush)["version"] == 0  # reading sends nothing
        bad = client.post(f"/api/games/{game_id}/preview", headers=auth(koush),
                          json={"action": {"type": "orders", "text": 7}})
        assert bad.status_code == 422
    app.state.store.close()
