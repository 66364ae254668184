"""Rate limits per client address (issue 40, finding 3 and « Rate limits »): games, rematches, simulations,
subscriptions, test notices, odds and previews; 429 with Retry-After; the forwarded address believed only from
the operator's proxies."""

from __future__ import annotations

import httpx
import pytest

from kadesh.server.app import create_app
from kadesh.server.delivery import Settings
from kadesh.server.rates import BadLimits, RatePolicy, client_key
from kadesh.store import Store
from tests.asgi_client import TestClient
from tests.server_support import ServerProcess

MANOEUVRE = {"ruleset": "manoeuvre"}


@pytest.fixture
def app_of(tmp_path):
    """An app on a fresh SQLite file with a given rate policy, its store, seen from a given peer."""
    made = []

    def make(policy: RatePolicy, peer: str = "203.0.113.7") -> tuple[TestClient, Store]:
        store = Store(f"sqlite:///{tmp_path / f'k{len(made)}.sqlite3'}")
        app = create_app(store=store, local_workers=0, rate_policy=policy,
                         notice_settings=Settings(smtp_host="127.0.0.1", private_webhooks=True))
        client = TestClient(app, client=(peer, 40000))
        client.__enter__()
        made.append((client, store))
        return client, store

    yield make
    for client, store in made:
        client.__exit__(None, None, None)
        store.close()


def games_stored(store: Store) -> int:
    with store.engine.connect() as conn:
        return conn.exec_driver_sql("SELECT count(*) FROM games").scalar_one()


def test_one_address_creates_twenty_games_a_minute_then_is_told_when_to_come_back(app_of):
    client, store = app_of(RatePolicy.from_environment({}))  # the defaults
    for _ in range(20):
        assert client.post("/api/games", json=MANOEUVRE).status_code == 201
    refused = client.post("/api/games", json=MANOEUVRE)
    assert refused.status_code == 429
    problem = refused.json()
    assert problem["code"] == "rate_limited" and problem["limit"] == "games"
    wait = int(refused.headers["Retry-After"])
    assert 1 <= wait <= 60 and problem["retry_after"] == wait
    assert "Trop de parties créées" in problem["fr"] and "Too many games created" in problem["en"]
    assert games_stored(store) == 20  # the refused one left nothing


def test_a_rematch_counts_as_a_game_and_other_addresses_have_their_own_share(app_of, tmp_path):
    client, store = app_of(RatePolicy.defaults(games="2/minute"))
    first = client.post("/api/games", json=MANOEUVRE).json()
    owner = {"Authorization": f"Bearer {first['owner']['token']}"}
    north = {"Authorization": f"Bearer {first['seats']['north']['token']}"}
    resigned = client.post(f"/api/games/{first['id']}/actions", headers=north,
                           json={"expected_version": 0, "action": {"type": "resign"}})
    assert resigned.status_code == 200, resigned.text
    assert client.post("/api/games", json=MANOEUVRE).status_code == 201
    rematch = client.post(f"/api/games/{first['id']}/rematch", headers=owner)
    assert rematch.status_code == 429 and rematch.json()["limit"] == "games"
    other = TestClient(client.app, client=("198.51.100.9", 40000))
    assert other.post("/api/games", json=MANOEUVRE).status_code == 201
    assert games_stored(store) == 3


@pytest.mark.parametrize("kind", ["simulations", "checks"])
def test_simulations_and_checks_are_counted_before_their_body_is_read(app_of, kind):
    client, _ = app_of(RatePolicy.defaults(**{kind: "3/minute"}))
    if kind == "simulations":
        path, body = "/api/rulesets/manoeuvre/simulate", {"seats": {"north": "nobody", "south": "nobody"}}
    else:
        path, body = "/api/rulesets/manoeuvre/seats", {"options": {"choice": "nothing"}}
    answers = [client.post(path, json=body).status_code for _ in range(3)]
    assert 429 not in answers  # refused for what they hold (422), but counted
    refused = client.post(path, content=b"x" * 100, headers={"Content-Type": "text/plain"})
    assert refused.status_code == 429 and refused.json()["limit"] == kind  # not 415: the body was never read


def test_odds_and_previews_share_the_checks_limit(app_of):
    client, _ = app_of(RatePolicy.defaults(checks="4/minute"))
    created = client.post("/api/games", json=MANOEUVRE).json()
    seat = {"Authorization": f"Bearer {created['seats']['north']['token']}"}
    asked = [client.post(f"/api/games/{created['id']}/{what}", headers=seat, json={"action": {"type": "resign"}})
             for what in ("odds", "preview", "odds", "preview", "odds")]
    assert [a.status_code for a in asked] == [200, 200, 200, 200, 429]
    assert client.get(f"/api/games/{created['id']}/legal", headers=seat).status_code == 200  # reading is not counted


