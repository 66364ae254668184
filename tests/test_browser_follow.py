"""Following the play (issue 44), in Debian's Chromium: what a page draws and lists of the other side's turn says
the truth about who won and who lost, and stays in sight while the player plays its own turn."""

from __future__ import annotations

import json

import pytest

from tests.manoeuvre_setup import battle

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser]


@pytest.fixture
def site(shared_server):
    """The test process's shared server: each test plays in games of its own."""
    return shared_server


DRAW = """async ([view, mark]) => {
    const { drawField } = await import('/static/rules/manoeuvre-field.js');
    const { T } = await import('/static/rules/manoeuvre-text.js');
    const none = new Set();
    const svg = drawField({ view, seat: 'north', t: T.fr, zone: none, legalCells: none, destCells: none, pending: null,
        threatCell: null, selected: null, targets: none, aimed: null, inspected: null, marks: [mark],
        drag: {}, tooltip: () => null, onCell: () => {}, onElement: () => {}, onDrop: () => {} });
    document.body.append(svg);
    const box = (node) => node.getBBox();
    const label = svg.querySelector('.fight-result rect');
    const cellAt = (cell) => box(svg.querySelector(`rect.cell[data-cell="${cell}"]`));
    const inside = (inner, outer) => inner.x >= outer.x && inner.x + inner.width <= outer.x + outer.width
        && inner.y >= outer.y && inner.y + inner.height <= outer.y + outer.height;
    return { word: svg.querySelector('.fight-result text').textContent,
             onAttacker: inside(box(label), cellAt(mark.from)), onDefender: inside(box(label), cellAt(mark.cell)) };
}"""


def test_a_chariot_destroyed_attacking_is_marked_on_its_own_cell_and_named_by_its_side(browser, site):
    """The issue's case: a South light chariot attacking from c7 lost against North's at c6; « détruit » was drawn
    on North's survivor, and the journal said « le char léger est détruit » of either."""
    base, _ = site
    game = battle({"n1": "a1 S", "s1": "l12 N", "n2": "c6 S", "s2": "c7 N"}, active="south", dice=[1, 6])
    game.act("south", {"type": "attack", "element": "s2", "target": "n2"})
    line, mark = [(line, mark) for _, line, mark in game.journal_marked("north", "fr")][-1]
    assert line.endswith("le char léger du Sud est détruit.")
    assert mark["destroyed"] == "s2" and mark["defender"] == "n2"
    mark = {**mark, "from": "c7", "cell": "c6"}  # where they stood (this position was set by hand, not deployed)
    page = browser.new_page()
    page.goto(f"{base}/")
    drawn = page.evaluate(DRAW, [json.loads(json.dumps(game.view("north"))), mark])
    assert drawn == {"word": "détruit", "onAttacker": True, "onDefender": False}
    page.close()


LAST_TURN = """async (journal) => {
    const { lastTurn } = await import('/static/rules/manoeuvre.js');
    return lastTurn(journal, 'north', 'battle').items.map((item) => item.line);
}"""


def test_what_the_other_side_did_stays_in_sight_while_the_seat_plays_its_own_turn(browser, site):
    """« Ce que le Sud vient de faire » vanished after the player's first move of its turn."""
    base, _ = site
    move = {"kind": "move", "from": "c11", "to": "c10"}
    journal = [{"version": 1, "line": "s2 avance", "mark": {**move, "side": "south"}},
               {"version": 2, "line": "fin du Sud", "mark": {"kind": "end_turn", "side": "south"}},
               {"version": 3, "line": "n2 avance", "mark": {**move, "side": "north", "from": "c2", "to": "c3"}}]
    page = browser.new_page()
    page.goto(f"{base}/")
    assert page.evaluate(LAST_TURN, journal) == ["s2 avance"]
    assert page.evaluate(LAST_TURN, journal[:2]) == ["s2 avance"]
    ended = [*journal, {"version": 4, "line": "fin du Nord", "mark": {"kind": "end_turn", "side": "north"}}]
    assert page.evaluate(LAST_TURN, ended) == []  # the Sud has not played since: nothing to show yet
    page.close()


