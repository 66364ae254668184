"""The map designer (/design, issue 61) in Debian's Chromium. A Front battle drawn from an empty grid with every tool,
fixed and played against the computer, and a Royaumes map of four kingdoms (its sea named, a city put in the sea and
fixed, an army laid from the keyboard, a city renamed) tried against three computer kingdoms, are the two journeys of
tests/test_browser_map_journeys.py. Here: a signed-in player's draft saved, published and opened again (the shelf's
answers as the contract gives them); the pages read clean (axe, no internal word) in English, and in French on a
phone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser_support import assert_page_clean

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]


ROOT = Path(__file__).resolve().parent.parent
A_PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture
def site(shared_server):
    """The test process's shared server: each test plays in games and accounts of its own."""
    return shared_server


def open_designer(browser, base, lang="fr", ruleset="front", **options):
    page = browser.new_page(**{"viewport": {"width": 1280, "height": 800}, **options})
    page.add_init_script(f"localStorage.setItem('kadesh.lang', {json.dumps(lang)})")
    page.goto(f"{base}/design?ruleset={ruleset}")
    page.wait_for_selector("body[data-ready]")
    return page


def cell(page, name: str):
    return page.locator(f'#design-map [data-cell="{name}"]').first


def choose(page, pick: str) -> None:
    """A palette item, by its kind and id (« terrain:water », « unit:infantry », « point: »)."""
    page.click(f'#design-palette [data-pick="{pick}"]')


def side(page, name: str) -> None:
    page.check(f'#design-palette input[name="design-side"][value="{name}"]')


def checked_after(page, action) -> str:
    """Do ``action``, then wait for the server's answer to the edit it made; the verdict then shown."""
    asked = int(page.evaluate("() => Number(document.body.dataset.checked ?? 0)"))
    action()
    page.wait_for_function(f"() => Number(document.body.dataset.checked) > {asked}"
                           " && document.querySelector('#design-verdict').dataset.state !== 'checking'")
    return page.locator("#design-verdict").inner_text()


def drag(page, start: str, end: str) -> None:
    page.evaluate("() => document.getElementById('design-map').scrollIntoView()")
    first, last = cell(page, start).bounding_box(), cell(page, end).bounding_box()
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(last["x"] + last["width"] / 2, last["y"] + last["height"] / 2, steps=12)
    page.mouse.up()


def units_drawn(page, host="#design-map") -> list[str]:
    return page.eval_on_selector_all(f"{host} g.unit[aria-label]",
                                     "(nodes) => nodes.map((n) => n.getAttribute('aria-label'))")


# A Front battle drawn from an empty grid with every tool of the designer (the brush, the keyboard's cursor, undo and
# redo, the preview as Red sees it, the text out and back in), fixed and played against the computer: the first
# journey of tests/test_browser_map_journeys.py, which goes on with it to the shelf and the lobby (it was drawn twice,
# once here and once there, until issue 60).


def test_the_designer_reads_clean_in_english_and_on_a_phone(browser, site):
    base, _ = site
    page = open_designer(browser, base, "en")
    assert page.locator("#design-verdict").inner_text() == "One fault to fix"
    assert page.locator("#design-palette [data-pick='terrain:water']").get_attribute("title") == "Water"
    assert_page_clean(page, "en")
    page.close()
    page = open_designer(browser, base, "fr", "royaumes")
    choose(page, "water:")
    checked_after(page, lambda: press_cell(page, "C3"))
    page.click("#lang")  # the page drawn again in English, the map and its history kept
    assert page.locator("#design-preview-nord").inner_text() == "Preview for North"
    assert "water" in royaumes_cell(page, "C3").locator("title").text_content().lower()
    assert page.locator("#design-undo").is_enabled()
    assert_page_clean(page, "en")
    page.close()

    phone = open_designer(browser, base, **A_PHONE)
    assert phone.is_checked('#design-palette input[name="design-tool"][value="hand"]')  # a finger moves the map
    side(phone, "blue")
    choose(phone, "unit:infantry")
    cell(phone, "E4").scroll_into_view_if_needed()
    box = cell(phone, "E4").bounding_box()
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    verdict = checked_after(phone, lambda: phone.touchscreen.tap(*middle))
    assert "Infanterie bleue" in cell(phone, "E4").get_attribute("aria-label"), verdict
    assert_page_clean(phone, "fr")
    phone.close()
    phone = open_designer(browser, base, "fr", "royaumes", **A_PHONE)
    assert phone.is_checked('#design-palette input[name="design-tool"][value="hand"]')
    assert_page_clean(phone, "fr")


def kingdom_city(page, kingdom: str, at: str) -> None:
    choose(page, f"city:{kingdom}")
    press_cell(page, at)


def press_cell(page, name: str) -> None:
    """A click on a cell of the campaign map, whatever is drawn on it (a city, an army: the cell is painted)."""
    royaumes_cell(page, name).click(force=True)


def royaumes_cell(page, name: str):
    return page.locator(f'#design-map rect[data-cell="{name}"]')


