"""Front in Debian's Chromium (issue 44): at the start of the player's turn, each move of the other side that its
units saw is drawn on the map and listed, and the other side's turn can be replayed from there. The skirmish,
against Général Maladroit through the server's bot runner, as a player starts it from the API's link."""

from __future__ import annotations

import httpx
import pytest

from tests.browser_support import assert_page_clean

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

MOST_TURNS = 6  # the two sides meet in the skirmish's middle within a few turns


@pytest.fixture
def site(shared_server):
    """The test process's shared server: each test plays in games and accounts of its own."""
    return shared_server


def my_turn_again(page, after: int) -> None:
    """The computer has played after version ``after`` and Blue's turn is back (or the battle is over)."""
    page.wait_for_function(f"""() => {{
        const ending = document.querySelector('#ending');
        if (ending && !ending.hidden) return true;
        const end = document.querySelector('#end-turn');
        return Number(document.querySelector('#board').dataset.version) > {after} && end && !end.hidden
          && !end.disabled && document.querySelector('.front')?.getAttribute('aria-busy') === 'false';
    }}""", timeout=120_000)


def seen_this_turn(base: str, game_id: str, token: str) -> list[dict]:
    """The other side's moves Blue saw in Red's last turn, from the journal the API gives Blue (with its marks)."""
    journal = httpx.get(f"{base}/api/games/{game_id}/journal", headers={"Authorization": f"Bearer {token}"}).json()
    ends = [i for i, entry in enumerate(journal) if entry.get("mark", {}).get("kind") == "turn_ended"
            and entry["mark"]["side"] == "blue"]
    return [entry for entry in journal[ends[-1] + 1:] if entry.get("mark", {}).get("kind") == "moved"]


def end_turn(page) -> int:
    version = int(page.get_attribute("#board", "data-version"))
    page.click("#end-turn")
    if page.locator("#front-end-yes").is_visible():
        page.click("#front-end-yes")
    return version


def test_each_enemy_move_blue_saw_is_drawn_and_listed_when_its_turn_begins(browser, site):
    base, _ = site
    created = httpx.post(f"{base}/api/games", json={"ruleset": "front", "options": {"scenario": "skirmish"},
                                                    "bots": {"red": "maladroit"}}).json()
    token = created["seats"]["blue"]["token"]
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{base}/play/{created['id']}#token={token}")
    page.locator(".front .front-map-host [role='grid']").wait_for()
    seen: list[dict] = []
    for _ in range(MOST_TURNS):  # Blue only waits: Red comes into its sight
        my_turn_again(page, end_turn(page))
        seen = seen_this_turn(base, created["id"], token)
        if seen:
            break
    assert seen, "Red never came into Blue's sight"
    summary = page.locator(".front-summary")
    listed = summary.locator(".front-seen-moves li").all_inner_texts()
    assert listed == [entry["line"] for entry in seen]
    drawn = page.evaluate("""() => [...document.querySelectorAll('.front-map-host g.fm-trace')]
        .map((g) => ({ unit: g.dataset.trace, cells: g.dataset.cells.split(' ') }))""")
    assert drawn == [{"unit": entry["mark"]["unit"], "cells": entry["mark"]["cells"]} for entry in seen]
    assert_page_clean(page, "fr")
    _a_phone_opens_on_what_red_did(browser, f"{base}/play/{created['id']}#token={token}", seen)

    summary.locator(".front-replay-turn").click()  # Red's turn again, move by move, each seen move drawn
    page.locator("#replay").wait_for()
    versions = sorted({entry["version"] for entry in seen})
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.replay) >= {versions[-1]}",
                           timeout=60_000)
    for version in versions:  # the slider stops the playing and goes there
        page.evaluate("""(version) => { const slider = document.querySelector('#replay-slider');
            slider.value = String(version); slider.dispatchEvent(new Event('input')); }""", version)
        page.wait_for_function(f"() => document.querySelector('#board').dataset.replay === '{version}'")
        units = {entry["mark"]["unit"] for entry in seen if entry["version"] == version}
        assert set(page.evaluate("""() => [...document.querySelectorAll('.front-map-host g.fm-trace')]
            .map((g) => g.dataset.trace)""")) == units
    page.click("#replay-close")
    summary.locator(".front-dismiss").click()
    assert page.locator(".front-map-host g.fm-trace").count() == 0  # the map is the player's again
    page.close()


def _a_phone_opens_on_what_red_did(browser, link: str, seen: list[dict]) -> None:
    """A phone shows a part of the map only: opened on Blue's turn, it opens amid where the seen red units went
    (the middle of their last cells), not amid Blue's own units."""
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(link)
    phone.locator(".front-map-host g.fm-trace").first.wait_for()
    ends = [entry["mark"]["cells"][-1] for entry in seen]
    # Waited for, not read once: the map is laid out when its frame has its width, a resize after the first draw.
    in_view = phone.wait_for_function("""(cells) => {
        const frame = document.querySelector('.front-map-host .fm-viewport').getBoundingClientRect();
        const centres = cells.map((cell) => {
            const box = document.querySelector(`.front-map-host [data-cell="${cell}"]`).getBoundingClientRect();
            return [box.left + box.width / 2, box.top + box.height / 2];
        });
        const x = centres.reduce((a, c) => a + c[0], 0) / centres.length;
        const y = centres.reduce((a, c) => a + c[1], 0) / centres.length;
        return frame.left <= x && x <= frame.right && frame.top <= y && y <= frame.bottom;
    }""", arg=ends)
    assert in_view, f"the phone's map opens away from what Red was seen doing ({ends})"
    phone.close()


ODDS_TEXT = """async ([lang, odds]) => (await import('/static/rules/front-orders.js')).oddsText(lang, odds)"""


def test_a_shots_cover_says_when_the_targets_general_gives_it(browser, site):
    """The issue's case: « couvert 1 » in the odds, « Aucun couvert (route) » on the target's cell: the point was
    its general's reassurance, which the cell's card cannot show."""
    base, _ = site
    page = browser.new_page()
    page.goto(f"{base}/")
    odds = {"kind": "shot", "damage": [3, 4], "destroy": 0, "cover": 1, "hp": 10}
    assert page.evaluate(ODDS_TEXT, ["fr", {**odds, "reassured": True}]).endswith(
        " · couvert 1 (dont 1 : son général proche) · il a 10 PV")
    assert page.evaluate(ODDS_TEXT, ["en", {**odds, "reassured": True}]).endswith(
        "cover 1 (1 of it: its general nearby) · it has 10 HP")
    assert "général" not in page.evaluate(ODDS_TEXT, ["fr", odds])
    page.close()
