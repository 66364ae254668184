"""Issue 61's acceptance in Debian's Chromium, across the designer, the shelf and the lobby, with the pages' own
controls and real accounts (three signed-in players, each in a browser context of their own, against the real maps API).

A Front battle drawn from an empty grid (terrain, two units a side, a capture point laid from the keyboard, a victory),
its fault shown on the cell while a unit stands on water, fixed, undone and redone, previewed as Red sees it, its text
taken out and put back, tried against the computer (which answers), found as it was on the way back, saved and
published; a second account finds it on the shelf, « Jouer sur cette carte », opens an open game on it from the lobby's
card; a third takes the open seat, and the game is played on the map's text. The same for a Royaumes map of four
kingdoms (its sea named, an army laid from the keyboard, a city renamed), whose first turn four computer kingdoms play,
judged from the game master's console; then taken off the shelf by its author, the game played on it keeping its copy.
Each page crossed reads clean (axe, no internal word) once: the designer, the shelf, the lobby and the game's page, for
each game. These are the designer's own tests of drawing a map and trying it as well (tests/test_browser_design.py)."""

from __future__ import annotations

import pytest

from kadesh.server.identity import COOKIE
from tests.browser_support import assert_page_clean
from tests.test_browser_design import (
    cell,
    checked_after,
    choose,
    drag,
    drag_royaumes,
    kingdom_city,
    press_cell,
    royaumes_cell,
    side,
    units_drawn,
)
from tests.test_browser_front_bot import end_the_turn, version, wait_for_my_turn_or_the_end
from tests.waiting import wait_until

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


@pytest.fixture
def site(shared_server):
    """The test process's shared server: each test plays in games and accounts of its own."""
    return shared_server


def signed_in(browser, site, name: str, viewport: dict = DESKTOP):
    """A page in a context of its own holding a new account's session (signing up with a passkey through the page
    is test_browser_accounts')."""
    base, store = site
    player = store.accounts.create_player(name, "fr")
    page = browser.new_page(viewport=viewport)
    page.context.add_cookies([{"name": COOKIE, "value": store.accounts.open_session(player.id), "url": base}])
    return page, player


def game_of(page) -> str:
    return page.url.split("/play/")[1].split("#")[0].split("?")[0]


def on_the_board(page) -> None:
    page.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")


def open_designer(page, base: str, ruleset: str) -> None:
    page.goto(f"{base}/design?ruleset={ruleset}")
    page.wait_for_selector("body[data-ready]")


def back_to_the_designer(page) -> None:
    """The browser's Back from the game tried: the designer again, its map as it was left (no bfcache under test)."""
    page.go_back()
    page.wait_for_selector("body[data-ready]")
    page.wait_for_function("() => document.querySelector('#design-verdict').dataset.state !== 'checking'")


def publish(page, name: str, description: str) -> None:
    """Saved as a draft, then published, from the designer's « Mes cartes »."""
    page.fill("#design-name", name)
    page.fill("#design-description", description)
    page.click("#design-save")
    page.locator("#design-shelf-status", has_text="Brouillon enregistré.").wait_for()
    page.click("#design-publish")
    page.locator("#design-on-shelf").wait_for()
    assert page.locator("#design-shelf-status").inner_text().startswith("Carte publiée.")


def published_map(store, author_id: str):
    (made,) = store.maps.mine(author_id)
    assert made.published
    return made


def find_on_the_shelf(page, base: str, ruleset: str, map_id: str):
    """The shelf of one game, its pictures drawn; the map's card."""
    page.goto(f"{base}/maps?ruleset={ruleset}")
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("() => [...document.querySelectorAll('.map-picture')].every((p) => p.dataset.drawn)")
    return page.locator(f'.map-card[data-map="{map_id}"]')


