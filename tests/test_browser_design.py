"""The map designer (/design, issue 61) in Debian's Chromium: a small Front battle drawn from an empty grid with the
page's own controls (a river dragged with the brush, a forest, two units a side, a capture point laid from the
keyboard, a victory), a fault shown on its cell while a unit stands on water, fixed, « Jouable »; undone and redone
with Ctrl+Z and Ctrl+Y; previewed as Red sees it; its text taken out and put back; and played against the computer
in one click. The same for a Royaumes map of four kingdoms (the sea and its name, the Nile, a city put in the sea and
fixed, an army laid from the keyboard, a city renamed), tried against three computer kingdoms (a turn of it played by
four: tests/test_browser_map_journeys.py). A signed-in player's draft saved, published and opened again (the shelf's
answers as the contract gives them).
The pages read clean (axe, no internal word) in French and in English, and on a phone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser_support import assert_page_clean, running_server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]


ROOT = Path(__file__).resolve().parent.parent
A_PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with running_server(str(tmp_path_factory.mktemp("design") / "design.sqlite3")) as (base, store):
        yield base, store


def open_designer(browser, base, lang="fr", ruleset="front", **options):
    page = browser.new_page(**{"viewport": {"width": 1280, "height": 800}, **options})
    page.add_init_script(f"localStorage.setItem('kadesh.lang', {json.dumps(lang)})")
    page.goto(f"{base}/design?ruleset={ruleset}")
    page.wait_for_selector("body[data-ready]")
    return page


def cell(page, name: str):
    return page.locator(f'#design-map [data-cell="{name}"]').first


def choose(page, pick: str) -> None:
    """A palette item, by its kind and id (« terrain:water », « unit:infantry », « point: »)."""
    page.click(f'#design-palette [data-pick="{pick}"]')


def side(page, name: str) -> None:
    page.check(f'#design-palette input[name="design-side"][value="{name}"]')


def checked_after(page, action) -> str:
    """Do ``action``, then wait for the server's answer to the edit it made; the verdict then shown."""
    asked = int(page.evaluate("() => Number(document.body.dataset.checked ?? 0)"))
    action()
    page.wait_for_function(f"() => Number(document.body.dataset.checked) > {asked}"
                           " && document.querySelector('#design-verdict').dataset.state !== 'checking'")
    return page.locator("#design-verdict").inner_text()


def drag(page, start: str, end: str) -> None:
    page.evaluate("() => document.getElementById('design-map').scrollIntoView()")
    first, last = cell(page, start).bounding_box(), cell(page, end).bounding_box()
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(last["x"] + last["width"] / 2, last["y"] + last["height"] / 2, steps=12)
    page.mouse.up()


def units_drawn(page, host="#design-map") -> list[str]:
    return page.eval_on_selector_all(f"{host} g.unit[aria-label]",
                                     "(nodes) => nodes.map((n) => n.getAttribute('aria-label'))")


