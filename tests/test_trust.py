"""Trust at the table, finding by finding: an account is its own person's (no address slipped into it by one
click, no passkey or name lost to a failed sign-up, no look-alike name), and a rating is earned by the people who
held the seats (no computer, no open seat's link kept by its creator, no farming, no clock run on an empty seat).

Each test is named after the finding it closes (``f01`` …) and runs on both databases where the store is in play.
"""

from __future__ import annotations

import re
from email.message import EmailMessage

import pytest
from fastapi.testclient import TestClient

from kadesh.server.app import create_app
from kadesh.server.delivery import Deliverer, Settings
from kadesh.server.rates import RatePolicy
from kadesh.store import Store
from tests.notice_support import MailBox
from tests.webauthn_support import ORIGIN, SoftPasskey, make_account

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.fixture
def table(db):
    """An app on a fresh database that mails through a real SMTP server on loopback, without rate limits: the
    store, a device factory (each client its own cookies), the mail box and the notice settings."""
    store = Store(db)
    with MailBox() as box:
        settings = Settings.from_environment(box.environment())
        app = create_app(store=store, local_workers=0, notice_settings=settings, rate_policy=RatePolicy.unlimited())
        with TestClient(app, base_url=ORIGIN):
            yield store, (lambda: TestClient(app, base_url=ORIGIN)), box, settings
    store.close()


def mailed_path(store: Store, settings: Settings, box: MailBox, address: str) -> str:
    """The path of the last link mailed to ``address`` (the worker's own sending, through SMTP)."""
    Deliverer(store, "test-worker", settings, threads=1).send_sign_in_links()
    mails = [message for message in box.messages if message["To"] == address]
    assert mails, f"no e-mail to {address}"
    return re.search(r"https?://\S+/sign-in/\S+", mails[-1].get_content()).group(0).split("testserver", 1)[1]


def test_f01_a_link_asked_for_by_another_never_puts_its_address_on_my_account(table):
    """The attacker asks a sign-in link for their own address and gets a signed-in victim to press « Me
    connecter »: the victim's account does not gain the attacker's address, so a later link to that address
    does not open the victim's account."""
    store, device, box, settings = table
    victim = device()
    make_account(victim, "Néfertiti", ORIGIN)
    attacker = device()
    assert attacker.post("/api/session/email", json={"address": "mallory@example.org"}).status_code == 202
    trap = mailed_path(store, settings, box, "mallory@example.org")
    page = victim.get(trap)
    assert "Néfertiti" in page.text and "pas au tien" in page.text  # the page warns who the victim is signed in as
    victim.post(trap, content="name=Mallory", headers=FORM, follow_redirects=False)
    assert store.accounts.by_name("Néfertiti").email is None
    assert store.accounts.by_email("mallory@example.org").name == "Mallory"  # a new account, not the victim's
    attacker.post("/api/session/email", json={"address": "mallory@example.org"})
    again = mailed_path(store, settings, box, "mallory@example.org")
    assert attacker.post(again, headers=FORM, follow_redirects=False).status_code == 303
    assert attacker.get("/api/account").json()["name"] == "Mallory"


def test_f01_a_signed_in_player_adds_an_address_by_the_link_sent_to_it(table):
    """The honest path: signed in, ask a link for your address; it confirms that address for your account alone,
    wherever it is opened, and signs nobody in; an address another account has stays theirs."""
    store, device, box, settings = table
    player = device()
    make_account(player, "Ahmès", ORIGIN)
    assert player.post("/api/session/email", json={"address": "ahmes@example.org"}).status_code == 202
    link = mailed_path(store, settings, box, "ahmes@example.org")
    phone = device()  # the mail opened on another device, signed in as nobody
    assert "Ahmès" in phone.get(link).text
    confirmed = phone.post(link, headers=FORM, follow_redirects=False)
    assert confirmed.status_code == 200 and "Ahmès" in confirmed.text
    assert phone.get("/api/account").status_code == 401
    assert player.get("/api/account").json()["email"] == "ahmes@example.org"
    other = device()
    make_account(other, "Kamosé", ORIGIN)
    other.post("/api/session/email", json={"address": "AHMES@example.org"})
    taken = other.post(mailed_path(store, settings, box, "AHMES@example.org"), headers=FORM, follow_redirects=False)
    assert taken.status_code == 409
    assert store.accounts.by_email("ahmes@example.org").name == "Ahmès"


def test_f02_the_link_pages_form_is_accepted_as_a_browser_posts_it(table):
    """Every page is served with ``Referrer-Policy: no-referrer``, so Chromium posts its forms with ``Origin:
    null`` and ``Sec-Fetch-Site: same-origin``: accepted. Another site's form (``cross-site``, or a null origin
    without the fetch metadata) is refused with a page, not raw JSON."""
    store, device, box, settings = table
    client = device()
    client.post("/api/session/email", json={"address": "tiy@example.org"})
    link = mailed_path(store, settings, box, "tiy@example.org")
    for headers in ({"Origin": "null", "Sec-Fetch-Site": "cross-site"}, {"Origin": "null"},
                    {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}):
        refused = client.post(link, content="name=Tiy", headers={**FORM, **headers}, follow_redirects=False)
        assert refused.status_code == 403 and refused.headers["content-type"].startswith("text/html")
        assert "ne vient pas de Kadesh" in refused.text
    signed = client.post(link, content="name=Tiy", follow_redirects=False,
                         headers={**FORM, "Origin": "null", "Sec-Fetch-Site": "same-origin"})
    assert signed.status_code == 303, signed.text
    assert client.get("/api/account").json()["name"] == "Tiy"
    assert client.delete("/api/sessions", headers={"Origin": "null"}).status_code == 403  # the API alike


def test_f03_every_email_has_a_real_sender_when_none_is_set(table):
    store, device, box, _ = table
    settings = Settings.from_environment({k: v for k, v in box.environment().items() if k != "KADESH_SMTP_FROM"})
    assert settings.smtp_from == "Kadesh <kadesh@localhost>"
    device().post("/api/session/email", json={"address": "houy@example.org"})
    Deliverer(store, "test-worker", settings, threads=1).send_sign_in_links()
    mail: EmailMessage = next(m for m in box.messages if m["To"] == "houy@example.org")
    assert mail["From"] == "Kadesh <kadesh@localhost>"


def test_f11_a_passkey_another_account_has_is_refused_and_leaves_nothing_behind(table):
    store, device, _, _ = table
    first = device()
    passkey = make_account(first, "Iset", ORIGIN)
    copycat = device()
    begun = copycat.post("/api/account/passkeys/options", json={"name": "Moutnofret"}).json()
    same = SoftPasskey(ORIGIN)
    same.key, same.credential_id = passkey.key, passkey.credential_id  # the same authenticator's credential
    made = copycat.post("/api/account/passkeys", json={"ceremony": begun["ceremony"],
                                                       "credential": same.create(begun["options"])})
    assert made.status_code == 409 and made.json()["code"] == "passkey_taken"
    assert store.accounts.by_name("Moutnofret") is None  # no account without a way in, the name still free
    make_account(device(), "Moutnofret", ORIGIN)
    begun = first.post("/api/account/passkeys/options", json={}).json()  # the same passkey added twice
    again = first.post("/api/account/passkeys", json={"ceremony": begun["ceremony"],
                                                      "credential": same.create(begun["options"])})
    assert again.status_code == 409 and again.json()["code"] == "passkey_taken"
