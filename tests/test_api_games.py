"""Issue 3, play over several visits: create, join with a link, act, view, journal, export."""

from __future__ import annotations

import hashlib
import re

import pytest
from sqlalchemy import create_engine, text

from kadesh.store.verify import verify_export
from tests.kadesh_http import auth, create, deploy_side, game_of, legal, make_client, play, post_action, to_battle


@pytest.fixture
def client(db):
    yield from make_client(db)


def test_rulesets_list_manoeuvre_with_its_options(client):
    rulesets = {r["name"]: r for r in client.get("/api/rulesets").json()}
    manoeuvre = rulesets["manoeuvre"]
    assert manoeuvre["title"]["fr"] == "Manœuvre"
    assert manoeuvre["options_schema"]["choice"]["values"] == ["bow", "blade"]
    assert manoeuvre["seats"] == ["north", "south"]


def test_create_gives_one_secret_link_per_seat_and_spectator_and_owner(client):
    game = create(client, "blade")
    assert re.fullmatch(r"[0-9a-f]{64}", game["commitment"])
    tokens = [game["seats"]["north"]["token"], game["seats"]["south"]["token"],
              game["spectator"]["token"], game["owner"]["token"]]
    assert len(set(tokens)) == 4
    assert all(len(token) >= 43 for token in tokens)  # 32 random bytes, URL-safe
    assert game["seats"]["north"]["link"] == f"/play/{game['id']}#token={tokens[0]}"
    page = client.get(game["seats"]["north"]["link"])
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]


def test_only_token_hashes_are_stored(client, db, tmp_path):
    game = create(client)
    token = game["seats"]["north"]["token"]
    engine = create_engine(db)
    with engine.connect() as conn:
        hashes = set(conn.execute(text("SELECT hash FROM tokens")).scalars())
    engine.dispose()
    assert hashlib.sha256(token.encode()).hexdigest() in hashes
    assert token not in hashes
    if db.startswith("sqlite"):  # the file itself, write-ahead log included
        raw = b"".join(p.read_bytes() for p in tmp_path.glob("kadesh.sqlite3*"))
        assert token.encode() not in raw


def test_a_seat_opens_its_game_with_query_token_or_bearer_header(client):
    game = create(client)
    token = game["seats"]["south"]["token"]
    by_query = game_of(client, game["id"], token)
    by_header = client.get(f"/api/games/{game['id']}", headers=auth(token)).json()
    assert by_query == by_header
    assert by_query["seat"] == "south" and by_query["role"] == "seat"
    assert by_query["version"] == 0 and by_query["to_act"] == ["north", "south"]
    assert by_query["seed"] is None and by_query["outcome"] is None


def test_deploy_both_sides_then_battle_begins_with_north(client):
    game = create(client)
    north, south = game["seats"]["north"]["token"], game["seats"]["south"]["token"]
    version = deploy_side(client, game["id"], north, 0)
    assert version == 13
    cells = {e["id"]: e["cell"] for e in game_of(client, game["id"], north)["view"]["elements"]}
    assert [cells[f"n{i}"] for i in range(1, 13)] == ["c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1",
                                                     "c2", "d2", "e2", "f2"]
    version = deploy_side(client, game["id"], south, version)
    assert version == 26
    view = game_of(client, game["id"], south)
    assert view["view"]["phase"] == "battle" and view["to_act"] == ["north"]
    south_cells = {e["cell"] for e in view["view"]["elements"] if e["side"] == "south"}
    assert all(re.fullmatch(r"[c-j]1[12]", cell) for cell in south_cells)


def test_journal_in_both_languages_and_since(client):
    game = create(client)
    version = to_battle(client, game)
    spectator = game["spectator"]["token"]
    fr = client.get(f"/api/games/{game['id']}/journal", params={"token": spectator}).json()
    en = client.get(f"/api/games/{game['id']}/journal", params={"token": spectator, "lang": "en"}).json()
    assert fr and len(fr) == len(en) and fr != en
    assert all(set(line) == {"version", "line"} for line in fr)
    late = client.get(f"/api/games/{game['id']}/journal", params={"token": spectator, "since": version - 1}).json()
    assert late and all(line["version"] == version for line in late)


def test_action_answer_has_version_own_events_and_view(client):
    game = create(client)
    north = game["seats"]["north"]["token"]
    action = legal(client, game["id"], north)[0]
    answer = play(client, game["id"], north, 0, action)
    assert answer["version"] == 1
    assert answer["events"][0]["type"] == "deployed"
    assert answer["view"]["version"] == 1


def test_spectator_and_owner_watch_but_cannot_act(client):
    game = create(client)
    for role in ("spectator", "owner"):
        token = game[role]["token"]
        seen = game_of(client, game["id"], token)
        assert seen["seat"] is None and seen["role"] == role
        refused = post_action(client, game["id"], token, 0, {"type": "ready"})
        assert refused.status_code == 403 and refused.json()["code"] == "not_a_seat"
        assert client.get(f"/api/games/{game['id']}/legal", params={"token": token}).status_code == 403


def test_missing_or_unknown_token_is_401(client):
    game = create(client)
    missing = post_action(client, game["id"], "", 0, {"type": "ready"})
    assert client.post(f"/api/games/{game['id']}/actions",
                       json={"expected_version": 0, "action": {"type": "ready"}}).status_code == 401
    assert missing.status_code == 401
    unknown = client.get(f"/api/games/{game['id']}", params={"token": "x" * 43})
    assert unknown.status_code == 401 and unknown.headers["content-type"] == "application/problem+json"


