"""Notices for games played over days (issue 25): subscriptions per seat, delivered by the workers.

A change of turn queues one notice per subscription of the seat whose turn it has become, in the action's own
transaction; worker threads send them by e-mail (a real SMTP server on loopback, aiosmtpd) or webhook (a real
HTTP receiver on loopback), exactly once, retried when they fail, never on the action's path."""

from __future__ import annotations

import os
import random
import re
import signal
import socket
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from kadesh.core import new_game
from kadesh.server.app import create_app
from kadesh.server.delivery import (
    Deliverer,
    DeliveryError,
    Settings,
    check_webhook,
    public_address,
    send_email,
    send_webhook,
    webhook_body,
)
from kadesh.server.notices import Notice, compose
from kadesh.store import Store, schema
from kadesh.store.store import notices_due
from kadesh.store.subscriptions import Subscription
from tests.asgi_client import TestClient
from tests.kadesh_http import migrated_url
from tests.notice_support import Hooks, MailBox, process_with_port
from tests.server_support import play_maladroit, start_servers
from tests.test_workers import start_worker, stop
from tests.waiting import CEILING, wait_until

LOOPBACK = Settings(private_webhooks=True, retry=0.05)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def app_client(db):
    store = Store(db)
    app = create_app(store=store, local_workers=0, notice_settings=Settings(smtp_host="127.0.0.1",
                                                                            private_webhooks=True))
    with TestClient(app) as client:
        yield client, store
    store.close()


def new_battle(client) -> tuple[str, dict[str, str], str]:
    created = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    return created["id"], {s: v["token"] for s, v in created["seats"].items()}, created["owner"]["token"]


# -- subscribing -------------------------------------------------------------------------------------------
def test_a_seat_subscribes_lists_tests_and_removes_its_subscriptions(app_client):
    client, store = app_client
    game_id, tokens, _ = new_battle(client)
    north = bearer(tokens["north"])
    made = client.post(f"/api/games/{game_id}/subscriptions", headers=north,
                       json={"channel": "email", "address": "nord@example.org", "remind_before": 60})
    assert made.status_code == 201
    hook = client.post(f"/api/games/{game_id}/subscriptions", headers=north, json={
        "channel": "webhook", "address": "https://discord.com/api/webhooks/1/x", "lang": "en"}).json()
    assert hook["style"] == "discord"  # found from the URL
    listed = client.get(f"/api/games/{game_id}/subscriptions", headers=north).json()
    assert listed["email"] is True and [s["address"] for s in listed["subscriptions"]] == [
        "nord@example.org", "https://discord.com/api/webhooks/1/x"]
    # The other seat sees none of them, and cannot touch them.
    south = bearer(tokens["south"])
    assert client.get(f"/api/games/{game_id}/subscriptions", headers=south).json()["subscriptions"] == []
    assert client.delete(f"/api/games/{game_id}/subscriptions/{hook['id']}", headers=south).status_code == 404
    assert made.json()["confirmed"] is False and hook["confirmed"] is True  # an e-mail waits for its owner's yes
    assert client.post(f"/api/games/{game_id}/subscriptions/{hook['id']}/test", headers=north).status_code == 202
    untested = client.post(f"/api/games/{game_id}/subscriptions/{made.json()['id']}/test", headers=north)
    assert untested.status_code == 409 and untested.json()["code"] == "not_confirmed"
    assert store.jobs.pending() == 2  # the e-mail's confirmation, the webhook's test
    assert client.delete(f"/api/games/{game_id}/subscriptions/{hook['id']}", headers=north).status_code == 204
    assert len(store.subscriptions.of_seat(game_id, "north")) == 1
    # The subscription keeps the seat's link, absolute: the notices carry it.
    assert store.subscriptions.of_seat(game_id, "north")[0].link.endswith(f"/play/{game_id}#token={tokens['north']}")