def test_a_front_battle_drawn_tried_published_then_opened_from_the_shelf_and_taken(browser, site):
    """The designer's own Front test as well (it drew the same battle from an empty grid and tried it against the
    computer, in a test of its own until issue 60): every tool on the way, the keyboard's, undo and redo, the
    preview as Red sees it, the text out and back in."""
    base, store = site
    author, ahhotep = signed_in(browser, site, "Ahhotep")
    open_designer(author, base, "front")
    assert author.locator("#design-verdict").inner_text() == "Un défaut à corriger"  # no unit yet: the server says so
    assert "aucune unité" in author.locator("#design-faults").inner_text()
    assert_page_clean(author, "fr")

    # a small field: 14 × 8, a river down column G dragged with the brush, a forest
    author.fill("#design-columns", "14")
    author.fill("#design-rows", "8")
    checked_after(author, lambda: author.click("#design-resize"))
    assert author.locator("#design-map [data-cell]").count() == 14 * 8
    choose(author, "terrain:water")
    checked_after(author, lambda: drag(author, "G1", "G8"))
    assert all("eau" in (cell(author, f"G{row}").get_attribute("aria-label") or "").lower() for row in range(1, 9))
    assert "eau" not in cell(author, "F3").get_attribute("aria-label").lower()
    choose(author, "terrain:forest")
    checked_after(author, lambda: cell(author, "B2").click())

    # two units a side; Red's first put on the water: the fault is on its cell, in the engine's words
    choose(author, "unit:infantry")
    cell(author, "A2").click()
    choose(author, "unit:engineer")
    cell(author, "B5").click()
    side(author, "red")
    choose(author, "unit:infantry")
    assert checked_after(author, lambda: cell(author, "G3").click()) == "Un défaut à corriger"
    faults = author.locator("#design-faults").inner_text()
    assert "units[3].cell" in faults and "ne peut s'y tenir" in faults
    assert "à corriger" in cell(author, "G3").get_attribute("aria-label")
    assert author.locator("#design-map .fm-fault").count() == 1  # one cell tinted (and bracketed)
    assert author.locator("#design-play").is_disabled()
    assert_page_clean(author, "fr")

    # fixed: the unit rubbed out and put on dry ground, a second red unit
    choose(author, "eraser:")
    cell(author, "G3").click()
    choose(author, "unit:infantry")
    cell(author, "M3").click()
    choose(author, "unit:engineer")
    assert checked_after(author, lambda: cell(author, "N6").click()) == "Jouable"
    assert author.locator("#design-map .fm-fault").count() == 0
    assert len(units_drawn(author)) == 4

    # a capture point laid from the keyboard: the cursor (on the last cell painted) moved with the arrows, Enter paints
    choose(author, "point:")
    grid = author.locator("#design-map .fm-grid")
    grid.focus()
    assert grid.get_attribute("aria-activedescendant").endswith("-N6")
    for key in ["ArrowLeft"] * 9 + ["ArrowUp"]:
        author.keyboard.press(key)
    assert grid.get_attribute("aria-activedescendant").endswith("-E5")
    checked_after(author, lambda: author.keyboard.press("Enter"))
    assert "point de victoire" in cell(author, "E5").get_attribute("aria-label")

    # the victory: one point held wins
    author.fill("#design-points", "1")
    assert checked_after(author, lambda: author.press("#design-points", "Tab")) == "Jouable"

    # undone and redone from the keyboard, as one stroke each
    author.locator("#design-map .fm-grid").focus()
    checked_after(author, lambda: author.keyboard.press("Control+z"))
    assert author.input_value("#design-points") == "4"
    checked_after(author, lambda: author.keyboard.press("Control+z"))
    assert "point de victoire" not in cell(author, "E5").get_attribute("aria-label")
    checked_after(author, lambda: author.keyboard.press("Control+y"))
    assert checked_after(author, lambda: author.keyboard.press("Control+y")) == "Jouable"
    assert author.input_value("#design-points") == "1"
    assert "point de victoire" in cell(author, "E5").get_attribute("aria-label")

    # as Red sees it: the game's own view of the first turn, fog and all
    author.click("#design-preview-red")
    author.locator("#design-preview-map .fm-grid").wait_for()
    seen = author.locator("#design-preview-map [data-cell]")
    assert seen.count() == 14 * 8
    assert "hors de vue" in author.locator('#design-preview-map [data-cell="A6"]').get_attribute("aria-label")
    assert len(units_drawn(author, "#design-preview-map")) == 2  # Red's own; Blue's, far off, unseen
    assert_page_clean(author, "fr")

    # the text out and back in: the same battle
    author.click(".design-text summary")
    text = author.input_value("#design-toml")
    assert 'type = "engineer"' in text and 'cell = "E5"' in text
    author.fill("#design-toml", text.replace('cell = "N6"', 'cell = "N7"'))
    checked_after(author, lambda: author.click("#design-load"))
    assert "Ingénieur rouge" in cell(author, "N7").get_attribute("aria-label")
    assert author.locator("#design-verdict").inner_text() == "Jouable"

    # against the computer in one click: the game page opens on this battle; Blue ends its turn, the computer answers
    author.click("#design-play")
    author.wait_for_url("**/play/**")
    author.locator(".front .front-map-host").wait_for()
    tried = game_of(author)
    with store.game(tried) as game:
        assert 'cell = "N7"' in game.options["scenario_toml"] and 'cell = "E5"' in game.options["scenario_toml"]
        assert (game.state.width, game.state.height) == (14, 8)
    assert list(store.bots(tried)) == ["red"]
    wait_for_my_turn_or_the_end(author)
    started = version(author)
    end_the_turn(author)
    wait_for_my_turn_or_the_end(author)  # Blue's turn again, or the end: the computer played in between
    assert version(author) >= started + 2  # Blue's end of turn, and at least the computer's own

    # back in the designer: the battle as it was left; saved, then published
    back_to_the_designer(author)
    assert author.locator("#design-verdict").inner_text() == "Jouable"
    assert len(units_drawn(author)) == 4 and "point de victoire" in cell(author, "E5").get_attribute("aria-label")
    publish(author, "Le gué des joncs", "Un gué, un point : le premier qui le tient gagne.")
    battle = published_map(store, ahhotep.id)
    assert 'cell = "E5"' in battle.toml and battle.name == "Le gué des joncs"

    # a second account finds it on the shelf, and opens an open game on it from the lobby's card
    opener, _ = signed_in(browser, site, "Mérytrê")
    card = find_on_the_shelf(opener, base, "front", battle.id)
    words = card.inner_text()
    assert "Le gué des joncs" in words and "Ahhotep" in words and "14 × 8" in words and "2 camps" in words, words
    assert "jamais encore" in words
    assert card.locator("a.copy").get_attribute("href") == f"/design?from={battle.id}"  # a copy to draw from, too
    assert_page_clean(opener, "fr")
    card.locator("a.play").click()
    opener.wait_for_selector("#chosen-map-front")
    assert "Le gué des joncs" in opener.inner_text("#chosen-map-front")
    assert_page_clean(opener, "fr")
    opener.click("#open-front")
    on_the_board(opener)
    game_id = game_of(opener)

    # a third takes the open seat from the list of open games: the game starts, on the map's text
    taker, _ = signed_in(browser, site, "Sénènmout", PHONE)
    taker.goto(f"{base}/")
    entry = taker.locator(f'.open-game[data-game="{game_id}"]')
    entry.wait_for()
    assert "carte « Le gué des joncs »" in entry.inner_text()
    assert_page_clean(taker, "fr")
    entry.locator("button.take").click()
    on_the_board(taker)
    assert_page_clean(taker, "fr")
    with store.game(game_id) as game:
        assert game.options["scenario_toml"] == battle.toml
    assert not store.open_seats.of_game(game_id)

    # the shelf counts the game, as its author sees from the designer's link
    author.click("#design-on-shelf")
    author.wait_for_url("**/maps?**")
    author.wait_for_selector("body[data-ready='true']")
    assert "une fois" in author.locator(f'.map-card[data-map="{battle.id}"]').inner_text()
    assert store.maps.get(battle.id).played == 1


