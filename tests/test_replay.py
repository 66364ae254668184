"""Replays (issue 44): the game as it was after any version, for a seat its own view then, for the public once the
game is over, built from the record; a property over versions and seats of a Front game in its fog: a replay
shows each seat exactly what it saw at that version, never more."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kadesh.server.app import create_app
from kadesh.server.rates import RatePolicy
from kadesh.store import Store
from tests.asgi_client import TestClient
from tests.kadesh_http import auth

FRONT = {"scenario": "test_small"}


@pytest.fixture(scope="module")
def played(module_db):
    """A Front game in its fog, played at random for a while through the store, with what each seat and the public
    saw after every version."""
    store = Store(module_db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited())
    with TestClient(app) as client:
        made = client.post("/api/games", json={"ruleset": "front", "options": FRONT}).json()
        rng = random.Random(44)
        seen: list[dict] = []
        with store.game(made["id"]) as game:
            seats = list(game.seats)
            seen.append({seat: game.view(seat) for seat in [*seats, None]})
        for _ in range(40):
            with store.game(made["id"]) as game:
                if game.outcome is not None:
                    break
                seat = game.to_act()[0]
                choices = [a for a in game.legal_actions(seat) if a["type"] not in ("resign",)]
                version = game.version
            store.act(made["id"], seat, version, rng.choice(choices))
            with store.game(made["id"]) as game:
                seen.append({seat: game.view(seat) for seat in [*seats, None]})
        yield client, store, made, seats, seen
    store.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_seats_replay_shows_exactly_what_it_saw_then(played, data):
    client, store, made, seats, seen = played
    version = data.draw(st.integers(0, len(seen) - 1))
    seat = data.draw(st.sampled_from(seats))
    answer = client.get(f"/api/games/{made['id']}", params={"at": version}, headers=auth(made["seats"][seat]["token"]))
    assert answer.status_code == 200, answer.text
    assert answer.json()["version"] == version and answer.json()["view"] == seen[version][seat]
    first = data.draw(st.integers(0, version))
    batch = client.get(f"/api/games/{made['id']}/replay", params={"from": first, "to": version},
                       headers=auth(made["seats"][seat]["token"])).json()
    assert [v["view"] for v in batch["versions"]] == [seen[v][seat] for v in range(first, version + 1)]


def test_the_public_replay_opens_at_the_end_and_a_version_to_come_is_refused(played):
    client, store, made, seats, seen = played
    watcher = auth(made["spectator"]["token"])
    early = client.get(f"/api/games/{made['id']}", params={"at": 1}, headers=watcher)
    assert early.status_code == 409 and early.json()["code"] == "game_not_over"
    ahead = client.get(f"/api/games/{made['id']}", params={"at": len(seen) + 5},
                       headers=auth(made["seats"][seats[0]]["token"]))
    assert ahead.status_code == 422 and ahead.json()["code"] == "no_such_version"
    too_many = client.get(f"/api/games/{made['id']}/replay", params={"from": 0, "to": 10_000},
                          headers=auth(made["seats"][seats[0]]["token"]))
    assert too_many.status_code == 422


def test_a_finished_games_replay_is_everyones_in_the_public_view(served_manoeuvre):
    client, made, public = served_manoeuvre
    watcher = auth(made["spectator"]["token"])
    for version in (0, 1, len(public) // 2, len(public) - 1):
        answer = client.get(f"/api/games/{made['id']}", params={"at": version}, headers=watcher)
        assert answer.status_code == 200 and answer.json()["view"] == public[version]
    everything = client.get(f"/api/games/{made['id']}/replay", params={"from": 0}, headers=watcher).json()
    assert len(everything["versions"]) == min(len(public), 64) and everything["seat"] is None


def test_a_finished_games_address_alone_opens_its_public_replay_and_nothing_more(served_manoeuvre):
    """The replay link to share: the game's address, no token. A private game stays closed while it goes on."""
    client, made, public = served_manoeuvre
    answer = client.get(f"/api/games/{made['id']}", params={"at": 1})
    assert answer.status_code == 200 and answer.json()["view"] == public[1] and answer.json()["seat"] is None
    assert client.get(f"/api/games/{made['id']}/replay", params={"from": 0, "to": 3}).json()["seat"] is None
    refused = client.post(f"/api/games/{made['id']}/actions",
                          json={"expected_version": 0, "action": {"type": "resign"}})
    assert refused.status_code in (401, 403)
    going = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    assert client.get(f"/api/games/{going['id']}").status_code == 401


def test_while_the_battle_runs_a_seat_replays_its_own_view_only(played):
    """Issue 59: no other view nor journal of a game going on, asked with ``as``: not the other side's, not the
    public's."""
    client, store, made, seats, seen = played
    blue, watcher = auth(made["seats"]["blue"]["token"]), auth(made["spectator"]["token"])
    for headers, reader in ((blue, "red"), (blue, "public"), (watcher, "blue"), (watcher, "public")):
        refused = client.get(f"/api/games/{made['id']}/replay", params={"from": 0, "to": 2, "as": reader},
                             headers=headers)
        assert refused.status_code == 409 and refused.json()["code"] == "game_not_over", reader
        refused = client.get(f"/api/games/{made['id']}/journal", params={"as": reader}, headers=headers)
        assert refused.status_code == 409 and refused.json()["code"] == "game_not_over", reader
    own = client.get(f"/api/games/{made['id']}", params={"at": 2, "as": "blue"}, headers=blue)
    assert own.status_code == 200 and own.json()["view"] == seen[2]["blue"]


