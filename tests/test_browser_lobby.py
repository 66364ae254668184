"""The home page is a lobby: a card for each game, one click to play, the links where the player looks,
and « Mes parties » with every game this browser has joined, hot seat included (issue 17)."""

from __future__ import annotations

import json
import re
import time

import pytest

from tests.browser_support import assert_page_clean, running_server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser]

RULESETS = ["manoeuvre", "royaumes", "bataille", "front"]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    with running_server(str(tmp_path_factory.mktemp("lobby") / "kadesh.sqlite3")) as (url, _):
        yield url


def open_lobby(browser, base, lang="fr", viewport=DESKTOP, games=None):
    page = browser.new_page(viewport=viewport)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)  # cleared after the test
    script = f"localStorage.setItem('kadesh.lang', {json.dumps(lang)});"
    if games is not None:
        script += f"localStorage.setItem('kadesh.games', {json.dumps(json.dumps(games))});"
    page.add_init_script(script)
    page.goto(base + "/")
    page.locator("body[data-ready=true]").wait_for(state="attached")
    return page


def guide(page, name, lang):
    return page.evaluate(f"async () => (await import('/static/rules/{name}-guide.js')).GUIDE.{lang}")


def in_view(page, selector):
    """The element is shown and its top part lies inside the viewport."""
    handle = page.locator(selector).element_handle()
    assert handle.is_visible(), selector
    box = handle.bounding_box()
    viewport = page.viewport_size
    assert box is not None and 0 <= box["y"] < viewport["height"] - 40, (selector, box)
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (selector, box)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_each_game_has_a_card_with_its_picture_description_and_length(browser, base, lang):
    """The home page as a newcomer meets it, before any game is remembered: a card for each game, in the language
    chosen, and clean (no internal text, no serious accessibility violation: the check of every page's
    `tests/test_browser_pages.py` leaves it to this test)."""
    page = open_lobby(browser, base, lang)
    assert page.evaluate("document.documentElement.lang") == lang
    for name in RULESETS:
        card = page.locator(f"#card-{name}")
        assert card.is_visible()
        art = card.locator("svg.lobby-art")
        assert art.is_visible() and art.get_attribute("role") == "img" and len(art.get_attribute("aria-label")) > 20
        assert art.locator("rect, circle, path, polygon").count() > 10   # a board, not an empty frame
        words = guide(page, name, lang)
        assert card.locator("h3").inner_text() == words["title"]
        assert card.locator(".tagline").inner_text() == words["tagline"]
        facts = card.locator(".game-facts").inner_text()
        assert words["duration"] in facts and words["players"] in facts
        assert card.locator("button.primary").count() == 1     # one obvious way in
    assert page.locator("#play-computer-manoeuvre").is_visible()
    assert page.locator("#versus #play-computer-manoeuvre[type=submit]").count() == 1
    assert page.locator("#scenario option").first.inner_text() != "nil"   # a name, not the scenario's id
    assert page.locator("#panel-bataille #battle-table").is_visible()    # Bataille's set-up table stays reachable
    assert_page_clean(page, lang)
    page.close()


def test_the_lobby_reads_on_a_phone_without_sideways_scrolling(browser, base):
    page = open_lobby(browser, base, viewport=PHONE)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.click("#link-bataille")
    page.locator("#created-bataille").wait_for()
    in_view(page, "#created-bataille h4")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.close()