@pytest.mark.parametrize(("body", "code"), [
    ({"channel": "email", "address": "not an address"}, "bad_address"),
    ({"channel": "email", "address": "a@b.c\r\nBcc: x@y.z"}, "bad_address"),
    ({"channel": "webhook", "address": "ftp://example.org/hook"}, "bad_url"),
    ({"channel": "webhook", "address": "javascript:alert(1)"}, "bad_url"),
    ({"channel": "webhook", "address": "http://example.org:99999/hook"}, "bad_url"),
    ({"channel": "webhook", "address": "http://[::1/hook"}, "bad_url"),
    ({"channel": "pigeon", "address": "a@b.c"}, "invalid_request"),
    ({"channel": "email", "address": "a@b.c", "remind_before": 1}, "invalid_request"),
])
def test_a_bad_subscription_is_refused_clearly_and_nothing_is_kept(app_client, body, code):
    client, store = app_client
    game_id, tokens, _ = new_battle(client)
    answer = client.post(f"/api/games/{game_id}/subscriptions", headers=bearer(tokens["north"]), json=body)
    assert answer.status_code == 422 and answer.json()["code"] == code, answer.json()
    assert answer.json()["fr"] and answer.json()["en"]
    assert store.subscriptions.of_seat(game_id, "north") == []


