"""An account's games, a player's public page and the export (issue 41): the same list on every device, and a
property: no list, page or export shows a player anything their seats may not see."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kadesh.server.app import create_app
from kadesh.server.rates import RatePolicy
from kadesh.store import Store
from tests.asgi_client import TestClient
from tests.kadesh_http import auth
from tests.webauthn_support import ORIGIN, SoftPasskey, make_account

PLAYERS = itertools.count()  # each example's players have names of their own


@pytest.fixture(scope="module")
def served(module_db):
    store = Store(module_db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited())  # many sign-ups
    with TestClient(app, base_url=ORIGIN):
        yield store, lambda: TestClient(app, base_url=ORIGIN)
    store.close()


def sign_up(client: TestClient, name: str) -> SoftPasskey:
    return make_account(client, name, ORIGIN)


def play_some(store: Store, game_id: str, count: int, rng: random.Random) -> None:
    for _ in range(count):
        with store.game(game_id) as game:
            if game.outcome is not None or not game.to_act():
                return
            seat = rng.choice(game.to_act())
            actions = game.legal_actions(seat)
            version = game.version
        if not actions:
            return
        store.act(game_id, seat, version, rng.choice(actions))


def test_an_accounts_games_are_listed_alike_on_every_device_and_on_its_page(served):
    store, device = served
    desktop, phone, rival = device(), device(), device()
    passkey = sign_up(desktop, "Nakhtmin")
    sign_up(rival, "Paser")
    begun = phone.post("/api/session/passkey/options").json()
    answer = passkey.get(begun["options"])
    phone.post("/api/session/passkey", json={"ceremony": begun["ceremony"], "credential": answer})
    created = desktop.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    gid = created["id"]
    desktop.post(f"/api/games/{gid}/claim", headers=auth(created["seats"]["north"]["token"]))
    rival.post(f"/api/games/{gid}/claim", headers=auth(created["seats"]["south"]["token"]))
    mine = desktop.get("/api/account/games").json()
    assert mine == phone.get("/api/account/games").json()
    entry = next(g for g in mine if g["id"] == gid)
    assert entry["seat"] == "north" and entry["your_turn"] and entry["ruleset"] == "manoeuvre"
    assert {p["seat"]: p["name"] for p in entry["players"]} == {"north": "Nakhtmin", "south": "Paser"}
    page = device().get("/api/players/nakhtmin").json()  # any case: one name, one player
    assert page["name"] == "Nakhtmin" and [g["seat"] for g in page["playing"]] == ["north"]
    assert page["playing"][0]["replay"] is None  # a game going on: no address to see it by
    assert device().get("/api/players/Personne").status_code == 404
    exported = desktop.get("/api/account/export")
    assert exported.headers["content-disposition"].startswith("attachment")
    assert exported.json()["account"]["name"] == "Nakhtmin" and exported.json()["games"] == mine


def test_a_deleted_account_leaves_its_games_to_their_links_with_no_name(served):
    store, device = served
    client, rival = device(), device()
    sign_up(client, "Ouserhat")
    sign_up(rival, "Mahou")
    created = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    gid = created["id"]
    client.post(f"/api/games/{gid}/claim", headers=auth(created["seats"]["north"]["token"]))
    rival.post(f"/api/games/{gid}/claim", headers=auth(created["seats"]["south"]["token"]))
    assert client.delete("/api/account").status_code == 204
    assert client.get("/api/account").status_code == 401
    assert device().get("/api/players/Ouserhat").status_code == 404
    players = next(g for g in rival.get("/api/account/games").json() if g["id"] == gid)["players"]
    assert {p["seat"]: p["name"] for p in players} == {"north": None, "south": "Mahou"}
    assert client.get(f"/api/games/{gid}", headers=auth(created["seats"]["north"]["token"])).json()["seat"] == "north"
    assert store.accounts.by_name("Ouserhat") is None
    assert sign_up(device(), "Ouserhat")  # the name is free again


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ruleset=st.sampled_from(["manoeuvre", "royaumes"]), steps=st.integers(0, 30), seed=st.integers(0, 10**6))
def test_no_list_page_or_export_shows_more_than_the_seats_see(served, ruleset, steps, seed):
    """Two players keep seats of a game played some way in; each one's list, export and public page tell only
    what their seat's own view of the game tells (whose turn, the version, the outcome), and none of them holds
    a secret: a link's token, or the dice's seed before the end."""
    store, device = served
    rng = random.Random(seed)
    created = device().post("/api/games", json={"ruleset": ruleset}).json()
    gid, seats = created["id"], created["seats"]
    chosen = rng.sample(sorted(seats), 2)
    clients = {}
    for index, seat in enumerate(chosen):
        client = device()
        sign_up(client, f"Joueur {next(PLAYERS)} {index}")
        assert client.post(f"/api/games/{gid}/claim", headers=auth(seats[seat]["token"])).status_code == 200
        clients[seat] = client
    play_some(store, gid, steps, rng)
    with store.game(gid) as game:
        seed_text, over = game.seed, game.outcome is not None
    secrets = [link["token"] for link in seats.values()] + [created["owner"]["token"], created["spectator"]["token"]]
    if not over:
        secrets.append(seed_text)
    for seat, client in clients.items():
        seen = client.get(f"/api/games/{gid}").json()
        listed = next(g for g in client.get("/api/account/games").json() if g["id"] == gid)
        assert (listed["seat"], listed["version"], listed["to_act"], listed["outcome"]) == (
            seat, seen["version"], seen["to_act"], seen["outcome"])
        name = client.get("/api/account").json()["name"]
        public = device().get(f"/api/players/{name}").json()
        shown = public["finished"] + public["playing"]
        assert [g["seat"] for g in shown] == [seat] and shown[0]["outcome"] == seen["outcome"]
        everything = json.dumps([listed, public, client.get("/api/account/export").json()])
        assert not [secret[:6] for secret in secrets if secret in everything]
