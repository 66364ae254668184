"""A Royaumes campaign in Debian's Chromium: Imhotep creates it from the home page, four
kingdoms each in their own browser context give orders (one on the map, one pasted as text,
one sending nothing), Imhotep adjudicates from his console, and each kingdom reads its report.

Every API response and WebSocket message a kingdom's page receives is recorded, to check
that none ever carries another kingdom's military level or unsent orders.
"""

from __future__ import annotations

import contextlib

import pytest

from tests.browser_support import assert_page_clean

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

@pytest.fixture
def server(shared_server):
    """The test process's shared server: each test plays in games of its own."""
    return shared_server


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
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {version}")
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


def test_a_campaign_turn_in_the_browser(browser, server):
    base, store = server
    imhotep = browser.new_page()
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
        page = browser.new_page()
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
    assert "H17 → I16" in kush.locator("#draft-moves").inner_text()
    send(kush)

    # Libya pastes a text message, reads how it was understood, and sends it.
    libya = pages["libye"]
    libya.click("#tab-text")
    libya.fill("#order-text", "C5 -> D4\nguerre: Basse-Égypte\nB8 reste\nattaquez !")
    libya.click("#read")
    libya.locator("#reading").wait_for()
    assert "Une armée va de C5 à D4." in libya.locator("#reading pre").inner_text()  # a sentence (issue 44)
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
    shown = {"basse_egypte": ["I15", "C5 -> D4", "de C5 à D4", "H17 → I16", "de H17 à I16"],
             "koush": ["I15", "C5 -> D4", "de C5 à D4"],
             "haute_egypte": ["C5 -> D4", "de C5 à D4", "H17 → I16", "de H17 à I16"],
             "libye": ["I15", "H17 → I16", "de H17 à I16"]}
    for seat, page in pages.items():
        text = page.locator("body").inner_text()
        assert not any(fragment in text for fragment in shown[seat]), seat
    imhotep.reload()
    imhotep.locator("table.secrets").wait_for()
    received = {kingdom: imhotep.locator(f'tr[data-kingdom="{kingdom}"] .orders-cell').inner_text()
                for kingdom in ("haute_egypte", "koush", "libye")}
    assert "Une armée va de I16 à I15." in received["haute_egypte"], received  # sentences (issue 44)
    assert "Une armée va de H17 à I16." in received["koush"], received
    assert "Une armée va de C5 à D4." in received["libye"], received
    assert "Guerre déclarée à Basse-Égypte." in received["libye"], received
    assert "->" not in " ".join(received.values())

    imhotep.click("#adjudicate")
    imhotep.click("#confirm")
    for page in (*pages.values(), imhotep):
        page.wait_for_function("() => document.querySelector('.campaign-status strong')?.textContent.endsWith('2')")

    for seat, page in pages.items():
        page.locator(".reports details").first.wait_for()
        report = page.locator(".reports").inner_text()
        assert "Bataille à Saïs (D4)" in report and "Edfou est prise par Koush" in report, (seat, report)
    assert kush.locator('g.army[data-army="koush@I16"]').count() == 1
    assert kush.locator('g.city[data-city="Edfou"] title').text_content() == "Edfou (I16) — Koush"
    assert "Ton total : niveau 2" in libya.locator(".reports").inner_text()
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

    # Turn 2: all four stay where they are. Nothing happens, and every kingdom's reports still have turn 2 (issue 59).
    *first, last = pages.values()
    for page in first:
        page.click("#others-stay")
        send(page)
    last.click("#others-stay")
    last.click("#review-orders")
    last.click("#send")  # the last orders in: the turn is judged at once
    for page in pages.values():
        page.wait_for_function("() => document.querySelector('.campaign-status strong')?.textContent.endsWith('3')")
        quiet = page.locator('.reports details[data-turn="2"]')
        assert quiet.get_attribute("open") is not None
        assert quiet.locator("p").inner_text() == "Rien ne s'est passé ce tour-ci : aucune armée n'a bougé, " \
                                                  "personne n'a combattu."