def test_token_of_another_game_is_403(client):
    first, second = create(client), create(client)
    refused = post_action(client, first["id"], second["seats"]["north"]["token"], 0, {"type": "ready"})
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"


def test_unknown_game_is_404(client):
    game = create(client)
    response = client.get("/api/games/nosuchgame", params={"token": game["seats"]["north"]["token"]})
    assert response.status_code == 404 and response.json()["code"] == "game_not_found"


def test_out_of_turn_is_409_not_your_turn(client):
    game = create(client)
    version = to_battle(client, game)
    south = game["seats"]["south"]["token"]
    refused = post_action(client, game["id"], south, version, {"type": "end_turn"})
    assert refused.status_code == 409
    assert refused.json()["code"] == "not_your_turn"
    assert refused.json()["fr"] and refused.json()["en"]


def test_stale_version_is_409_and_nothing_is_written(client):
    game = create(client)
    north = game["seats"]["north"]["token"]
    actions = legal(client, game["id"], north)
    play(client, game["id"], north, 0, actions[0])
    store = client.app.state.store
    before = store.action_count(game["id"])
    refused = post_action(client, game["id"], north, 0, actions[1])
    assert refused.status_code == 409
    assert refused.json()["code"] == "stale_version" and refused.json()["version"] == 1
    assert store.action_count(game["id"]) == before == 1
    assert game_of(client, game["id"], north)["version"] == 1
    future = post_action(client, game["id"], north, 7, actions[1])
    assert future.status_code == 409 and store.action_count(game["id"]) == 1


def test_illegal_action_is_422_and_nothing_is_written(client):
    game = create(client)
    north = game["seats"]["north"]["token"]
    refused = post_action(client, game["id"], north, 0, {"type": "deploy", "element": "n1", "cell": "a12"})
    assert refused.status_code == 422 and refused.json()["code"] == "outside_deployment_zone"
    assert post_action(client, game["id"], north, 0, {"type": "ready"}).json()["code"] == "not_all_deployed"
    assert post_action(client, game["id"], north, 0, {"type": "fly"}).json()["code"] == "unknown_action"
    assert client.app.state.store.action_count(game["id"]) == 0


def test_odds_of_a_move_are_null_and_of_an_illegal_action_422(client):
    game = create(client)
    version = to_battle(client, game)
    north = game["seats"]["north"]["token"]
    move = next(a for a in legal(client, game["id"], north) if a["type"] == "move")
    answer = client.post(f"/api/games/{game['id']}/odds", headers=auth(north), json={"action": move})
    assert answer.status_code == 200 and answer.json() == {"seat": "north", "version": version, "odds": None}
    refused = client.post(f"/api/games/{game['id']}/odds", headers=auth(north),
                          json={"action": {"type": "attack", "element": "n1", "target": "s1"}})
    assert refused.status_code == 422


def test_export_only_after_the_end_then_verifiable(client):
    game = create(client)
    north, south = game["seats"]["north"]["token"], game["seats"]["south"]["token"]
    version = to_battle(client, game)
    early = client.get(f"/api/games/{game['id']}/export", params={"token": game["owner"]["token"]})
    assert early.status_code == 409 and early.json()["code"] == "game_not_over"
    assert client.get(f"/api/games/{game['id']}/verify", params={"token": north}).status_code == 409
    version = play(client, game["id"], south, version, {"type": "resign"})["version"]
    seen = game_of(client, game["id"], north)
    assert seen["outcome"] == {"winner": "north", "reason": "resignation"}
    assert hashlib.sha256(seen["seed"].encode()).hexdigest() == game["commitment"]
    export = client.get(f"/api/games/{game['id']}/export", params={"token": game["spectator"]["token"]}).json()
    assert export["record"]["seed"] == seen["seed"]
    assert len(export["record"]["actions"]) == len(export["events"]) == version
    assert verify_export(export).ok
    checked = client.get(f"/api/games/{game['id']}/verify", params={"token": north}).json()
    assert checked["ok"] and checked["message"].startswith("MATCH") and checked["actions"] == version
    over = post_action(client, game["id"], north, version, {"type": "end_turn"})
    assert over.status_code == 409 and over.json()["code"] == "game_over"


def test_home_page_and_its_module_are_served(client):
    home = client.get("/")
    assert home.status_code == 200 and 'lang="fr"' in home.text and "/static/home.js" in home.text
    module = client.get("/static/home.js")
    assert module.status_code == 200 and "/api/games" in module.text


def test_odds_of_a_real_attack_or_shot_add_up(client):
    import random

    game = create(client)
    tokens = game["seats"]
    store, rng = client.app.state.store, random.Random(7)
    while True:
        with store.game(game["id"]) as engine_game:
            seat, version = engine_game.to_act()[0], engine_game.version
            choices = [a for a in engine_game.legal_actions(seat) if a["type"] != "resign"]
        fights = [a for a in choices if a["type"] in ("attack", "shoot")]
        if fights:
            break
        store.act(game["id"], seat, version, rng.choice(choices))
    answer = client.post(f"/api/games/{game['id']}/odds", headers=auth(tokens[seat]["token"]),
                         json={"action": fights[0]})
    assert answer.status_code == 200, answer.text
    odds = answer.json()["odds"]
    assert sum(odds["effects"].values()) == odds["total"] == sum(odds["scores"].values())
    other = "south" if seat == "north" else "north"
    assert client.post(f"/api/games/{game['id']}/odds", headers=auth(tokens[other]["token"]),
                       json={"action": fights[0]}).status_code in (409, 422)


def test_health_says_the_database_answers(client, db):
    answer = client.get("/health").json()
    assert answer["status"] == "ok" and answer["database"] == db.split(":")[0].split("+")[0]
