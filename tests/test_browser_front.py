"""Front's first view in Debian's Chromium: a side picks a unit, moves it on a highlighted cell,
and ends its turn; the other side's page shows exactly the units its view holds. A side's page, in the
default battle, in a mission and on the air test ground, reads clean in both languages: units, types,
ground, works and seasons by their names, never their data ids. Aircraft in flight are drawn over the
unit below them, neither hiding the other; air orders (launch, land, a shot at the aircraft over an
enemy on the ground) are given from the page."""

from __future__ import annotations

import json

import pytest

from kadesh.core.events import Event
from tests.browser_support import assert_page_clean, running_server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]


def test_a_side_moves_a_unit_and_ends_its_turn(browser, tmp_path):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, store):
        created = store.create_game("front", options={"scenario": "test_small"})
        blue = browser.new_page()
        blue.goto(f"{base}/play/{created.id}?token={created.seat_tokens['blue']}")
        blue.locator("svg.front-map").wait_for()
        red = browser.new_page()
        red.goto(f"{base}/play/{created.id}?token={created.seat_tokens['red']}")
        red.locator("svg.front-map").wait_for()
        with store.game(created.id) as game:
            seen = {u["id"] for u in game.view("red")["units"]}
        shown = {g.get_attribute("data-unit") for g in red.locator("g.unit").all()}
        assert shown == seen  # the page shows the red view's units, no more
        blue.click('g.unit[data-unit="b1"]')
        blue.click('rect.ground.move[data-cell="B1"]')
        blue.wait_for_function("Number(document.querySelector('#board').dataset.version) === 1")
        blue.click("#end-turn")
        red.wait_for_function("document.querySelector('.front-status').textContent.includes('ordonner')")
        with store.game(created.id) as game:
            assert game.state.units["b1"].cell == (1, 0) and game.state.active == "red"


def test_the_home_page_opens_a_front_battle(browser, tmp_path):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, _):
        page = browser.new_page()
        page.goto(base + "/")
        page.click("#front-create")
        page.click('#front-links a[data-side="blue"]')
        page.locator("svg.front-map").wait_for()
        assert page.locator("g.unit.blue").count() == 40


WORDS = {"fr": {"tank": "char lourd", "map": "Carte de", "unit": "Bleu "},
         "en": {"tank": "heavy tank", "map": "Map of", "unit": "Blue "}}


def opening(store, scenario: str):
    """A battle after one turn each: every side moves its first unit that can, then hands over; blue to play."""
    created = store.create_game("front", seed=f"page-{scenario}", options={"scenario": scenario})
    version = 0
    for side in ("blue", "red"):
        with store.game(created.id) as game:
            legal = game.legal_actions(side)
        moves = [a for a in legal if a["type"] == "move"]
        if moves:
            version = store.act(created.id, side, version, moves[-1]).version
        version = store.act(created.id, side, version, {"type": "end_turn"}).version
    return created


@pytest.mark.parametrize("scenario", ["default", "mission_hold", "test_air"])
def test_a_sides_page_reads_clean_in_both_languages(browser, tmp_path, scenario):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, store):
        created = opening(store, scenario)
        with store.game(created.id) as game:
            tank = next((u["id"] for u in game.view("blue")["units"] if u["type"] == "heavy_tank"), None)
        assert tank is not None
        for lang in ("fr", "en"):
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            context.add_init_script(f"localStorage.setItem('kadesh.lang', {json.dumps(lang)})")
            page = context.new_page()
            page.goto(f"{base}/play/{created.id}?token={created.seat_tokens['blue']}")
            page.locator("svg.front-map").wait_for()
            page.wait_for_load_state("networkidle")
            assert_page_clean(page, lang)
            page.click(f'g.unit[data-unit="{tank}"]')  # the selected unit is described under the map
            assert_page_clean(page, lang)
            words = WORDS[lang]
            assert words["tank"] in page.locator(".front").inner_text()
            assert page.locator("svg.front-map").get_attribute("aria-label").startswith(words["map"])
            journal = page.locator("#journal").inner_text()
            assert words["unit"] in journal and "b1 " not in journal
            context.close()


AIR_WORDS = {"fr": {True: "en vol", False: "posé", "battery": "batterie pour", "carries": "emporte"},
             "en": {True: "in flight", False: "landed", "battery": "battery for", "carries": "carries"}}


def blue_page(browser, base, created, lang="fr"):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(f"localStorage.setItem('kadesh.lang', {json.dumps(lang)})")
    page = context.new_page()
    page.goto(f"{base}/play/{created.id}?token={created.seat_tokens['blue']}")
    page.locator("svg.front-map").wait_for()
    page.wait_for_load_state("networkidle")
    return context, page


def unit_at_point(page, selector: str) -> str | None:
    """The unit the pointer reaches at the centre of ``selector``'s box: what a click there picks."""
    return page.evaluate("""(selector) => {
        const box = document.querySelector(selector).getBoundingClientRect();
        const hit = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return hit?.closest('g.unit')?.dataset.unit ?? null;
    }""", selector)


