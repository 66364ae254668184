"""Every page as a newcomer meets it, in Debian's Chromium: no internal text, no serious accessibility
violation, in French and in English; the newcomer's first game against the computer, rules open. The home page
before any game is remembered is read so in `tests/test_browser_lobby.py` (its cards, in both languages).

Internal text is what a player must never read: a dict, an identifier with an underscore, an ISO
timestamp, a formula, a ruleset's id (``tests/browser_support.INTERNAL_TOKENS``).
"""

from __future__ import annotations

import pytest

from tests.browser_support import accessibility_problems, assert_page_clean
from tests.waiting import wait_until

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

LANGS = ("fr", "en")


def settle(page) -> None:
    """Wait until the game page has drawn a version (or failed to), then for the network to rest."""
    page.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined"
                           " || document.querySelector('#error')?.textContent")
    page.wait_for_load_state("networkidle")


def check_page(page, url: str, lang: str, with_rules: bool = True, chosen_language: bool = True) -> None:
    """The page at ``url`` in ``lang`` (``chosen_language``: it speaks the one chosen), and with its rules panel
    open when it has one."""
    page.goto(url)
    if "/play/" in url:
        settle(page)
    else:
        page.wait_for_load_state("networkidle")
    if chosen_language:
        assert page.evaluate("document.documentElement.lang") == lang, url
    assert_page_clean(page, lang)
    toggle = page.locator("#rules-toggle")
    if with_rules and toggle.count() and toggle.is_visible():
        toggle.click()
        assert page.locator("#rules-panel").is_visible()
        # The panel is fixed over the page, which stays as it was: axe looks again at the panel and its button.
        assert page.evaluate("getComputedStyle(document.querySelector('#rules-panel')).position") == "fixed"
        assert_page_clean(page, lang, changed=("#rules-panel", "#rules-toggle"))


def seat_url(base: str, created, seat: str) -> str:
    return f"{base}/play/{created.id}?token={created.seat_tokens[seat]}"


def finished_manoeuvre(store):
    created = store.create_game("manoeuvre", seed="pages-over")
    store.act(created.id, "north", 0, {"type": "resign"})
    return created


def every_page(base: str, store) -> dict[str, str]:
    """Each page a newcomer may open, by what it is (the lobby aside): the lost ones, and each game's pages."""
    manoeuvre = store.create_game("manoeuvre", seed="pages")
    hotseat = store.create_game("manoeuvre", seed="pages-hotseat")
    royaumes = store.create_game("royaumes", seed="pages")
    pages = {
        "no such page": f"{base}/no/such/page",
        "unknown game": f"{base}/play/unknown?token=nothing",
        "manoeuvre seat": seat_url(base, manoeuvre, "north"),
        "manoeuvre spectator": f"{base}/play/{manoeuvre.id}?token={manoeuvre.spectator_token}",
        "manoeuvre owner": f"{base}/play/{manoeuvre.id}?token={manoeuvre.owner_token}",
        "manoeuvre over": seat_url(base, finished_manoeuvre(store), "south"),
        "hot seat": f"{base}/play/{hotseat.id}#" + "&".join(f"{seat}={token}"
                                                           for seat, token in hotseat.seat_tokens.items()),
        "royaumes kingdom": seat_url(base, royaumes, "koush"),
        "royaumes imhotep": seat_url(base, royaumes, "imhotep"),
        "royaumes spectator": f"{base}/play/{royaumes.id}?token={royaumes.spectator_token}",
    }
    for ruleset in ("bataille", "front"):
        created = store.create_game(ruleset, seed="pages")
        pages[ruleset] = seat_url(base, created, next(iter(created.seat_tokens)))
    return pages


PAGES = ["no such page", "unknown game", "manoeuvre seat", "manoeuvre spectator", "manoeuvre owner",
         "manoeuvre over", "hot seat", "royaumes kingdom", "royaumes imhotep", "royaumes spectator", "bataille",
         "front"]
NO_RULES = {"hot seat"}
BOTH_LANGUAGES = {"no such page"}  # a static page: it says it in French and in English at once


@pytest.fixture(scope="module")
def server(shared_server):
    """The test process's shared server: each test plays in games of its own."""
    return shared_server


@pytest.fixture(scope="module")
def site(server):
    return every_page(*server)