# -- issue 17: the pages read like a game ------------------------------------------------------------------
FIRST_TURN = {  # a battle at Saïs (Libya loses), Edfou taken by Kush
    "haute_egypte": {"moves": [{"from": "I16", "to": "I15"}], "stay": ["I14", "H12"]},
    "koush": {"moves": [{"from": "H17", "to": "I16"}], "war": ["haute_egypte"], "stay": ["G19", "D20"]},
    "libye": {"text": "C5 -> D4\nguerre: Basse-Égypte\nespion: Basse-Égypte\nB8 reste"},
}
CITIES = {"Memphis", "Bouto", "Saïs", "Thèbes", "Abydos", "Edfou", "Kerma", "Napata", "Bouhen", "Siwa", "Bahariya",
          "Dakhla"}


def adjudicated(store) -> tuple[str, dict[str, str]]:
    """A campaign after one adjudicated turn, with Imhotep's edits (before and after) and a deadline;
    the links of every seat and of a spectator."""
    created = store.create_game("royaumes", seed="issue-17")
    feast = {"type": "edit", "kingdom": "libye", "values": {"resources": {"gold": 500}}, "reason": "une fête"}
    version = store.act(created.id, "imhotep", 0, feast).version
    for seat, order in FIRST_TURN.items():
        version = store.act(created.id, seat, version, {"type": "orders", **order}).version
    for action in ({"type": "adjudicate"}, {"type": "set_deadline", "deadline": "2030-01-15T18:00:00+00:00"},
                   {"type": "edit", "kingdom": "koush", "values": {"resources": {"gold": 700}, "military_level": 3}}):
        version = store.act(created.id, "imhotep", version, action).version
    links = {seat: f"/play/{created.id}?token={token}" for seat, token in created.seat_tokens.items()}
    links["spectator"] = f"/play/{created.id}?token={created.spectator_token}"
    return created.id, links


def open_page(browser, url: str, lang: str = "fr", viewport=None):
    page = browser.new_page(viewport=viewport or {"width": 1280, "height": 800})
    page.add_init_script(f"localStorage.setItem('kadesh.lang', '{lang}')")
    page.goto(url)
    page.locator("svg.campaign-map").wait_for()
    return page


def test_the_map_has_a_legend_city_names_and_the_nile(browser, server):
    base, store = server
    _, links = adjudicated(store)
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page = open_page(browser, base + links["koush"], viewport=viewport)
        legend = page.locator("figure.legend")
        assert [item.inner_text() for item in legend.locator(".legend-kingdoms li").all()] == \
            ["Basse-Égypte", "Haute-Égypte", "Koush", "Libye"]
        marks = legend.locator(".legend-marks").inner_text()
        for words in ("cité initiale", "cité détruite", "armée (nombre)", "le Nil", "cité ennemie"):
            assert words in marks
        labels = page.locator("svg.campaign-map text.city-label")
        assert {label.evaluate("n => n.lastChild.textContent") for label in labels.all()} == CITIES
        assert min(label.bounding_box()["height"] for label in labels.all()) >= 9  # legible on a phone
        assert page.locator("svg.campaign-map path.river.main").count() == 1
        assert page.locator("svg.campaign-map text.water-label.river").text_content() == "Nil"
        # Tooltips on terrain, cities and armies.
        assert "Fayoum, eau, infranchissable" in page.locator('rect[data-cell="F7"] title').text_content()
        assert "vallée du Nil" in page.locator('rect[data-cell="H9"] title').text_content()
        assert page.locator('g.city[data-city="Memphis"] title').text_content() == \
            "Memphis (H6) — Basse-Égypte · cité initiale : ne peut être détruite"
        assert page.locator('g.army[data-army="koush@G19"] title').text_content() == \
            "Koush : 2 armées en G19 · 2 peuvent partir"
        assert page.locator("svg.campaign-map").get_attribute("aria-label").startswith("Carte de la campagne, tour 2")
        page.close()


