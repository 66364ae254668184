"""Issue 43's acceptance in Debian's Chromium: a Royaumes campaign opened from the lobby with a Seigneur and a Chef
militaire in each kingdom. In Koush, the Seigneur (one browser context) writes in the council and drafts the orders;
the Chef (another) sees the message arrive, takes the draft up, edits it and sends it; a second order message is
refused, as the text says. Two kingdoms talk privately, and neither a third kingdom nor the spectators ever see it.
A two-player chat with its unread count and its links. The pages read clean (axe), on a desktop and a phone."""

from __future__ import annotations

import httpx
import pytest

from tests.browser_support import assert_page_clean

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


@pytest.fixture
def site(shared_server):
    """The test process's shared server: each test plays in games of its own."""
    return shared_server


def open_page(browser, link: str, viewport: dict = DESKTOP):
    page = browser.new_page(viewport=viewport)
    page.goto(link)
    page.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
    page.locator("#talk").wait_for()
    return page


def show_channel(page, channel: str) -> None:
    page.click(f"#talk [data-channel='{channel}']")
    page.wait_for_selector(f"#talk [data-channel='{channel}'][aria-selected='true']")


def write(page, text: str) -> None:
    page.fill("#talk-text", text)
    page.click("#talk-send")
    page.wait_for_function("(text) => [...document.querySelectorAll('#talk-log .talk-body')]"
                           ".some((p) => p.textContent === text)", arg=text)


def campaign_from_the_lobby(browser, base: str) -> dict:
    """The creator checks « Un Seigneur et un Chef militaire par royaume »: each kingdom gets two links."""
    page = browser.new_page(viewport=DESKTOP)
    page.goto(f"{base}/")
    page.wait_for_selector("body[data-ready='true']")
    page.check("#councils-royaumes")
    page.click("#link-royaumes")
    page.locator("#campaign-links").wait_for()
    rows = page.locator("#campaign-links tr")
    labels = [rows.nth(i).locator("th").inner_text() for i in range(rows.count())]
    assert "Koush — Seigneur du Royaume" in labels and "Koush — Chef militaire" in labels, labels
    assert any(label.startswith("Imhotep") for label in labels) and not any("Imhotep —" in label for label in labels)
    links = {}
    for i in range(rows.count()):
        links[labels[i]] = rows.nth(i).locator("input").input_value()
    page.close()
    return links