@pytest.mark.parametrize("scenario", ["test_air", "default"])
def test_aircraft_are_drawn_in_flight_over_the_unit_below_in_both_languages(browser, tmp_path, scenario):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, store):
        created = store.create_game("front", seed=f"air-{scenario}", options={"scenario": scenario})
        with store.game(created.id) as game:  # a drone goes up over its operator: one cell, two units
            cells = {u["id"]: u["cell"] for u in game.view("blue")["units"]}
            launch = next(a for a in game.legal_actions("blue")
                          if a["type"] == "launch" and a["to"] == cells[a["unit"]])
        store.act(created.id, "blue", 0, launch)
        with store.game(created.id) as game:
            units = [u for u in game.view("blue")["units"] if not u.get("aboard")]
        aircraft = [u for u in units if "flying" in u]
        assert any(u["flying"] for u in aircraft) and any(not u["flying"] for u in aircraft)
        operator, drone = launch["unit"], launch["drone"]
        for lang in ("fr", "en"):
            context, page = blue_page(browser, base, created, lang)
            words = AIR_WORDS[lang]
            for unit in aircraft:  # each aircraft says whether it is in flight or landed
                drawn = page.locator(f'g.unit[data-unit="{unit["id"]}"]')
                assert drawn.count() == 1
                assert ("aircraft" in drawn.get_attribute("class").split()) == unit["flying"]
                assert words[unit["flying"]] in drawn.locator("title").text_content()
            # the operator and its drone above it: each one is what the pointer reaches on its own mark
            assert unit_at_point(page, f'g.unit[data-unit="{operator}"] circle') == operator
            assert unit_at_point(page, f'g.unit[data-unit="{drone}"] rect') == drone
            assert_page_clean(page, lang)
            page.click(f'g.unit[data-unit="{drone}"]')
            described = page.locator(".front").inner_text()
            assert words["battery"] in described and words[True] in described
            assert_page_clean(page, lang)
            page.click(f'g.unit[data-unit="{operator}"]')
            assert words["carries"] in page.locator(".front").inner_text()
            assert_page_clean(page, lang)
            context.close()


def test_a_drone_is_launched_and_a_helicopter_lands_from_the_page(browser, tmp_path):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, store):
        created = store.create_game("front", seed="air-orders", options={"scenario": "test_air"})
        context, page = blue_page(browser, base, created)
        page.click('g.unit[data-unit="b1"]')
        launches = page.locator('.front-launch button[data-order="launch"]')
        assert launches.count() == 16  # two drones, each over the operator's cell or one of its 8 neighbours
        page.click('button[aria-label="Faire décoller Bleu 2 (drone de surveillance) au-dessus de C4"]')
        page.wait_for_function("Number(document.querySelector('#board').dataset.version) === 1")
        assert page.locator('g.unit.aircraft[data-unit="b2"]').count() == 1
        page.click('g.unit[data-unit="b6"]')
        page.click('button[data-order="land"]:has-text("Se poser en D6")')
        page.wait_for_function("Number(document.querySelector('#board').dataset.version) === 2")
        with store.game(created.id) as game:
            assert game.state.units["b2"].flying and game.state.units["b2"].cell == (2, 3)
            assert not game.state.units["b6"].flying
        assert "posé" in page.locator('g.unit.landed[data-unit="b6"] title').text_content()
        assert_page_clean(page, "fr")
        context.close()


def test_a_cell_with_a_unit_and_an_aircraft_offers_a_shot_at_each(browser, tmp_path):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, store):
        created = store.create_game("front", seed="air-shots", options={"scenario": "test_air"})
        version = store.act(created.id, "blue", 0, {"type": "end_turn"}).version
        over_its_sniper = {"type": "move", "unit": "r6", "to": "J4"}
        version = store.act(created.id, "red", version, over_its_sniper).version
        version = store.act(created.id, "red", version, {"type": "end_turn"}).version
        context, page = blue_page(browser, base, created)
        page.click('g.unit[data-unit="b9"]')
        orders = page.locator(".front-orders").inner_text()
        assert "Tirer à la roquette sur l'hélicoptère d'attaque au-dessus de J4" in orders
        assert "Tirer à la roquette sur le sniper en J4" in orders
        assert_page_clean(page, "fr")
        page.click('g.unit[data-unit="r9"]')  # the sniper's mark: the tank's gun at the ground
        page.wait_for_function(f"Number(document.querySelector('#board').dataset.version) === {version + 1}")
        with store.game(created.id) as game:
            assert game.actions[-1]["action"] == {"type": "shoot", "unit": "b9", "target": "J4"}
        page.click('g.unit.aircraft[data-unit="r6"]')  # the helicopter's badge: the rocket at the air
        page.wait_for_function(f"Number(document.querySelector('#board').dataset.version) === {version + 2}")
        with store.game(created.id) as game:
            assert game.actions[-1]["action"] == {"type": "shoot", "unit": "b9", "target": "J4", "at": "air",
                                                  "weapon": "rocket"}
        context.close()


def test_the_journal_names_units_works_and_seasons_and_agrees_in_number():
    from kadesh.rules.front.narration import narrate

    hit = Event("hit", {"unit": "r1", "damage": 1, "hp": 5})
    assert narrate(hit, "red", "fr") == "Rouge 1 est touché : 1 dégât (reste 5 PV)."
    assert narrate(Event("burnt", {"unit": "b2", "damage": 2}), "blue", "fr") == "Bleu 2 souffre du feu : 2 dégâts."
    assert narrate(Event("season", {"season": "summer"}), "blue", "fr") == "La saison change : été."
    built = Event("built", {"unit": "b3", "kind": "dragons_teeth", "cell": "C4", "steps": 1, "complete": True})
    assert narrate(built, "blue", "fr") == "Bleu 3 construit des dents de dragon en C4 (1 étape, achevé)."
    assert narrate(built, "blue", "en") == "Blue 3 builds dragon's teeth at C4 (1 step, complete)."
    fell = Event("structure_fell", {"cell": "D5", "left": "carcass"})
    assert narrate(fell, "blue", "en") == "The structure at D5 falls, leaving a carcass."