def test_a_battle_is_drawn_from_an_empty_grid_fixed_and_played_against_the_computer(browser, site):
    base, store = site
    page = open_designer(browser, base)
    assert page.locator("#design-verdict").inner_text() == "Un défaut à corriger"  # no unit yet: the server says so
    assert "aucune unité" in page.locator("#design-faults").inner_text()
    assert_page_clean(page, "fr")

    # a small field: 14 × 8, a river down column G dragged with the brush, a forest
    page.fill("#design-columns", "14")
    page.fill("#design-rows", "8")
    checked_after(page, lambda: page.click("#design-resize"))
    assert page.locator("#design-map [data-cell]").count() == 14 * 8
    choose(page, "terrain:water")
    checked_after(page, lambda: drag(page, "G1", "G8"))
    assert all("eau" in (cell(page, f"G{row}").get_attribute("aria-label") or "").lower() for row in range(1, 9))
    assert "eau" not in cell(page, "F3").get_attribute("aria-label").lower()
    choose(page, "terrain:forest")
    checked_after(page, lambda: cell(page, "B2").click())

    # two units a side; Red's first stands on the water: the fault is shown on its cell, in the engine's words
    choose(page, "unit:infantry")
    cell(page, "A2").click()
    choose(page, "unit:engineer")
    cell(page, "B5").click()
    side(page, "red")
    choose(page, "unit:infantry")
    verdict = checked_after(page, lambda: cell(page, "G3").click())
    assert verdict == "Un défaut à corriger"
    faults = page.locator("#design-faults").inner_text()
    assert "units[3].cell" in faults and "ne peut s'y tenir" in faults
    assert "à corriger" in cell(page, "G3").get_attribute("aria-label")
    assert page.locator("#design-map .fm-fault").count() == 1  # one cell tinted (and bracketed)
    assert page.locator("#design-play").is_disabled()
    assert_page_clean(page, "fr")

    # fixed: the unit rubbed out and put on dry ground, a second red unit
    choose(page, "eraser:")
    cell(page, "G3").click()
    choose(page, "unit:infantry")
    cell(page, "M3").click()
    choose(page, "unit:engineer")
    verdict = checked_after(page, lambda: cell(page, "N6").click())
    assert verdict == "Jouable", page.locator("#design-faults").inner_text()
    assert page.locator("#design-map .fm-fault").count() == 0
    assert len(units_drawn(page)) == 4

    # a capture point laid from the keyboard: the cursor (on the last cell painted) moved with the arrows, Enter paints
    choose(page, "point:")
    grid = page.locator("#design-map .fm-grid")
    grid.focus()
    assert grid.get_attribute("aria-activedescendant").endswith("-N6")
    for key in ["ArrowLeft"] * 9 + ["ArrowUp"]:
        page.keyboard.press(key)
    assert grid.get_attribute("aria-activedescendant").endswith("-E5")
    checked_after(page, lambda: page.keyboard.press("Enter"))
    assert "point de victoire" in cell(page, "E5").get_attribute("aria-label")

    # the victory: one point held wins
    page.fill("#design-points", "1")
    assert checked_after(page, lambda: page.press("#design-points", "Tab")) == "Jouable"

    # undone and redone from the keyboard, as one stroke each
    page.locator("#design-map .fm-grid").focus()
    checked_after(page, lambda: page.keyboard.press("Control+z"))
    assert page.input_value("#design-points") == "4"
    checked_after(page, lambda: page.keyboard.press("Control+z"))
    assert "point de victoire" not in cell(page, "E5").get_attribute("aria-label")
    checked_after(page, lambda: page.keyboard.press("Control+y"))
    assert checked_after(page, lambda: page.keyboard.press("Control+y")) == "Jouable"
    assert page.input_value("#design-points") == "1"
    assert "point de victoire" in cell(page, "E5").get_attribute("aria-label")

    # as Red sees it: the game's own view of the first turn, fog and all
    page.click("#design-preview-red")
    page.locator("#design-preview-map .fm-grid").wait_for()
    seen = page.locator("#design-preview-map [data-cell]")
    assert seen.count() == 14 * 8
    assert "hors de vue" in page.locator('#design-preview-map [data-cell="A6"]').get_attribute("aria-label")
    assert len(units_drawn(page, "#design-preview-map")) == 2  # Red's own; Blue's, far off, unseen
    assert_page_clean(page, "fr")

    # the text out and back in: the same battle
    page.click(".design-text summary")
    text = page.input_value("#design-toml")
    assert 'type = "engineer"' in text and 'cell = "E5"' in text
    page.fill("#design-toml", text.replace('cell = "N6"', 'cell = "N7"'))
    checked_after(page, lambda: page.click("#design-load"))
    assert "Ingénieur rouge" in cell(page, "N7").get_attribute("aria-label")
    assert page.locator("#design-verdict").inner_text() == "Jouable"

    # against the computer, in one click: the game page opens on this battle
    page.click("#design-play")
    page.wait_for_url("**/play/**")
    page.locator(".front .front-map-host").wait_for()
    game_id = page.url.split("/play/")[1].split("#")[0].split("?")[0]
    with store.game(game_id) as game:
        assert 'cell = "N7"' in game.options["scenario_toml"]
        assert (game.state.width, game.state.height) == (14, 8)
    assert list(store.bots(game_id)) == ["red"]


def test_the_designer_reads_clean_in_english_and_on_a_phone(browser, site):
    base, _ = site
    page = open_designer(browser, base, "en")
    assert page.locator("#design-verdict").inner_text() == "One fault to fix"
    assert page.locator("#design-palette [data-pick='terrain:water']").get_attribute("title") == "Water"
    assert_page_clean(page, "en")
    page.close()
    page = open_designer(browser, base, "fr", "royaumes")
    choose(page, "water:")
    checked_after(page, lambda: press_cell(page, "C3"))
    page.click("#lang")  # the page drawn again in English, the map and its history kept
    assert page.locator("#design-preview-nord").inner_text() == "Preview for North"
    assert "water" in royaumes_cell(page, "C3").locator("title").text_content().lower()
    assert page.locator("#design-undo").is_enabled()
    assert_page_clean(page, "en")
    page.close()

    phone = open_designer(browser, base, **A_PHONE)
    assert phone.is_checked('#design-palette input[name="design-tool"][value="hand"]')  # a finger moves the map
    side(phone, "blue")
    choose(phone, "unit:infantry")
    cell(phone, "E4").scroll_into_view_if_needed()
    box = cell(phone, "E4").bounding_box()
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    verdict = checked_after(phone, lambda: phone.touchscreen.tap(*middle))
    assert "Infanterie bleue" in cell(phone, "E4").get_attribute("aria-label"), verdict
    assert_page_clean(phone, "fr")
    phone.close()
    phone = open_designer(browser, base, "fr", "royaumes", **A_PHONE)
    assert phone.is_checked('#design-palette input[name="design-tool"][value="hand"]')
    assert_page_clean(phone, "fr")


