"""A Royaumes campaign in Debian's Chromium: Imhotep creates it from the home page, four
kingdoms each in their own browser context give orders (one on the map, one pasted as text,
one sending nothing), Imhotep adjudicates from his console, and each kingdom reads its report.

Every API response and WebSocket message a kingdom's page receives is recorded, to check
that none ever carries another kingdom's military level or unsent orders.
"""

from __future__ import annotations

import contextlib

import pytest

from tests.browser_support import running_server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

LEVELS = {"basse_egypte": 3, "haute_egypte": 3, "koush": 2, "libye": 2}


def record(page) -> list[str]:
    """Every JSON body and WebSocket frame the page receives, as text."""
    seen: list[str] = []

    def on_response(response):
        if "/api/" in response.url:
            with contextlib.suppress(Exception):  # a response the page dropped (navigation): nothing to read
                seen.append(response.text())

    page.on("response", on_response)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: seen.append(str(frame))))
    return seen


def cell(page, name: str):
    """Click a map cell by its corner, clear of the city and army markers drawn in its middle."""
    page.click(f'rect[data-cell="{name}"]', position={"x": 2, "y": 2})


def send(page) -> None:
    version = int(page.locator("#board").get_attribute("data-version"))
    page.click("#review-orders")
    page.locator("#review").wait_for()
    page.click("#send")
    page.wait_for_function(f"Number(document.querySelector('#board').dataset.version) > {version}")
    page.locator(".sent-note").wait_for()


def going_to(cell: str) -> list[str]:
    """Every way an order or report may say that an army goes to ``cell``."""
    return [f'"to":"{cell}"', f'"to": "{cell}"', f"-> {cell}", f"→ {cell}", f" à {cell}", f" to {cell}"]


def assert_no_secret_of_others(kingdom: str, texts: list[str], unsent: list[str]) -> None:
    assert any('"military_level"' in text for text in texts)  # the page did receive its own figures
    for text in texts:
        assert '"secrets"' not in text
        for found in text.split('"military_level":')[1:]:
            assert found.lstrip().startswith(str(LEVELS[kingdom]))
        for fragment in unsent:
            assert fragment not in text, (kingdom, fragment)


def test_a_campaign_turn_in_the_browser(browser, tmp_path):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, store):
        imhotep = browser.new_context().new_page()
        imhotep.goto(base + "/")
        imhotep.locator("#scenario option").first.wait_for(state="attached")  # the page's script is ready
        imhotep.click("#campaign button[type=submit]")
        imhotep.locator("#campaign-created").wait_for()
        links = {row.locator("th").inner_text(): row.locator("input").input_value()
                 for row in imhotep.locator("#campaign-links tr").all()}
        kingdom_links = {name: url for name, url in links.items() if "Imhotep" not in name and "Spect" not in name}
        assert set(kingdom_links) == {"Basse-Égypte", "Haute-Égypte", "Koush", "Libye"}
        imhotep.click("#open-console")
        imhotep.locator("table.secrets").wait_for()

        pages, seen = {}, {}
        for name, seat in (("Basse-Égypte", "basse_egypte"), ("Haute-Égypte", "haute_egypte"), ("Koush", "koush"),
                           ("Libye", "libye")):
            page = browser.new_context().new_page()
            seen[seat] = record(page)
            page.goto(kingdom_links[name])
            page.locator("svg.campaign-map").wait_for()
            pages[seat] = page
        assert pages["koush"].locator("#own-level").inner_text() == "2"

        # Upper Egypt, on the map: its army leaves Edfou (I16) for I15; the others stay.
        upper = pages["haute_egypte"]
        upper.click('g.army[data-army="haute_egypte@I16"]')
        cell(upper, "I15")
        upper.click("#others-stay")
        send(upper)

        # Kush, on the map: war on Upper Egypt, and its Bouhen army (H17) marches into Edfou.
        kush = pages["koush"]
        kush.select_option("#stance-haute_egypte", "war")
        kush.click('g.army[data-army="koush@H17"]')
        cell(kush, "I16")
        send(kush)

        # Libya pastes a text message, reads how it was understood, and sends it.
        libya = pages["libye"]
        libya.click("#tab-text")
        libya.fill("#order-text", "C5 -> D4\nguerre: Basse-Égypte\nB8 reste\nattaquez !")
        libya.click("#read")
        libya.locator("#reading").wait_for()
        assert "C5 -> D4" in libya.locator("#reading pre").inner_text()
        assert "attaquez" in libya.locator("#reading .problems").inner_text()
        lines = libya.locator("#reading .lines")
        assert lines.locator("li.ok").count() == 3 and lines.locator("li.not").count() == 1
        libya.click("#fill")
        assert "C5 → D4" in libya.locator("#draft-moves").inner_text()
        send(libya)

        # Lower Egypt sends nothing. Before the ruling, no kingdom has seen another's orders.
        # (a bare cell name is no secret: the map's Nile runs through I15 and I16 for everyone)
        upper, kush_move, libya_move = going_to("I15"), going_to("I16"), ["C5 -> D4", *going_to("D4")]
        unsent = {"basse_egypte": [*upper, *libya_move, *kush_move], "koush": [*upper, *libya_move],
                  "haute_egypte": [*libya_move, *kush_move], "libye": [*upper, *kush_move]}
        for seat, texts in seen.items():
            assert_no_secret_of_others(seat, texts, unsent[seat])
            assert any("update" in text for text in texts)  # WebSocket frames were recorded too
        shown = {"basse_egypte": ["I15", "C5 -> D4", "H17 → I16"], "koush": ["I15", "C5 -> D4"],
                 "haute_egypte": ["C5 -> D4", "H17 → I16"], "libye": ["I15", "H17 → I16"]}
        for seat, page in pages.items():
            text = page.locator("body").inner_text()
            assert not any(fragment in text for fragment in shown[seat]), seat
        imhotep.reload()
        imhotep.locator("table.secrets").wait_for()
        assert "I16 -> I15" in imhotep.locator('tr[data-kingdom="haute_egypte"] .orders-cell').inner_text()

        imhotep.click("#adjudicate")
        imhotep.click("#confirm")
        for page in (*pages.values(), imhotep):
            page.wait_for_function("document.querySelector('.campaign-status strong')?.textContent.endsWith('2')")

        for seat, page in pages.items():
            page.locator(".reports details").first.wait_for()
            report = page.locator(".reports").inner_text()
            assert "Bataille à Saïs (D4)" in report and "Edfou est prise par Koush" in report, seat
        assert kush.locator('g.army[data-army="koush@I16"]').count() == 1
        assert kush.locator('g.city[data-city="Edfou"] title').text_content() == "Edfou (I16) — Koush"
        assert "Votre total : niveau 2" in libya.locator(".reports").inner_text()
        assert "niveau 3" not in libya.locator(".reports").inner_text()
        for _ in range(3):  # now → turn 1 after battles → after moves → before moves
            libya.click("#history-back")
        assert libya.locator('#shown-map[data-turn="1"][data-stage="before_moves"]').count() == 1
        assert libya.locator('g.army[data-army="libye@C5"]').count() == 1
        libya.click("#map-now")
        assert libya.locator('g.army[data-army="libye@C5"]').count() == 0

        for seat, texts in seen.items():
            assert_no_secret_of_others(seat, texts, [])
        game_id = imhotep.url.split("/play/")[1].split("?")[0]
        with store.game(game_id) as game:
            assert game.state.cities["Edfou"].owner == "koush" and game.state.turn == 2
