"""Every way into an account, walked in Debian's Chromium with the pages' own controls: sign up with a passkey
(the DevTools Protocol's virtual authenticator), add an address by the link mailed to it (a real SMTP server on
loopback; the link's form submitted, as Chromium posts it), sign in on a second device by an e-mailed link, and
sign out everywhere from the first."""

from __future__ import annotations

import re

import pytest

from kadesh.server.delivery import Deliverer, Settings
from tests.browser_support import assert_page_clean, authenticator, running_server
from tests.notice_support import MailBox
from tests.waiting import wait_until

pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]


def mailed_link(store, settings: Settings, box: MailBox, address: str) -> str:
    """The link of the last e-mail to ``address``, sent by the workers' own code through SMTP."""
    Deliverer(store, "test-worker", settings, threads=1).send_sign_in_links()
    mails = [message for message in box.messages if message["To"] == address]
    assert mails, f"no e-mail to {address}"
    return re.search(r"https?://\S+/sign-in/\S+", mails[-1].get_content()).group(0)


def test_a_player_comes_in_by_passkey_and_by_mail_on_two_devices_and_leaves_everywhere(browser, tmp_path):
    with MailBox() as box:
        settings = Settings.from_environment(box.environment())
        with running_server(str(tmp_path / "sign-in.sqlite3"), notice_settings=settings,
                            local_workers=0) as (base, store):
            base = base.replace("127.0.0.1", "localhost")  # WebAuthn wants a domain for its relying party
            desktop = browser.new_page(viewport={"width": 1280, "height": 800})
            held = []  # the account's vacation, answered only once the player has typed their address
            desktop.route("**/api/account/vacation", lambda route: held.append(route))
            desktop.goto(f"{base}/account")
            authenticator(desktop.context, desktop)
            desktop.fill("#new-name", "Tiyi")
            desktop.click("#sign-up-passkey")
            desktop.wait_for_selector("text=Bonjour, Tiyi")

            # The address, added from the account page: the link mailed to it, opened and its form submitted. The
            # vacation's box, arriving while the player types, leaves what they typed where it is.
            desktop.fill("#address", "tiyi@example.org")
            # (Playwright hands the held request to this thread while it talks to the page: each look asks it.)
            wait_until(lambda: desktop.evaluate("true") and held, "the page to ask for the vacation")
            held[0].continue_()
            desktop.unroute("**/api/account/vacation")
            desktop.wait_for_selector("#vacation-title")
            assert desktop.input_value("#address") == "tiyi@example.org"
            desktop.click("#add-email button[type=submit]")
            desktop.wait_for_function("() => document.querySelector('#status').textContent.includes("
                                      "'Un lien a été envoyé à tiyi@example.org')")
            desktop.goto(mailed_link(store, settings, box, "tiyi@example.org"))
            assert "Ajouter l'adresse tiyi@example.org au compte Tiyi" in desktop.inner_text("main")
            assert_page_clean(desktop, "fr")
            desktop.click("button[type=submit]")
            desktop.wait_for_selector("#email")
            assert "tiyi@example.org" in desktop.inner_text("#email")

            # A phone with no passkey: a link by e-mail, its page's button pressed, and the phone is signed in.
            phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True,
                                        has_touch=True)
            phone.goto(f"{base}/account")
            phone.wait_for_selector("#email-sign-in")
            phone.fill("#address", "TIYI@example.org")
            phone.click("#send-link")
            phone.wait_for_function("() => document.querySelector('#status').textContent.includes('t\\'y attend')")
            phone.goto(mailed_link(store, settings, box, "TIYI@example.org"))
            assert "Se connecter à Kadesh avec TIYI@example.org" in phone.inner_text("main")
            assert_page_clean(phone, "fr")
            phone.click("button[type=submit]")
            phone.wait_for_selector("text=Bonjour, Tiyi")
            assert "2 appareils" in phone.inner_text("#devices")

            # Signed out everywhere from the desktop: the phone's session ends too.
            desktop.goto(f"{base}/account")
            desktop.click("#sign-out-all")
            desktop.wait_for_selector("#sign-in-passkey")
            phone.reload()
            phone.wait_for_selector("#email-sign-in")
            assert store.accounts.session_count(store.accounts.by_name("Tiyi").id) == 0