def test_private_webhooks_and_email_are_refused_unless_the_server_allows_them(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/plain.sqlite3")
    with TestClient(create_app(store=store, local_workers=0, notice_settings=Settings())) as client:
        game_id, tokens, _ = new_battle(client)
        north = bearer(tokens["north"])
        for address in ("http://127.0.0.1:9/hook", "http://10.1.2.3/hook", "http://[::1]/hook"):
            answer = client.post(f"/api/games/{game_id}/subscriptions", headers=north,
                                 json={"channel": "webhook", "address": address})
            assert answer.status_code == 422 and answer.json()["code"] == "private_host"
        answer = client.post(f"/api/games/{game_id}/subscriptions", headers=north,
                             json={"channel": "email", "address": "nord@example.org"})
        assert answer.status_code == 422 and answer.json()["code"] == "email_unavailable"
        assert client.get(f"/api/games/{game_id}/subscriptions", headers=north).json()["email"] is False
    store.close()


def test_only_a_seat_subscribes_and_at_most_five_times(app_client):
    client, _ = app_client
    created = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    for watcher in (created["spectator"]["token"], created["owner"]["token"]):
        answer = client.post(f"/api/games/{created['id']}/subscriptions", headers=bearer(watcher),
                             json={"channel": "email", "address": "a@example.org"})
        assert answer.status_code == 403
    north = bearer(created["seats"]["north"]["token"])
    for index in range(5):
        assert client.post(f"/api/games/{created['id']}/subscriptions", headers=north,
                           json={"channel": "email", "address": f"n{index}@example.org"}).status_code == 201
    answer = client.post(f"/api/games/{created['id']}/subscriptions", headers=north,
                         json={"channel": "email", "address": "n6@example.org"})
    assert answer.status_code == 422 and answer.json()["code"] == "too_many_subscriptions"


def test_reissuing_a_seats_token_drops_its_subscriptions_only(app_client):
    client, store = app_client
    game_id, tokens, owner = new_battle(client)
    for seat in ("north", "south"):
        client.post(f"/api/games/{game_id}/subscriptions", headers=bearer(tokens[seat]),
                    json={"channel": "email", "address": f"{seat}@example.org"})
    assert client.post(f"/api/games/{game_id}/tokens/north", headers=bearer(owner)).status_code == 200
    assert store.subscriptions.of_seat(game_id, "north") == []
    assert len(store.subscriptions.of_seat(game_id, "south")) == 1


def test_the_unsubscribe_link_asks_first_then_unsubscribes(app_client):
    client, store = app_client
    game_id, tokens, _ = new_battle(client)
    client.post(f"/api/games/{game_id}/subscriptions", headers=bearer(tokens["north"]),
                json={"channel": "email", "address": "nord@example.org"})
    key = store.subscriptions.of_seat(game_id, "north")[0].unsubscribe_key
    page = client.get(f"/unsubscribe/{key}")
    assert page.status_code == 200 and "nord@example.org" in page.text and "Nord" in page.text
    assert len(store.subscriptions.of_seat(game_id, "north")) == 1  # a mail scanner's GET changes nothing
    assert "Unsubscribe" in client.get(f"/unsubscribe/{key}?lang=en").text
    done = client.post(f"/unsubscribe/{key}", data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200 and "C'est fait" in done.text
    assert store.subscriptions.of_seat(game_id, "north") == []
    assert client.get(f"/unsubscribe/{key}").status_code == 404
    assert client.post(f"/unsubscribe/{'x' * 80}").status_code == 422


# -- what is due, and what a notice says -------------------------------------------------------------------
def test_notices_due_follow_the_turns():
    both = frozenset({"north", "south"})
    assert notices_due("north", frozenset({"north"}), frozenset({"south"}), None, ["north", "south"], ()) == [
        ("turn", "south")]
    assert notices_due("north", frozenset({"north"}), frozenset({"north"}), None, ["north", "south"], ()) == []
    assert notices_due("north", both, frozenset({"south"}), None, ["north", "south"], ()) == []
    assert notices_due("north", frozenset({"north"}), frozenset(), {"winner": "north"}, ["north", "south"], ()) == [
        ("over", "south")]
    kingdoms, master = ["koush", "libye", "imhotep"], ("imhotep",)
    # The last orders of a turn: the turn is judged and the next begins, the last sender's included.
    assert notices_due("koush", frozenset({"koush"}), frozenset({"koush", "libye"}), None, kingdoms, master,
                       new_round=True) == [("turn", "koush"), ("turn", "libye"), ("ready", "imhotep")]
    assert notices_due("koush", frozenset({"koush", "libye"}), frozenset({"libye"}), None, kingdoms, master) == []
    # Imhotep judging at the deadline: a new turn for all, Libye's too though it never sent its orders.
    assert notices_due("imhotep", frozenset({"libye"}), frozenset({"koush", "libye"}), None, kingdoms, master,
                       new_round=True) == [("turn", "koush"), ("turn", "libye")]


def test_webhook_bodies_take_discords_and_slacks_shapes():
    game = new_game("manoeuvre", seed="shapes")
    notice = compose(game, "g1", "test", 0, "north", "fr", "https://kadesh.example/play/g1?token=t")
    assert set(webhook_body(notice, "discord")) == {"content", "allowed_mentions"}
    assert webhook_body(notice, "slack") == {"text": notice.text()}
    payload = webhook_body(notice, "kadesh")
    assert payload["type"] == "test" and payload["seat"] == {"id": "north", "name": "Nord"}
    assert payload["link"] == "https://kadesh.example/play/g1?token=t"


def _play_front(seed: int, actions: int):
    game = new_game("front", seed=f"notices-{seed}")
    rng = random.Random(seed)
    for _ in range(actions):
        if game.outcome is not None:
            break
        seat = game.to_act()[0]
        legal = [a for a in game.legal_actions(seat) if a.get("type") != "resign"]
        game.act(seat, rng.choice(legal))
    return game


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), actions=st.integers(0, 120), kind=st.sampled_from(
    ["turn", "over", "remind", "test", "ready"]), lang=st.sampled_from(["fr", "en"]))
def test_no_notice_carries_what_its_seat_may_not_see(seed, actions, kind, lang):
    """Front has fog of war: whatever the moment, a notice holds only lines of its seat's own journal, and
    none of the lines only the other side may read."""
    game = _play_front(seed, actions)
    for seat in game.seats:
        notice = compose(game, "g", kind, game.version, seat, lang, "https://k.example/play/g?token=secret")
        own = {line for _, line, _ in game.journal_marked(seat, lang)}
        others = {line for other in game.seats if other != seat
                  for _, line, _ in game.journal_marked(other, lang)} - own
        assert set(notice.lines) <= own
        text = notice.text("https://k.example/unsubscribe/k")
        assert not any(line in text for line in others)
        # From the events themselves, not the journal: nothing told of an event hidden from this seat.
        narrator = game.ruleset.narrator(game.options)
        hidden = {narrator(event, event.audience[0], lang) for _, event in game.events
                  if event.audience and not event.visible_to(seat)} - {None} - own
        assert not any(line in text for line in hidden)
        assert game.seed not in str(notice.payload())


