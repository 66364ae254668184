"""Trust at the table, finding by finding: an account is its own person's (no address slipped into it by one
click, no passkey or name lost to a failed sign-up, no look-alike name), and a rating is earned by the people who
held the seats (no computer, no open seat's link kept by its creator, no farming, no clock run on an empty seat).

Each test is named after the finding it closes (``f01`` …) and runs on both databases where the store is in play.
"""

from __future__ import annotations

import re
import threading
from email.message import EmailMessage

import pytest
import sqlalchemy as sa

from kadesh.server.app import create_app
from kadesh.server.delivery import Deliverer, Settings
from kadesh.server.rates import RatePolicy
from kadesh.store import Store, schema
from tests.asgi_client import TestClient
from tests.kadesh_http import deploy_all, first_moves
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


# -- a rating is earned by the people who held the seats -----------------------------------------------------------

def rated(creator: TestClient, days: int | None = None, ruleset: str = "manoeuvre",
          open_seats: tuple[str, ...] = ("south",)) -> dict:
    body = {"ruleset": ruleset, "rated": True, "open": dict.fromkeys(open_seats, "accounts")}
    if days:
        body["clock"] = {"days_per_move": days}
    made = creator.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    return made.json()


def settle(store: Store) -> None:
    from kadesh.server.worker import Worker

    worker = Worker(store, budget=0.01)
    while worker.work_once():
        pass


def test_f04_the_computer_takes_no_seat_of_a_rated_game_by_any_door(table):
    store, device, _, _ = table
    creator, taker = device(), device()
    make_account(creator, "Ouni", ORIGIN)
    make_account(taker, "Harkhouf", ORIGIN)
    made = rated(creator)
    gid, owner = made["id"], {"Authorization": f"Bearer {made['owner']['token']}"}
    for seat in ("north", "south"):  # the creator's own seat, and the open one
        refused = creator.put(f"/api/games/{gid}/bots/{seat}", json={"level": "maladroit"}, headers=owner)
        assert (refused.status_code, refused.json()["code"]) == (409, "rated_game")
    taker.post(f"/api/games/{gid}/seats/south/take")
    refused = creator.put(f"/api/games/{gid}/bots/south", json={"level": "maladroit"}, headers=owner)
    assert (refused.status_code, refused.json()["code"]) == (409, "rated_game")  # the opponent's held seat
    assert store.bots(gid) == {}
    stand_in = creator.post("/api/games", json={"ruleset": "manoeuvre", "rated": True, "open": {"south": "accounts"},
                                                "clock": {"days_per_move": 1, "on_timeout": "computer"}})
    assert (stand_in.status_code, stand_in.json()["code"]) == (422, "rated_with_computer")
    store.set_bot(gid, "south", "maladroit")  # a seat the store was made to give anyway: the game does not count
    store.act(gid, "north", first_moves(store, gid), {"type": "resign"})
    settle(store)
    assert store.ratings.settled(gid) is False and store.ratings.reason(gid) == "computer"
    assert store.ratings.of(store.accounts.by_name("Ouni").id) == {}


def test_f05_the_creator_never_holds_an_open_seats_link(table):
    store, device, _, _ = table
    creator, taker = device(), device()
    make_account(creator, "Ptahchepses", ORIGIN)
    make_account(taker, "Nebet", ORIGIN)
    made = rated(creator)
    gid, owner = made["id"], {"Authorization": f"Bearer {made['owner']['token']}"}
    assert set(made["seats"]) == {"north"}
    opened = creator.post(f"/api/games/{gid}/tokens/south", headers=owner)
    assert (opened.status_code, opened.json()["code"]) == (409, "seat_open")  # no link made for it meanwhile
    taken = taker.post(f"/api/games/{gid}/seats/south/take")
    assert taken.status_code == 200
    kept = creator.post(f"/api/games/{gid}/tokens/south", headers=owner)
    assert (kept.status_code, kept.json()["code"]) == (403, "seat_kept")  # nor after: it is the taker's
    assert taker.post(f"/api/games/{gid}/tokens/south").status_code == 200  # the taker cuts their own link
    unrated = creator.post("/api/games", json={"ruleset": "manoeuvre", "open": {"south": "anyone"}}).json()
    assert set(unrated["seats"]) == {"north"}