# A Royaumes map drawn with every tool of the designer (the sea and its name, the Nile, a city put in the sea and fixed,
# an army laid from the keyboard, a city renamed, a kingdom's preview) and tried against three computer kingdoms: the
# second journey of tests/test_browser_map_journeys.py, which goes on with it to the shelf and a turn of four computer
# kingdoms (it was drawn twice, once here and once there, until issue 60).


def drag_royaumes(page, start: str, end: str) -> None:
    first, last = royaumes_cell(page, start).bounding_box(), royaumes_cell(page, end).bounding_box()
    page.mouse.move(first["x"] + first["width"] / 2, first["y"] + first["height"] / 2)
    page.mouse.down()
    page.mouse.move(last["x"] + last["width"] / 2, last["y"] + last["height"] / 2, steps=12)
    page.mouse.up()


# The shelf's routes are branch maps-api's (issue 61's contract): until they are merged, the page's calls to them are
# answered here, as the contract says they answer, and what the page sends is read back.
class FakeShelf:
    def __init__(self, skirmish: str) -> None:
        self.skirmish, self.sent = skirmish, []

    def answer(self, route) -> None:
        request = route.request
        path = request.url.split("/api/", 1)[1]
        body = request.post_data_json if request.method in ("POST", "PUT") and request.post_data else None
        self.sent.append((request.method, path, body))
        if path == "account":
            return route.fulfill(json={"name": "Néfertari"})
        draft = {"id": "m1", "ruleset": "front", "name": "Le gué", "description": "", "toml": self.skirmish,
                 "status": "draft", "author": {"name": "Néfertari"}, "playable": True, "faults": []}
        if (request.method, path) in (("POST", "maps"), ("PUT", "maps/m1"), ("GET", "maps/m1")):
            return route.fulfill(status=201 if request.method == "POST" else 200, json=draft)
        if (request.method, path) == ("POST", "maps/m1/publish"):
            return route.fulfill(json={**draft, "status": "published"})
        return route.continue_()


def test_a_signed_in_player_saves_a_draft_publishes_it_and_opens_it_again(browser, site):
    base, _ = site
    skirmish = (ROOT / "kadesh/rules/front/scenarios/skirmish.toml").read_text("utf-8")
    shelf = FakeShelf(skirmish)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.route("**/api/account", shelf.answer)
    context.route("**/api/maps**", lambda route: shelf.answer(route) if "/check" not in route.request.url
                  and "/preview" not in route.request.url else route.continue_())
    page = context.new_page()
    page.goto(f"{base}/design")
    page.wait_for_selector("body[data-ready]")
    page.click(".design-text summary")
    page.fill("#design-toml", skirmish)
    checked_after(page, lambda: page.click("#design-load"))
    assert page.input_value("#design-name") == "L'escarmouche du gué"  # the map's title, to start with
    page.fill("#design-name", "Le gué")
    page.fill("#design-description", "Deux points sur trois.")
    page.evaluate("""() => {  // an edit, and « Enregistrer » at once: before the server's check of the edit is asked
        const points = document.getElementById('design-points');
        points.value = '3';
        points.dispatchEvent(new Event('change'));
        document.getElementById('design-save').click();
    }""")
    page.wait_for_function("() => document.querySelector('#design-shelf-status').textContent.startsWith('Brouillon')")
    assert page.locator("#design-shelf-status").inner_text() == "Brouillon enregistré."
    method, path, body = shelf.sent[-1]
    assert (method, path) == ("POST", "maps")
    assert body["ruleset"] == "front" and body["name"] == "Le gué" and body["description"] == "Deux points sur trois."
    assert 'type = "engineer"' in body["toml"]
    assert "points_to_win = 3" in body["toml"]  # the map as drawn, checked first, not as last checked
    assert page.url.endswith("/design?map=m1")

    page.click("#design-publish")
    page.locator("#design-on-shelf").wait_for()
    assert page.locator("#design-shelf-status").inner_text().startswith("Carte publiée.")
    assert page.get_attribute("#design-on-shelf", "href") == "/maps?ruleset=front"  # the shelf, a link away
    assert [(m, p) for m, p, _ in shelf.sent[-2:]] == [("PUT", "maps/m1"), ("POST", "maps/m1/publish")]
    assert set(shelf.sent[-2][2]) == {"name", "description", "toml"}  # a draft's fields: its ruleset is its own

    again = context.new_page()  # one's draft opened by its address: the map drawn from its text
    again.goto(f"{base}/design?map=m1")
    again.wait_for_selector("body[data-ready]")
    assert again.locator("#design-verdict").inner_text() == "Jouable"
    assert again.locator('#design-map [data-cell="P5"] g.unit').count() == 1
    assert again.input_value("#design-name") == "Le gué"  # the draft's own name, not the map's title
    checked_after(again, lambda: again.click("#design-new"))  # a blank battle in its place: saved, a new draft
    assert again.url.endswith("/design?ruleset=front") and units_drawn(again) == []
    assert again.input_value("#design-name") == "Ma bataille" and again.input_value("#design-description") == ""
    context.close()