def test_the_history_steps_through_past_turns_on_one_line(browser, server):
    base, store = server
    _, links = adjudicated(store)
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page = open_page(browser, base + links["libye"], viewport=viewport)
        bar = page.locator("nav.history")
        assert bar.locator("button").count() == 3  # ◀ ▶ and now, whatever the number of turns
        tops = {round(node.bounding_box()["y"]) for node in (bar.locator("#history-back"), bar.locator("#map-now"))}
        assert len(tops) == 1 and bar.bounding_box()["height"] < 60  # one line
        assert page.locator("#map-now").is_disabled() and page.locator("#history-forward").is_disabled()
        assert page.locator('g.army[data-army="libye@C5"]').count() == 0
        page.click("#history-back")
        assert page.locator("#shown-map").inner_text() == "Tour 1 · après les batailles"
        page.click("#history-back")
        page.click("#history-back")
        assert page.locator("#shown-map").inner_text() == "Tour 1 · avant les mouvements"
        assert page.locator("#history-back").is_disabled()
        assert page.locator('g.army[data-army="libye@C5"]').count() == 1
        page.click("#history-forward")
        assert page.locator('#shown-map[data-stage="after_moves"]').count() == 1
        assert page.locator('g.army[data-army="libye@D4"]').count() == 1  # it went to Saïs…
        page.click("#history-forward")
        assert page.locator('g.army[data-army="libye@D4"]').count() == 0  # …and fell there
        page.click("#map-now")
        assert page.locator("#shown-map").inner_text() == "Maintenant (tour 2)"
        page.close()


def test_the_draft_is_kept_across_a_reload_until_it_is_sent(browser, server):
    base, store = server
    game_id, links = adjudicated(store)
    page = open_page(browser, base + links["koush"])
    assert page.locator("#draft-kept").count() == 0
    page.click('g.army[data-army="koush@G19"]')
    cell(page, "G18")
    page.select_option("#stance-libye", "war")
    page.click("#tab-text")  # the form's orders are carried to the text (issue 59), and a line added there
    page.wait_for_function("() => document.querySelector('#order-text')?.value.includes('G19 -> G18')")
    page.fill("#order-text", page.locator("#order-text").input_value() + "\nespion: Libye")
    page.click("#tab-form")
    page.wait_for_function("() => document.querySelector('#spy-libye')?.checked")
    assert page.locator("#draft-kept").inner_text() == "brouillon conservé"
    page.reload()
    page.locator("svg.campaign-map").wait_for()
    assert "G19 → G18" in page.locator("#draft-moves").inner_text()
    assert page.locator("#stance-libye").input_value() == "war"
    assert page.locator("#spy-libye").is_checked()
    assert page.locator("#draft-kept").is_visible()
    other = open_page(browser, base + links["haute_egypte"])  # another seat's draft is its own
    assert other.locator("#draft-kept").count() == 0 and "G19" not in other.locator("#draft-moves").inner_text()
    other.close()
    send(page)
    key = f"kadesh.royaumes.draft.{game_id}.koush"
    assert page.evaluate(f"localStorage.getItem('{key}')") is None
    page.reload()
    page.locator(".sent-note").wait_for()
    assert page.locator("#draft-kept").count() == 0
    assert "Une armée va de G19 à G18." in page.locator(".my-orders").inner_text()
    page.close()