@pytest.fixture(scope="module")
def resigned_front(module_db):
    """A Front battle in its fog played at random for a while, then resigned by Red; what each side saw then."""
    store = Store(module_db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited())
    with TestClient(app) as client:
        made = client.post("/api/games", json={"ruleset": "front", "options": FRONT}).json()
        rng, seen = random.Random(59), []
        for _ in range(24):
            with store.game(made["id"]) as game:
                seen.append({seat: game.view(seat) for seat in game.seats})
                seat, version = game.to_act()[0], game.version
                choices = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
            store.act(made["id"], seat, version, rng.choice(choices))
        with store.game(made["id"]) as game:
            seen.append({seat: game.view(seat) for seat in game.seats})
            read = {seat: game.journal(seat) for seat in (None, *game.seats)}  # while it runs
        store.act(made["id"], "red", len(seen) - 1, {"type": "resign"})
        yield client, made, seen, read
    store.close()


def _sides(view: dict) -> set[str]:
    return {unit["side"] for unit in view["units"]}


def test_a_finished_fronts_public_replay_shows_the_whole_battle_and_each_side_its_own(resigned_front):
    """Issue 59: once over, the public replay shows both sides' units at every step (Advance Wars By Web's replays);
    ``as`` gives any side's own view then, fog and all; a seat's replay is its own unless it asks."""
    client, made, seen, _ = resigned_front
    middle = len(seen) // 2
    public = client.get(f"/api/games/{made['id']}", params={"at": middle}).json()["view"]
    own = {side: {u["id"] for u in seen[middle][side]["units"] if u["side"] == side} for side in ("blue", "red")}
    assert {u["id"] for u in public["units"]} == own["blue"] | own["red"] and _sides(public) == {"blue", "red"}
    assert "sight" not in public  # no fog over it
    batch = client.get(f"/api/games/{made['id']}/replay", params={"from": 0, "to": len(seen)}).json()["versions"]
    assert all(_sides(entry["view"]) == {"blue", "red"} for entry in batch)
    for side in ("blue", "red"):
        theirs = client.get(f"/api/games/{made['id']}/replay", params={"from": middle, "to": middle, "as": side})
        assert theirs.status_code == 200 and theirs.json()["seat"] == side
        assert theirs.json()["versions"][0]["view"] == seen[middle][side]
    blue = auth(made["seats"]["blue"]["token"])
    assert client.get(f"/api/games/{made['id']}", params={"at": middle}, headers=blue).json()["view"] == \
        seen[middle]["blue"]
    whole = client.get(f"/api/games/{made['id']}", params={"at": middle, "as": "public"}, headers=blue).json()
    assert whole["view"] == public
    unknown = client.get(f"/api/games/{made['id']}/replay", params={"as": "green"})
    assert unknown.status_code == 422 and unknown.json()["code"] == "unknown_seat"


def test_a_finished_fronts_public_journal_tells_the_whole_battle_once_and_each_side_its_own(resigned_front):
    """The play-test of issue 59: the public replay showed every unit beside a journal of turn ends only. Once
    over, the public reads the whole battle, both sides' moves and shots, each told once as it happened (no side's
    « sort de vue », no « touché par un tireur hors de vue »); ``as`` gives a side's journal as it read it."""
    client, made, _, read = resigned_front
    journal = f"/api/games/{made['id']}/journal"
    whole = [entry["line"] for entry in client.get(journal).json()]
    assert whole == [entry["line"] for entry in client.get(journal, params={"as": "public"}).json()]
    assert len(whole) > len(read[None]) + 2  # while it ran, the public read turn ends only
    moved = [line for line in whole if " va de " in line]
    assert {line.split()[0] for line in moved} == {"Bleu", "Rouge"}  # both sides' moves
    assert len(moved) == len(set(moved))  # each told once, not also as the other side saw it
    fogged = ("sort de vue", "disparaît", "surgit", "brouillard", "hors de vue", "découvert par")
    assert not [line for line in whole if any(words in line for words in fogged)]
    for side in ("blue", "red"):
        own = [entry["line"] for entry in client.get(journal, params={"as": side}).json()]
        assert own[:len(read[side])] == read[side] and own[-1] == whole[-1]
        assert [entry["line"] for entry in client.get(journal, headers=auth(made["seats"][side]["token"])).json()] \
            == own
    assert client.get(journal, params={"as": "green"}).json()["code"] == "unknown_seat"


@pytest.fixture
def served_manoeuvre(db):
    store = Store(db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited())
    with TestClient(app) as client:
        made = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
        rng, public = random.Random(3), []
        with store.game(made["id"]) as game:
            public.append(game.view(None))
        while True:
            with store.game(made["id"]) as game:
                if game.outcome is not None or game.version > 60:
                    break
                seat = game.to_act()[0]
                choices = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
                version = game.version
            store.act(made["id"], seat, version, rng.choice(choices))
            with store.game(made["id"]) as game:
                public.append(game.view(None))
        with store.game(made["id"]) as game:
            version, seat = game.version, game.to_act()[0] if game.outcome is None else None
        if seat is not None:
            store.act(made["id"], seat, version, {"type": "resign"})
            with store.game(made["id"]) as game:
                public.append(game.view(None))
        yield client, made, public
    store.close()


def test_replays_are_rate_limited_per_address(db):
    """A finished public game's replay is anyone's, and each costs a replay of its record: a limit per address."""
    store = Store(db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.defaults(replays="2/minute"))
    with TestClient(app) as client:
        made = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
        north = auth(made["seats"]["north"]["token"])
        answers = [client.get(f"/api/games/{made['id']}", params={"at": 0}, headers=north),
                   client.get(f"/api/games/{made['id']}/replay", headers=north),
                   client.get(f"/api/games/{made['id']}/replay", headers=north)]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert answers[2].json()["limit"] == "replays" and "Retry-After" in answers[2].headers
        assert client.get(f"/api/games/{made['id']}", headers=north).status_code == 200  # the game itself: no limit
    store.close()