def test_the_list_of_pages_is_every_page(site):
    assert sorted(site) == sorted(PAGES)


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_reads_clean_in_both_languages(browser, site, lang):
    """Every page in turn in one browser context (a new context costs Chromium half a second of CPU)."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script(f"localStorage.setItem('kadesh.lang', '{lang}')")
    for name in PAGES:
        check_page(page, site[name], lang, with_rules=name not in NO_RULES, chosen_language=name not in BOTH_LANGUAGES)


def test_a_newcomer_plays_a_first_move_against_the_computer_with_the_rules_open(browser, server):
    base, store = server
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{base}/")
    page.click("#play-computer-manoeuvre")
    page.wait_for_url("**/play/**")
    settle(page)
    assert "Maladroit" in page.inner_text("#who") or "ordinateur" in page.inner_text("#who")
    page.click("#rules-toggle")
    panel = page.locator("#rules-panel")
    assert panel.is_visible()
    open_section = panel.locator("details[open]")
    assert open_section.count() >= 1 and "maintenant" in open_section.first.inner_text()
    assert len(panel.inner_text()) > 400  # rules a newcomer can learn from, not a stub
    page.click("#rules-close")
    assert not panel.is_visible()
    version = int(page.locator("#board").get_attribute("data-version"))
    page.click('.tray .piece[data-element="n1"]')
    page.click('rect[data-cell="f1"]')
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {version}")
    game_id = page.url.split("/play/")[1].split("?")[0]

    def general_placed() -> bool:  # the computer's own deployment may have been the version awaited above
        with store.game(game_id) as game:
            return game.state.elements["n1"].cell is not None

    wait_until(general_placed, "the general on the field")


def test_the_end_offers_a_rematch_against_the_same_computer(browser, server):
    base, store = server
    created = store.create_game("manoeuvre", seed="pages-rematch")
    store.set_bot(created.id, "south", "maladroit")
    store.act(created.id, "north", 0, {"type": "resign"})
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(seat_url(base, created, "north"))
    settle(page)
    page.click("#rematch")
    page.wait_for_url(lambda url: created.id not in url)
    settle(page)
    new_id = page.url.split("/play/")[1].split("?")[0]
    assert store.bots(new_id) == {"south": "maladroit"}
    with store.game(new_id) as game:
        assert game.outcome is None and game.seed != "pages-rematch"


def test_the_owner_replaces_a_leaked_link_from_the_page(browser, server):
    from kadesh.store import BadToken

    base, store = server
    created = store.create_game("manoeuvre", seed="pages-owner")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{base}/play/{created.id}?token={created.owner_token}")
    settle(page)
    page.click('#owner button[data-holder="south"]')
    fresh = page.locator("#owner input")
    fresh.wait_for()
    new_token = fresh.input_value().split("token=")[1]
    assert store.access(created.id, new_token).seat == "south"
    with pytest.raises(BadToken):
        store.access(created.id, created.seat_tokens["south"])
    assert_page_clean(page, "fr")


def test_the_accessibility_check_reports_serious_problems_only(browser):
    """The check skips axe's rules that can only find mild problems: what it reports is what a whole run reports
    as serious or critical, on a page with both kinds; asked about a part of the page, it reports that part's."""
    from axe_playwright_python.sync_playwright import Axe

    page = browser.new_page()
    page.set_content("""<html lang="fr"><head><title>Essai</title></head><body>
        <div>Hors de tout repère</div><h3>Un titre sans h1</h3>
        <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">
        <p style="color:#bbb;background:#fff">Pâle</p>
        <button></button></body></html>""")
    found = accessibility_problems(page)
    whole = Axe().run(page).response["violations"]
    assert sorted(found) == sorted(
        f"{v['impact']} {v['id']}: {v['help']} ({len(v['nodes'])}× e.g. {v['nodes'][0]['target']})"
        for v in whole if v["impact"] in ("serious", "critical"))
    assert {line.split()[1].rstrip(":") for line in found} >= {"image-alt", "color-contrast", "button-name"}
    assert any(v["impact"] in ("minor", "moderate") for v in whole)  # mild ones were there, and not reported
    within = accessibility_problems(page, ("p", "button"))  # a part of the page: its own problems, all of them
    assert sorted(within) == sorted(line for line in found if line.split()[1].rstrip(":") != "image-alt")
