"""Accounts in Debian's Chromium (issue 41), with the DevTools Protocol's virtual authenticator: make an account
with a passkey, sign in again in a second browser context with the same credential, keep a seat from its link,
play a move from the second context, cut the old link and see it refused; the account, sign-in and player pages
read clean (axe) in both languages, on a desktop and on a phone."""

from __future__ import annotations

import httpx
import pytest

from tests.browser_support import assert_page_clean, authenticator, running_server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with running_server(str(tmp_path_factory.mktemp("accounts") / "accounts.sqlite3")) as (base, store):
        # WebAuthn wants a domain for its relying party: localhost, not 127.0.0.1.
        yield base.replace("127.0.0.1", "localhost"), store


@pytest.fixture(scope="module")
def meritamon(site):
    """A player keeping the south of a game nobody else keeps."""
    _, store = site
    player = store.accounts.create_player("Méritamon", "fr")
    created = store.create_game("manoeuvre", seed="player-page")
    store.accounts.claim(created.id, "seat", "south", player.id)
    return player


def test_a_passkey_account_keeps_a_seat_played_from_another_context_and_cuts_its_old_link(browser, site):
    base, store = site
    desktop = browser.new_page(viewport={"width": 1280, "height": 800})
    desktop.goto(f"{base}/account")
    desktop_devtools, desktop_key = authenticator(desktop.context, desktop)
    desktop.fill("#new-name", "Néfertiti")
    desktop.click("#sign-up-passkey")
    desktop.wait_for_selector("text=Bonjour, Néfertiti")
    assert_page_clean(desktop, "fr")
    credentials = desktop_devtools.send("WebAuthn.getCredentials", {"authenticatorId": desktop_key})["credentials"]
    assert len(credentials) == 1 and credentials[0]["isResidentCredential"]

    # The same passkey, synced to a phone: signed in there too.
    phone = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.goto(f"{base}/account")
    phone_devtools, phone_key = authenticator(phone.context, phone)
    phone_devtools.send("WebAuthn.addCredential", {"authenticatorId": phone_key, "credential": credentials[0]})
    phone.click("#sign-in-passkey")
    phone.wait_for_selector("text=Bonjour, Néfertiti")
    assert "2 appareils" in phone.inner_text("#devices")

    # A game made elsewhere; its north link opened on the desktop, where the seat is kept in the account.
    created = httpx.post(f"{base}/api/games", json={"ruleset": "manoeuvre"}).json()
    gid, old_token = created["id"], created["seats"]["north"]["token"]
    desktop.goto(base + created["seats"]["north"]["link"])
    desktop.click("#keep-game")
    desktop.wait_for_selector("#cut-link")
    assert_page_clean(desktop, "fr")

    # On the phone, the lobby lists it from the account, and its page opens the seat without any link.
    phone.goto(f"{base}/")
    phone.wait_for_selector(f'.my-game[data-game="{gid}"]')
    assert "à toi de jouer" in phone.inner_text(f'.my-game[data-game="{gid}"]')
    assert_page_clean(phone, "fr")
    phone.goto(f"{base}/play/{gid}")
    phone.wait_for_function("() => document.querySelector('#board')?.dataset.version === '0'")
    assert "Nord" in phone.inner_text("#who")
    phone.click('.tray .piece[data-element="n1"]')
    phone.click('rect[data-cell="f1"]')
    phone.wait_for_function("() => Number(document.querySelector('#board').dataset.version) > 0")
    with store.game(gid) as game:
        assert game.state.elements["n1"].cell is not None

    # Cut the old link: a copy of it left in some history opens nothing now, and the account still plays.
    desktop.click("#cut-link")
    desktop.wait_for_selector("text=L'ancien lien ne marche plus")
    refused = httpx.get(f"{base}/api/games/{gid}", headers={"Authorization": f"Bearer {old_token}"})
    assert refused.status_code == 401 and refused.json()["code"] == "token_revoked"
    desktop.reload()
    desktop.wait_for_function("() => Number(document.querySelector('#board')?.dataset.version) > 0")
    assert "Nord" in desktop.inner_text("#who")

    # Signing out everywhere ends the phone's session too.
    desktop.goto(f"{base}/account")
    desktop.click("#sign-out-all")
    desktop.wait_for_selector("#sign-in-passkey")
    phone.goto(f"{base}/account")
    phone.wait_for_selector("#sign-in-passkey")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("viewport", [{"width": 1280, "height": 800}, {"width": 390, "height": 844}])
def test_the_account_and_player_pages_read_clean(browser, site, meritamon, lang, viewport):
    base, store = site
    page = browser.new_page(viewport=viewport)
    page.add_init_script(f"localStorage.setItem('kadesh.lang', '{lang}')")
    for path in ("/account", "/players/Personne", "/players/M%C3%A9ritamon"):
        page.goto(base + path)
        page.wait_for_selector("body[data-ready='true']")
        assert page.evaluate("document.documentElement.lang") == lang
        assert_page_clean(page, lang)
    # still on Méritamon's page
    assert ("contre un joueur par lien" if lang == "fr" else "against a player by link") in page.inner_text("main")
    key = store.accounts.new_sign_in_link(f"nouvelle-{lang}-{viewport['width']}@example.org", "fr", base)
    page.goto(f"{base}/sign-in/{key}?lang={lang}")  # the e-mailed link's page: it asks before it signs in
    assert page.evaluate("document.documentElement.lang") == lang and page.locator("#name").is_visible()
    assert_page_clean(page, lang)


def test_a_game_opened_to_others_is_taken_from_the_lobby_by_a_second_player(browser, site):
    """Issue 42's open games: the lobby's « Ouvrir aux autres joueurs » takes the first seat and leaves the
    other in « Parties ouvertes », where another browser takes it and lands on its page."""
    base, _ = site
    opener = browser.new_page(viewport={"width": 1280, "height": 800})
    opener.goto(f"{base}/")
    opener.wait_for_selector("body[data-ready='true']")
    opener.click("#open-manoeuvre")
    opener.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
    assert "Nord" in opener.inner_text("#who")
    game_id = opener.url.split("/play/")[1].split("#")[0]
    assert "La partie attend ses joueurs" in opener.inner_text(".clock-open")
    assert opener.locator("#close-open").is_visible()
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        taker = browser.new_page(viewport=viewport)
        taker.goto(f"{base}/")
        entry = taker.locator(f'.open-game[data-game="{game_id}"]')
        entry.wait_for()
        assert "place libre : Sud" in entry.inner_text()
        assert_page_clean(taker, "fr")
    entry.locator("button.take").click()
    taker.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
    assert "Sud" in taker.inner_text("#who")
    # The opener's page hears the seat taken, with no reload: it waits for nobody, and offers no withdrawal.
    opener.locator(".clock-open").wait_for(state="detached")
    assert opener.locator("#close-open").count() == 0
    taker.goto(f"{base}/")
    taker.wait_for_selector("#open-games-section[data-loaded='true']", state="attached")
    assert taker.locator(f'.open-game[data-game="{game_id}"]').count() == 0