# -- delivery ----------------------------------------------------------------------------------------------
def test_a_failed_webhook_is_shown_then_tried_again_and_delivered_once(db):
    store = Store(db)
    try:
        with Hooks(fail_first=True) as hooks:
            created = store.create_game("manoeuvre")
            link = f"http://kadesh.example/play/{created.id}?token={created.seat_tokens['north']}"
            subscription = store.subscriptions.add(created.id, "north", "webhook", hooks.url, "kadesh", "fr", link)
            store.subscriptions.ask_test(subscription)
            deliverer = Deliverer(store, "test-worker", LOOPBACK, threads=1)
            assert deliverer.work_once()
            assert len(hooks.failed) == 1 and hooks.received == []
            failed = store.subscriptions.get(subscription.id)
            assert failed.last_error == "http_status:500" and failed.last_error_at is not None
            wait_until(deliverer.work_once, "the second try, after its pause")
            assert len(hooks.received) == 1 and store.jobs.pending() == 0
            sent = store.subscriptions.get(subscription.id)
            assert sent.last_error is None and sent.last_sent_at is not None
    finally:
        store.close()


def test_a_webhook_that_redirects_has_failed_and_its_redirect_is_never_followed(db):
    """Following it would call an address never checked: inside the server's network, say."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    store = Store(db)
    with Hooks() as inside:
        class Redirect(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                self.send_response(302)  # urllib would follow it, as a GET
                self.send_header("Location", inside.url)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            created = store.create_game("manoeuvre")
            subscription = store.subscriptions.add(created.id, "north", "webhook",
                                                   f"http://127.0.0.1:{server.server_port}/hook", "kadesh", "fr",
                                                   "http://kadesh.example/play/x#token=t")
            store.subscriptions.ask_test(subscription)
            assert Deliverer(store, "test-worker", LOOPBACK, threads=1).work_once()
            assert store.subscriptions.get(subscription.id).last_error == "http_status:302"
            assert inside.received == []
        finally:
            server.shutdown()
            server.server_close()
            store.close()


def test_a_reminder_goes_once_before_the_deadline_to_a_kingdom_that_has_not_sent_its_orders(db):
    store = Store(db)
    try:
        with Hooks() as hooks:
            created = store.create_game("royaumes")
            subscriptions = {}
            for kingdom in ("koush", "libye"):
                link = f"http://kadesh.example/play/{created.id}?token={created.seat_tokens[kingdom]}"
                subscriptions[kingdom] = store.subscriptions.add(created.id, kingdom, "webhook", hooks.url, "kadesh",
                                                                 "en", link, remind_before=60)
            deadline = datetime.now(UTC) + timedelta(minutes=30)
            store.act(created.id, "imhotep", 0, {"type": "set_deadline", "deadline": deadline.isoformat()})
            store.act(created.id, "libye", 1, {"type": "orders", "text": ""})
            assert store.subscriptions.queue_reminders() == 2
            assert store.subscriptions.queue_reminders() == 0  # once per deadline, whoever looks again
            deliverer = Deliverer(store, "test-worker", LOOPBACK, threads=1)
            while deliverer.work_once():
                pass
            assert [(body["type"], body["seat"]["id"]) for body in hooks.received] == [("remind", "koush")]
            assert hooks.received[0]["deadline"] and "(UTC)" in hooks.received[0]["text"]
    finally:
        store.close()


def test_imhotep_is_told_when_every_order_is_in(db):
    store = Store(db)
    try:
        created = store.create_game("royaumes")
        link = f"http://kadesh.example/play/{created.id}?token={created.seat_tokens['imhotep']}"
        store.subscriptions.add(created.id, "imhotep", "webhook", "http://127.0.0.1:9/hook", "kadesh", "fr", link)
        kingdoms = [seat for seat in created.seat_tokens if seat != "imhotep"]
        link = f"http://kadesh.example/play/{created.id}?token={created.seat_tokens[kingdoms[0]]}"
        store.subscriptions.add(created.id, kingdoms[0], "webhook", "http://127.0.0.1:9/hook", "kadesh", "fr", link)
        for version, kingdom in enumerate(kingdoms):
            result = store.act(created.id, kingdom, version, {"type": "orders", "text": ""})
            assert result.noticed == (kingdom == kingdoms[-1])
        with store.engine.connect() as conn:
            kinds = conn.execute(select(schema.jobs.c.kind, schema.jobs.c.version).order_by(schema.jobs.c.kind)).all()
        # The turn is judged when the last orders are in: Imhotep is told, and the first kingdom's turn begins.
        assert [tuple(row) for row in kinds] == [("ready", len(kingdoms)), ("turn", len(kingdoms))]
    finally:
        store.close()


# -- a whole game over HTTP, with real servers and workers ---------------------------------------------------
def play_whole_game(urls: list[str], game_id: str, tokens: dict[str, str], resign_at: int = 120) -> list[tuple]:
    """Play the game to its end through the servers in turn (Maladroit's choices, a resignation at
    ``resign_at``); the notices expected by the rule: a turn for each seat whose turn has just come, and the
    end for every seat but the one that ended it. (kind, seat, version) in order."""
    expected: list[tuple] = []
    before: set[str] = set()

    def watch(game: dict, actor: str | None) -> None:
        nonlocal before
        now = set(game["to_act"])
        if actor is not None and game["outcome"] is not None:
            expected.extend(("over", seat, game["version"]) for seat in tokens if seat != actor)
        elif actor is not None:
            expected.extend(("turn", seat, game["version"]) for seat in tokens if seat in now and seat not in before)
        before = now

    with httpx.Client(timeout=30) as http:
        play_maladroit(http, urls, game_id, tokens, resign_at, watch)
    return expected


def subscribe_everyone(url: str, game_id: str, tokens: dict[str, str], hooks: Hooks) -> None:
    with httpx.Client(timeout=30) as http:
        for seat, token in tokens.items():
            for body in ({"channel": "email", "address": f"{seat}@example.org"},
                         {"channel": "webhook", "address": hooks.url}):
                assert http.post(f"{url}/api/games/{game_id}/subscriptions", headers=bearer(token),
                                 json=body).status_code == 201


def confirm_every_address(url: str, mail: MailBox, addresses: int) -> None:
    """Open the link of each confirmation message, as the addresses' owners would, and say yes."""
    wait_until(lambda: len(mail.messages) >= addresses, "the confirmation messages")
    with httpx.Client(timeout=30) as http:
        for message in list(mail.messages):
            key = re.search(r"/confirm/([\w-]+)", message.get_content()).group(1)
            assert http.post(f"{url}/confirm/{key}").status_code == 200
    assert len(mail.messages) == addresses  # nothing but the confirmations before they were confirmed
    mail.messages.clear()


