"""Front as a game in Debian's Chromium (issue 19), played through clicks and keys only.

A duel on a small map of its own, played to the end: a move shown as a path with its cost and confirmed by a
second click, a shot whose damage and chance of destroying are shown before it is fired, an order button with
its cost, Tab with its confirmation, Escape taking an order back; the fog: an unseen cell is shaded, an enemy
leaves the map once out of sight, and the side is told at its turn what it saw meanwhile. The page reads clean
in both languages (axe, no internal word) in the default battle, a mission and the air test ground; air orders
are given on the map; a phone can play (cells of 32 px at least, the orders at hand).
"""

from __future__ import annotations

import json

import pytest

from kadesh.core.events import Event
from tests.browser_support import assert_page_clean

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

# One blue heavy tank against one red observer, on a 10 × 4 map with a road and a forest cell at H1: the tank
# sees 5 cells (columns A to F at first); an observer in the forest hides 2 cells more.
DUEL = """
[scenario]
id = "duel"
fr = "Duel à la lisière"
en = "Duel at the edge of the wood"
season = "summer"
hour = "morning"

[legend]
"." = "meadow"
"=" = "road"
"f" = "forest"

[map]
rows = [
  ".......f..",
  "==========",
  "..........",
  "..........",
]

[[units]]
side = "blue"
type = "heavy_tank"
cell = "A2"

[[units]]
side = "red"
type = "observer"
cell = "F1"
"""


@pytest.fixture
def site(shared_server):
    """The test process's shared server: each test plays in games and accounts of its own."""
    return shared_server


# -- the map, as the page draws it (front-map.js) ------------------------------------------------------------
def on_map(page, selector: str):
    return page.locator(f".front-map-host {selector}")


def click_cell(page, cell: str) -> None:
    on_map(page, f'[data-cell="{cell}"]').first.click()


def unit_drawn(page, unit_id: str) -> bool:
    return on_map(page, f'[data-unit="{unit_id}"]').count() > 0


def shaded(page, cell: str) -> bool:
    """Whether the map shades a cell as out of sight (its accessible name says so, as its drawing shows)."""
    label = on_map(page, f'[data-cell="{cell}"]').first.get_attribute("aria-label") or ""
    return "hors de vue" in label or "out of sight" in label


def open_page(browser, base, created, side, lang="fr", viewport=None):
    page = browser.new_page(viewport=viewport or {"width": 1280, "height": 800})
    page.add_init_script(f"localStorage.setItem('kadesh.lang', {json.dumps(lang)})")
    page.goto(f"{base}/play/{created.id}?token={created.seat_tokens[side]}")
    page.locator(".front .front-map-host").wait_for()
    page.wait_for_load_state("networkidle")
    return page


def at_version(page, version: int) -> None:
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) === {version}")


def text(locator) -> str:
    """A locator's text, its narrow no-break spaces (French « 30 % ») as plain spaces."""
    return locator.inner_text().replace("\u202f", " ").replace("\xa0", " ")


def bar(page) -> str:
    return text(page.locator(".front-bar"))


