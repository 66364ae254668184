"""Players' accounts (issue 41) through the API: a passkey makes an account and signs in on another device,
seats are kept in the account and played without their links, sessions end everywhere, other sites cannot write
with the cookie, and e-mailed sign-in links work once, within minutes (a real SMTP server on loopback)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from kadesh.server.app import create_app
from kadesh.server.delivery import Deliverer, Settings
from kadesh.store import Store, schema
from kadesh.store.jobs import utc_text
from kadesh.store.migrating import head_revision
from tests.asgi_client import TestClient
from tests.kadesh_http import auth, create, legal
from tests.notice_support import Hooks, MailBox, deliver_all, play_round
from tests.webauthn_support import ORIGIN, SoftPasskey, make_account

EVIL = {"Origin": "https://evil.example"}


@pytest.fixture
def server(db):
    """An app on a fresh database that mails through a real SMTP server on loopback: the store, a client
    factory (each client a device of its own) and the mail box."""
    store = Store(db)
    with MailBox() as box:
        settings = Settings.from_environment(box.environment())
        app = create_app(store=store, local_workers=0, notice_settings=settings)
        with TestClient(app, base_url=ORIGIN):  # the app's lifespan; each device has its own cookies

            def device() -> TestClient:
                return TestClient(app, base_url=ORIGIN)

            yield store, device, box, settings
    store.close()


def sign_up(client: TestClient, name: str) -> SoftPasskey:
    return make_account(client, name, ORIGIN)


def sign_in(client: TestClient, passkey: SoftPasskey, origin: str | None = None):
    begun = client.post("/api/session/passkey/options").json()
    return client.post("/api/session/passkey", json={"ceremony": begun["ceremony"],
                                                     "credential": passkey.get(begun["options"], origin)})


def test_a_passkey_makes_an_account_and_signs_in_on_another_device(server):
    store, device, _, _ = server
    desktop, phone = device(), device()
    passkey = sign_up(desktop, "Néfertari")
    cookie = desktop.cookies.jar
    session = next(c for c in cookie if c.name == "kadesh_session")
    assert session.secure and session.has_nonstandard_attr("HttpOnly")
    account = desktop.get("/api/account").json()
    assert account["name"] == "Néfertari" and len(account["passkeys"]) == 1 and account["sessions"] == 1
    assert account["passkeys"][0]["used_at"] == account["passkeys"][0]["created_at"]  # its making signed her in
    assert phone.get("/api/account").status_code == 401
    signed = sign_in(phone, passkey)
    assert signed.status_code == 200, signed.text
    assert phone.get("/api/account").json()["name"] == "Néfertari"
    assert phone.get("/api/account").json()["sessions"] == 2
    assert store.accounts.passkey(store.accounts.passkeys_of(
        store.accounts.by_name("Néfertari").id)[0].credential_id).sign_count == 1


def test_a_passkey_answer_for_another_site_or_used_twice_is_refused(server):
    _, device, _, _ = server
    passkey = sign_up(device(), "Horemheb")
    phone = device()
    assert sign_in(phone, passkey, origin="https://evil.example").json()["code"] == "passkey_refused"
    begun = phone.post("/api/session/passkey/options").json()
    answer = passkey.get(begun["options"])
    first = phone.post("/api/session/passkey", json={"ceremony": begun["ceremony"], "credential": answer})
    assert first.status_code == 200
    again = phone.post("/api/session/passkey", json={"ceremony": begun["ceremony"], "credential": answer})
    assert again.status_code == 400 and again.json()["code"] == "ceremony_over"
    stranger = sign_in(device(), SoftPasskey(ORIGIN))
    assert stranger.status_code == 401 and stranger.json()["code"] == "unknown_passkey"


NAMES = [("Ramses", "name_taken"), ("RAMSÈS", "name_taken"), ("Ramѕes", "bad_name"), ("Ra", "bad_name"),
         ("Ram\u200bses", "bad_name"), ("Ram\nses", "bad_name"), ("Rams0s", None)]


def test_names_are_unique_without_look_alikes_or_hidden_characters(server):
    _, device, _, _ = server
    sign_up(device(), "Ramsès")
    for name, code in NAMES:
        answer = device().post("/api/account/passkeys/options", json={"name": name})
        if code is None:
            assert answer.status_code == 200, (name, answer.text)
        else:
            assert answer.json()["code"] == code, (name, answer.text)


def test_a_kept_seat_is_played_from_the_account_and_its_old_link_can_be_cut(server):
    store, device, _, _ = server
    desktop = device()
    passkey = sign_up(desktop, "Séthi")
    game = create(desktop)
    gid, north = game["id"], game["seats"]["north"]["token"]
    kept = desktop.post(f"/api/games/{gid}/claim", headers=auth(north))
    assert kept.status_code == 200 and kept.json() == {"game_id": gid, "role": "seat", "seat": "north"}
    phone = device()
    assert phone.get(f"/api/games/{gid}").status_code == 401  # not signed in there yet
    assert sign_in(phone, passkey).status_code == 200
    seen = phone.get(f"/api/games/{gid}").json()
    assert seen["seat"] == "north" and seen["role"] == "seat"
    action = phone.get(f"/api/games/{gid}/legal").json()["actions"][0]
    played = phone.post(f"/api/games/{gid}/actions", json={"expected_version": 0, "action": action})
    assert played.status_code == 200, played.text
    fresh = phone.post(f"/api/games/{gid}/tokens/north")
    assert fresh.status_code == 200, fresh.text
    assert desktop.get(f"/api/games/{gid}", headers=auth(north)).json()["code"] == "token_revoked"
    assert desktop.get(f"/api/games/{gid}", headers=auth(fresh.json()["token"])).json()["seat"] == "north"
    south = phone.post(f"/api/games/{gid}/tokens/south")
    assert south.status_code == 403  # another seat's link is the owner's to replace


def test_a_seat_is_kept_by_one_account_and_an_account_keeps_one_seat(server):
    _, device, _, _ = server
    first, second = device(), device()
    sign_up(first, "Khâemouaset")
    sign_up(second, "Mérenptah")
    game = create(first)
    gid, seats = game["id"], game["seats"]
    assert first.post(f"/api/games/{gid}/claim", headers=auth(seats["north"]["token"])).status_code == 200
    assert first.post(f"/api/games/{gid}/claim", headers=auth(seats["north"]["token"])).status_code == 200  # again
    taken = second.post(f"/api/games/{gid}/claim", headers=auth(seats["north"]["token"]))
    assert taken.status_code == 409 and taken.json()["code"] == "seat_claimed"
    both = first.post(f"/api/games/{gid}/claim", headers=auth(seats["south"]["token"]))
    assert both.status_code == 409 and both.json()["code"] == "seat_claimed"
    watcher = second.post(f"/api/games/{gid}/claim", headers=auth(game["spectator"]["token"]))
    assert watcher.status_code == 403
    owned = second.post(f"/api/games/{gid}/claim", headers=auth(game["owner"]["token"]))
    assert owned.status_code == 409  # its signed-in creator owns it from their account already
    assert device().post(f"/api/games/{gid}/claim", headers=auth(seats["south"]["token"])).status_code == 401
    anonymous = create(device())  # made by nobody signed in: its owner's link may be kept
    kept = second.post(f"/api/games/{anonymous['id']}/claim", headers=auth(anonymous["owner"]["token"]))
    assert kept.json()["role"] == "owner" and second.get(f"/api/games/{anonymous['id']}").json()["role"] == "owner"


def test_a_signed_in_creator_owns_the_game_from_the_account(server):
    _, device, _, _ = server
    creator = device()
    sign_up(creator, "Imhotep l'architecte")
    game = create(creator)
    assert creator.get(f"/api/games/{game['id']}").json()["role"] == "owner"
    assert creator.post(f"/api/games/{game['id']}/tokens/south").status_code == 200  # an owner's right


def test_another_site_cannot_write_with_the_cookie(server):
    _, device, _, _ = server
    client = device()
    sign_up(client, "Toutânkhamon")
    game = create(client)
    gid = game["id"]
    assert client.post(f"/api/games/{gid}/claim", headers={**auth(game["seats"]["south"]["token"]), **EVIL}
                       ).json()["code"] == "cross_site"
    assert client.post(f"/api/games/{gid}/claim", headers=auth(game["seats"]["south"]["token"])).status_code == 200
    action = legal(client, gid, game["seats"]["south"]["token"])[0]
    refused = client.post(f"/api/games/{gid}/actions", headers=EVIL, json={"expected_version": 0, "action": action})
    assert refused.status_code == 403 and refused.json()["code"] == "cross_site"
    assert client.get(f"/api/games/{gid}").json()["version"] == 0
    for method, path in (("DELETE", "/api/sessions"), ("PATCH", "/api/account"), ("DELETE", "/api/session")):
        answer = client.request(method, path, headers=EVIL, json={"name": "Pirate"} if method == "PATCH" else None)
        assert answer.status_code == 403 and answer.json()["code"] == "cross_site", (method, path)
    assert client.get("/api/account").json()["name"] == "Toutânkhamon"
    own = client.post(f"/api/games/{gid}/actions", headers={"Origin": ORIGIN},
                      json={"expected_version": 0, "action": action})
    assert own.status_code == 200, own.text
    # With a token in hand, no cookie is looked at: a seat's token is never sent by a browser on its own.
    assert client.get(f"/api/games/{gid}", headers={**auth(game["seats"]["north"]["token"]), **EVIL}).status_code == 200


def test_signing_out_everywhere_ends_every_device(server):
    _, device, _, _ = server
    desktop, phone = device(), device()
    passkey = sign_up(desktop, "Amenhotep")
    assert sign_in(phone, passkey).status_code == 200
    assert desktop.delete("/api/sessions").status_code == 204
    assert desktop.get("/api/account").status_code == 401
    assert phone.get("/api/account").status_code == 401
    assert sign_in(phone, passkey).status_code == 200
    assert phone.delete("/api/session").status_code == 204
    assert phone.get("/api/account").status_code == 401


def test_the_last_passkey_stays_unless_another_way_in_is_left(server):
    _, device, _, _ = server
    client = device()
    sign_up(client, "Thoutmôsis")
    only = client.get("/api/account").json()["passkeys"][0]["id"]
    assert client.delete(f"/api/account/passkeys/{only}").json()["code"] == "last_way_in"
    begun = client.post("/api/account/passkeys/options", json={}).json()
    second = SoftPasskey(ORIGIN)
    added = client.post("/api/account/passkeys", json={"ceremony": begun["ceremony"],
                                                       "credential": second.create(begun["options"]),
                                                       "label": "Téléphone"})
    assert added.status_code == 201 and len(added.json()["passkeys"]) == 2
    assert client.delete(f"/api/account/passkeys/{only}").status_code == 204
    assert sign_in(device(), second).status_code == 200


def _mailed_link(store: Store, settings: Settings, box: MailBox, address: str) -> str:
    Deliverer(store, "test-worker", settings, threads=1).send_sign_in_links()
    mails = [message for message in box.messages if message["To"] == address]
    assert mails, "no sign-in e-mail"
    return re.search(r"https?://\S+/sign-in/\S+", mails[-1].get_content()).group(0)


def test_an_emailed_sign_in_link_works_once_and_only_within_minutes(server):
    store, device, box, settings = server
    client = device()
    assert client.post("/api/session/email", json={"address": "hatchepsout@example.org"}).status_code == 202
    link = _mailed_link(store, settings, box, "hatchepsout@example.org")
    path = link.split("testserver", 1)[1]
    page = client.get(path)
    assert page.status_code == 200 and 'name="name"' in page.text  # a new address: a name to choose
    assert client.get("/api/account").status_code == 401  # opening the link signed nobody in
    signed = client.post(path, content="name=Hatchepsout", follow_redirects=False,
                         headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert signed.status_code == 303, signed.text
    account = client.get("/api/account").json()
    assert account["name"] == "Hatchepsout" and account["email"] == "hatchepsout@example.org"
    again = device().post(path, content="name=Autre", headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert again.status_code == 410
    # A second link to the same address signs the same player in, on another device; past its life it is refused.
    other = device()
    assert other.post("/api/session/email", json={"address": "Hatchepsout@Example.org"}).status_code == 202
    late = _mailed_link(store, settings, box, "Hatchepsout@Example.org").split("testserver", 1)[1]
    with store.engine.begin() as conn:
        conn.execute(update(schema.sign_in_links).values(expires_at=utc_text(datetime.now(UTC) - timedelta(seconds=1))))
    assert other.get(late).status_code == 410 and other.post(late).status_code == 410
    assert other.get("/api/account").status_code == 401
    assert other.post("/api/session/email", json={"address": "Hatchepsout@Example.org"}).status_code == 202
    fresh = _mailed_link(store, settings, box, "Hatchepsout@Example.org").split("testserver", 1)[1]
    assert 'name="name"' not in other.get(fresh).text
    assert other.post(fresh, follow_redirects=False).status_code == 303
    assert other.get("/api/account").json()["name"] == "Hatchepsout"


def test_a_sign_in_link_is_refused_to_other_sites_and_bad_addresses(server):
    _, device, _, _ = server
    client = device()
    assert client.post("/api/session/email", json={"address": "pas une adresse"}).json()["code"] == "bad_address"
    assert client.post("/api/session/email", headers=EVIL, json={"address": "a@example.org"}).status_code == 403


def test_a_database_made_by_the_release_before_accounts_upgrades_and_plays_on(tmp_path):
    """tests/data/kadesh-0009.sqlite3 was written by the release before accounts (migration 0009, a Manœuvre
    game six actions in): opened now, it gains the players' tables, its links still work, and its seats can be
    kept in an account."""
    import json
    import shutil
    from pathlib import Path

    data = Path(__file__).parent / "data"
    shutil.copy(data / "kadesh-0009.sqlite3", tmp_path / "old.sqlite3")
    made = json.loads((data / "kadesh-0009.json").read_text())
    store = Store(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == head_revision()
        gid = made["game_id"]
        with store.game(gid) as game:
            assert game.version == made["version"]
            seat = game.to_act()[0]
            action = game.legal_actions(seat)[0]
        store.play(gid, made["seats"][seat], made["version"], action)
        player = store.accounts.create_player("Ahmosis", "fr")
        store.accounts.claim(gid, "seat", seat, player.id)
        assert store.access(gid, None, player.id).seat == seat
    finally:
        store.close()


def test_a_kept_seat_follows_its_game_over_the_websocket_until_its_player_signs_out(server):
    _, device, _, _ = server
    client = device()
    sign_up(client, "Ânkhésenamon")
    game = create(client)
    gid = game["id"]
    client.post(f"/api/games/{gid}/claim", headers=auth(game["seats"]["north"]["token"]))
    cookie = {"Cookie": f"kadesh_session={client.cookies['kadesh_session']}"}  # as a browser sends it
    with client.websocket_connect(f"/ws/games/{gid}", headers={"Origin": ORIGIN, **cookie}) as socket:
        first = socket.receive_json()
        assert first["type"] == "update" and first["version"] == 0, first
    with client.websocket_connect(f"/ws/games/{gid}", headers={"Origin": "https://evil.example", **cookie}) as socket:
        assert socket.receive_json()["type"] == "error"
    client.delete("/api/sessions")
    with client.websocket_connect(f"/ws/games/{gid}", headers={"Origin": ORIGIN, **cookie}) as socket:
        assert socket.receive_json()["problem"]["code"] == "unauthorized"


def test_notices_follow_the_accounts_address_to_every_seat_it_keeps(server):
    """An account's confirmed address hears the turns of the seats it keeps (a link to the game, no token in it),
    still after the seat's link is cut, and no more once the account is deleted."""
    store, device, box, settings = server
    client = device()
    client.post("/api/session/email", json={"address": "pharaon@example.org"})
    path = _mailed_link(store, settings, box, "pharaon@example.org").split("testserver", 1)[1]
    client.post(path, content="name=Pharaon", headers={"Content-Type": "application/x-www-form-urlencoded"})
    game = client.post("/api/games", json={"ruleset": "royaumes"}).json()
    gid = game["id"]
    assert client.post(f"/api/games/{gid}/claim", headers=auth(game["seats"]["koush"]["token"])).status_code == 200
    assert client.post(f"/api/games/{gid}/tokens/koush").status_code == 200  # the old link cut
    kept = [s for s in store.subscriptions.of_seat(gid, "koush") if s.address == "pharaon@example.org"]
    assert len(kept) == 1 and kept[0].confirmed and kept[0].link.endswith(f"/play/{gid}")
    play_round(store, gid)
    deliver_all(store, settings)
    turns = [m for m in box.messages if m["To"] == "pharaon@example.org" and "/sign-in/" not in m.get_content()]
    assert turns and f"/play/{gid}" in turns[-1].get_content()
    assert not any(link["token"] in turns[-1].get_content() for link in game["seats"].values())
    assert client.delete("/api/account").status_code == 204
    assert not [s for s in store.subscriptions.of_seat(gid, "koush") if s.address == "pharaon@example.org"]