def _at_once(calls) -> list:
    """Each call in its own thread, released together: their answers."""
    start, answers = threading.Barrier(len(calls)), [None] * len(calls)

    def run(index: int, call) -> None:
        start.wait()
        answers[index] = call()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


KINGDOMS = ("haute_egypte", "koush", "libye")


def test_f06_one_account_racing_for_three_open_seats_keeps_one_and_leaves_two_open(table):
    store, device, _, _ = table
    creator, racer = device(), device()
    make_account(creator, "Menna", ORIGIN)
    make_account(racer, "Nakht", ORIGIN)
    gid = rated(creator, ruleset="royaumes", open_seats=KINGDOMS)["id"]
    answers = _at_once([lambda k=k: racer.post(f"/api/games/{gid}/seats/{k}/take") for k in KINGDOMS])
    assert sorted(a.status_code for a in answers) == [200, 409, 409]
    assert {a.json()["code"] for a in answers if a.status_code == 409} == {"seat_claimed"}
    nakht = store.accounts.by_name("Nakht").id
    assert len([c for c in store.accounts.holding(gid, nakht) if c.role != "owner"]) == 1
    still_open = {s.seat for s in store.open_seats.of_game(gid)}
    assert len(still_open) == 2  # a refused take leaves its seat open, its link unmade
    other = device()
    make_account(other, "Sennefer", ORIGIN)
    assert other.post(f"/api/games/{gid}/seats/{sorted(still_open)[0]}/take").status_code == 200


def test_f06_one_account_claiming_two_seats_at_once_keeps_one(table):
    store, device, _, _ = table
    player = device()
    make_account(player, "Rekhmirê", ORIGIN)
    made = device().post("/api/games", json={"ruleset": "manoeuvre"}).json()  # two links, made by nobody signed in
    gid = made["id"]
    answers = _at_once([lambda s=s: player.post(f"/api/games/{gid}/claim",
                                                headers={"Authorization": f"Bearer {made['seats'][s]['token']}"})
                        for s in ("north", "south")])
    assert sorted(a.status_code for a in answers) == [200, 409]
    assert len(store.accounts.claims_in(gid)) == 1


def test_f07_games_resigned_unplayed_or_farmed_with_a_second_account_do_not_count(table):
    store, device, _, _ = table
    farmer, second = device(), device()
    make_account(farmer, "Sobekhotep", ORIGIN)
    make_account(second, "Sobekhotep II", ORIGIN)
    counted = []
    for number in range(6):
        gid = rated(farmer)["id"]
        second.post(f"/api/games/{gid}/seats/south/take")
        version = first_moves(store, gid) if number >= 2 else 0  # the first two resigned before any move
        store.act(gid, "south", version, {"type": "resign"})
        settle(store)
        counted.append((store.ratings.settled(gid), store.ratings.reason(gid)))
    assert counted == [(False, "too_short"), (False, "too_short"), (True, None), (True, None), (True, None),
                       (False, "same_players")]
    seen = farmer.get(f"/api/games/{gid}").json()["table"]
    assert seen["counted"] is False and seen["uncounted"] == "same_players"
    assert [row["games"] for row in farmer.get("/api/leaderboards/manoeuvre").json()] == [3, 3]