def test_a_finished_game_does_not_say_the_other_side_has_done_nothing_yet(browser, site):
    """« Le Nord n'a encore rien fait ce tour-ci » stayed on South's page after North resigned."""
    import random

    base, store = site
    created = store.create_game("manoeuvre", seed="follow-end")
    rng = random.Random(5)
    for _ in range(500):  # a battle's turns, until North is to play just after South's end of turn
        with store.game(created.id) as game:
            assert game.outcome is None, "the random game ended before the position was reached"
            seat, version = game.to_act()[0], game.version
            last = game.actions[-1]["action"] if game.actions else {}
            if version > 30 and seat == "north" and last.get("type") == "end_turn":
                break
            choices = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
        store.act(created.id, seat, version, rng.choice(choices))
    else:
        pytest.fail("never North's turn just after South's end of turn")
    store.act(created.id, "north", version, {"type": "resign"})
    page = browser.new_page()
    page.goto(f"{base}/play/{created.id}#token={created.seat_tokens['south']}")
    page.wait_for_selector("#ending:not([hidden])")
    assert "rien fait" not in page.inner_text("#board")
    page.close()


def test_the_notices_say_plainly_why_the_link_is_secret(browser, site):
    """« il est secret, qui l'a joue à ta place » read as a typo (issue 44, point 12)."""
    base, store = site
    created = store.create_game("manoeuvre", seed="follow-words")
    page = browser.new_page()
    page.goto(f"{base}/play/{created.id}#token={created.seat_tokens['north']}")
    page.click("#notices summary")
    text = page.inner_text("#notices")
    assert "quiconque l'a peut jouer à ta place" in text and "qui l'a joue" not in text
    page.close()


@pytest.mark.parametrize("answer", ["default", "denied"])
def test_asking_for_the_browsers_notifications_always_says_what_came_of_it(browser, site, answer):
    """With the permission refused or the prompt dismissed, « Les activer » gave no feedback (issue 44, point 11)."""
    base, store = site
    created = store.create_game("manoeuvre", seed=f"follow-permission-{answer}")
    page = browser.new_page()
    page.add_init_script(f"""Object.defineProperty(Notification, 'permission', {{ get: () => 'default' }});
        Notification.requestPermission = async () => '{answer}';""")
    page.goto(f"{base}/play/{created.id}#token={created.seat_tokens['north']}")
    page.click("#notices summary")
    page.click("#allow-notifications")
    expected = "rien répondu" if answer == "default" else "les a refusées"
    page.wait_for_selector(f"#notice-message >> text={expected}")
    page.close()


def test_my_games_tells_two_games_of_one_ruleset_apart_by_their_battle_and_opponent(browser, site):
    """Two « Front · Bleu · ouverte le … » entries could not be told apart (issue 44, point 9)."""
    import httpx

    base, _ = site
    games = []
    for scenario, level in (("skirmish", "maladroit"), ("test_small", "etat_major")):
        made = httpx.post(f"{base}/api/games", json={"ruleset": "front", "options": {"scenario": scenario},
                                                     "bots": {"red": level}}).json()
        games.append({"id": made["id"], "token": made["seats"]["blue"]["token"], "seat": "blue", "ruleset": "front",
                      "link": made["seats"]["blue"]["link"]})
    page = browser.new_page()
    page.add_init_script(f"localStorage.setItem('kadesh.games', {json.dumps(json.dumps(games))});")
    page.goto(f"{base}/")
    entries = page.locator("#my-games .my-game")
    entries.first.locator(".my-game-where").wait_for()
    texts = sorted(entries.nth(i).locator(".my-game-what").inner_text() for i in range(entries.count()))
    assert len(texts) == 2 and texts[0] != texts[1]
    assert any("escarmouche du gué" in text and "contre Général Maladroit" in text for text in texts), texts
    assert any("Petit terrain d'essai" in text for text in texts), texts
    page.close()


def test_imhotep_sees_the_question_of_the_deadline_he_sets_and_keeps_what_he_typed(browser, site):
    """« Fixer l'échéance » seemed to do nothing at 1280×800: its question came at the console's top, off-screen,
    and the date field was cleared (issue 44, point 4)."""
    base, store = site
    created = store.create_game("royaumes", seed="follow-deadline")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{base}/play/{created.id}#token={created.seat_tokens['imhotep']}")
    page.fill("#deadline-at", "2030-05-01T18:00")
    page.click("#set-deadline")
    page.wait_for_selector("#confirm")
    box = page.locator("#confirm").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 800, box  # in sight
    assert page.input_value("#deadline-at") == "2030-05-01T18:00"
    assert page.evaluate("document.activeElement.id") == "confirm"
    page.click("#confirm")
    page.wait_for_selector("#deadline >> text=2030")
    page.close()


