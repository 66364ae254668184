"""Pairing (issue 42): « Trouver un adversaire » puts an account in a queue for a game and a time per move, and
pairs it with the nearest rating waiting; a rated game is made for the pair, kept in both accounts. Never two
pairings of the same account, however many seekers at once."""

from __future__ import annotations

import random
import threading

from kadesh.store import Store
from kadesh.store.table import DAY
from tests.webauthn_support import ORIGIN, make_account


def test_two_accounts_looking_for_the_same_game_are_paired_in_a_rated_game(served):
    store, device = served
    first, second, stranger = device(), device(), device()
    make_account(first, "Kheops", ORIGIN)
    make_account(second, "Khephren", ORIGIN)
    waiting = first.post("/api/pairing", json={"ruleset": "manoeuvre", "days_per_move": 2}).json()
    assert waiting["status"] == "waiting" and waiting["days_per_move"] == 2 and waiting["since"]
    assert first.post("/api/pairing", json={"ruleset": "manoeuvre", "days_per_move": 2}).json()["status"] == "waiting"
    other_clock = second.post("/api/pairing", json={"ruleset": "manoeuvre", "days_per_move": 7}).json()
    assert other_clock["status"] == "waiting"  # another time per move: another queue
    # Where others wait, and how many, told to anyone (the asker's own place left out), never who
    assert stranger.get("/api/pairing/waiting").json() == [
        {"ruleset": "manoeuvre", "days_per_move": 2, "players": 1}, {"ruleset": "manoeuvre", "days_per_move": 7,
                                                                     "players": 1}]
    assert second.get("/api/pairing/waiting").json() == [{"ruleset": "manoeuvre", "days_per_move": 2, "players": 1}]
    assert second.delete("/api/pairing").status_code == 204
    assert second.get("/api/pairing").json() == {"status": "idle", "ruleset": None, "days_per_move": None,
                                                  "since": None, "game": None}
    paired = second.post("/api/pairing", json={"ruleset": "manoeuvre", "days_per_move": 2}).json()
    assert paired["status"] == "paired" and paired["game"]
    told = first.post("/api/pairing", json={"ruleset": "manoeuvre", "days_per_move": 2}).json()
    assert told["status"] == "paired" and told["game"] == paired["game"]
    assert first.get("/api/pairing").json()["status"] == "idle"  # told once
    game = first.get(f"/api/games/{paired['game']}").json()
    assert game["seat"] == "north" and game["table"]["rated"] and game["table"]["days_per_move"] == 2
    assert second.get(f"/api/games/{paired['game']}").json()["seat"] == "south"
    assert stranger.post("/api/pairing", json={"ruleset": "manoeuvre"}).status_code == 401
    make_account(stranger, "Mykerinos", ORIGIN)
    refused = stranger.post("/api/pairing", json={"ruleset": "royaumes"})
    assert refused.status_code == 422 and refused.json()["code"] == "no_pairing"
    assert stranger.post("/api/pairing", json={"ruleset": "manoeuvre", "days_per_move": 5}).status_code == 422


def test_many_seekers_at_once_are_never_paired_twice(db):
    store = Store(db)
    try:
        players = [store.accounts.create_player(f"Scribe {n}", "fr").id for n in range(12)]
        start, partners, errors = threading.Barrier(len(players)), {}, []

        def seek(player_id: str) -> None:
            try:
                start.wait()
                partner = store.pairing.seek(player_id, "manoeuvre", DAY, random.random())[1]
                for _ in range(3):  # the page looks again
                    partner = partner or store.pairing.retry(player_id)
                if partner is not None:
                    partners[player_id] = partner
            except Exception as error:  # noqa: BLE001 - reported below
                errors.append(error)

        threads = [threading.Thread(target=seek, args=(player,)) for player in players]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert not errors
        for player in players:  # the pages look again later: two seekers of the same instant find each other
            partner = store.pairing.retry(player)
            if partner is not None:
                partners[player] = partner
        places = {player: store.pairing.place(player) for player in players}
        matched = {player: place.matched_with for player, place in places.items() if place.matched_with}
        assert all(matched.get(partner) == player for player, partner in matched.items())  # pairs, both ways
        assert all(matched[seeker] == partner for seeker, partner in partners.items())  # each seeker's one pair
        assert len(matched) == len(players)  # an even number of seekers: every one paired
    finally:
        store.close()