def test_f08_an_open_seats_clock_starts_when_it_is_taken(table):
    store, device, _, _ = table
    creator, taker = device(), device()
    make_account(creator, "Djoser", ORIGIN)
    make_account(taker, "Snéfrou", ORIGIN)
    made = rated(creator, days=1)
    gid, north = made["id"], {"Authorization": f"Bearer {made['seats']['north']['token']}"}
    seen = creator.get(f"/api/games/{gid}").json()["table"]
    assert "south" not in seen["deadlines"]  # nobody holds it yet: no « Sud doit jouer avant … »
    from datetime import UTC, datetime, timedelta

    from kadesh.core import RuleError

    djoser = store.accounts.by_name("Djoser").id
    with pytest.raises(RuleError, match="still has time"):  # two days later, still nobody to be late
        store.claim_on_time(gid, None, player_id=djoser, now=datetime.now(UTC) + timedelta(days=2))
    taker.post(f"/api/games/{gid}/seats/south/take")
    taken_at = store.open_seats.seated(gid)["south"]
    deadline = datetime.fromisoformat(creator.get(f"/api/games/{gid}").json()["table"]["deadlines"]["south"])
    assert deadline == taken_at + timedelta(days=1)
    # During the deployment both sides are to act: when both ran out at once, neither wins on a claim.
    with pytest.raises(RuleError, match="still has time"):
        store.claim_on_time(gid, None, player_id=djoser, now=deadline + timedelta(days=1))
    assert creator.post(f"/api/games/{gid}/timeout", headers=north).json()["code"] == "not_late"
    assert creator.get(f"/api/games/{gid}").json()["table"]["claimable"] == []  # the page offers no claim


def test_f09_the_creators_seat_is_kept_in_the_account_whenever_it_is_theirs(table):
    _, device, _, _ = table
    desktop = device()
    passkey = make_account(desktop, "Khâemouaset", ORIGIN)
    opened = desktop.post("/api/games", json={"ruleset": "manoeuvre", "open": {"south": "anyone"}}).json()
    computer = desktop.post("/api/games", json={"ruleset": "manoeuvre", "bots": {"north": "maladroit"}}).json()
    hotseat = desktop.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    phone = device()
    begun = phone.post("/api/session/passkey/options").json()
    phone.post("/api/session/passkey", json={"ceremony": begun["ceremony"],
                                             "credential": passkey.get(begun["options"])})
    assert (phone.get(f"/api/games/{opened['id']}").json()["role"],
            phone.get(f"/api/games/{opened['id']}").json()["seat"]) == ("seat", "north")
    assert phone.get(f"/api/games/{computer['id']}").json()["seat"] == "south"
    assert phone.get(f"/api/games/{hotseat['id']}").json()["role"] == "owner"  # both seats on one screen: owner


def test_f10_a_deleted_accounts_name_leaves_its_messages_and_is_nobody_elses_there(table):
    store, device, _, _ = table
    watcher, newcomer, player = device(), device(), device()
    make_account(watcher, "Leaver", ORIGIN)
    game = player.post("/api/games", json={"ruleset": "manoeuvre", "open": {"south": "anyone"}}).json()
    gid = game["id"]
    said = watcher.post(f"/api/games/{gid}/messages", json={"channel": "spectators", "text": "Bon jeu !"})
    assert said.status_code == 201, said.text
    assert watcher.delete("/api/account").status_code == 204
    north = {"Authorization": f"Bearer {game['seats']['north']['token']}"}
    read = player.get(f"/api/games/{gid}/messages", headers=north).json()["messages"]
    assert "Leaver" not in str(read) and read[0]["body"] == "Bon jeu !"
    with store.engine.connect() as conn:
        assert "Leaver" not in str(conn.execute(sa.select(schema.messages)).all())
    make_account(newcomer, "Leaver", ORIGIN)  # the name is free again, and none of the old words are theirs
    mine = newcomer.get(f"/api/games/{gid}/messages").json()["messages"]
    assert [m["mine"] for m in mine] == [False]