def test_a_duel_is_played_to_the_end_through_clicks_and_keys(browser, site):
    base, store = site
    created = store.create_game("front", seed="duel", options={"scenario_toml": DUEL})
    blue = open_page(browser, base, created, "blue")
    assert shaded(blue, "H3") and not shaded(blue, "C3")  # out of the tank's sight: shaded
    assert unit_drawn(blue, "r1")
    assert_page_clean(blue, "fr")

    # a move: the first click shows the way and its cost, Escape takes it back, two clicks give it
    on_map(blue, '[data-unit="b1"]').first.click()
    assert "Char lourd bleu en A2 · 10 PA" in bar(blue)
    click_cell(blue, "C2")
    blue.wait_for_function("() => document.querySelector('.front-bar').innerText.includes('2 PA · 2 carburant')")
    assert "Aller en C2" in bar(blue) and blue.locator(".front-tag").inner_text() == "2 PA · 2 carburant"
    blue.keyboard.press("Escape")
    assert "Aller en C2" not in bar(blue)
    click_cell(blue, "C2")
    click_cell(blue, "C2")
    at_version(blue, 1)
    blue.locator("#journal li", has_text="va de A2 à C2").hover()  # a journal line lights its cell
    assert blue.locator("#journal li.front-lit").count() == 1

    # a shot: the damage and the chance of destroying are shown before it is fired
    on_map(blue, '[data-unit="r1"]').first.click()
    blue.wait_for_function("() => document.querySelector('.front-odds')?.innerText.includes('dégâts')")
    assert "Cible : Observateur rouge en F1" in bar(blue)
    assert text(blue.locator(".front-odds").first) == "5 dégâts · 0 % de le détruire · couvert 0 · il a 6 PV"
    assert [b.inner_text().replace("\n", " ") for b in blue.locator(".front-aim button").all()] == [
        "Tirer (canon) 5 PA", "Tirer (roquette) 5 PA"]  # one button a weapon
    with store.game(created.id) as game:
        assert game.version == 1  # shown, not fired
    assert_page_clean(blue, "fr")
    on_map(blue, '[data-unit="r1"]').first.click()
    at_version(blue, 2)
    with store.game(created.id) as game:
        assert game.state.units["r1"].hp == 1

    # an order button with its cost, then Tab: a unit still has orders, so a dialog asks first
    patrol = blue.locator('.front-orders button[data-order="patrol"]')
    assert patrol.inner_text().replace("\n", " ") == "Patrouiller autour de C2 2 PA"
    patrol.click()
    at_version(blue, 3)
    on_map(blue, '[role="grid"]').focus()  # Tab on the map ends the turn
    blue.keyboard.press("Tab")
    dialog = blue.locator("dialog.front-dialog")
    assert dialog.is_visible() and "Char lourd bleu en C2" in dialog.inner_text()
    assert_page_clean(blue, "fr")
    blue.keyboard.press("Escape")  # taken back: still blue's turn
    assert not dialog.is_visible()
    blue.keyboard.press("Tab")
    blue.keyboard.press("Tab")  # the focus stays inside the dialog
    assert blue.evaluate("document.activeElement.closest('dialog') !== null")
    blue.click("#front-end-yes")
    at_version(blue, 4)

    # Red is told what it saw during Blue's turn, then hides its observer in the wood (Enter confirms)
    red = open_page(browser, base, created, "red")
    summary = red.locator(".front-summary")
    assert "Rouge 1" in summary.inner_text() and "5 dégâts" in summary.inner_text()
    assert_page_clean(red, "fr")
    summary.locator(".front-dismiss").click()
    assert red.locator(".front-summary").count() == 0
    on_map(red, '[data-unit="r1"]').first.click()
    click_cell(red, "H1")
    red.wait_for_function("() => document.querySelector('.front-bar').innerText.includes('8 PA')")
    on_map(red, '[role="grid"]').focus()  # the map's cursor is on the cell clicked: Enter gives the order
    red.keyboard.press("Enter")
    at_version(red, 5)
    red.keyboard.press("Tab")  # nothing left to order: no question asked
    at_version(red, 6)
    red.close()

    # the observer is out of the tank's sight now: off Blue's map; Blue saw it leave (issue 44), no further
    at_version(blue, 6)
    assert not unit_drawn(blue, "r1")
    assert "Rouge 1 (observateur) quitte F1 et disparaît vers G2." in blue.locator(".front-summary").inner_text()
    on_map(blue, '[data-unit="b1"]').first.click()
    click_cell(blue, "F2")
    click_cell(blue, "F2")
    at_version(blue, 7)
    assert unit_drawn(blue, "r1")  # three cells away: seen again, in the wood
    on_map(blue, '[data-unit="r1"]').first.click()
    blue.wait_for_function("() => document.querySelector('.front-odds')?.innerText.includes('100')")
    assert text(blue.locator(".front-odds").first).startswith("4 dégâts · 100 % de le détruire · couvert 1")
    on_map(blue, '[data-unit="r1"]').first.click()
    at_version(blue, 8)
    blue.wait_for_function("() => document.querySelector('.front-top').innerText.includes('Victoire du Bleu')")
    with store.game(created.id) as game:
        assert game.outcome == {"winner": "blue", "reason": "annihilation"}
    assert_page_clean(blue, "fr")
    blue.close()