def test_subscriptions_and_test_notices_are_limited_per_address(app_of):
    client, _ = app_of(RatePolicy.defaults(subscriptions="2/hour", test_notices="1/hour"))
    created = client.post("/api/games", json=MANOEUVRE).json()
    game, seat = created["id"], {"Authorization": f"Bearer {created['seats']['north']['token']}"}
    made = [client.post(f"/api/games/{game}/subscriptions", headers=seat,
                        json={"channel": "webhook", "address": f"http://127.0.0.1:9/{n}"}) for n in range(3)]
    assert [m.status_code for m in made] == [201, 201, 429]
    assert "Trop d'abonnements" in made[2].json()["fr"]
    hook = made[0].json()["id"]
    tests = [client.post(f"/api/games/{game}/subscriptions/{hook}/test", headers=seat) for _ in range(2)]
    assert [t.status_code for t in tests] == [202, 429]
    assert int(tests[1].headers["Retry-After"]) > 60 and "min" in tests[1].json()["en"]


def test_a_limit_of_none_lets_everything_through(app_of):
    client, _ = app_of(RatePolicy.defaults(games="none"))
    assert all(client.post("/api/games", json=MANOEUVRE).status_code == 201 for _ in range(25))


def test_limits_and_proxies_that_do_not_read_are_refused_at_start():
    with pytest.raises(BadLimits, match="KADESH_LIMIT_GAMES"):
        RatePolicy.from_environment({"KADESH_LIMIT_GAMES": "twenty a minute"})
    with pytest.raises(BadLimits, match="KADESH_TRUSTED_PROXIES"):
        RatePolicy.from_environment({"KADESH_TRUSTED_PROXIES": "10.0.0.1, nginx"})


# -- who is counted ----------------------------------------------------------------------------------------
def scope(peer: str, *forwarded: str) -> dict:
    return {"client": (peer, 1234), "headers": [(b"x-forwarded-for", value.encode()) for value in forwarded]}


def test_the_forwarded_address_is_believed_only_from_the_operators_proxies():
    proxies = RatePolicy.from_environment({"KADESH_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8"}).proxies
    assert client_key(scope("203.0.113.7", "198.51.100.1"), proxies) == "203.0.113.7"  # not a proxy: ignored
    assert client_key(scope("127.0.0.1", "198.51.100.1"), proxies) == "198.51.100.1"
    # The client wrote its own X-Forwarded-For; the proxies appended what they saw: the nearest stranger counts.
    assert client_key(scope("127.0.0.1", "1.2.3.4, 198.51.100.1, 10.1.1.1"), proxies) == "198.51.100.1"
    assert client_key(scope("127.0.0.1", "1.2.3.4", "198.51.100.1"), proxies) == "198.51.100.1"
    assert client_key(scope("127.0.0.1", "not an address"), proxies) == "127.0.0.1"
    assert client_key(scope("127.0.0.1"), proxies) == "127.0.0.1"
    assert client_key(scope("127.0.0.1", "198.51.100.1"), ()) == "127.0.0.1"  # no proxy configured


def test_ipv6_clients_count_by_their_64_block_and_mapped_ipv4_as_ipv4():
    assert client_key(scope("2001:db8:1:2:aaaa::1"), ()) == client_key(scope("2001:db8:1:2:bbbb::9"), ())
    assert client_key(scope("2001:db8:1:3::1"), ()) != client_key(scope("2001:db8:1:2::1"), ())
    assert client_key(scope("::ffff:192.0.2.5"), ()) == "192.0.2.5"


def test_kadesh_serve_believes_no_forwarded_address_unless_told(tmp_path, monkeypatch):
    monkeypatch.setenv("KADESH_LIMIT_GAMES", "2/minute")
    monkeypatch.delenv("KADESH_TRUSTED_PROXIES", raising=False)
    server = ServerProcess(f"sqlite:///{tmp_path / 'k.sqlite3'}", tmp_path / "serve.log", None,
                           "--workers", "0", "--log-level", "warning").start()
    try:
        answers = [httpx.post(f"{server.url}/api/games", json=MANOEUVRE, headers={"X-Forwarded-For": f"192.0.2.{n}"},
                              timeout=30) for n in range(3)]
        assert [a.status_code for a in answers] == [201, 201, 429]
    finally:
        server.kill()
    monkeypatch.setenv("KADESH_TRUSTED_PROXIES", "127.0.0.1")
    server.start()
    try:
        answers = [httpx.post(f"{server.url}/api/games", json=MANOEUVRE, headers={"X-Forwarded-For": f"192.0.2.{n}"},
                              timeout=30) for n in range(3)]
        assert [a.status_code for a in answers] == [201, 201, 201]
    finally:
        server.kill()


