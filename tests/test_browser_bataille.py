"""Bataille in Debian's Chromium: two generals fight to the end, each in their own browser;
the game master's battle table runs a battle with automatic generals and shows the odds; a general's
page and the battle table read clean (no internal text, no serious accessibility violation) in both
languages, at the start, mid-battle and at the end."""

from __future__ import annotations

import json
import re

import pytest

from tests.browser_support import assert_page_clean, caught_up, wait_for_odds

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]


BOLD = 'button.decision[data-decision="attack"], button.decision[data-decision="pursue"]'


@pytest.fixture
def site(shared_server):
    """The test process's shared server: each test plays in games and accounts of its own."""
    return shared_server


def over(page) -> bool:
    return page.locator("#battle-status").inner_text().endswith("terrain.")


def test_two_generals_fight_a_battle_to_its_end(browser, site):
    base, store = site
    created = store.create_game("bataille", options={"north": {"troop": "archers"}, "south": {"troop": "guards"}},
                                seed="duel-1")  # the two stand after the fire: orders
    pages = {}
    for seat in ("north", "south"):
        page = browser.new_page()
        page.goto(f"{base}/play/{created.id}?token={created.seat_tokens[seat]}")
        page.locator(".bataille").wait_for()
        pages[seat] = page
    decisions = holds = told = 0
    for _ in range(200):
        if all(over(page) for page in pages.values()):
            break
        for page in pages.values():
            caught_up(page, store, created.id)
            buttons = page.locator("button.decision")
            if buttons.count() and not over(page):
                hold = page.locator('button.decision[data-decision="hold"]')
                if hold.count():  # issue 59: « Tenir » says an attacking enemy makes it a melee
                    assert "c'est la mêlée" in hold.get_attribute("title")
                    holds += 1
                told += page.locator("#other-decided").count()  # the other general has given his order
                version = int(page.locator("#board").get_attribute("data-version"))
                wanted = page.locator(BOLD)
                (wanted.first if wanted.count() else buttons.first).click()
                page.wait_for_function(
                    f"() => Number(document.querySelector('#board').dataset.version) > {version}")
                decisions += 1
        for page in pages.values():
            page.wait_for_timeout(50)
    assert all(over(page) for page in pages.values()) and decisions >= 2
    assert holds and told  # the south decides after the north's order: told it is given
    with store.game(created.id) as game:
        assert game.outcome is not None
    journal = pages["south"].locator("#journal").inner_text()
    assert "ou moins (1d20)" in journal  # every roll with its target number
    assert pages["north"].locator("#verify-result").get_attribute("data-ok") == "true"


def test_the_game_masters_table_runs_a_battle_and_shows_the_odds(browser, site):
    base, _ = site
    page = browser.new_page()
    page.goto(base + "/")
    page.locator("#battle-table").wait_for()
    page.select_option("#north-troop", "nubian_bowmen")
    assert page.locator("#north-missile").input_value() == "5"
    page.fill("#south-strength", "120")
    page.click("#run-odds")
    wait_for_odds(page)
    assert page.locator("#odds-games").get_attribute("data-games") == "10000"
    assert re.sub(r"\D", "", page.locator("#odds-games").inner_text()).endswith("10000")  # "10 000" in French
    assert page.locator("#odds-progress").get_attribute("value") == "10000"
    shares = [float(r.get_attribute("data-share")) for r in page.locator("#odds-held rect").all()]
    assert len(shares) == 3 and abs(sum(shares) - 1) < 0.01
    assert page.locator("#odds-lost rect").count() > 5
    page.select_option("#north-general", "bold")
    page.click("#run-battle")
    page.locator(".bataille").wait_for()
    page.wait_for_function("() => document.querySelector('#battle-status')?.textContent.endsWith('terrain.')")
    assert "120" in page.locator('.group[data-side="south"] .strength').inner_text()