def test_the_duel_reads_in_english(browser, site):
    base, store = site
    created = store.create_game("front", seed="duel", options={"scenario_toml": DUEL})
    page = open_page(browser, base, created, "blue", "en")
    on_map(page, '[data-unit="b1"]').first.click()
    assert "Blue heavy tank at A2 · 10 AP" in bar(page)
    click_cell(page, "C2")
    page.wait_for_function("() => document.querySelector('.front-bar').innerText.includes('2 AP · 2 fuel')")
    assert "Move to C2" in bar(page)
    assert_page_clean(page, "en")
    page.keyboard.press("Escape")
    on_map(page, '[data-unit="r1"]').first.click()
    page.wait_for_function("() => document.querySelector('.front-odds')?.innerText.includes('damage')")
    odds = text(page.locator(".front-odds").first)
    assert odds == "5 damage · 0% chance of destroying it · cover 0 · it has 6 HP"
    assert "Target: Red observer at F1" in bar(page)
    panel = page.locator(".front-side").inner_text()
    assert "HP" in panel and "6 / 6" in panel  # the unit under the pointer
    assert_page_clean(page, "en")
    page.close()


# A blue tank's shell sets the forest at D1 ablaze under a red infantry that lives through it; a blue infantry
# stands clear of the fire. A second red infantry keeps the battle going.
FOREST_FIRE = """
[scenario]
id = "forest_fire"
fr = "Lisière en feu"
en = "Burning edge"
season = "summer"
hour = "morning"

[legend]
"." = "meadow"
"=" = "road"
"f" = "forest"

[map]
rows = [
  "...f......",
  "==========",
  "..........",
  "..........",
]

[[units]]
side = "blue"
type = "infantry"
cell = "A3"

[[units]]
side = "blue"
type = "heavy_tank"
cell = "A2"

[[units]]
side = "red"
type = "infantry"
cell = "D1"

[[units]]
side = "red"
type = "infantry"
cell = "J4"
"""

# An infantry's one plain weapon, as the panel gives it, and the word for a burning cell.
FIRE_WORDS = {"fr": {"weapon": "Tir : portée 3", "burning": "En feu"},
              "en": {"weapon": "Fire: range 3", "burning": "Burning"}}


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_an_armed_unit_reads_its_weapon_and_only_a_burning_cell_reads_on_fire(browser, site, lang):
    """front-panel.js once gave its words the key `fire` twice: « Tir » for a unit's one weapon and « En feu »
    for a burning cell; the second won, and every unit with one plain weapon read « En feu : portée 3 »."""
    base, store = site
    created = store.create_game("front", seed="forest-fire", options={"scenario_toml": FOREST_FIRE})
    with store.game(created.id) as game:
        shell = next(a for a in game.legal_actions("blue")
                     if a["type"] == "shoot" and a["unit"] == "b2" and a["target"] == "D1" and "weapon" not in a)
    store.act(created.id, "blue", 0, shell)
    with store.game(created.id) as game:
        assert game.view("blue")["fires"] == ["D1"] and "r1" in game.state.units  # ablaze, the infantry alive
    words = FIRE_WORDS[lang]
    page = open_page(browser, base, created, "blue", lang)
    at_version(page, 1)

    on_map(page, '[data-unit="b1"]').first.click()  # the blue infantry, clear of the fire
    page.wait_for_function("() => document.querySelector('.front-unit')?.dataset.unitCard === 'A3'")
    card = text(page.locator(".front-unit").first)
    assert words["weapon"] in card and words["burning"] not in card
    assert words["burning"] not in text(page.locator(".front-cell"))

    on_map(page, '[data-unit="r1"]').first.hover()  # the red infantry in the burning forest
    page.wait_for_function("() => document.querySelector('.front-unit')?.dataset.unitCard === 'D1'")
    card = text(page.locator(".front-unit").first)
    assert words["weapon"] in card and words["burning"] not in card  # the unit has its weapon,
    assert words["burning"] in text(page.locator(".front-cell"))  # its cell burns
    page.close()


def test_the_home_page_opens_a_front_battle(browser, site):
    base, _ = site
    page = browser.new_page()
    page.goto(base + "/")
    page.click("#front-create")
    page.click('#front-links a[data-side="blue"]')
    page.locator(".front .front-map-host").wait_for()
    assert page.locator(".front-clock").inner_text().startswith("Tour 1")
    page.close()


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


WORDS = {"fr": {"tank": "Char lourd bleu", "clock": "Tour 2", "mission": "doit tenir"},
         "en": {"tank": "Blue heavy tank", "clock": "Turn 2", "mission": "must hold"}}


