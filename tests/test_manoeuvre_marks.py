"""The board's marks (``Ruleset.marks``): each battle event's cells, followed from the public
placement, agree with the game's own state; deployment events, private, get none."""

from __future__ import annotations

from kadesh import new_game
from kadesh.ai.base import make_bot, play_turn_of
from kadesh.core.grid import cell_name


def played(seed: int, actions: int = 400):
    game = new_game("manoeuvre", seed=seed)
    bots = {seat: make_bot("manoeuvre", "maladroit", seed=seed * 2 + i) for i, seat in enumerate(game.seats)}
    while game.outcome is None and game.version < actions:
        seat = game.to_act()[0]
        play_turn_of(game, seat, bots[seat])
    return game


def test_marks_follow_every_move_recoil_and_destruction_to_the_final_board():
    for seed in (1, 2, 3):
        game = played(seed)
        where = {}
        destroyed = set()
        for _, _, mark in game.journal_marked("north"):
            if not mark:
                continue
            if mark["kind"] == "move":
                assert where.get(mark["element"], mark["from"]) == mark["from"]
                where[mark["element"]] = mark["to"]
            elif mark["kind"] == "combat":
                for moved in (mark.get("pushed"), mark.get("recoil")):
                    if moved:
                        where[moved["element"]] = moved["to"]
                if mark.get("destroyed"):
                    destroyed.add(mark["destroyed"])
                    where.pop(mark["destroyed"], None)
        state = game.state
        assert destroyed == {e.id for e in state.elements.values() if not e.alive}
        for eid, cell in where.items():
            assert cell_name(state.elements[eid].cell) == cell


def test_a_fight_is_marked_at_the_defenders_cell_with_its_result():
    game = played(3)
    fights = [m for _, _, m in game.journal_marked(None) if m and m["kind"] == "combat"]
    assert fights
    for mark in fights:
        assert mark["cell"] and mark["from"] and mark["cell"] != mark["from"]
        assert mark["result"] in ("tie", "recoil", "destroyed")
        assert ("destroyed" in mark) == (mark["result"] == "destroyed")


def test_deployment_gets_no_mark_and_each_seat_reads_only_its_own_lines():
    game = new_game("manoeuvre", seed=4)
    game.act("north", {"type": "deploy", "element": "n1", "cell": "e2"})
    game.act("south", {"type": "deploy", "element": "s1", "cell": "e11"})
    north = game.journal_marked("north")
    assert [mark for _, _, mark in north] == [None]
    assert "e11" not in repr(north)
    assert game.journal_marked(None) == []


def test_the_journal_route_carries_the_marks(tmp_path):
    from kadesh.server.app import create_app
    from tests.asgi_client import TestClient

    app = create_app(f"sqlite:///{tmp_path / 'k.sqlite3'}")
    with TestClient(app) as client:
        created = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
        game_id = created["id"]
        tokens = {seat: created["seats"][seat]["token"] for seat in ("north", "south")}
        version = 0

        def act(seat, action):
            nonlocal version
            answer = client.post(f"/api/games/{game_id}/actions", headers={"Authorization": f"Bearer {tokens[seat]}"},
                                 json={"expected_version": version, "action": action})
            assert answer.status_code == 200, answer.text
            version = answer.json()["version"]

        act("north", {"type": "deploy", "element": "n1", "cell": "e2"})
        lines = client.get(f"/api/games/{game_id}/journal", params={"token": tokens["north"]}).json()
        assert lines == [{"version": 1, "line": "Tu places ton général en e2."}]  # no mark: nothing to draw
        for seat, row in (("north", 1), ("south", 11)):
            for number, column in enumerate("cdefghijcdef", start=1):
                act(seat, {"type": "deploy", "element": f"{seat[0]}{number}", "cell": f"{column}{row + (number > 8)}"})
            act(seat, {"type": "ready"})
        act("north", {"type": "move", "element": "n5", "to": "g2", "facing": "S"})
        since = {"token": tokens["south"], "since": version - 1}
        lines = client.get(f"/api/games/{game_id}/journal", params=since).json()
    app.state.store.close()
    assert lines == [{"version": version, "line": "La lame se porte en g2, face au sud.",
                      "mark": {"kind": "move", "side": "north", "element": "n5", "from": "g1", "to": "g2",
                               "facing": "S", "charge": False}}]