def test_the_others_stay_covers_the_army_left_behind_on_a_cell_one_leaves(browser, site):
    """« Toutes les autres restent » skipped the second army of a cell after the first moved, and the report then
    said « sans ordre clair, ces armées restent en place » (issue 44, point 10)."""
    base, store = site
    created = store.create_game("royaumes", seed="follow-stay")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{base}/play/{created.id}#token={created.seat_tokens['koush']}")
    page.click('g.army[data-army="koush@G19"]')  # Koush's two armies there
    page.click('rect[data-cell="G18"]', position={"x": 2, "y": 2})  # one leaves
    page.click("#others-stay")
    assert "G19" in page.inner_text("#draft-stay"), page.inner_text("#draft-stay")
    page.close()


def test_a_kingdoms_report_says_when_the_turn_was_judged_without_its_orders(browser, site):
    """When Imhotep judged a turn without a kingdom's orders, that kingdom's report never said so (issue 44,
    point 10)."""
    base, store = site
    created = store.create_game("royaumes", seed="follow-missed")
    version = store.act(created.id, "libye", 0, {"type": "orders", "text": ""}).version
    store.act(created.id, "imhotep", version, {"type": "adjudicate"})
    for seat, missed in (("koush", True), ("libye", False)):
        page = browser.new_page()
        page.goto(f"{base}/play/{created.id}#token={created.seat_tokens[seat]}")
        report = page.locator(".reports details[data-turn='1']")
        report.wait_for()
        assert ("sans tes ordres" in report.inner_text()) is missed, (seat, report.inner_text())
        page.close()


def test_the_lobby_says_how_strong_each_computer_opponent_is(browser, site):
    """No hint which computer opponent is stronger (Maladroit, Stratège, Hasard; Téméraire, Prudent): issue 44,
    point 13."""
    base, _ = site
    page = browser.new_page()
    page.goto(f"{base}/")
    page.wait_for_selector("body[data-ready='true']")
    assert page.inner_text("#bot-hint-manoeuvre").startswith("Général Maladroit : facile")
    page.click("label[for='level-stratege']")
    assert page.inner_text("#bot-hint-manoeuvre").startswith("Stratège : fort")
    assert "Vizir : fort" in page.inner_text("#rulers-royaumes")
    page.close()


@pytest.mark.parametrize(("scenario", "words"),
                         [("skirmish", "tenir 2 des 3 points"), ("default", "tenir 4 des 5 points")])
def test_the_front_rules_panel_tells_the_victory_of_the_battle_on_the_page(browser, site, scenario, words):
    """The rules panel said « tenir 4 des 5 points » in the skirmish, which needs 2 of 3 (issue 44, point 5)."""
    base, store = site
    created = store.create_game("front", options={"scenario": scenario})
    page = browser.new_page()
    page.goto(f"{base}/play/{created.id}#token={created.seat_tokens['blue']}")
    page.click("#rules-toggle")
    page.click("#rules-body details[data-key='victory'] summary")
    assert words in page.inner_text("#rules-body details[data-key='victory']")
    page.close()


def test_a_point_neutral_again_says_why():
    """« Point B8 : redevenu neutre », the engineer still on it, gave no reason (issue 44, point 5)."""
    from kadesh.core import Event, get_ruleset

    rules = get_ruleset("front")
    event = Event("point", {"cell": "B8", "change": "neutral", "side": "blue"})
    assert rules.narrate(event, "blue", "fr") == ("Point B8 : redevenu neutre : une unité ennemie du Bleu est arrivée "
                                                  "à 4 cases ou moins.")
    assert rules.narrate(event, "red", "en") == "Point B8: neutral again: a unit hostile to Blue came within 4 cells."


def test_the_lobby_leads_a_newcomer_to_the_front_skirmish_and_says_which_battle_is_long(browser, site):
    """The default Front battle (40 units a side) was a first game's wall, offered first with nothing said of its
    size (issue 44, point 7)."""
    base, _ = site
    page = browser.new_page()
    page.goto(f"{base}/")
    page.wait_for_selector("body[data-ready='true']")
    assert page.input_value("#front-scenario") == "skirmish"
    options = page.locator("#front-scenario option")
    labels = {options.nth(i).get_attribute("value"): options.nth(i).text_content() for i in range(options.count())}
    assert "une longue bataille" in labels["default"] and "11 unités par camp" in labels["skirmish"], labels
    assert "longue" not in labels["skirmish"]
    page.close()