def check_delivered(game_id: str, expected: list[tuple], mail: MailBox, hooks: Hooks, tokens: dict[str, str]) -> None:
    """Every expected notice arrives once by each channel, and nothing else (watched a while longer)."""
    wanted_hooks = sorted(f"{game_id}-{version}-{seat}-{kind}" for kind, seat, version in expected)
    wait_until(lambda: len(hooks.received) >= len(wanted_hooks) and len(mail.messages) >= len(expected),
               "every notice of the game")
    time.sleep(2.0)  # any notice sent twice would have come by now (a bound on waiting, not a timing test)
    assert sorted(body["id"] for body in hooks.received) == wanted_hooks
    ids = sorted(message["Message-ID"].split(".")[:3] for message in mail.messages)
    assert ids == sorted([f"<{game_id}", str(version), kind] for kind, seat, version in expected)
    for message in mail.messages:
        unsubscribe = message["List-Unsubscribe"].strip()
        assert unsubscribe.startswith("<http") and "/unsubscribe/" in unsubscribe
        assert f"/play/{game_id}#token=" in message.get_content()
    for body in hooks.received:  # each notice carries its own seat's link, and no other seat's
        assert body["link"].endswith(f"/play/{game_id}#token={tokens[body['seat']['id']]}")


@pytest.mark.slow
def test_a_whole_game_on_sqlite_sends_each_seat_its_notices_once(tmp_path, monkeypatch, migrated_sqlite):
    with MailBox() as mail, Hooks() as hooks:
        for name, value in {**mail.environment(), "KADESH_WEBHOOKS_PRIVATE": "allow",
                            "KADESH_NOTICE_RETRY": "0.2"}.items():
            monkeypatch.setenv(name, value)
        [server] = start_servers(migrated_url(migrated_sqlite, tmp_path / "notices.sqlite3"), tmp_path, 1)
        try:
            created = httpx.post(f"{server.url}/api/games", json={"ruleset": "manoeuvre"}).json()
            tokens = {seat: link["token"] for seat, link in created["seats"].items()}
            subscribe_everyone(server.url, created["id"], tokens, hooks)
            confirm_every_address(server.url, mail, len(tokens))
            expected = play_whole_game([server.url], created["id"], tokens)
            assert any(kind == "turn" for kind, _, _ in expected) and expected[-1][0] == "over"
            check_delivered(created["id"], expected, mail, hooks, tokens)
        finally:
            server.kill()