LANGS = ("fr", "en")
WORDS = {  # what a newcomer reads on the page, in each language
    "fr": {"who": "Archers du Nord", "field": "Le champ de bataille", "nobody": "aucun des deux ne tient le terrain",
           "lost": "Hommes perdus", "battles": "Batailles", "held": "Part des batailles"},
    "en": {"who": "Archers of the North", "field": "The battlefield", "nobody": "neither side holds the field",
           "lost": "Men lost", "battles": "Battles", "held": "Share of battles"},
}


def open_in(browser, url: str, lang: str, ready: str):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script(f"localStorage.setItem('kadesh.lang', {json.dumps(lang)})")
    page.goto(url)
    page.locator(ready).wait_for()
    page.wait_for_load_state("networkidle")
    return page


def battle_at(store, phases: set[str]):
    """A battle (archers against spearmen) played by bold generals until it stands in one of ``phases``."""
    for number in range(40):
        created = store.create_game("bataille", seed=f"page-{number}",
                                    options={"north": {"troop": "archers"}, "south": {"troop": "spearmen"}})
        version = 0
        for _ in range(100):
            with store.game(created.id) as game:
                if game.state.phase in phases:
                    return created
                if game.outcome is not None:
                    break
                seat = game.to_act()[0]
                legal = game.legal_actions(seat)
            bold = [a for a in legal if a.get("stance", a["type"]) in ("attack", "pursue", "ready")]
            version = store.act(created.id, seat, version, (bold or legal)[0]).version
    raise AssertionError(f"no seed reaches {phases}")


def test_a_generals_page_reads_clean_at_the_start_mid_battle_and_at_the_end(browser, site):
    base, store = site
    games = {"start": battle_at(store, {"deploy"}), "decision": battle_at(store, {"stance"}),
             "pursuit": battle_at(store, {"pursue", "continue"}), "end": battle_at(store, {"over"})}
    for lang in LANGS:  # one context a language, each moment's page in turn (a context is costly)
        page = None
        for moment, created in games.items():
            url = f"{base}/play/{created.id}?token={created.seat_tokens['north']}"
            if page is None:
                page = open_in(browser, url, lang, ".bataille")
            else:
                page.goto(url)
                page.locator(".bataille").wait_for()
                page.wait_for_load_state("networkidle")
            if moment != "start":  # a new battle's North page, archers against spearmen: the pages test's own
                assert_page_clean(page, lang)  # (tests/test_browser_pages.py, « bataille »), in both languages
            words = WORDS[lang]
            field = page.locator("svg.battlefield")
            assert words["field"] in field.locator("title").first.text_content()  # the picture has a name
            for side in ("north", "south"):
                assert field.locator(f"g.figures.{side} g.fig").count() > 0
            assert words["who"] in page.locator("#who").inner_text()
            assert page.locator(".group .explained[title]").count() == 12  # every figure says what it means
            if moment == "end":
                assert page.locator(".battle-reason").inner_text()  # why the battle ended, in words
            else:
                assert page.locator("button.decision[title]").count() == page.locator("button.decision").count()
        page.close()


def test_the_battle_table_tells_the_odds_in_words_and_charts_with_axes(browser, site):
    base, _ = site
    for lang in LANGS:
        page = open_in(browser, base + "/", lang, "#battle-table")
        page.click("#run-odds")
        wait_for_odds(page)
        assert_page_clean(page, lang)
        words = WORDS[lang]
        assert words["nobody"] in page.locator("#odds-summary").inner_text()
        assert page.locator("#odds-endings li").count() >= 1
        held, lost = page.locator("#odds-held"), page.locator("#odds-lost")
        assert held.get_attribute("aria-label") and lost.get_attribute("aria-label")
        assert words["held"] in held.locator(".axis-label").all_text_contents()
        assert {words["lost"], words["battles"]} <= set(lost.locator(".axis-label").all_text_contents())
        assert lost.locator(".tick").count() >= 4  # values on both axes
        page.close()
