"""The game page tells its seat when it is its turn (issue 25): the tab's title and icon change when the other
side acts, and the panel « Me prévenir » subscribes the seat, in Debian's Chromium."""

from __future__ import annotations

import pytest

from kadesh.ai.base import legal_for, make_bot
from kadesh.server.delivery import Settings
from tests.browser_support import assert_page_clean, running_server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

YOUR_TURN = "(1) À toi — Kadesh"


def play_until(store, game_id: str, done) -> None:
    """The computer plays both sides through the store until ``done(game)``."""
    bots = {"north": make_bot("manoeuvre", "maladroit", seed=1), "south": make_bot("manoeuvre", "maladroit", seed=2)}
    for _ in range(500):
        with store.game(game_id) as game:
            if done(game):
                return
            seat = game.to_act()[0]
            action = bots[seat].choose(game.view(seat), seat, legal_for(game, seat, bots[seat]))
            version = game.version
        store.act(game_id, seat, version, action)
    raise AssertionError("not reached")


def test_the_tab_says_when_the_other_side_has_played(browser, tmp_path):
    settings = Settings(smtp_host="courrier.example.org", private_webhooks=True)
    with running_server(str(tmp_path / "tab.sqlite3"), notice_settings=settings, local_workers=0) as (base, store):
        created = store.create_game("manoeuvre", seed="tab-title")
        play_until(store, created.id, lambda game: game.to_act() == ["south"])
        page = browser.new_page()
        page.goto(f"{base}/play/{created.id}?token={created.seat_tokens['north']}")
        page.wait_for_function("() => document.querySelector('#board')?.dataset.version")
        assert page.title() == "Manœuvre · Kadesh"
        assert page.locator("link[rel~='icon']").get_attribute("href") == "/static/favicon.svg"
        play_until(store, created.id, lambda game: game.to_act() == ["north"])  # the South plays its turn
        page.wait_for_function(f"() => document.title === {YOUR_TURN!r}")
        assert page.locator("link[rel~='icon']").get_attribute("href") == "/static/favicon-turn.svg"
        # The North subscribes a webhook from the panel; the list shows it, and the page stays clean.
        page.click("#notices summary")
        page.select_option("#notice-channel", "webhook")
        page.fill("#notice-address", "http://127.0.0.1:9/hook")
        page.click(".notice-form button[type=submit]")
        page.locator(".notice-list li").first.wait_for()
        assert "127.0.0.1:9/hook" in page.locator(".notice-list").inner_text()
        assert [s.channel for s in store.subscriptions.of_seat(created.id, "north")] == ["webhook"]
        assert_page_clean(page)
        # A bad address is refused in words, and nothing is added.
        page.select_option("#notice-channel", "email")
        page.fill("#notice-address", "pas-une-adresse")
        page.evaluate("document.querySelector('#notice-address').type = 'text'")  # past the browser's own check
        page.click(".notice-form button[type=submit]")
        page.wait_for_function("() => document.querySelector('#notice-message')?.textContent.includes('invalide')")
        assert len(store.subscriptions.of_seat(created.id, "north")) == 1
        # An e-mail address: the page says a confirmation is on its way, and offers no test before it is confirmed.
        page.fill("#notice-address", "nord@example.org")
        page.click(".notice-form button[type=submit]")
        page.wait_for_function("() => document.querySelector('#notice-message')?.textContent.includes('confirmation')")
        waiting = page.locator(".notice-list li", has_text="nord@example.org")
        assert "en attente de confirmation" in waiting.inner_text()
        assert waiting.locator("button", has_text="Essai").count() == 0
        assert_page_clean(page)
        page.close()


def test_the_panel_and_the_unsubscribe_page_read_clean_in_both_languages(browser, tmp_path):
    settings = Settings(smtp_host="courrier.example.org")
    with running_server(str(tmp_path / "panel.sqlite3"), notice_settings=settings, local_workers=0) as (base, store):
        created = store.create_game("royaumes", seed="panel")
        link = f"{base}/play/{created.id}?token={created.seat_tokens['koush']}"
        mail = store.subscriptions.add(created.id, "koush", "email", "koush@example.org", "", "fr", link, 360)
        store.subscriptions.confirm(mail.confirm_key)
        store.subscriptions.record(mail.id, None)
        waiting = store.subscriptions.add(created.id, "koush", "email", "autre@example.org", "", "fr", link)
        chat = store.subscriptions.add(created.id, "koush", "webhook", "https://hooks.slack.com/services/T/B/x",
                                       "slack", "fr", link)
        store.subscriptions.record(chat.id, "no_answer:TimeoutError")
        page = browser.new_page()
        for lang in ("fr", "en"):
            page.goto(link)
            page.evaluate(f"localStorage.setItem('kadesh.lang', '{lang}')")
            page.goto(link)
            page.wait_for_function("() => document.querySelector('#board')?.dataset.version")
            page.click("#notices summary")
            page.locator("#notice-remind").wait_for()  # Royaumes has deadlines: a reminder may be asked for
            text = page.locator("#notices").inner_text()
            assert ("6 heures" if lang == "fr" else "6 hours") in text
            assert ("n'a pas répondu" if lang == "fr" else "did not answer") in text
            assert ("en attente de confirmation" if lang == "fr" else "waiting for confirmation") in text
            assert_page_clean(page, lang)
        for lang in ("fr", "en"):  # the confirmation message's link: a page that asks, then confirms
            page.goto(f"{base}/confirm/{waiting.confirm_key}?lang={lang}")
            assert_page_clean(page, lang)
        page.click("button[type=submit]")
        assert "Confirmed: autre@example.org" in page.locator("main").inner_text()
        assert_page_clean(page, "en")
        assert store.subscriptions.get(waiting.id).confirmed
        for lang in ("fr", "en"):
            page.goto(f"{base}/unsubscribe/{mail.unsubscribe_key}?lang={lang}")
            assert_page_clean(page, lang)
        page.click("button[type=submit]")
        assert "will receive these notices no more" in page.locator("main").inner_text()
        assert_page_clean(page, "en")
        assert sorted(s.address for s in store.subscriptions.of_seat(created.id, "koush")) == [
            "autre@example.org", "https://hooks.slack.com/services/T/B/x"]
        page.close()