def test_f13_a_backup_carries_vacations(db, tmp_path):
    from datetime import UTC, datetime

    from typer.testing import CliRunner

    from kadesh.cli import app as cli

    source_url = f"sqlite:///{tmp_path}/source.sqlite3"
    source = Store(source_url)
    try:
        player = source.accounts.create_player("Ouserhat", "fr").id
        source.vacations.leave(player, 5)
        away = source.vacations.away_until(player)
        left = source.vacations.days_left(player, now=datetime.now(UTC))
    finally:
        source.close()
    backup = tmp_path / "backup.jsonl"
    assert CliRunner().invoke(cli, ["export", "--all", "--db", source_url, "-o", str(backup)]).exit_code == 0
    assert CliRunner().invoke(cli, ["import", str(backup), "--db", db]).exit_code == 0
    restored = Store(db)
    try:
        assert restored.vacations.away_until(player) == away
        assert restored.vacations.days_left(player, now=datetime.now(UTC)) == pytest.approx(left, abs=1e-3)
    finally:
        restored.close()


LOOK_ALIKES = [("ᏢᎾᏢᎬ", "bad_name"), ("Rarnses", "name_taken"), ("RAMSES", "name_taken"), ("P0pe", "name_taken"),
               ("Pa5er", None), ("Ramѕes", "bad_name"), ("Rams0s", None)]


def test_f12_look_alike_names_by_unicodes_own_data_are_refused(table):
    _, device, _, _ = table
    for name in ("Pope", "Ramsès"):
        make_account(device(), name, ORIGIN)
    for name, code in LOOK_ALIKES:
        answer = device().post("/api/account/passkeys/options", json={"name": name})
        assert (answer.json().get("code") if answer.status_code != 200 else None) == code, (name, answer.text)


@pytest.mark.parametrize("master_reads", [False, True])
def test_f14_the_game_master_reads_a_councils_talk_with_master_reads_and_its_draft_never(table, master_reads):
    """Decided once (docs/api.md « Messages at the table »): ``master_reads`` opens the councils' talk to the
    moderators; a council's draft of orders stays its own, on HTTP and on the socket alike."""
    _, device, _, _ = table
    client = device()
    game = client.post("/api/games", json={"ruleset": "royaumes", "councils": True,
                                           "master_reads": master_reads}).json()
    gid, kingdom = game["id"], "koush"
    lord = {"Authorization": f"Bearer {game['lords'][kingdom]['token']}"}
    assert client.put(f"/api/games/{gid}/draft", headers=lord, json={"text": "Koush attaque Napata"}).status_code == 200
    client.post(f"/api/games/{gid}/messages", headers=lord, json={"channel": f"council:{kingdom}", "text": "Conseil"})
    seat = {"Authorization": f"Bearer {game['seats'][kingdom]['token']}"}
    client.post(f"/api/games/{gid}/messages", headers=seat, json={"channel": "table", "text": "À tous"})
    master = game["seats"]["imhotep"]["token"]
    seen = client.get(f"/api/games/{gid}/messages", headers={"Authorization": f"Bearer {master}"}).json()
    said = {m["body"] for m in seen["messages"]}
    assert "Koush attaque Napata" not in said and ("Conseil" in said) is master_reads
    with client.websocket_connect(f"/ws/games/{gid}", headers={"Authorization": f"Bearer {master}"}) as socket:
        frames = [socket.receive_json() for _ in range(2)]  # the game's, then the talk it reads (« À tous » at least)
    assert frames[1]["type"] == "messages" and "À tous" in str(frames[1])
    assert "Koush attaque Napata" not in str(frames) and ("Conseil" in str(frames)) is master_reads


def test_f14_a_private_game_opens_to_its_address_alone_once_it_is_over_and_not_before(table):
    store, device, _, _ = table
    client, stranger = device(), device()
    game = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    gid = game["id"]
    assert stranger.get(f"/api/games/{gid}").status_code == 401
    store.act(gid, "north", 0, {"type": "resign"})
    seen = stranger.get(f"/api/games/{gid}")
    assert seen.status_code == 200 and seen.json()["role"] == "spectator"


