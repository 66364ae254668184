"""A move on every screen at once (issue 46), in Debian's Chromium: North's page makes twenty moves and South's page
draws each one's board from the pushed view, in order, none missed, before asking the server for anything.

The time from each answer on North's page to South's board drawn is written down (``window.__kadesh.timings``)
and printed, never asserted: a busy machine must not fail a test. bench/bench_redraw.py gives the figure.
"""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.browser_support import running_server
from tests.manoeuvre_pages import timed_moves

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser]

MOVES = 20

# Each request South's page makes from now on, with the newest version it was pushed and the version its board shows.
ASKED = """() => {
    window.__asked = [];
    const board = document.querySelector('#board');
    const newestHeard = () => Math.max(-1, ...Object.keys(window.__kadesh.timings.heard).map(Number));
    const send = window.fetch;
    window.fetch = (url, options) => {
        window.__asked.push([String(url), newestHeard(), Number(board.dataset.version)]);
        return send(url, options);
    };
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with running_server(str(tmp_path_factory.mktemp("redraw") / "redraw.sqlite3")) as (base, store):
        yield base, store


def new_game(base: str) -> dict:
    request = urllib.request.Request(f"{base}/api/games", data=json.dumps({"ruleset": "manoeuvre"}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def opened(browser, base: str, link: str):
    page = browser.new_context().new_page()
    page.goto(base + link)
    page.locator("#board .field").wait_for()
    return page


def test_the_other_screen_draws_every_move_from_its_push_before_asking_for_anything(browser, site, record_property):
    base, _ = site
    game = new_game(base)
    north = opened(browser, base, game["seats"]["north"]["link"])
    south = opened(browser, base, game["seats"]["south"]["link"])
    start = int(south.locator("#board").get_attribute("data-version"))
    south.evaluate(ASKED)

    measured = timed_moves(north, south, MOVES)

    versions = [version for version, *_ in measured]
    assert versions == list(range(start + 1, start + MOVES + 1))
    drawn = [drawn for *_, drawn in measured]
    assert drawn == sorted(drawn), "South drew the versions out of order"
    heard = south.evaluate("() => Object.keys(window.__kadesh.timings.heard).map(Number)")
    assert set(versions) <= set(heard), "a version was drawn that South was never pushed"
    # South asks for the game, its legal actions and the journal after each push, never before drawing its board.
    south.wait_for_function(f"() => window.__asked.filter(([url]) => url.includes('/journal')).length >= {MOVES}")
    asked = south.evaluate("() => window.__asked")
    early = [(url, heard, shown) for url, heard, shown in asked if heard > shown]
    assert not early, f"South asked for these (url, version pushed, version drawn) before drawing: {early[:3]}"
    lags = [round(drawn - answered, 1) for _, answered, _, drawn in measured]
    record_property("answer_to_other_board_drawn_ms", lags)
    print(f"\nanswer on North's page → South's board drawn, ms: {lags}")