def test_the_council_confers_drafts_and_sends_and_private_talk_stays_between_two_kingdoms(browser, site):
    base, store = site
    links = campaign_from_the_lobby(browser, base)
    lord = open_page(browser, links["Koush — Seigneur du Royaume"], PHONE)
    chief = open_page(browser, links["Koush — Chef militaire"], DESKTOP)
    assert "Seigneur du Royaume" in lord.inner_text("#who")
    assert lord.locator("#lord-note").is_visible() and lord.locator("#review-orders").count() == 0

    show_channel(lord, "council:koush")
    write(lord, "Tenons Napata ; je t'écris les ordres.")
    chief.wait_for_selector("#talk [data-channel='council:koush'] .badge")  # live, with its unread count
    assert chief.title().startswith("✉ 1")
    show_channel(chief, "council:koush")
    assert "Tenons Napata" in chief.inner_text("#talk-log")

    lord.click("#tab-text")
    lord.fill("#order-text", "G19 reste")
    lord.click("#save-draft")
    lord.wait_for_selector("#draft-saved")
    chief.wait_for_selector("#lord-draft")  # pushed to the Chef's page
    assert "G19 reste" in chief.inner_text("#lord-draft")
    chief.click("#take-up")
    assert chief.input_value("#order-text") == "G19 reste"
    chief.fill("#order-text", "G19 reste\npaix: Basse-Égypte\nalliance: Haute-Égypte")  # the Chef edits the draft
    chief.click("#read")
    chief.click("#fill")
    chief.click("#review-orders")
    chief.wait_for_selector("#send")
    chief.click("#send")
    chief.wait_for_selector(".orders.sent")
    lord.wait_for_selector(".orders.sent")  # the Seigneur sees the orders gone
    with store.game(chief.url.split("/play/")[1].split("?")[0].split("#")[0]) as game:
        sent = game.state.orders["koush"]
    assert sent["moves"] == [] and "G19" in sent["stay"] and sent["stances"]["basse_egypte"] == "peace"
    assert sent["stances"]["haute_egypte"] == "ally"

    second = chief.evaluate("""async () => {
        const game = location.pathname.split('/').pop();
        const token = JSON.parse(sessionStorage.getItem(`kadesh.link.${game}`)).token;
        const answer = await fetch(`/api/games/${game}/actions`, {method: 'POST', headers: {
            'Content-Type': 'application/json', Authorization: `Bearer ${token}`},
            body: JSON.stringify({expected_version: 1, action: {type: 'orders', text: 'G19 -> G18'}})});
        return [answer.status, (await answer.json()).code];
    }""")
    assert second == [409, "not_your_turn"]  # « Seul le premier message personnel est pris en compte »

    thebes = open_page(browser, links["Haute-Égypte — Chef militaire"])
    libya = open_page(browser, links["Libye — Chef militaire"], PHONE)
    watcher = open_page(browser, links["Spectateurs"])
    show_channel(thebes, "pair:haute_egypte,koush")
    thebes.check("#talk-alliance")
    write(thebes, "Koush, marchons ensemble contre la Libye.")
    show_channel(chief, "pair:haute_egypte,koush")
    chief.wait_for_selector("text=marchons ensemble")
    write(chief, "D'accord, Thèbes.")
    thebes.wait_for_selector("text=D'accord, Thèbes.")
    for outsider in (libya, watcher):
        outsider.reload()
        outsider.locator("#talk").wait_for()
        text = outsider.inner_text("body")
        assert "marchons ensemble" not in text and "D'accord, Thèbes" not in text
        assert outsider.locator("#talk [data-channel='pair:haute_egypte,koush']").count() == 0
    # Issue 59: the alliance offered becomes a line of Thebes's orders, which the form keeps when the Chef switches
    # to it and sends: the form's orders go to the text and back, and what the form cannot hold is said.
    thebes.select_option("#stance-libye", "war")
    thebes.click("#alliance-lines button")
    thebes.wait_for_function("() => document.querySelector('#order-text')?.value.includes('alliance: Koush')")
    assert thebes.locator("#alliance-lines button").is_disabled()  # once in the orders, not offered twice
    assert thebes.inner_text("#alliance-lines button") == "Dans mes ordres"
    assert "guerre: Libye" in thebes.input_value("#order-text")
    thebes.fill("#order-text", thebes.input_value("#order-text") + "\nmarchons !")
    thebes.click("#tab-form")
    thebes.wait_for_function("() => document.querySelector('#stance-koush')?.value === 'ally'")
    assert thebes.input_value("#stance-libye") == "war"
    assert "« marchons ! » — Ligne non comprise" in thebes.inner_text("#dropped")
    assert_page_clean(thebes, "fr")
    thebes.click("#review-orders")
    thebes.wait_for_selector("#send")
    assert "Alliance proposée à Koush." in thebes.inner_text("#review")
    thebes.click("#send")
    thebes.wait_for_selector(".orders.sent")
    with store.game(chief.url.split("/play/")[1].split("?")[0].split("#")[0]) as game:
        stances = game.state.orders["haute_egypte"]["stances"]
    assert stances["koush"] == "ally" and stances["libye"] == "war"
    # Issue 59: a message's length is said near the limit and at it, not cut silently.
    show_channel(chief, "pair:koush,libye")
    chief.fill("#talk-text", "a" * 1850)
    assert chief.inner_text("#talk-count") == "1\u202f850 / 2\u202f000 caractères"
    assert chief.inner_text("#talk-limit") == ""
    chief.fill("#talk-text", "a" * 2100)
    assert len(chief.input_value("#talk-text")) == 2000
    assert chief.inner_text("#talk-limit").startswith("Limite atteinte : un message a 2\u202f000 caractères au plus")
    # Imhotep hides, from his own page, a message reported to him in a channel he does not read.
    write(chief, "Libye, tu n'es qu'un chacal.")
    show_channel(libya, "pair:koush,libye")
    libya.locator("#talk-log .talk-line", has_text="chacal").get_by_role("button", name="Signaler").click()
    libya.wait_for_selector("text=Signalé au modérateur.")
    imhotep = open_page(browser, next(link for label, link in links.items() if label.startswith("Imhotep")))
    show_channel(imhotep, "moderation")
    report = imhotep.locator("#talk-log .talk-line", has_text="chacal")
    # Issue 59: the report names who wrote the message and who reported it, never a seat's id.
    named = report.locator(".talk-who strong").inner_text()
    assert named == "Message de Koush (Chef militaire), signalé par Libye (Chef militaire)", named
    assert "koush" not in report.inner_text()
    report.get_by_role("button", name="Masquer ce message pour tous").click()
    report.get_by_text("Ce message est masqué pour tous.").wait_for()
    libya.wait_for_selector("#talk-log .talk-body.muted >> text=Message masqué par le modérateur.")  # live
    assert "chacal" not in libya.inner_text("#talk-log")
    # The turn is judged: Libya sends its orders from its page, Imhotep judges without Lower Egypt's from his
    # console, and every kingdom's page shows its report of the turn, live, the alliance of Thebes and Kush sealed.
    libya.click("#others-stay")
    libya.click("#review-orders")
    libya.click("#send")
    libya.wait_for_selector(".orders.sent")
    lower = open_page(browser, links["Basse-Égypte — Chef militaire"], PHONE)
    imhotep.click("#adjudicate")
    imhotep.click("#confirm")
    for page in (chief, lord, thebes, libya, lower):
        page.locator('.reports details[data-turn="1"]').wait_for()
    for page in (chief, thebes):
        assert "l'alliance est conclue" in page.locator(".reports").text_content()
    # Issue 59: the Seigneur's draft belonged to the turn judged: the Chef is no longer offered it on the next one.
    chief.locator("#lord-draft").wait_for(state="detached")
    for page, lang in ((chief, "fr"), (lord, "fr"), (libya, "fr"), (watcher, "fr"), (imhotep, "fr")):
        assert_page_clean(page, lang)
    for page in (lord, chief, thebes, libya, lower, watcher, imhotep):
        page.close()


def test_two_players_chat_with_links_that_open_only_on_a_click(browser, site):
    base, store = site
    made = httpx.post(f"{base}/api/games", json={"ruleset": "manoeuvre"}).json()
    north = open_page(browser, base + made["seats"]["north"]["link"])
    south = open_page(browser, base + made["seats"]["south"]["link"], PHONE)
    write(north, "Bonne partie ! Les règles : https://example.org/regles.")
    south.wait_for_selector("#talk-log a")
    link = south.locator("#talk-log a")
    assert link.get_attribute("href") == "https://example.org/regles"
    assert set(link.get_attribute("rel").split()) == {"noopener", "noreferrer", "nofollow"}
    assert link.get_attribute("target") == "_blank"
    write(south, "<b>Merci</b>")  # shown as written: text, never HTML
    north.wait_for_selector("#talk-log .talk-body >> text=<b>Merci</b>")
    assert north.locator("#talk-log b").count() == 0
    north.click("#lang")
    north.wait_for_selector("#talk [data-channel='table'] >> text=Whole table")
    assert north.locator("#talk [data-channel='table']").inner_text().startswith("Whole table")
    for page, lang in ((north, "en"), (south, "fr")):
        assert_page_clean(page, lang)
    north.close()
    south.close()
