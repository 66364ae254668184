"""The computer takes a seat over the API and plays through the same path as people."""

from __future__ import annotations

import pytest

from kadesh.server.app import create_app
from tests.asgi_client import TestClient
from tests.kadesh_http import auth, game_of, play
from tests.manoeuvre_setup import NORTH_ROWS
from tests.waiting import wait_until

# A bot's seat and play are the same on both databases; setting a bot on PostgreSQL is checked by test_trust and
# test_workers (CONTRIBUTING.md, « The suite's budget »).
pytestmark = pytest.mark.sqlite_only


@pytest.fixture
def client(db):
    app = create_app(db, bot_budget=0.05)
    with TestClient(app) as test_client:
        yield test_client
    app.state.store.close()


def wait_for(predicate):
    return wait_until(predicate, "the bot's move")


def test_rulesets_list_their_computer_opponents(client):
    manoeuvre = next(r for r in client.get("/api/rulesets").json() if r["name"] == "manoeuvre")
    levels = {bot["level"]: bot["title"]["fr"] for bot in manoeuvre["bots"]}
    assert levels["maladroit"] == "Général Maladroit" and levels["stratege"] == "Stratège" and "random" in levels


@pytest.mark.parametrize("level", ["maladroit", "stratege"])
def test_a_bot_deploys_and_answers_each_turn(client, level):
    created = client.post("/api/games", json={"ruleset": "manoeuvre", "bots": {"south": level}}).json()
    north = created["seats"]["north"]["token"]
    game_id = created["id"]
    assert game_of(client, game_id, north)["bots"] == {"south": level}
    wait_for(lambda: game_of(client, game_id, north)["view"]["ready"]["south"])  # the bot deploys at once
    for number, cell in enumerate(NORTH_ROWS[:12], start=1):
        play(client, game_id, north, game_of(client, game_id, north)["version"],
             {"type": "deploy", "element": f"n{number}", "cell": cell})
    play(client, game_id, north, game_of(client, game_id, north)["version"], {"type": "ready"})
    battle = wait_for(lambda: (g := game_of(client, game_id, north))["view"]["phase"] == "battle" and g)
    assert battle["to_act"] == ["north"]
    assert all(e["cell"] for e in battle["view"]["elements"])  # the bot deployed its twelve
    play(client, game_id, north, battle["version"], {"type": "end_turn"})
    back = wait_for(lambda: (g := game_of(client, game_id, north))["to_act"] == ["north"] and g)
    assert back["view"]["turn"] == 3
    journal = client.get(f"/api/games/{game_id}/journal", headers=auth(north), params={"lang": "en"}).json()
    assert any(line["line"] == "South ends its turn." for line in journal)


def test_bad_bots_are_refused_and_only_the_owner_hands_over_a_seat(client):
    for bots, code in [({"east": "maladroit"}, "unknown_seat"), ({"south": "grandmaster"}, "unknown_bot")]:
        response = client.post("/api/games", json={"ruleset": "manoeuvre", "bots": bots})
        assert response.status_code == 422 and response.json()["code"] == code
    created = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    url = f"/api/games/{created['id']}/bots/south"
    response = client.put(url, headers=auth(created["seats"]["north"]["token"]), json={"level": "random"})
    assert response.status_code == 403 and response.json()["code"] == "not_the_owner"
    response = client.put(url, headers=auth(created["owner"]["token"]), json={"level": "random"})
    assert response.status_code == 200 and response.json()["bots"] == {"south": "random"}
    wait_for(lambda: game_of(client, created["id"], created["owner"]["token"])["view"]["ready"]["south"])
    response = client.put(url, headers=auth(created["owner"]["token"]), json={"level": None})
    assert response.json()["bots"] == {}