@pytest.mark.parametrize("scenario", ["default", "mission_hold"])
def test_a_sides_page_reads_clean_in_both_languages(browser, site, scenario):
    base, store = site
    created = opening(store, scenario)
    with store.game(created.id) as game:
        tank = next(u["id"] for u in game.view("blue")["units"] if u["type"] == "heavy_tank")
    for lang in ("fr", "en"):
        page = open_page(browser, base, created, "blue", lang)
        words = WORDS[lang]
        assert page.locator(".front-clock").inner_text().startswith(words["clock"])
        if scenario == "mission_hold":
            assert words["mission"] in page.locator(".front-mission").inner_text()
        on_map(page, f'[data-unit="{tank}"]').first.click()  # the selected unit, its orders and the panel
        assert words["tank"] in page.locator(".front-bar").inner_text()
        assert words["tank"] in page.locator(".front-unit").first.inner_text()
        assert_page_clean(page, lang)
        journal = page.locator("#journal").inner_text()
        assert "b1 " not in journal
        page.close()


def test_air_orders_are_given_on_the_map(browser, site):
    """A drone goes up over a cell chosen on the map, a helicopter lands by its button; over an enemy on the ground
    an enemy helicopter is a target of its own, fired at with the weapon that reaches the air."""
    base, store = site
    created = store.create_game("front", seed="air-orders", options={"scenario": "test_air"})
    page = open_page(browser, base, created, "blue")
    on_map(page, '[data-unit="b1"]').first.click()
    page.locator(".front-orders button", has_text="Faire décoller le drone de surveillance bleu").click()
    assert "choisis la case sur la carte" in bar(page)
    click_cell(page, "C4")
    assert "Faire décoller le drone de surveillance bleu en C4" in bar(page)
    assert_page_clean(page, "fr")
    click_cell(page, "C4")
    at_version(page, 1)
    on_map(page, '[data-unit="b6"]').first.click()
    page.locator('.front-orders button[data-order="land"]').click()
    at_version(page, 2)
    with store.game(created.id) as game:
        assert game.state.units["b2"].flying and game.state.units["b2"].cell == (2, 3)
        assert not game.state.units["b6"].flying
    page.close()

    created = store.create_game("front", seed="air-shots", options={"scenario": "test_air"})
    version = store.act(created.id, "blue", 0, {"type": "end_turn"}).version
    version = store.act(created.id, "red", version, {"type": "move", "unit": "r6", "to": "J4"}).version
    version = store.act(created.id, "red", version, {"type": "end_turn"}).version
    page = open_page(browser, base, created, "blue")
    on_map(page, '[data-unit="b9"]').first.click()
    targets = text(page.locator(".front-targets"))
    assert "Hélicoptère d'attaque rouge en J4" in targets and "Sniper rouge en J4" in targets
    on_map(page, '[data-unit="r6"]').first.click()  # the helicopter over the sniper: the rocket reaches it
    page.wait_for_function("() => document.querySelector('.front-odds')?.innerText.includes('dégâts')")
    assert "Cible : Hélicoptère d'attaque rouge en J4" in bar(page)
    assert text(page.locator(".front-aim button").first).replace("\n", " ") == "Tirer (roquette) 5 PA"
    on_map(page, '[data-unit="r6"]').first.click()
    at_version(page, version + 1)
    with store.game(created.id) as game:
        assert game.actions[-1]["action"] == {"type": "shoot", "unit": "b9", "target": "J4", "at": "air",
                                              "weapon": "rocket"}
    page.close()


def test_a_phone_can_play(browser, site):
    base, store = site
    created = store.create_game("front", seed="phone", options={"scenario": "default"})
    page = open_page(browser, base, created, "blue", viewport={"width": 390, "height": 844})
    with store.game(created.id) as game:
        unit = next(u for u in game.view("blue")["units"] if u["type"] == "infantry")
        move = next(a for a in game.legal_actions("blue") if a["type"] == "move" and a["unit"] == unit["id"])
    drawn = on_map(page, f'[data-cell="{unit["cell"]}"]').first
    drawn.scroll_into_view_if_needed()
    box = drawn.bounding_box()
    assert box["width"] >= 32 and box["height"] >= 32  # a cell a finger can hit
    on_map(page, f'[data-unit="{unit["id"]}"]').first.click()
    click_cell(page, move["to"])
    click_cell(page, move["to"])
    at_version(page, 1)  # the unit stays chosen, its other orders at hand
    orders = page.locator(".front-bar")
    orders.locator("button").first.scroll_into_view_if_needed()
    box = orders.bounding_box()
    assert box["y"] < 844 and box["y"] + 40 < 844  # the orders are on the screen, at hand
    assert page.locator("#end-turn").is_enabled()
    assert_page_clean(page, "fr")
    page.close()


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