def test_an_accounts_webhooks_hear_every_seat_it_keeps_until_removed(db):
    """A webhook of the account is a subscription of each seat it keeps (now and later), called on their turns;
    removed, it hears nothing more; an account has three at most, each checked as a seat's webhook is."""
    store = Store(db)
    with Hooks() as hooks:
        settings = Settings(private_webhooks=True)
        app = create_app(store=store, local_workers=0, notice_settings=settings)
        with TestClient(app, base_url=ORIGIN) as client:
            sign_up(client, "Amosis")
            game = client.post("/api/games", json={"ruleset": "royaumes"}).json()
            gid = game["id"]
            client.post(f"/api/games/{gid}/claim", headers=auth(game["seats"]["libye"]["token"]))
            added = client.post("/api/account/webhooks", json={"address": hooks.url})
            assert added.status_code == 201 and added.json()["style"] == "kadesh"
            later = client.post("/api/games", json={"ruleset": "royaumes"}).json()
            client.post(f"/api/games/{later['id']}/claim", headers=auth(later["seats"]["koush"]["token"]))
            for game_id, seat in ((gid, "libye"), (later["id"], "koush")):
                assert [s.address for s in store.subscriptions.of_seat(game_id, seat)] == [hooks.url]
            play_round(store, gid)
            deliver_all(store, settings)
            assert any(gid in json.dumps(body) for body in hooks.received)  # the kingdom's turn, called
            assert not any(link["token"] in json.dumps(hooks.received) for link in game["seats"].values())
            assert client.get("/api/account/export").json()["webhooks"][0]["address"] == hooks.url
            for _ in range(2):
                client.post("/api/account/webhooks", json={"address": hooks.url + "?n"})
            fourth = client.post("/api/account/webhooks", json={"address": hooks.url})
            assert fourth.json()["code"] == "too_many_webhooks"
            assert client.post("/api/account/webhooks", json={"address": "ftp://x.example"}).json()["code"] == "bad_url"
            assert client.delete(f"/api/account/webhooks/{added.json()['id']}").status_code == 204
            assert hooks.url not in [s.address for s in store.subscriptions.of_seat(gid, "libye")]
    store.close()
