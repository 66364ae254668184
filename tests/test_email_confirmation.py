"""An e-mail subscription is confirmed by its address's owner before it receives anything but the confirmation
(issue 40, finding 4): any seat could otherwise make the server mail any address. Unconfirmed ones expire, and
the e-mails sent are limited per address and per server (a real SMTP server on loopback)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from kadesh.server.app import create_app
from kadesh.server.delivery import Settings
from kadesh.store import Store, schema
from kadesh.store.subscriptions import CONFIRM_WITHIN, CONFIRMATIONS_PER_ADDRESS, EMAILS_PER_ADDRESS_HOUR, Mailing
from tests.asgi_client import TestClient
from tests.notice_support import MailBox, deliver_all, play_round
from tests.waiting import wait_until


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def mailed(db):
    """A server that mails through a real SMTP server on loopback; the store, its client and the mail box."""
    store = Store(db)
    with MailBox() as box:
        settings = Settings.from_environment(box.environment())
        with TestClient(create_app(store=store, local_workers=0, notice_settings=settings)) as client:
            yield store, client, box, settings
    store.close()


def subscribe(client, created: dict, seat: str, address: str):
    return client.post(f"/api/games/{created['id']}/subscriptions", headers=bearer(created["seats"][seat]["token"]),
                       json={"channel": "email", "address": address})


def mails_to(box: MailBox, address: str) -> list:
    return [message for message in box.messages if message["To"] == address]


def test_an_address_hears_nothing_but_its_confirmation_until_its_owner_says_yes(mailed):
    store, client, box, settings = mailed
    created = client.post("/api/games", json={"ruleset": "royaumes"}).json()
    for seat in ("koush", "libye"):
        answer = subscribe(client, created, seat, f"{seat}@example.org")
        assert answer.status_code == 201 and answer.json()["confirmed"] is False
    deliver_all(store, settings)
    wait_until(lambda: len(box.messages) == 2, "the two confirmations")
    for message in box.messages:
        text = message.get_content()
        assert message["Subject"] == "Kadesh : confirme ton adresse pour recevoir les avis"
        assert "/confirm/" in text and "#token=" not in text  # the seat's secret is not mailed to a stranger
        assert "Koush" not in text and "Libye" not in text  # nothing a player or a map's author wrote
        assert message["List-Unsubscribe"]
    play_round(store, created["id"])  # a new turn: nothing is queued for the unconfirmed addresses
    assert store.jobs.pending() == 0
    # Libye's owner opens the link: a page that asks (a mail scanner's GET changes nothing), then a yes.
    key = re.search(r"/confirm/([\w-]+)", mails_to(box, "libye@example.org")[0].get_content()).group(1)
    page = client.get(f"/confirm/{key}")
    assert page.status_code == 200 and "libye@example.org" in page.text and "Libye" in page.text
    assert store.subscriptions.of_seat(created["id"], "libye")[0].confirmed is False
    assert "Yes, send them to me" in client.get(f"/confirm/{key}?lang=en").text
    done = client.post(f"/confirm/{key}")
    assert done.status_code == 200 and "C'est confirmé" in done.text
    assert client.post(f"/confirm/{key}").status_code == 200  # a second click: still confirmed
    listed = client.get(f"/api/games/{created['id']}/subscriptions", headers=bearer(created["seats"]["libye"]["token"]))
    assert listed.json()["subscriptions"][0]["confirmed"] is True
    box.messages.clear()
    play_round(store, created["id"])
    deliver_all(store, settings)
    wait_until(lambda: box.messages, "libye's notice")
    assert mails_to(box, "koush@example.org") == []
    assert [message.get_content().count("#token=") for message in box.messages] == [1]
    assert client.get(f"/confirm/{'x' * 32}").status_code == 404
    assert client.post(f"/confirm/{'x' * 80}").status_code == 422


def test_an_unconfirmed_subscription_expires(db):
    store = Store(db)
    try:
        created = store.create_game("manoeuvre")
        now = datetime.now(UTC)
        waiting = store.subscriptions.add(created.id, "north", "email", "n@example.org", "", "fr",
                                          "http://kadesh.example/play/x#token=t", now=now)
        late = store.subscriptions.add(created.id, "south", "email", "s@example.org", "", "fr",
                                       "http://kadesh.example/play/x#token=u", now=now)
        assert store.subscriptions.confirm(late.confirm_key, now=now + CONFIRM_WITHIN + timedelta(seconds=1)) is None
        assert store.subscriptions.expire(now + CONFIRM_WITHIN - timedelta(minutes=1)) == 0
        assert store.subscriptions.expire(now + CONFIRM_WITHIN + timedelta(seconds=1)) == 2
        assert store.subscriptions.get(waiting.id) is None
        assert store.subscriptions.confirm(waiting.confirm_key) is None
    finally:
        store.close()


def test_one_address_gets_a_few_confirmations_a_day_whoever_asks(mailed):
    store, client, _, _ = mailed
    games = [client.post("/api/games", json={"ruleset": "manoeuvre"}).json() for _ in range(2)]
    asked = [subscribe(client, games[0], "north", "victim@example.org"),
             subscribe(client, games[0], "south", "Victim@Example.org"),  # the same mailbox, other letters
             subscribe(client, games[1], "north", "victim@example.org")]
    assert [answer.status_code for answer in asked] == [201] * CONFIRMATIONS_PER_ADDRESS
    assert client.delete(f"/api/games/{games[0]['id']}/subscriptions/{asked[0].json()['id']}",
                         headers=bearer(games[0]["seats"]["north"]["token"])).status_code == 204  # not a new try
    refused = subscribe(client, games[1], "south", "victim@example.org")
    assert refused.status_code == 429 and refused.json()["code"] == "too_many_emails"
    assert 0 < int(refused.headers["Retry-After"]) <= 24 * 3600 + 1 and refused.json()["retry_after"]
    assert "aujourd'hui" in refused.json()["fr"]
    assert store.subscriptions.of_seat(games[1]["id"], "south") == []  # nothing kept
    assert subscribe(client, games[1], "south", "someone.else@example.org").status_code == 201


def test_past_the_servers_hourly_share_confirmations_are_refused_and_notices_wait(db):
    store = Store(db)
    try:
        with MailBox() as box:
            settings = Settings.from_environment({**box.environment(), "KADESH_EMAILS_PER_HOUR": "2"})
            assert settings.mailing == Mailing(per_hour=2)
            with TestClient(create_app(store=store, local_workers=0, notice_settings=settings)) as client:
                created = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
                first = subscribe(client, created, "north", "a@example.org").json()
                assert subscribe(client, created, "north", "b@example.org").status_code == 201
                refused = subscribe(client, created, "north", "c@example.org")
                assert refused.status_code == 429 and "heure" in refused.json()["fr"]
            deliver_all(store, settings)  # the two confirmations go (they were counted when asked for)
            wait_until(lambda: len(box.messages) == 2, "the confirmations")
            subscription = store.subscriptions.confirm(store.subscriptions.get(first["id"]).confirm_key)
            store.subscriptions.ask_test(subscription)
            deliver_all(store, settings)
            with store.engine.connect() as conn:
                test = conn.execute(select(schema.jobs).where(schema.jobs.c.kind == "test")).one()
            assert test.attempts == 0 and test.run_after > datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
            assert len(box.messages) == 2  # the test notice waits for the hour to pass: not sent, not lost
    finally:
        store.close()


def test_one_address_receives_so_many_notices_an_hour(db):
    store = Store(db)
    try:
        mailing, now = Mailing(), datetime.now(UTC)
        for minute in range(EMAILS_PER_ADDRESS_HOUR):
            store.subscriptions.count_email("busy@example.org", "turn", now - timedelta(minutes=59 - minute))
        assert 0 < store.subscriptions.email_wait("BUSY@example.org", mailing, now) <= 61
        assert store.subscriptions.email_wait("calm@example.org", mailing, now) == 0
        assert store.subscriptions.email_wait("busy@example.org", mailing, now + timedelta(minutes=2)) == 0
    finally:
        store.close()
