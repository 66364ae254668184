"""Bataille in Debian's Chromium: two generals fight to the end, each in their own browser;
the game master's battle table runs a battle with automatic generals and shows the odds."""

from __future__ import annotations

import pytest

from tests.browser_support import running_server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]


BOLD = 'button.decision[data-decision="attack"], button.decision[data-decision="pursue"]'


def over(page) -> bool:
    return page.locator("#battle-status").inner_text().endswith("terrain.")


def test_two_generals_fight_a_battle_to_its_end(browser, tmp_path):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, store):
        created = store.create_game("bataille", options={"north": {"troop": "archers"}, "south": {"troop": "guards"}})
        pages = {}
        for seat in ("north", "south"):
            page = browser.new_context().new_page()
            page.goto(f"{base}/play/{created.id}?token={created.seat_tokens[seat]}")
            page.locator(".bataille").wait_for()
            pages[seat] = page
        decisions = 0
        for _ in range(200):
            if all(over(page) for page in pages.values()):
                break
            for page in pages.values():
                buttons = page.locator("button.decision")
                if buttons.count() and not over(page):
                    version = int(page.locator("#board").get_attribute("data-version"))
                    wanted = page.locator(BOLD)
                    (wanted.first if wanted.count() else buttons.first).click()
                    page.wait_for_function(f"Number(document.querySelector('#board').dataset.version) > {version}")
                    decisions += 1
            for page in pages.values():
                page.wait_for_timeout(50)
        assert all(over(page) for page in pages.values()) and decisions >= 2
        with store.game(created.id) as game:
            assert game.outcome is not None
        journal = pages["south"].locator("#journal").inner_text()
        assert "ou moins (1d20)" in journal  # every roll with its target number
        assert pages["north"].locator("#verify-result").get_attribute("data-ok") == "true"


def test_the_game_masters_table_runs_a_battle_and_shows_the_odds(browser, tmp_path):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, _):
        page = browser.new_context().new_page()
        page.goto(base + "/")
        page.locator("#battle-table").wait_for()
        page.select_option("#north-troop", "nubian_bowmen")
        assert page.locator("#north-missile").input_value() == "5"
        page.fill("#south-strength", "120")
        page.click("#run-odds")
        page.locator("#odds-games").wait_for(timeout=60_000)
        assert page.locator("#odds-games").inner_text().endswith("10000")
        assert page.locator("#odds-progress").get_attribute("value") == "10000"
        shares = [float(r.get_attribute("data-share")) for r in page.locator("#odds-held rect").all()]
        assert len(shares) == 3 and abs(sum(shares) - 1) < 0.01
        assert page.locator("#odds-lost rect").count() > 5
        page.select_option("#north-general", "bold")
        page.click("#run-battle")
        page.locator(".bataille").wait_for()
        page.wait_for_function("document.querySelector('#battle-status')?.textContent.endsWith('terrain.')",
                               timeout=30_000)
        assert "120" in page.locator('.group[data-side="south"] .strength').inner_text()