def test_an_overcommitted_move_is_flagged_before_it_is_sent(browser, server):
    base, store = server
    _, links = adjudicated(store)
    for lang, words, going in (("fr", "3 armées demandées, mais 2 seulement peuvent partir de B8 : 2 partiront.",
                                "2 armées vont de B8 à C8."),
                               ("en", "3 armies asked, but only 2 can leave B8: 2 will go.",
                                "2 armies go from B8 to C8.")):
        page = open_page(browser, base + links["libye"], lang)
        page.click("#tab-text")
        page.fill("#order-text", "3 x B8 -> C8\nD10 -> D11\nH17 -> H16")  # no Libyan army at H17
        page.click("#read")
        page.locator("#reading").wait_for()
        warned = page.locator("#reading .lines li.warn")
        assert warned.count() == 2 and words in warned.first.inner_text()
        assert "3 x B8 -> C8" in warned.first.inner_text()
        assert page.locator("#reading .lines li.ok:not(.warn)").count() == 1
        # Issue 59: the summary says what will happen, the server's reading: never a move a warning refuses.
        summary = page.locator("#reading pre").inner_text()
        assert going in summary and "H17" not in summary
        page.click("#fill")
        page.click("#review-orders")
        page.locator("#review-warnings").wait_for()
        assert words in page.locator("#review-warnings").inner_text()
        assert going in page.inner_text("#review") and "H17" not in page.inner_text("#review")
        page.close()


def confirm(page, lang: str) -> None:
    """Confirm Imhotep's act, the question and the page after it both clean."""
    assert_page_clean(page, lang)
    version = int(page.locator("#board").get_attribute("data-version"))
    page.click("#confirm")
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {version}")
    assert_page_clean(page, lang)


def test_every_royaumes_page_is_clean_after_an_adjudicated_turn(browser, server):
    base, store = server
    _, links = adjudicated(store)
    for lang in ("fr", "en"):
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.add_init_script(f"localStorage.setItem('kadesh.lang', '{lang}')")
        for seat in ("koush", "libye", "spectator", "imhotep"):
            page.goto(base + links[seat])
            page.locator("svg.campaign-map").wait_for()
            page.locator(".reports details").first.wait_for()
            report = page.locator(".reports").inner_text()
            assert ("Tour 2" if lang == "fr" else "Turn 2") not in report  # the next turn's opening is no report line
            assert_page_clean(page, lang)
            if seat == "imhotep":  # Imhotep edits a kingdom and sets a deadline from his console: each
                # confirmation and the page after it stay clean
                page.select_option("#edit-kingdom", "libye")
                page.select_option("#edit-field", "resources.gold")
                page.fill("#edit-value", "300")
                page.click("#edit-apply")
                confirm(page, lang)
                assert "300" in page.locator('tr[data-kingdom="libye"]').inner_text()
                page.fill("#deadline-at", "2030-02-01T09:30")
                page.click("#set-deadline")
                confirm(page, lang)
                assert "2030" in page.locator("#deadline").inner_text()
        page.close()