@pytest.mark.slow
@pytest.mark.postgresql
def test_two_servers_and_two_workers_on_postgresql_send_each_notice_once_across_a_killed_worker(
        postgres, tmp_path, monkeypatch):
    """The first webhook call is held unanswered and the worker making it is SIGKILLed before its timeout: its
    claim runs out and the other worker sends that notice; every notice still arrives once by each channel."""
    db = postgres.new_database(migrated=True)
    with MailBox() as mail, Hooks(hold=True) as hooks:
        for name, value in {**mail.environment(), "KADESH_WEBHOOKS_PRIVATE": "allow", "KADESH_NOTICE_RETRY": "0.2",
                            "KADESH_NOTICE_TIMEOUT": "5"}.items():  # the kill comes well before it
            # (a notice's claim lasts the lease and three timeouts, 17 s: the survivor sends the held notice then)
            monkeypatch.setenv(name, value)
        servers = start_servers(db, tmp_path, 2, "--workers", "0")
        # One notice at a time each: the worker killed holds the held notice and no other one half sent (a
        # notice accepted by its receiver just before a SIGKILL is sent again: the documented window).
        workers = [start_worker(db, "--lease", "2", "--notice-threads", "1") for _ in range(2)]
        store = Store(db)
        try:
            urls = [server.url for server in servers]
            created = httpx.post(f"{urls[0]}/api/games", json={"ruleset": "manoeuvre"}).json()
            tokens = {seat: link["token"] for seat, link in created["seats"].items()}
            subscribe_everyone(urls[1], created["id"], tokens, hooks)
            confirm_every_address(urls[0], mail, len(tokens))
            # The held call may come early in the game, long before its end on a busy machine: its sender is
            # killed as soon as it is held, while the game goes on, so well within the call's timeout.
            with ThreadPoolExecutor(1) as killer:
                killed = killer.submit(kill_the_holder, hooks, workers)
                expected = play_whole_game(urls, created["id"], tokens)
                killed.result()
            check_delivered(created["id"], expected, mail, hooks, tokens)
        finally:
            hooks.release()
            stop(*workers)
            for server in servers:
                server.kill()
            store.close()
            postgres.drop_database(db)


def kill_the_holder(hooks: Hooks, workers: list[subprocess.Popen]) -> None:
    """SIGKILL the worker holding the held call, once it is held."""
    assert hooks.holding.wait(CEILING)  # the suite's one ceiling: a busy machine slows it, never fails it
    # The worker holding the call, known from the call's own connection.
    sender = process_with_port([w.pid for w in workers], hooks.held_from[1])
    victim = next(w for w in workers if w.pid == sender)
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(timeout=30)