def test_a_kingdom_map_drawn_tried_published_then_played_for_a_turn_by_four_computer_kingdoms(browser, site):
    """The designer's own Royaumes test as well (it drew such a map and tried it against three computer kingdoms, in a
    test of its own until issue 60): the sea named, an army laid from the keyboard, a city renamed, a preview."""
    base, store = site
    author, neith = signed_in(browser, site, "Neithotep")
    open_designer(author, base, "royaumes")
    assert "au moins une cité" in author.locator("#design-faults").inner_text()  # four kingdoms, no city yet

    # a small map: a sea along the south, named, the Nile running into it, four kingdoms' cities and two armies
    author.fill("#design-columns", "10")
    author.fill("#design-rows", "8")
    checked_after(author, lambda: author.click("#design-resize"))
    assert author.locator("#design-map rect[data-cell]").count() == 10 * 8
    author.evaluate("() => document.getElementById('design-map').scrollIntoView()")
    choose(author, "water:")
    checked_after(author, lambda: drag_royaumes(author, "A8", "J8"))
    assert "eau" in royaumes_cell(author, "F8").locator("title").text_content().lower()
    choose(author, "waterName:")
    checked_after(author, lambda: press_cell(author, "C8"))  # its name, written where it was put, then renamed
    author.fill("#design-water-1-fr", "La Grande Verte")
    checked_after(author, lambda: author.press("#design-water-1-fr", "Tab"))
    assert author.locator("#design-map text.water-label").text_content() == "La Grande Verte"
    assert "La Grande Verte" in royaumes_cell(author, "J8").locator("title").text_content()  # the whole sea is named
    choose(author, "river:")
    checked_after(author, lambda: drag_royaumes(author, "E1", "E7"))  # the Nile, from the south up
    assert author.locator("#design-map path.river").count() == 1
    assert checked_after(author, lambda: kingdom_city(author, "nord", "A8")) == "Un défaut à corriger"
    assert "A8 est de l'eau" in author.locator("#design-faults").inner_text()
    assert author.locator("#design-map .design-fault-mark").count() == 1
    choose(author, "eraser:")
    press_cell(author, "A8")
    for kingdom, at in (("nord", "B2"), ("sud", "I2"), ("est", "B6"), ("ouest", "I6")):
        kingdom_city(author, kingdom, at)
    choose(author, "army:nord")
    assert checked_after(author, lambda: press_cell(author, "B2")) == "Jouable"
    assert author.locator("#design-previews button").count() == 4  # a preview for each kingdom

    # an army of the South laid from the keyboard: the cursor, on the last cell painted, walked up to I2
    choose(author, "army:sud")
    author.locator("#design-map .design-royaumes-map").focus()
    for _ in range(7):  # from B2 to I2
        author.keyboard.press("ArrowRight")
    checked_after(author, lambda: author.keyboard.press("Enter"))
    assert author.locator('#design-map [data-army="sud@I2"]').count() == 1
    kingdoms = author.locator("#design-settings .design-kingdom")
    kingdoms.nth(1).locator("summary").click()  # each kingdom's settings folded under its name
    assert "1 armée au départ" in kingdoms.nth(1).inner_text()

    # a city renamed in the settings, on the map at once (the North's unfolded already: its fault was shown there)
    assert kingdoms.nth(0).get_attribute("open") is not None
    author.fill("#design-kingdom-1-city-1", "Memphis")
    checked_after(author, lambda: author.press("#design-kingdom-1-city-1", "Tab"))
    assert author.locator('#design-map [data-label="Memphis"]').count() == 1
    assert_page_clean(author, "fr")
    author.click("#design-preview-est")
    author.locator("#design-preview-map svg").wait_for()
    assert author.locator('#design-preview-map [data-city="Memphis"]').count() == 1

    # tried against the computer in one click: the campaign opens on it
    author.click("#design-play")
    author.wait_for_url("**/play/**")
    author.locator("svg.campaign-map").wait_for()
    tried = game_of(author)
    assert sorted(store.bots(tried)) == ["est", "ouest", "sud"]
    with store.game(tried) as game:
        assert "Memphis" in game.options["scenario_toml"]

    back_to_the_designer(author)
    assert author.locator("#design-verdict").inner_text() == "Jouable"
    assert author.locator('#design-map [data-army="nord@B2"]').count() == 1
    assert author.locator('#design-map [data-army="sud@I2"]').count() == 1
    publish(author, "Les quatre rives", "Quatre royaumes autour d'un fleuve court.")
    kingdoms = published_map(store, neith.id)

    # a second account finds it on the shelf and gives its four kingdoms to the computer, keeping the game master's seat
    master, _ = signed_in(browser, site, "Amenemhat")
    card = find_on_the_shelf(master, base, "royaumes", kingdoms.id)
    words = card.inner_text()
    assert "Les quatre rives" in words and "Neithotep" in words and "10 × 8" in words and "4 royaumes" in words, words
    assert_page_clean(master, "fr")
    card.locator("a.play").click()
    master.wait_for_url(lambda url: "/?map=" in url)
    master.wait_for_selector("body[data-ready='true']")  # the map's kingdoms asked for (the default map has four too)
    master.wait_for_selector("#chosen-map-royaumes")
    assert master.locator("#rulers-royaumes select").count() == 4
    for kingdom in ("nord", "sud", "est", "ouest"):
        master.select_option(f"#ruler-royaumes-{kingdom}", "maladroit")
    master.click("#campaign button[type=submit]")
    master.locator("#campaign-created").wait_for()
    assert master.locator("#campaign-links tr.computer-seat").count() == 4
    assert_page_clean(master, "fr")

    # the fourth kingdom's orders in, the first turn is judged at once (docs/rules/royaumes.md); four computer
    # kingdoms play while someone watches, their game master's console among others
    game_id = master.get_attribute("#open-console", "href").split("/play/")[1].split("#")[0]
    master.click("#open-console")
    master.locator("table.secrets").wait_for()

    def judged() -> bool:
        with store.game(game_id) as game:
            return game.state.turn >= 2

    wait_until(judged, "the first turn judged")
    # Four computer kingdoms then play on by themselves, a turn every ``computer_round_pause``: Nord back to a
    # person, whose turn the console shows waiting (the others' orders go at once)
    store.set_bot(game_id, "nord", None)
    master.wait_for_function("() => /En attente de\\W+Nord$/.test(document.querySelector('.orders-in')?.textContent)")
    assert_page_clean(master, "fr")
    with store.game(game_id) as game:
        assert game.options["scenario_toml"] == kingdoms.toml
    first = [event for events in store.stored_events(game_id) for event in events if event.get("turn") == 1]
    assert {event["kingdom"] for event in first if event["type"] == "orders_in"} == {"nord", "sud", "est", "ouest"}
    assert store.maps.get(kingdoms.id).played == 1

    # its author takes it off the shelf from the designer's list of saved maps; the game played keeps its copy
    author.click(".design-mine summary")
    saved = author.locator(f'#design-mine-list li[data-map="{kingdoms.id}"]')
    assert "Les quatre rives · Une carte de Royaumes · publiée" in saved.inner_text()
    saved.locator("button.design-unpublish").click()
    author.wait_for_function("() => document.querySelector('#design-shelf-status').textContent.includes("
                             "\"n'est plus sur l'étagère\")")
    author.wait_for_function(f"() => document.querySelector('#design-mine-list li[data-map=\"{kingdoms.id}\"]')"
                             "?.textContent.includes('brouillon')")
    assert_page_clean(author, "fr")
    master.goto(f"{base}/maps?ruleset=royaumes")
    master.wait_for_selector("#shelf-empty")
    assert not store.maps.get(kingdoms.id).published
    with store.game(game_id) as game:
        assert game.options["scenario_toml"] == kingdoms.toml
