"""A move on every screen at once (issue 46), in Debian's Chromium: North's page makes twenty moves, and South's page
and a spectator's draw each one's board from the pushed view, in order, none missed, before asking the server for
anything.

The time from each answer on North's page to South's board drawn is written down (``window.__kadesh.timings``)
and printed, never asserted: a busy machine must not fail a test. bench/bench_redraw.py gives the figure.
"""

from __future__ import annotations

import pytest

from tests.manoeuvre_pages import created_over_http, timed_moves, wait_version

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser]

MOVES = 20

# Each request South's page makes from now on, with the newest version it was pushed and the newest it drew.
ASKED = """() => {
    window.__asked = [];
    const newest = (versions) => Math.max(-1, ...Object.keys(versions).map(Number));
    const { heard, drawn } = window.__kadesh.timings;
    const send = window.fetch;
    window.fetch = (url, options) => {
        window.__asked.push([String(url), newest(heard), newest(drawn)]);
        return send(url, options);
    };
}"""


@pytest.fixture
def site(shared_server):
    """The test process's shared server: each test plays in games of its own."""
    return shared_server


def opened(browser, base: str, link: str):
    page = browser.new_page()
    page.goto(base + link)
    page.locator("#board .field").wait_for()
    return page


DRAWN = "() => Object.entries(window.__kadesh.timings.drawn).map(([version, moment]) => [Number(version), moment])"


def assert_drawn_at_once(page, versions: list[int]) -> None:
    """Each version drawn, in order, each from its push, before the page asked the server for anything."""
    page.wait_for_function(f"() => window.__kadesh.timings.drawn[{versions[-1]}] !== undefined")
    drawn = dict(page.evaluate(DRAWN))
    assert set(versions) <= set(drawn), f"versions never drawn: {sorted(set(versions) - set(drawn))}"
    moments = [drawn[version] for version in versions]
    assert moments == sorted(moments), "versions drawn out of order"
    pushed = page.evaluate("() => Object.keys(window.__kadesh.timings.heard).map(Number)")
    assert set(versions) <= set(pushed), "a version was drawn that the page was never pushed"
    # The game, the legal actions and the journal are asked for after each push, never before drawing its board.
    journals = len(versions)
    page.wait_for_function(f"() => window.__asked.filter(([url]) => url.includes('/journal')).length >= {journals}")
    early = [(url, heard, drawn) for url, heard, drawn in page.evaluate("() => window.__asked") if heard > drawn]
    assert not early, f"asked for these (url, version pushed, version drawn) before drawing: {early[:3]}"
    wait_version(page, versions[-1])  # then the board is playable at the last version: its legal actions came


def test_the_other_screens_draw_every_move_from_its_push_before_asking_for_anything(browser, site, record_property):
    base, _ = site
    game = created_over_http(base)
    north = opened(browser, base, game["seats"]["north"]["link"])
    south = opened(browser, base, game["seats"]["south"]["link"])
    spectator = opened(browser, base, game["spectator"]["link"])
    start = int(south.locator("#board").get_attribute("data-version"))
    for page in (south, spectator):
        page.evaluate(ASKED)

    measured = timed_moves(north, south, MOVES)

    versions = [move["version"] for move in measured]
    assert versions == list(range(start + 1, start + MOVES + 1))
    assert_drawn_at_once(south, versions)
    assert_drawn_at_once(spectator, versions)
    lags = [round(move["drawn"] - move["answered"], 1) for move in measured]
    record_property("answer_to_other_board_drawn_ms", lags)
    print(f"\nanswer on North's page → South's board drawn, ms: {lags}")