SPECIAL_ADDRESSES = ["64:ff9b::7f00:1", "64:ff9b::a00:1", "64:ff9b:1::a00:1", "2002:7f00:1::1", "2002:a00:1::1",
                     "2001:0:4136:e378:8000:63bf:3fff:fdd2", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::127.0.0.1",
                     "ff0e::1", "ff02::1", "224.0.0.1", "239.1.2.3", "198.18.0.1", "192.0.2.1", "198.51.100.7",
                     "203.0.113.9", "2001:db8::1", "3fff::1", "100::1", "fec0::1", "fd00::1", "fe80::1", "::", "::1",
                     "0.0.0.0", "255.255.255.255", "100.64.0.1", "169.254.169.254", "192.0.0.170", "240.0.0.1"]


@pytest.mark.parametrize("address", SPECIAL_ADDRESSES)
def test_no_special_use_address_is_a_webhooks_home(address, monkeypatch):
    """NAT64, 6to4, Teredo and IPv4-mapped forms reach internal IPv4 addresses; multicast, documentation and
    benchmarking ranges are nobody's webhook. Some of them ``ipaddress`` calls global."""
    assert not public_address(address)
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, port, *args, **kwargs: [
        (socket.AF_INET6 if ":" in address else socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))])
    with pytest.raises(DeliveryError) as refused:
        check_webhook("https://hook.example.org/k", Settings())
    assert refused.value.code == "private_host"


def test_a_public_address_is_a_webhooks_home():
    assert public_address("93.184.216.34") and public_address("2606:2800:220:1:248:1893:25c8:1946")


def test_a_webhook_is_called_at_the_address_that_was_checked(monkeypatch):
    """A name that answers a public address to the check and a loopback one a moment later (DNS rebinding):
    the call goes to the address checked, never to a second lookup's."""
    answers = iter(["93.184.216.34", "127.0.0.1", "127.0.0.1"])

    def lookup(host, port, *args, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (next(answers), port))]

    dialled = []

    def dial(where, *args, **kwargs):
        dialled.append(where)
        raise OSError("no network in this test")

    monkeypatch.setattr(socket, "getaddrinfo", lookup)
    monkeypatch.setattr(socket, "create_connection", dial)
    notice = Notice(kind="test", game_id="g", version=1, ruleset="manoeuvre", game_title="Manœuvre", seat="north",
                    seat_name="Nord", subject="Essai", lead="Essai", lines=[], deadline=None, deadline_text=None,
                    link="http://x/play/g", lang="fr")
    subscription = Subscription(id="s", game_id="g", seat="north", channel="webhook",
                                address="http://hook.example.org/k", style="kadesh", lang="fr", link="http://x/play/g",
                                unsubscribe_key="k", remind_before=None, last_sent_at=None, last_error=None,
                                last_error_at=None)
    with pytest.raises(DeliveryError) as failed:
        send_webhook(notice, subscription, Settings())
    assert failed.value.code == "no_answer"
    assert dialled == [("93.184.216.34", 80)]


def test_a_name_with_a_line_break_never_breaks_a_mails_header():
    """A map stored before names were checked may still hold one: the mail goes, its Subject on one line."""
    notice = Notice(kind="test", game_id="g", version=1, ruleset="royaumes", game_title="Royaumes", seat="amont",
                    seat_name="Amont", subject="Royaumes : Amont\nBcc: someone@example.org\u2028!", lead="Essai",
                    lines=[], deadline=None, deadline_text=None, link="http://x/play/g", lang="fr")
    subscription = Subscription(id="s", game_id="g", seat="amont", channel="email", address="amont@example.org",
                                style="", lang="fr", link="http://x/play/g", unsubscribe_key="k", remind_before=None,
                                last_sent_at=None, last_error=None, last_error_at=None)
    with MailBox() as box:
        send_email(notice, subscription, Settings.from_environment(box.environment()))
        wait_until(lambda: box.messages, "the mail")
    (mail,) = box.messages
    assert mail["Subject"] == "Royaumes : Amont Bcc: someone@example.org !" and mail["Bcc"] is None