def kingdom_city(page, kingdom: str, at: str) -> None:
    choose(page, f"city:{kingdom}")
    press_cell(page, at)


def press_cell(page, name: str) -> None:
    """A click on a cell of the campaign map, whatever is drawn on it (a city, an army: the cell is painted)."""
    royaumes_cell(page, name).click(force=True)


def royaumes_cell(page, name: str):
    return page.locator(f'#design-map rect[data-cell="{name}"]')


def test_a_kingdom_map_is_drawn_fixed_and_played_against_three_computer_kingdoms(browser, site):
    base, store = site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{base}/design?ruleset=royaumes")
    page.wait_for_selector("body[data-ready]")
    assert "au moins une cité" in page.locator("#design-faults").inner_text()  # four kingdoms, no city yet

    page.fill("#design-columns", "10")
    page.fill("#design-rows", "8")
    checked_after(page, lambda: page.click("#design-resize"))
    assert page.locator("#design-map rect[data-cell]").count() == 80
    page.evaluate("() => document.getElementById('design-map').scrollIntoView()")
    choose(page, "water:")
    checked_after(page, lambda: drag_royaumes(page, "A8", "J8"))  # a sea along the south
    assert "eau" in royaumes_cell(page, "F8").locator("title").text_content().lower()
    choose(page, "waterName:")
    checked_after(page, lambda: press_cell(page, "C8"))  # its name, written where it was put, then renamed
    page.fill("#design-water-1-fr", "La Grande Verte")
    checked_after(page, lambda: page.press("#design-water-1-fr", "Tab"))
    assert page.locator("#design-map text.water-label").text_content() == "La Grande Verte"
    assert "La Grande Verte" in royaumes_cell(page, "J8").locator("title").text_content()  # the whole sea is named
    choose(page, "river:")
    checked_after(page, lambda: drag_royaumes(page, "E1", "E7"))  # the Nile, from the south up
    assert page.locator("#design-map path.river").count() == 1

    # the North's first city put in the sea: the fault is on its cell, in the map's words
    verdict = checked_after(page, lambda: kingdom_city(page, "nord", "A8"))
    assert verdict == "Un défaut à corriger"
    assert "A8 est de l'eau" in page.locator("#design-faults").inner_text()
    assert page.locator("#design-map .design-fault-mark").count() == 1
    choose(page, "eraser:")
    press_cell(page, "A8")
    for kingdom, at in (("nord", "B2"), ("sud", "I2"), ("est", "B6"), ("ouest", "I6")):
        kingdom_city(page, kingdom, at)
    choose(page, "army:nord")
    assert checked_after(page, lambda: press_cell(page, "B2")) == "Jouable"

    # an army of the South laid from the keyboard: the cursor, on the last cell painted, walked up to I2
    choose(page, "army:sud")
    frame = page.locator("#design-map .design-royaumes-map")
    frame.focus()
    page.keyboard.press("ArrowRight")  # from B2 to C2…
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    checked_after(page, lambda: page.keyboard.press("Enter"))  # …to I2
    assert page.locator('#design-map [data-army="sud@I2"]').count() == 1
    kingdoms = page.locator("#design-settings .design-kingdom")
    kingdoms.nth(1).locator("summary").click()  # each kingdom's settings folded under its name
    assert "1 armée au départ" in kingdoms.nth(1).inner_text()

    # a city renamed in the settings, on the map at once (the North's unfolded already: its fault was shown there)
    assert kingdoms.nth(0).get_attribute("open") is not None
    page.fill("#design-kingdom-1-city-1", "Memphis")
    checked_after(page, lambda: page.press("#design-kingdom-1-city-1", "Tab"))
    assert page.locator('#design-map [data-label="Memphis"]').count() == 1
    assert_page_clean(page, "fr")

    page.click("#design-preview-est")
    page.locator("#design-preview-map svg").wait_for()
    assert page.locator('#design-preview-map [data-city="Memphis"]').count() == 1

    page.click("#design-play")
    page.wait_for_url("**/play/**")
    game_id = page.url.split("/play/")[1].split("#")[0].split("?")[0]
    bots = store.bots(game_id)
    assert sorted(bots) == ["est", "ouest", "sud"]
    with store.game(game_id) as game:
        assert "Memphis" in game.options["scenario_toml"]
    # A turn of such a map judged with four computer kingdoms: tests/test_browser_map_journeys.py.


