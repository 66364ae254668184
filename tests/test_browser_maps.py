"""The shelf of maps (issue 61) in Debian's Chromium: the published maps, each drawn by its game's own map code,
with author, size, players and times played, filtered per game, in French and English, on a desktop and a phone,
axe-clean; « Jouer sur cette carte » opens the lobby's card with the map chosen, and the game against the computer
opened there is played on the map's text."""

from __future__ import annotations

from importlib import resources

import pytest

from kadesh.server.identity import COOKIE
from kadesh.server.map_checks import check_map
from kadesh.store.maps import Checked
from tests.browser_support import assert_page_clean, running_server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}
SMALL = resources.files("kadesh.rules.front").joinpath("scenarios", "test_small.toml").read_text(encoding="utf-8")
DELTA = resources.files("kadesh.rules.royaumes").joinpath("scenarios", "delta.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server whose shelf holds a Front battle and a Royaumes map by Ahmès, and a draft of hers nobody sees."""
    with running_server(str(tmp_path_factory.mktemp("maps") / "maps.sqlite3")) as (base, store):
        author = store.accounts.create_player("Ahmès", "fr")
        shelf = {}
        for ruleset, name, text in (("front", "Le gué", SMALL), ("royaumes", "Le Delta", DELTA),
                                    ("front", "Brouillon", SMALL)):
            made = store.maps.create(author.id, ruleset, name, "Un passage à tenir.", text,
                                     Checked.of(check_map(ruleset, text)))
            if name != "Brouillon":
                store.maps.publish(made.id, author.id, made.revision, Checked.of(check_map(ruleset, text)))
            shelf[name] = made.id
        yield base, store, shelf


def open_shelf(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='true']")
    page.wait_for_function("() => [...document.querySelectorAll('.map-picture')].every((p) => p.dataset.drawn)")


def test_the_shelf_shows_each_map_drawn_by_its_game_and_filters_per_game(browser, site):
    base, _, shelf = site
    page = browser.new_page(viewport=DESKTOP)
    open_shelf(page, f"{base}/maps")
    cards = page.locator(".map-card")
    assert cards.count() == 2  # the draft is nobody's to see
    battle = page.locator(f'.map-card[data-map="{shelf["Le gué"]}"]')
    words = battle.inner_text()
    assert "Le gué" in words and "Ahmès" in words and "10 × 6" in words and "2 camps" in words, words
    assert "Un passage à tenir." in words
    assert battle.locator(".map-picture svg.front-map .unit.side-red").count() == 2  # both sides' units drawn
    assert battle.locator(".map-picture svg.front-map .unit.side-blue").count() == 3
    kingdoms = page.locator(f'.map-card[data-map="{shelf["Le Delta"]}"]')
    assert "4 royaumes" in kingdoms.inner_text() and "12 × 12" in kingdoms.inner_text()
    assert kingdoms.locator(".map-picture svg.campaign-map .city").count() == 12
    assert_page_clean(page, "fr")
    page.click('button[data-ruleset="royaumes"]')
    page.wait_for_function("() => document.querySelectorAll('.map-card').length === 1")
    assert "ruleset=royaumes" in page.url
    page.click("#lang")
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.wait_for_function("() => [...document.querySelectorAll('.map-picture')].every((p) => p.dataset.drawn)")
    assert "4 kingdoms" in page.locator(".map-card").inner_text() and "Play on this map" in page.inner_text("#shelf")
    assert_page_clean(page, "en")
    page.click("#lang")  # back to French for the next pages of the context
    page.close()


def test_play_on_this_map_opens_the_lobby_with_it_and_the_game_is_played_on_its_text(browser, site):
    base, store, shelf = site
    played = store.maps.get(shelf["Le gué"]).played  # the module's other tests may have played it too
    page = browser.new_page(viewport=PHONE)
    open_shelf(page, f"{base}/maps?ruleset=front")
    assert_page_clean(page, "fr")
    page.click(f'.map-card[data-map="{shelf["Le gué"]}"] a.play')
    page.wait_for_selector("#chosen-map-front")
    assert "Le gué" in page.inner_text("#chosen-map-front") and f"map={shelf['Le gué']}" in page.url
    assert page.locator("#front-scenario").count() == 0  # the map stands for the scenario
    assert_page_clean(page, "fr")
    page.click("#play-computer-front")
    page.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
    game_id = page.url.split("/play/")[1].split("#")[0].split("?")[0]
    with store.game(game_id) as game:
        assert game.options["scenario_toml"] == SMALL
    assert store.maps.get(shelf["Le gué"]).played == played + 1
    page.close()


def test_the_lobby_says_so_when_the_map_is_gone_and_plays_without_a_map_once_dropped(browser, site):
    base, store, shelf = site
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{base}/?map=nothing-here")
    page.wait_for_selector("body[data-ready='true']")
    assert "n'est plus sur l'étagère" in page.inner_text("#error")
    page.goto(f"{base}/?map={shelf['Le Delta']}")
    page.wait_for_selector("body[data-ready='true']")  # the map's own kingdoms asked for (the default map has four)
    page.wait_for_selector("#chosen-map-royaumes")
    page.wait_for_function("() => document.querySelectorAll('#rulers-royaumes select').length === 4")
    labels = page.inner_text("#rulers-royaumes")
    assert "Bouto" in labels, labels  # the map's own kingdoms
    page.click("#chosen-map-royaumes .drop-map")
    page.wait_for_function("() => !document.querySelector('#chosen-map-royaumes') && !location.search.includes('map=')")
    assert page.locator("#scenario").count() == 1  # the shipped scenarios again
    page.close()


def test_an_open_game_on_a_map_of_the_shelf_is_listed_by_its_name_and_taken(browser, site):
    base, store, shelf = site
    opener, taker = browser.new_page(viewport=DESKTOP), browser.new_page(viewport=PHONE)
    opener.goto(f"{base}/?map={shelf['Le gué']}")
    opener.wait_for_selector("#chosen-map-front")
    opener.click("#open-front")
    opener.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
    game_id = opener.url.split("/play/")[1].split("#")[0].split("?")[0]
    taker.goto(f"{base}/")
    entry = taker.locator(f'.open-game[data-game="{game_id}"]')
    entry.wait_for()
    assert "carte « Le gué »" in entry.inner_text(), entry.inner_text()
    assert_page_clean(taker, "fr")
    entry.locator("button.take").click()
    taker.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
    with store.game(game_id) as game:
        assert game.options["scenario_toml"] == SMALL
    assert not store.open_seats.of_game(game_id)  # taken
    opener.close()
    taker.close()


def test_a_signed_in_player_reports_a_map_to_the_moderators(browser, site):
    base, store, shelf = site
    reader = store.accounts.create_player("Tiyi", "fr")
    page = browser.new_page(viewport=DESKTOP)
    page.context.add_cookies([{"name": COOKIE, "value": store.accounts.open_session(reader.id), "url": base}])
    open_shelf(page, f"{base}/maps?ruleset=royaumes")
    card = page.locator(f'.map-card[data-map="{shelf["Le Delta"]}"]')
    card.locator("details.map-report summary").click()
    card.locator("textarea").fill("Un nom injurieux.")
    card.locator("button[type=submit]").click()
    card.locator("text=la carte est signalée").wait_for()
    assert_page_clean(page, "fr")
    assert ("Le Delta", reader.id, "Un nom injurieux.") in [(r.map_name, r.reporter_id, r.reason)
                                                            for r in store.maps.reports()]
    page.close()