@pytest.mark.parametrize(("name", "button", "block", "rows"), [
    ("manoeuvre", "#create button[type=submit]", "#created", "#links tr"),
    ("bataille", "#link-bataille", "#created-bataille", "#links-bataille tr"),
    ("front", "#front-create", "#created-front", "#front-links tr"),
    ("royaumes", "#campaign button[type=submit]", "#campaign-created", "#campaign-links tr"),
])
def test_a_game_by_links_shows_them_where_the_player_looks(browser, base, name, button, block, rows):
    page = open_lobby(browser, base)
    page.click(button)
    page.locator(block).wait_for()
    in_view(page, block)
    assert page.evaluate(f"document.querySelector('{block}').contains(document.activeElement)")  # focus went there
    seats = {"manoeuvre": 2, "bataille": 2, "front": 2, "royaumes": 5}[name]
    assert page.locator(rows).count() == seats + 1           # each seat and the spectators
    copies = page.locator(f"{block} button.copy")
    assert copies.count() == seats + 2                        # and the owner's
    first = page.locator(f"{rows} input").first.input_value()
    assert re.match(r"http://127\.0\.0\.1:\d+/play/\w+#token=", first)
    copies.first.click()
    assert page.evaluate("navigator.clipboard.readText()") == first
    assert copies.first.inner_text() == "Copié"
    owner = page.locator(f"{block} .owner").inner_text()
    assert "propriétaire" in owner and "nouveau lien" in owner and "spectateur" in owner
    page.locator(f"{block} .dice summary").click()
    assert "graine" in page.locator(f"{block} .dice").inner_text()
    assert_page_clean(page, "fr")
    page.click("#lang")
    page.locator(f"{block} h4").wait_for()
    page.locator("#open-games-section[data-lang='en']").wait_for(state="attached")  # its redraw comes after
    assert "owner" in page.locator(f"{block} .owner").inner_text()
    assert_page_clean(page, "en")
    page.close()


def test_manoeuvre_by_links_keeps_the_seat_order_and_the_hot_seat_link(browser, base):
    page = open_lobby(browser, base)
    page.click("#create button[type=submit]")
    page.locator("#links input").first.wait_for()
    assert [row.locator("th").inner_text() for row in page.locator("#links tr").all()] == ["Nord", "Sud", "Spectateurs"]
    assert page.locator("#play-north").inner_text() == "Commander le Nord"
    assert re.search(r"#north=.+&south=.+", page.locator("#hotseat").get_attribute("href"))
    assert "Envoie le lien du Sud" in page.locator("#created").inner_text()
    page.close()


def taken_link(page) -> dict:
    """What the game page took from its link into the tab's session storage: {token, hotseat}."""
    return page.evaluate("JSON.parse(sessionStorage.getItem(`kadesh.link.${location.pathname.split('/').pop()}`))")


def test_hot_seat_from_the_lobby_opens_the_hot_seat_page(browser, base):
    page = open_lobby(browser, base)
    page.click("#hotseat-manoeuvre")
    page.wait_for_url(re.compile(r"/play/\w+$"))  # the seats' tokens moved off the address bar
    page.locator("#board .field").wait_for()
    assert set(taken_link(page)["hotseat"]) == {"north", "south"}
    page.close()


@pytest.mark.parametrize(("name", "side", "board"),
                         [("manoeuvre", "south", "#board .field"), ("bataille", "north", ".bataille")])
def test_against_the_computer_goes_to_the_seat_page(browser, base, name, side, board):
    page = open_lobby(browser, base)
    prefix = "" if name == "manoeuvre" else f"{name}-"
    page.check(f"#{prefix}side-{side}")
    page.click(f"#play-computer-{name}")
    page.wait_for_url(re.compile(r"/play/\w+$"))  # the token moved off the address bar
    page.locator(board).wait_for()
    game = page.evaluate("""async () => {
        const id = location.pathname.split('/').pop();
        const token = JSON.parse(sessionStorage.getItem(`kadesh.link.${id}`)).token;
        return (await fetch(`/api/games/${id}`, {headers: {Authorization: `Bearer ${token}`}})).json();
    }""")
    assert game["seat"] == side and set(game["bots"]) == {s for s in game["seats"] if s != side}
    page.close()