def test_a_campaign_with_computer_kingdoms_refereed_by_kadesh_alone_from_the_home_page(browser, server):
    """Issue 22: two kingdoms go to the computer, and their orders arrive by themselves. Issue 59: the card offers
    Kadesh as the referee, with a time per turn; the creator keeps a kingdom, nobody holds Imhotep's seat, and the
    turn is judged as soon as the last orders are in."""
    base, store = server
    page = browser.new_page()
    page.goto(base + "/")
    page.locator("#scenario option").first.wait_for(state="attached")
    assert page.locator("#ruler-royaumes-imhotep").count() == 0  # never the game master's seat
    assert "Hasard" not in page.locator("#ruler-royaumes-libye").inner_text()
    assert page.locator("#referee-deadline-royaumes").is_hidden()
    page.check("#royaumes-referee-kadesh")
    assert page.locator("#intro-royaumes").inner_text().startswith("Kadesh arbitrera")
    page.select_option("#referee-days-royaumes", "1")
    page.select_option("#ruler-royaumes-basse_egypte", "vizir")
    page.select_option("#ruler-royaumes-libye", "maladroit")
    page.click("#campaign button[type=submit]")
    page.locator("#campaign-created").wait_for()
    computer = page.locator("#campaign-links tr.computer-seat")
    assert computer.count() == 2
    assert "Gouverné par l'ordinateur (Vizir)" in computer.first.inner_text()
    assert "Kadesh arbitre seul" in page.locator("#campaign-links tr.referee-seat").inner_text()
    links = {row.locator("th").inner_text(): row.locator("input").input_value()
             for row in page.locator("#campaign-links tr:not(.computer-seat):not(.referee-seat)").all()}
    assert set(links) == {"Haute-Égypte", "Koush", "Spectateurs"}
    assert "au plus tard 1 jour après son début" in page.locator("#campaign-created").inner_text()
    assert_page_clean(page, "fr")
    assert page.locator("#open-console").inner_text() == "Commander la Haute-Égypte"
    page.click("#open-console")  # the creator's own kingdom
    page.locator("svg.campaign-map").wait_for()
    # The turn's deadline is the table's: not « when every kingdom has sent » beside the clock's own day
    assert "quand tous les royaumes" not in page.inner_text(".campaign-status")
    assert page.locator(".campaign-status time#deadline").count() == 1
    clock = page.inner_text("#clock")  # a time per turn, and the deadline told once (in the status above)
    assert "1 jour par tour" in clock and "temps écoulé" not in clock and "doit jouer avant" not in clock
    # Issue 59: nobody holds Imhotep's seat: no channel to him is offered
    page.locator("#talk [data-channel='table']").wait_for()
    assert page.locator("#talk [data-channel*='imhotep']").count() == 0
    page.wait_for_function("() => ['Basse-Égypte', 'Libye'].every((k) => "
                           "document.querySelector('.orders-in')?.textContent.split(' · ')[0].includes(k))")
    page.click("#others-stay")
    send(page)
    kush = browser.new_page()
    kush.goto(links["Koush"])
    kush.locator("svg.campaign-map").wait_for()
    kush.click("#others-stay")
    kush.click("#review-orders")
    kush.click("#send")  # the last orders: Kadesh judges the turn at once
    for each in (page, kush):
        each.wait_for_function("() => document.querySelector('.campaign-status strong')?.textContent.endsWith('2')")
        each.locator('.reports details[data-turn="1"]').wait_for()
    kush.close()
    page.close()


def test_a_map_of_ones_own_from_the_home_page(browser, server):
    """Issue 22: a game master loads a map file; its kingdoms are offered to the computer at once,
    a bad map is refused with the key at fault, and the campaign opens on the map loaded."""
    from tests.test_royaumes_maps import OWN_MAP

    base, store = server
    page = browser.new_page()
    page.goto(base + "/")
    page.locator("#scenario option").first.wait_for(state="attached")
    page.click("#card-royaumes details.options summary")
    page.click("#card-royaumes .advanced-toggle")  # a map of one's own is folded under « Avancé »
    bad = OWN_MAP.replace('cell = "C1"', 'cell = "B3"')
    page.fill("#opt-royaumes-scenario_toml", bad)
    page.locator("#opt-royaumes-scenario_toml").blur()
    page.wait_for_function("() => document.querySelector('#error-royaumes').textContent.includes('cities[2].cell')")
    assert "B3 est de l'eau" in page.locator("#error-royaumes").inner_text()
    page.set_input_files("#opt-royaumes-scenario_toml-file", files=[
        {"name": "deux_rives.toml", "mimeType": "text/plain", "buffer": OWN_MAP.encode()}])
    page.locator("#ruler-royaumes-amont").wait_for()
    assert page.locator("#error-royaumes").inner_text() == ""
    assert page.locator("label[for=ruler-royaumes-amont]").inner_text() == "Royaume d'Amont"
    assert page.locator("#ruler-royaumes-koush").count() == 0
    page.select_option("#ruler-royaumes-aval", "vizir")
    page.click("#campaign button[type=submit]")
    page.locator("#campaign-created").wait_for()
    rows = page.locator("#campaign-links tr")
    assert "Royaume d'Amont" in rows.first.inner_text()
    assert "Gouverné par l'ordinateur (Vizir)" in page.locator("#campaign-links tr.computer-seat").inner_text()
    assert_page_clean(page, "fr")
    page.click("#open-console")
    page.locator("svg.campaign-map").wait_for()
    assert "Les deux rives" in page.locator("body").inner_text()
    page.close()
