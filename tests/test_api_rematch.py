"""Issue 17: a rematch at the end of a game, and pages where a browser asks for one that is not there."""

from __future__ import annotations

import pytest

from tests.kadesh_http import auth, make_client, post_action


@pytest.fixture
def client(db):
    yield from make_client(db)


def new_game(client, **body):
    response = client.post("/api/games", json={"ruleset": "manoeuvre", **body})
    assert response.status_code == 201, response.text
    return response.json()


def resign(client, game):
    """North resigns (a computer seat may have acted meanwhile: resign at the version it left)."""
    token = game["seats"]["north"]["token"]
    for _ in range(50):
        version = client.get(f"/api/games/{game['id']}", headers=auth(token)).json()["version"]
        answer = post_action(client, game["id"], token, version, {"type": "resign"})
        if answer.status_code != 409:
            break
    assert answer.status_code == 200, answer.text


def kinds(client, game, seat="north"):
    seen = client.get(f"/api/games/{game['id']}", headers=auth(game["seats"][seat]["token"])).json()
    return sorted(e["kind"] for e in seen["view"]["elements"] if e["side"] == seat)


def test_a_rematch_keeps_the_rules_options_and_computer_seats_with_new_dice(client):
    game = new_game(client, options={"choice": "blade"}, bots={"south": "maladroit"})
    assert kinds(client, game) != kinds(client, new_game(client, options={"choice": "bow"}))
    resign(client, game)
    response = client.post(f"/api/games/{game['id']}/rematch", headers=auth(game["seats"]["north"]["token"]))
    assert response.status_code == 201, response.text
    again = response.json()
    assert again["id"] != game["id"] and again["commitment"] != game["commitment"]
    seen = client.get(f"/api/games/{again['id']}", headers=auth(again["seats"]["north"]["token"])).json()
    assert seen["bots"] == {"south": "maladroit"} and seen["outcome"] is None
    assert kinds(client, again) == kinds(client, game)  # the blade option came along


def test_no_rematch_before_the_end_nor_for_a_spectator(client):
    game = new_game(client)
    early = client.post(f"/api/games/{game['id']}/rematch", headers=auth(game["seats"]["north"]["token"]))
    assert early.status_code == 409 and early.json()["code"] == "game_not_over"
    resign(client, game)
    watching = client.post(f"/api/games/{game['id']}/rematch", headers=auth(game["spectator"]["token"]))
    assert watching.status_code == 403 and watching.json()["code"] == "not_a_player"
    nobody = client.post(f"/api/games/{game['id']}/rematch")  # over, its address alone is a spectator's (issue 44)
    assert nobody.status_code == 403 and nobody.json()["code"] == "not_a_player"


def test_a_browser_asking_for_a_missing_page_gets_a_page_and_the_api_a_problem(client):
    page = client.get("/no/such/page", headers={"Accept": "text/html,application/xhtml+xml"})
    assert page.status_code == 404 and "text/html" in page.headers["content-type"]
    assert "Cette page n'existe pas" in page.text and "This page does not exist" in page.text
    api = client.get("/api/no/such/route", headers={"Accept": "text/html"})
    assert api.status_code == 404 and api.headers["content-type"].startswith("application/problem+json")


def test_the_favicon_is_served(client):
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