def drag_royaumes(page, start: str, end: str) -> None:
    first, last = royaumes_cell(page, start).bounding_box(), royaumes_cell(page, end).bounding_box()
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(last["x"] + last["width"] / 2, last["y"] + last["height"] / 2, steps=12)
    page.mouse.up()


# The shelf's routes are branch maps-api's (issue 61's contract): until they are merged, the page's calls to them are
# answered here, as the contract says they answer, and what the page sends is read back.
class FakeShelf:
    def __init__(self, skirmish: str) -> None:
        self.skirmish, self.sent = skirmish, []

    def answer(self, route) -> None:
        request = route.request
        path = request.url.split("/api/", 1)[1]
        body = request.post_data_json if request.method in ("POST", "PUT") and request.post_data else None
        self.sent.append((request.method, path, body))
        if path == "account":
            return route.fulfill(json={"name": "Néfertari"})
        draft = {"id": "m1", "ruleset": "front", "name": "Le gué", "description": "", "toml": self.skirmish,
                 "status": "draft", "author": {"name": "Néfertari"}, "playable": True, "faults": []}
        if (request.method, path) in (("POST", "maps"), ("PUT", "maps/m1"), ("GET", "maps/m1")):
            return route.fulfill(status=201 if request.method == "POST" else 200, json=draft)
        if (request.method, path) == ("POST", "maps/m1/publish"):
            return route.fulfill(json={**draft, "status": "published"})
        return route.continue_()


def test_a_signed_in_player_saves_a_draft_publishes_it_and_opens_it_again(browser, site):
    base, _ = site
    skirmish = (ROOT / "kadesh/rules/front/scenarios/skirmish.toml").read_text("utf-8")
    shelf = FakeShelf(skirmish)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.route("**/api/account", shelf.answer)
    context.route("**/api/maps**", lambda route: shelf.answer(route) if "/check" not in route.request.url
                  and "/preview" not in route.request.url else route.continue_())
    page = context.new_page()
    page.goto(f"{base}/design")
    page.wait_for_selector("body[data-ready]")
    page.click(".design-text summary")
    page.fill("#design-toml", skirmish)
    checked_after(page, lambda: page.click("#design-load"))
    assert page.input_value("#design-name") == "L'escarmouche du gué"  # the map's title, to start with
    page.fill("#design-name", "Le gué")
    page.fill("#design-description", "Deux points sur trois.")
    page.evaluate("""() => {  // an edit, and « Enregistrer » at once: before the server's check of the edit is asked
        const points = document.getElementById('design-points');
        points.value = '3';
        points.dispatchEvent(new Event('change'));
        document.getElementById('design-save').click();
    }""")
    page.wait_for_function("() => document.querySelector('#design-shelf-status').textContent.startsWith('Brouillon')")
    assert page.locator("#design-shelf-status").inner_text() == "Brouillon enregistré."
    method, path, body = shelf.sent[-1]
    assert (method, path) == ("POST", "maps")
    assert body["ruleset"] == "front" and body["name"] == "Le gué" and body["description"] == "Deux points sur trois."
    assert 'type = "engineer"' in body["toml"]
    assert "points_to_win = 3" in body["toml"]  # the map as drawn, checked first, not as last checked
    assert page.url.endswith("/design?map=m1")

    page.click("#design-publish")
    page.locator("#design-on-shelf").wait_for()
    assert page.locator("#design-shelf-status").inner_text().startswith("Carte publiée.")
    assert page.get_attribute("#design-on-shelf", "href") == "/maps?ruleset=front"  # the shelf, a link away
    assert [(m, p) for m, p, _ in shelf.sent[-2:]] == [("PUT", "maps/m1"), ("POST", "maps/m1/publish")]
    assert set(shelf.sent[-2][2]) == {"name", "description", "toml"}  # a draft's fields: its ruleset is its own

    again = context.new_page()  # one's draft opened by its address: the map drawn from its text
    again.goto(f"{base}/design?map=m1")
    again.wait_for_selector("body[data-ready]")
    assert again.locator("#design-verdict").inner_text() == "Jouable"
    assert again.locator('#design-map [data-cell="P5"] g.unit').count() == 1
    assert again.input_value("#design-name") == "Le gué"  # the draft's own name, not the map's title
    checked_after(again, lambda: again.click("#design-new"))  # a blank battle in its place: saved, a new draft
    assert again.url.endswith("/design?ruleset=front") and units_drawn(again) == []
    assert again.input_value("#design-name") == "Ma bataille" and again.input_value("#design-description") == ""
    context.close()