def test_my_games_lists_a_hot_seat_game_by_its_title_and_can_forget_it(browser, base):
    page = open_lobby(browser, base)
    assert page.locator("#my-games-section").is_hidden()
    made = page.evaluate("""async () => (await fetch('/api/games', {method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({ruleset: 'manoeuvre', options: {}})})).json()""")
    page.close()
    tokens = "&".join(f"{seat}={link['token']}" for seat, link in made["seats"].items())
    day = 86_400_000
    now = int(time.time() * 1000)
    hot = {"id": made["id"], "token": made["seats"]["north"]["token"], "seat": "north", "ruleset": "manoeuvre",
           "link": f"/play/{made['id']}#{tokens}", "hotseat": True, "opened": now - day}
    seat = {"id": made["id"], "token": made["seats"]["south"]["token"], "seat": "south", "ruleset": "manoeuvre",
            "link": made["seats"]["south"]["link"]}  # kept before links had a date: its 30 days begin now
    stale = {**seat, "token": "opened-forty-days-ago", "opened": now - 40 * day}  # forgotten: a link expires
    for lang, title, screen in (("fr", "Manœuvre", "sur cet écran"), ("en", "Manoeuvre", "on this screen")):
        page = open_lobby(browser, base, lang, games=[hot, seat, stale])
        items = page.locator("#my-games li")
        items.nth(1).locator(".my-game-state").filter(has_text=re.compile(".+")).wait_for()
        assert items.count() == 2
        text = page.locator("#my-games").inner_text()
        assert made["id"] not in text and "token" not in text
        kept = json.loads(page.evaluate("localStorage.getItem('kadesh.games')"))
        assert [g["token"] for g in kept] == [hot["token"], seat["token"]] and all(g["opened"] for g in kept)
        first = items.first.inner_text()
        assert title in first and screen in first
        opened_in = str(page.evaluate(f"new Date({hot['opened']}).getFullYear()"))  # the year it was opened, there
        assert (opened_in in first) and ("Nord" in first if lang == "fr" else "North" in first)  # whose turn: both
        assert ("Sud" if lang == "fr" else "South") in items.nth(1).inner_text()
        assert items.first.locator("a.primary").get_attribute("href") == hot["link"]
        lobby = page.locator("#card-manoeuvre").bounding_box()
        assert page.locator("#my-games-section").bounding_box()["y"] < lobby["y"]     # near the top
        assert_page_clean(page, lang)
        page.close()
    page = open_lobby(browser, base, games=[hot, seat])
    page.locator("#my-games li").nth(1).wait_for()
    page.locator("#my-games li").first.locator("button.forget").click()
    page.wait_for_function("() => document.querySelectorAll('#my-games li').length === 1")
    assert "sur cet écran" not in page.locator("#my-games").inner_text()
    assert len(json.loads(page.evaluate("localStorage.getItem('kadesh.games')"))) == 1
    page.locator("#my-games li button.forget").click()
    page.locator("#my-games-section").wait_for(state="hidden")
    page.close()


def test_a_front_scenario_file_of_ones_own_is_loaded_from_the_lobby_and_played(browser, base, tmp_path):
    scenario = tmp_path / "ma_bataille.toml"
    scenario.write_text("\n".join([
        '[scenario]', 'id = "duel"', 'fr = "Duel au gué"', 'en = "Duel at the ford"', 'season = "summer"',
        'hour = "morning"', '[legend]', '"." = "meadow"', '[map]', 'rows = ["......", "......", "......"]',
        '[[units]]', 'side = "blue"', 'type = "infantry"', 'cell = "A1"',
        '[[units]]', 'side = "red"', 'type = "infantry"', 'cell = "F3"']), encoding="utf-8")
    page = open_lobby(browser, base)
    page.locator("#card-front details.options summary").click()
    page.set_input_files("#opt-front-scenario_toml-file", str(scenario))
    # read async
    page.wait_for_function("() => document.querySelector('#opt-front-scenario_toml').value.includes('Duel')")
    assert "Duel au gué" in page.locator("#opt-front-scenario_toml").input_value()
    assert page.locator("label[for=opt-front-scenario_toml-file]").inner_text() == "Charger un fichier :"
    assert_page_clean(page, "fr")
    page.click("#hotseat-front")
    page.wait_for_url(re.compile(r"/play/\w+$"))
    view = page.evaluate("""async () => {
        const id = location.pathname.split('/').pop();
        const token = JSON.parse(sessionStorage.getItem(`kadesh.link.${id}`)).hotseat.blue;
        return (await (await fetch(`/api/games/${id}`, {headers: {Authorization: `Bearer ${token}`}})).json()).view;
    }""")
    assert view["scenario"]["fr"] == "Duel au gué" and len(view["map"]) == 3
    page.close()