def test_f06_takes_raced_through_two_servers_of_one_database_seat_one_account_once(db):
    """Two servers (two apps, each its own store and connections) on one database: two accounts racing for one
    seat, then one account racing for two seats through both servers; and a late side's move against the claim
    of its time."""
    stores = [Store(db), Store(db)]
    apps = [create_app(store=s, local_workers=0, rate_policy=RatePolicy.unlimited()) for s in stores]
    try:
        with TestClient(apps[0], base_url=ORIGIN), TestClient(apps[1], base_url=ORIGIN):
            creator, first, second = (TestClient(app, base_url=ORIGIN) for app in (apps[0], apps[0], apps[1]))
            make_account(creator, "Amenemopé", ORIGIN)
            racer = make_account(first, "Paneb", ORIGIN)
            make_account(second, "Kenherkhepeshef", ORIGIN)
            gid = rated(creator)["id"]
            answers = _at_once([lambda c=c: c.post(f"/api/games/{gid}/seats/south/take") for c in (first, second)])
            assert sorted(a.status_code for a in answers) == [200, 409]
            campaign = rated(creator, ruleset="royaumes", open_seats=KINGDOMS)["id"]
            elsewhere = TestClient(apps[1], base_url=ORIGIN)  # Paneb signed in on the other server too
            begun = elsewhere.post("/api/session/passkey/options").json()
            elsewhere.post("/api/session/passkey", json={"ceremony": begun["ceremony"],
                                                          "credential": racer.get(begun["options"])})
            answers = _at_once([lambda c=c, k=k: c.post(f"/api/games/{campaign}/seats/{k}/take")
                                for c, k in ((first, KINGDOMS[0]), (elsewhere, KINGDOMS[1]))])
            assert sorted(a.status_code for a in answers) == [200, 409]
            paneb = stores[0].accounts.by_name("Paneb").id
            assert len([c for c in stores[1].accounts.holding(campaign, paneb) if c.role != "owner"]) == 1
            assert len(stores[0].open_seats.of_game(campaign)) == 2
    finally:
        for store in stores:
            store.close()


def test_f08_a_late_sides_move_and_the_claim_of_its_time_race_and_the_record_stays_whole(table):
    from datetime import UTC, datetime, timedelta

    from kadesh.core import RuleError
    from kadesh.store.errors import StaleVersion

    store, device, _, _ = table
    creator, taker = device(), device()
    make_account(creator, "Mérytrê", ORIGIN)
    make_account(taker, "Sitrê", ORIGIN)
    gid = rated(creator, days=1)["id"]
    taker.post(f"/api/games/{gid}/seats/south/take")
    version = first_moves(store, gid)
    version = deploy_all(store, gid, "north", version)  # the north is ready; the south, late, moves as the north claims
    with store.game(gid) as game:
        move = next(a for a in game.legal_actions("south") if a["type"] == "deploy")
    later = datetime.now(UTC) + timedelta(days=2)
    north = store.accounts.by_name("Mérytrê").id

    def claim():
        try:
            return store.claim_on_time(gid, None, player_id=north, now=later)[1].version
        except (RuleError, StaleVersion) as refused:
            return refused

    def play():
        try:
            return store.act(gid, "south", version, move).version
        except (RuleError, StaleVersion) as refused:
            return refused

    answers = _at_once([claim, play])
    written = sorted(answer for answer in answers if isinstance(answer, int))
    # The claim always wins (a move within a late turn does not restart its clock); the move is written before
    # it or refused after it, never after the game's end, and no version is written twice.
    assert isinstance(answers[0], int) and written == list(range(version + 1, version + 1 + len(written)))
    assert store.current_version(gid) == written[-1]
    with store.game(gid) as game:
        assert game.outcome["reason"] == "time" and game.actions[-1]["action"]["type"] == "claim_timeout"