def test_kadesh_serve_refuses_to_start_on_limits_that_do_not_read(tmp_path, monkeypatch):
    monkeypatch.setenv("KADESH_LIMIT_SIMULATIONS", "lots")
    server = ServerProcess(f"sqlite:///{tmp_path / 'k.sqlite3'}", tmp_path / "serve.log", None, "--workers", "0")
    with pytest.raises(AssertionError, match="KADESH_LIMIT_SIMULATIONS='lots'"):
        server.start(timeout=30)


def test_the_pages_of_the_e_mails_links_are_limited_per_address(app_of):
    client, _ = app_of(RatePolicy.defaults(links="2/minute"))
    answers = [client.post(f"/{page}/{'k' * 32}").status_code for page in ("confirm", "unsubscribe", "confirm")]
    assert answers[:2] == [404, 404]  # no such link, but counted
    assert answers[2] == 429
    assert client.get(f"/confirm/{'k' * 32}").status_code == 404  # reading the page (it asks first) is not counted


@pytest.mark.parametrize("path", ["/api/session/passkey/options", "/api/account/passkeys/options",
                                  f"/sign-in/{'k' * 32}"])
def test_passkey_ceremonies_and_sign_in_pages_are_limited_per_address(app_of, path):
    client, _ = app_of(RatePolicy.defaults(sign_in="2/minute"))
    answers = [client.post(path, json={"name": "Kagemni"}).status_code for _ in range(3)]
    assert 429 not in answers[:2] and answers[2] == 429
    refused = client.post(path, json={"name": "Kagemni"}).json()
    assert refused["limit"] == "sign_in" and "connexions" in refused["fr"]


def test_sign_in_links_are_limited_per_address_beside_the_mails_own_limits(app_of):
    client, _ = app_of(RatePolicy.defaults(sign_in_emails="1/hour"))
    assert client.post("/api/session/email", json={"address": "a@example.org"}).status_code == 202
    refused = client.post("/api/session/email", json={"address": "b@example.org"})
    assert refused.status_code == 429 and refused.json()["limit"] == "sign_in_emails"


def test_every_kind_of_limit_says_what_it_limits_in_both_languages():
    from kadesh.server.rates import KINDS, WORDS

    assert set(WORDS) == set(KINDS)


def test_an_accounts_webhooks_count_as_subscriptions(app_of):
    client, _ = app_of(RatePolicy.defaults(subscriptions="1/hour"))
    assert client.post("/api/account/webhooks", json={"address": "https://example.org/hook"}).status_code == 401
    refused = client.post("/api/account/webhooks", json={"address": "https://example.org/hook"})
    assert refused.status_code == 429 and refused.json()["limit"] == "subscriptions"


@pytest.mark.parametrize("path", ["/api/open-games", "/api/players/Personne", "/api/maps?ruleset=front"])
def test_the_lists_that_load_games_are_limited_per_address(app_of, path):
    client, _ = app_of(RatePolicy.defaults(lists="2/minute"))
    assert 429 not in [client.get(path).status_code for _ in range(2)]
    refused = client.get(path)
    assert refused.status_code == 429 and refused.json()["limit"] == "lists"



def test_maps_checked_and_maps_written_have_limits_of_their_own(app_of):
    client, _ = app_of(RatePolicy.defaults(maps_check="2/minute", maps="3/minute"))
    checks = [client.post(path, json={"ruleset": "front", "toml": "x"})
              for path in ("/api/maps/check", "/api/maps/preview", "/api/maps/check")]
    assert [c.status_code for c in checks] == [200, 422, 429] and checks[2].json()["limit"] == "maps_check"
    writes = [client.post("/api/maps", json={}), client.put("/api/maps/abc", json={}), client.delete("/api/maps/abc"),
              client.post("/api/maps/abc/publish")]
    assert [w.status_code for w in writes] == [401, 401, 401, 429]  # anonymous, but counted
    assert writes[3].json()["limit"] == "maps"
