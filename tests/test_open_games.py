"""Open games (issue 42, first part): a game made with a seat left open waits in « Parties ouvertes » until
someone takes the seat, once; the taker gets the seat's link, which nobody had before (the creator never gets
one), kept in their account when they are signed in; a seat open to accounts only asks for one; the owner may
close it."""

from __future__ import annotations

from tests.asgi_client import TestClient
from tests.kadesh_http import auth
from tests.webauthn_support import ORIGIN, SoftPasskey, make_account


def sign_up(client: TestClient, name: str) -> SoftPasskey:
    return make_account(client, name, ORIGIN)


def test_an_open_seat_is_listed_taken_once_and_only_its_taker_has_its_link(served):
    store, device = served
    creator, taker, late = device(), device(), device()
    made = creator.post("/api/games", json={"ruleset": "manoeuvre", "options": {"choice": "blade"},
                                            "open": {"south": "anyone"}})
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    assert set(made.json()["seats"]) == {"north"}  # the creator never holds the open seat's link
    listed = next(g for g in taker.get("/api/open-games").json() if g["id"] == gid)
    assert listed["open"] == [{"seat": "south", "open_to": "anyone"}] and listed["options"]["choice"] == "blade"
    assert not any(link["token"] in str(listed) for link in made.json()["seats"].values())
    taken = taker.post(f"/api/games/{gid}/seats/south/take")
    assert taken.status_code == 200, taken.text
    assert taker.get(f"/api/games/{gid}", headers=auth(taken.json()["token"])).json()["seat"] == "south"
    again = late.post(f"/api/games/{gid}/seats/south/take")
    assert again.status_code == 409 and again.json()["code"] == "seat_not_open"
    assert again.json()["fr"] == "Ce siège n'est plus libre : quelqu'un l'a pris."
    assert gid not in [g["id"] for g in late.get("/api/open-games").json()]
    assert late.post(f"/api/games/{gid}/seats/north/take").json()["code"] == "seat_not_open"  # never open
    assert late.post("/api/games/nothing/seats/south/take").status_code == 404


def test_a_seat_open_to_accounts_asks_for_one_and_is_kept_in_the_takers(served):
    store, device = served
    creator, stranger, member = device(), device(), device()
    sign_up(member, "Ptahhotep")
    gid = creator.post("/api/games", json={"ruleset": "manoeuvre", "open": {"south": "accounts"}}).json()["id"]
    refused = stranger.post(f"/api/games/{gid}/seats/south/take")
    assert refused.status_code == 401 and refused.json()["code"] == "not_signed_in"
    assert member.post(f"/api/games/{gid}/seats/south/take", headers={"Origin": "https://evil.example"}
                       ).json()["code"] == "cross_site"
    assert member.post(f"/api/games/{gid}/seats/south/take").status_code == 200
    assert member.get(f"/api/games/{gid}").json()["seat"] == "south"  # from the account, no link needed
    players = {p["seat"]: p["name"] for p in member.get("/api/account/games").json()[0]["players"]}
    assert players["south"] == "Ptahhotep"


def test_the_owner_or_the_creator_withdraws_a_waiting_game_which_cancels_it_and_bad_openings_are_refused(served):
    store, device = served
    creator = device()
    make_account(creator, "Khoufou", ORIGIN)
    made = creator.post("/api/games", json={"ruleset": "manoeuvre", "open": {"south": "accounts"}, "rated": True,
                                            "clock": {"days_per_move": 1}}).json()
    gid = made["id"]
    assert creator.delete(f"/api/games/{gid}/open", headers=auth(made["spectator"]["token"])).status_code == 403
    assert creator.get(f"/api/games/{gid}", headers=auth(made["owner"]["token"])).json()["table"]["open"] == ["south"]
    assert gid in [g["id"] for g in creator.get("/api/open-games").json()]
    assert creator.delete(f"/api/games/{gid}/open", headers=auth(made["seats"]["north"]["token"])).status_code == 204
    # Withdrawn before its players came, the game is cancelled: over, nobody wins, not rated, not to watch.
    seen = creator.get(f"/api/games/{gid}", headers=auth(made["seats"]["north"]["token"])).json()
    assert seen["outcome"] == {"winner": None, "reason": "cancelled"} and seen["to_act"] == []
    assert seen["table"]["open"] == [] and seen["table"]["deadlines"] == {}
    lines = creator.get(f"/api/games/{gid}/journal?lang=fr", headers=auth(made["owner"]["token"])).json()
    assert lines[-1]["line"].startswith("Partie annulée : son créateur l'a retirée des parties ouvertes")
    assert gid not in [g["id"] for g in creator.get("/api/watch").json()]
    [mine] = [g for g in creator.get("/api/account/games").json() if g["id"] == gid]
    assert mine["outcome"]["reason"] == "cancelled" and not mine["your_turn"] and mine["deadline"] is None
    assert store.settle_rating(gid) is False and store.ratings.reason(gid) == "cancelled"
    withdrawn = creator.post(f"/api/games/{gid}/seats/south/take").json()  # not « someone took it »: withdrawn
    assert withdrawn["code"] == "seat_not_open" and "retirée des parties ouvertes" in withdrawn["fr"]
    again = creator.delete(f"/api/games/{gid}/open", headers=auth(made["owner"]["token"]))
    assert again.status_code == 409 and again.json()["code"] == "seat_not_open"
    assert gid not in [g["id"] for g in creator.get("/api/open-games").json()]
    # The owner withdraws in the creator's name; a taker's seat withdraws nothing.
    royaumes = creator.post("/api/games", json={"ruleset": "royaumes",
                                                "open": {"koush": "anyone", "libye": "anyone"}}).json()
    taken = device().post(f"/api/games/{royaumes['id']}/seats/koush/take").json()
    refused = creator.delete(f"/api/games/{royaumes['id']}/open", headers=auth(taken["token"]))
    assert refused.status_code == 403 and store.open_seats.of_game(royaumes["id"])
    assert creator.delete(f"/api/games/{royaumes['id']}/open", headers=auth(royaumes["owner"]["token"])).status_code \
        == 204
    with store.game(royaumes["id"]) as game:
        assert game.actions[-1]["action"] == {"type": "cancel"} and game.actions[-1]["seat"] not in ("koush", "libye")
    never_open = creator.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    assert creator.delete(f"/api/games/{never_open['id']}/open",
                          headers=auth(never_open["owner"]["token"])).status_code == 409
    assert store.current_version(never_open["id"]) == 0
    # « Qui ouvre une manœuvre commande le camp du Nord ; qui la rejoint prend le Sud » (issue 59).
    for opened, code in (({"west": "anyone"}, "unknown_seat"), ({"north": "anyone", "south": "anyone"},
                                                                "seat_not_open"), ({"north": "anyone"}, "opener_seat")):
        answer = creator.post("/api/games", json={"ruleset": "manoeuvre", "open": opened})
        assert answer.status_code == 422 and answer.json()["code"] == code
    bot = creator.post("/api/games", json={"ruleset": "manoeuvre", "bots": {"south": "random"},
                                           "open": {"south": "anyone"}})
    assert bot.json()["code"] == "seat_not_open"
    assert creator.post("/api/games", json={"ruleset": "manoeuvre", "open": {"south": "everyone"}}).status_code == 422


def test_a_finished_game_leaves_the_open_games(served):
    store, device = served
    client = device()
    made = client.post("/api/games", json={"ruleset": "manoeuvre", "open": {"south": "anyone"}}).json()
    store.act(made["id"], "north", 0, {"type": "resign"})
    assert made["id"] not in [g["id"] for g in client.get("/api/open-games").json()]
