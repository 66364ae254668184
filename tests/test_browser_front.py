"""Front's first view in Debian's Chromium: a side picks a unit, moves it on a highlighted cell,
and ends its turn; the other side's page shows exactly the units its view holds."""

from __future__ import annotations

import pytest

from tests.browser_support import running_server

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
