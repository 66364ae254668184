"""Messages at the table (issue 43): channels and their readers, press, a kingdom's council and its draft of orders,
alliance offers, moderation, mutes, the socket, exports and notices, and a property: nobody ever receives a
message outside its channel's readers, whatever the channels, seats and press."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kadesh.server.app import create_app
from kadesh.server.delivery import Settings, prepare
from kadesh.server.rates import RatePolicy
from kadesh.server.worker import Worker
from kadesh.store import Store, schema
from kadesh.store.jobs import Job
from kadesh.store.messages import MESSAGE_NOTICE, NOTICE_GAP
from tests.asgi_client import TestClient
from tests.kadesh_http import auth
from tests.webauthn_support import ORIGIN, make_account

KINGDOMS = ("basse_egypte", "haute_egypte", "koush", "libye")
MASTER = "imhotep"


@pytest.fixture
def talk(db):
    store = Store(db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited())
    with TestClient(app) as client:
        yield store, client
    store.close()


def campaign(client: TestClient, **table) -> dict:
    made = client.post("/api/games", json={"ruleset": "royaumes", **table})
    assert made.status_code == 201, made.text
    return made.json()


def say(client: TestClient, game: dict, token: str, channel: str, text: str, **extra):
    return client.post(f"/api/games/{game['id']}/messages", headers=auth(token),
                       json={"channel": channel, "text": text, **extra})


def read(client: TestClient, game: dict, token: str, after: int = 0) -> dict:
    answer = client.get(f"/api/games/{game['id']}/messages", params={"after": after}, headers=auth(token))
    assert answer.status_code == 200, answer.text
    return answer.json()


def pair(a: str, b: str) -> str:
    return "pair:" + ",".join(sorted((a, b)))


def token(game: dict, seat: str) -> str:
    return game["seats"][seat]["token"]


# -- a kingdom's council ------------------------------------------------------------------------------------------

def test_the_lord_confers_and_drafts_the_chief_takes_the_draft_up_and_only_his_first_orders_count(talk):
    """« Les décisions de mouvements sont prises avec le Seigneur du Royaume » and « Seul le premier message
    personnel est pris en compte »."""
    store, client = talk
    game = campaign(client, councils=True)
    kingdom = KINGDOMS[0]
    lord, chief = game["lords"][kingdom]["token"], token(game, kingdom)
    assert set(game["lords"]) == set(KINGDOMS)  # Imhotep has no Seigneur
    seen = client.get(f"/api/games/{game['id']}", headers=auth(lord)).json()
    assert seen["role"] == "lord" and seen["seat"] == kingdom and "you" in seen["view"]  # the kingdom's own view
    assert say(client, game, lord, f"council:{kingdom}", "Tenons Memphis, avançons vers le sud.").status_code == 201
    drafted = client.put(f"/api/games/{game['id']}/draft", headers=auth(lord), json={"text": "C4 -> D5"})
    assert drafted.status_code == 200 and drafted.json()["kind"] == "draft"
    as_chief = read(client, game, chief)
    assert as_chief["draft"]["body"] == "C4 -> D5"
    assert as_chief["draft"]["sender"]["fr"].endswith("(Seigneur du Royaume)")
    assert [m["body"] for m in as_chief["messages"]] == ["Tenons Memphis, avançons vers le sud."]
    refused = client.post(f"/api/games/{game['id']}/actions", headers=auth(lord),
                          json={"expected_version": 0, "action": {"type": "orders", "text": "C4 -> D5"}})
    assert refused.status_code == 403 and refused.json()["code"] == "not_a_seat"  # the Seigneur never sends them
    version = store.current_version(game["id"])
    sent = client.post(f"/api/games/{game['id']}/actions", headers=auth(chief),
                       json={"expected_version": version, "action": {"type": "orders", "text": "C4 -> D5\nF2 reste"}})
    assert sent.status_code == 200, sent.text
    again = client.post(f"/api/games/{game['id']}/actions", headers=auth(chief),
                        json={"expected_version": version + 1, "action": {"type": "orders", "text": "D5 -> E6"}})
    assert again.status_code == 409 and again.json()["code"] == "not_your_turn"
    others = read(client, game, token(game, KINGDOMS[1]))
    assert others["messages"] == [] and "draft" not in others  # another kingdom reads neither council nor draft
    # Issue 59: a draft belongs to its turn; once the turn is judged, the next turn offers none.
    judged = client.post(f"/api/games/{game['id']}/actions", headers=auth(token(game, MASTER)),
                         json={"expected_version": version + 1, "action": {"type": "adjudicate"}})
    assert judged.status_code == 200, judged.text
    assert "draft" not in read(client, game, chief) and "draft" not in read(client, game, lord)
    assert drafted.json()["data"] == {"turn": 1}
    redrafted = client.put(f"/api/games/{game['id']}/draft", headers=auth(lord), json={"text": "D5 reste"})
    assert redrafted.json()["data"] == {"turn": 2} and read(client, game, chief)["draft"]["body"] == "D5 reste"


def test_a_council_needs_a_ruleset_with_two_roles_and_a_lord_link_can_be_replaced(talk):
    store, client = talk
    refused = client.post("/api/games", json={"ruleset": "manoeuvre", "councils": True})
    assert refused.status_code == 422 and refused.json()["code"] == "no_council_here"
    game = campaign(client, councils=True)
    kingdom = KINGDOMS[2]
    old = game["lords"][kingdom]["token"]
    new = client.post(f"/api/games/{game['id']}/tokens/lord:{kingdom}", headers=auth(game["owner"]["token"]))
    assert new.status_code == 200
    assert client.get(f"/api/games/{game['id']}", headers=auth(old)).status_code == 401
    assert client.get(f"/api/games/{game['id']}", headers=auth(new.json()["token"])).json()["role"] == "lord"
    imhotep = client.post(f"/api/games/{game['id']}/tokens/lord:{MASTER}", headers=auth(game["owner"]["token"]))
    assert imhotep.status_code == 422


def test_a_computer_kingdom_has_no_lord_and_announces_its_alliances_without_reading_messages(talk):
    store, client = talk
    game = campaign(client, councils=True, bots={KINGDOMS[3]: "vizir"})
    assert set(game["lords"]) == set(KINGDOMS[:3])
    worker = Worker(store, budget=0.01)
    offered = {"type": "orders", "text": "alliance: Haute-Égypte"}
    version = store.current_version(game["id"])
    told = worker._announcements(game["id"], version, KINGDOMS[3], offered)
    assert [(t["to"], t["data"]["accepts"]) for t in told] == [(KINGDOMS[1], False)]
    store.act(game["id"], KINGDOMS[3], version, offered)
    worker._announce(game["id"], KINGDOMS[3], told)
    heard = read(client, game, token(game, KINGDOMS[1]))["messages"]
    assert [(m["channel"], m["kind"], m["role"]) for m in heard] == [(pair(KINGDOMS[1], KINGDOMS[3]), "alliance",
                                                                      "computer")]
    assert heard[0]["line"] == {"fr": "alliance: Libye", "en": "ally: Libya"}  # its acceptance, for the next orders
    assert heard[0]["data"]["words"]["en"] == "Libya offers an alliance to Upper Egypt."
    assert read(client, game, token(game, KINGDOMS[0]))["messages"] == []


def test_an_alliance_offer_becomes_a_line_of_the_next_orders_for_both_kingdoms_and_is_never_sent_alone(talk):
    store, client = talk
    game = campaign(client, councils=True)
    a, b = KINGDOMS[0], KINGDOMS[2]
    offer = say(client, game, game["lords"][a]["token"], pair(a, b), "Koush, unissons-nous.", alliance=True)
    assert offer.status_code == 201 and offer.json()["line"] == {"fr": "alliance: Koush", "en": "ally: Kush"}
    assert read(client, game, token(game, b))["messages"][0]["line"]["fr"] == "alliance: Basse-Égypte"
    assert read(client, game, token(game, a))["messages"][0]["line"]["fr"] == "alliance: Koush"
    with store.game(game["id"]) as played:
        assert played.version == 0 and played.state.kingdoms[a].stance[b] != "ally"  # nothing sent on its own
    wrong = say(client, game, token(game, a), "table", "Alliance avec tous !", alliance=True)
    assert wrong.status_code == 422 and wrong.json()["code"] == "no_alliance_here"


# -- press --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["royaumes", "manoeuvre"])
def test_no_press_refuses_every_write_of_a_seat_but_to_the_game_master(talk, ruleset):
    store, client = talk
    game = client.post("/api/games", json={"ruleset": ruleset, "press": "none",
                                           "councils": ruleset == "royaumes"}).json()
    seats = list(game["seats"])
    holders = {**{seat: link["token"] for seat, link in game["seats"].items()},
               **{f"lord:{seat}": link["token"] for seat, link in game.get("lords", {}).items()}}
    channels = ["table", "spectators", "moderation", *(pair(a, b) for a, b in itertools.combinations(seats, 2)),
                *(f"{kind}:{seat}" for seat in seats for kind in ("council", "draft"))]
    accepted = []
    for (holder, secret), channel in itertools.product(holders.items(), channels):
        answer = say(client, game, secret, channel, "Bonjour")
        if answer.status_code == 201:
            accepted.append((holder, channel))
        else:
            assert answer.status_code in (403, 422), answer.text
    seat_of = {holder: holder.removeprefix("lord:") for holder in holders}
    if ruleset == "manoeuvre":
        assert accepted == []  # no game master: nobody writes at all
    else:
        for holder, channel in accepted:
            assert seat_of[holder] == MASTER or channel == pair(seat_of[holder], MASTER), (holder, channel)
        assert {c for h, c in accepted if seat_of[h] != MASTER} == {pair(k, MASTER) for k in KINGDOMS}
    if ruleset == "royaumes":  # the draft is no press: the council's work goes on
        assert client.put(f"/api/games/{game['id']}/draft", headers=auth(holders[f"lord:{KINGDOMS[0]}"]),
                          json={"text": "C4 -> D5"}).status_code == 200


def test_public_press_leaves_the_whole_table_and_the_game_master_only(talk):
    store, client = talk
    game = campaign(client, press="public")
    a, b = KINGDOMS[:2]
    assert say(client, game, token(game, a), "table", "À tous : paix.").status_code == 201
    closed = say(client, game, token(game, a), pair(a, b), "Rien qu'à toi.")
    assert closed.status_code == 403 and closed.json()["code"] == "press_closed"
    assert say(client, game, token(game, a), pair(a, MASTER), "Imhotep, une question.").status_code == 201


# -- reading, privacy, moderation ---------------------------------------------------------------------------------

def test_two_kingdoms_talk_privately_and_neither_a_third_kingdom_nor_imhotep_nor_the_spectators_read_it(talk):
    store, client = talk
    game = campaign(client)
    a, b, c = KINGDOMS[:3]
    assert say(client, game, token(game, a), pair(a, b), "Secret de Memphis").status_code == 201
    assert say(client, game, token(game, b), pair(a, b), "Bien reçu").status_code == 201
    assert [m["body"] for m in read(client, game, token(game, b))["messages"]] == ["Secret de Memphis", "Bien reçu"]
    for outsider in (token(game, c), token(game, MASTER), game["spectator"]["token"], game["owner"]["token"]):
        assert read(client, game, outsider)["messages"] == []
    assert say(client, game, token(game, c), pair(a, b), "Je m'invite").status_code == 403
    channels = {ch["id"]: ch["title"]["fr"] for ch in read(client, game, token(game, a))["channels"]}
    assert channels[pair(a, b)] == "Haute-Égypte" and channels["table"] == "Toute la table"


def test_imhotep_reads_the_kingdoms_talk_only_when_the_campaign_says_so(talk):
    store, client = talk
    game = campaign(client, councils=True, master_reads=True)
    a, b = KINGDOMS[:2]
    say(client, game, token(game, a), pair(a, b), "Entre nous")
    say(client, game, game["lords"][a]["token"], f"council:{a}", "En conseil")
    assert {m["body"] for m in read(client, game, token(game, MASTER))["messages"]} == {"Entre nous", "En conseil"}
    refused = client.post("/api/games", json={"ruleset": "manoeuvre", "master_reads": True})
    assert refused.status_code == 422


def test_messages_never_change_the_game_and_are_plain_text_within_their_limit(talk):
    store, client = talk
    game = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    north, south = token(game, "north"), token(game, "south")
    before = client.get(f"/api/games/{game['id']}", headers=auth(north)).json()
    html = say(client, game, north, "table", "<script>alert(1)</script> voir https://example.org\r\nfin")
    assert html.status_code == 201 and html.json()["body"] == "<script>alert(1)</script> voir https://example.org\nfin"
    after = client.get(f"/api/games/{game['id']}", headers=auth(north)).json()
    assert (after["version"], after["view"]) == (before["version"], before["view"])
    for text, code in (("", "empty_message"), ("   \n ", "empty_message"), ("a\x07b", "control_character"),
                       ("a\u202eb", "control_character"), ("x" * 2001, "message_too_long")):
        refused = say(client, game, north, "table", text)
        assert refused.status_code == 422 and refused.json()["code"] == code, text
    assert say(client, game, north, "pair:north,south", "privé").json()["code"] == "unknown_channel"  # two seats
    assert [m["body"] for m in read(client, game, south)["messages"]] == [html.json()["body"]]
    assert client.get(f"/api/games/{game['id']}/journal", headers=auth(south)).json() == []


def test_the_moderator_hides_a_message_for_everyone_in_a_line_of_its_own_and_reports_reach_it(talk):
    store, client = talk
    game = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    north, south, owner = token(game, "north"), token(game, "south"), game["owner"]["token"]
    rude = say(client, game, south, "table", "Insulte").json()
    reported = client.post(f"/api/games/{game['id']}/messages/{rude['seq']}/report", headers=auth(north))
    assert reported.status_code == 201
    again = client.post(f"/api/games/{game['id']}/messages/{rude['seq']}/report", headers=auth(north))
    assert again.status_code == 409 and again.json()["code"] == "already_reported"
    moderator = read(client, game, owner)
    assert moderator["moderator"] and [(m["channel"], m["body"]) for m in moderator["messages"]] == [
        ("table", "Insulte"), ("moderation", "Insulte")]
    assert all(m["channel"] != "moderation" for m in read(client, game, north)["messages"])
    not_allowed = client.post(f"/api/games/{game['id']}/messages/{rude['seq']}/hide", headers=auth(north))
    assert not_allowed.status_code == 403
    hidden = client.post(f"/api/games/{game['id']}/messages/{rude['seq']}/hide", headers=auth(owner))
    assert hidden.status_code == 200 and hidden.json()["kind"] == "hidden"
    for reader in (north, south):
        seen = read(client, game, reader)["messages"]
        assert seen[0] == {**seen[0], "hidden": True, "body": ""}
        assert seen[1]["kind"] == "hidden" and seen[1]["data"]["target"] == rude["seq"]
    # reported, its hiding is a line of the reports too: every moderator learns it, whatever channels it reads
    lines = [(m["channel"], m["kind"], m.get("data", {}).get("target")) for m in read(client, game, owner)["messages"]]
    assert ("moderation", "hidden", rude["seq"]) in lines and ("table", "hidden", rude["seq"]) in lines
    assert client.post(f"/api/games/{game['id']}/messages/{rude['seq']}/hide", headers=auth(owner)).status_code == 409


def test_a_seat_mutes_another_for_itself_alone(talk):
    store, client = talk
    game = campaign(client)
    a, b, c = KINGDOMS[:3]
    assert client.put(f"/api/games/{game['id']}/mutes/{b}", headers=auth(token(game, a))).json() == [b]
    say(client, game, token(game, b), "table", "Bavard")
    say(client, game, token(game, c), "table", "Sage")
    assert [m["body"] for m in read(client, game, token(game, a))["messages"]] == ["Sage"]
    assert [m["body"] for m in read(client, game, token(game, c))["messages"]] == ["Bavard", "Sage"]
    assert client.delete(f"/api/games/{game['id']}/mutes/{b}", headers=auth(token(game, a))).json() == []
    assert len(read(client, game, token(game, a))["messages"]) == 2
    assert client.put(f"/api/games/{game['id']}/mutes/{a}", headers=auth(token(game, a))).status_code == 422
    spectator = client.put(f"/api/games/{game['id']}/mutes/{a}", headers=auth(game["spectator"]["token"]))
    assert spectator.status_code == 403


def test_spectators_write_with_their_link_and_players_read_them(talk):
    store, client = talk
    game = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    watcher = game["spectator"]["token"]
    assert say(client, game, watcher, "table", "Je m'en mêle").status_code == 403
    written = say(client, game, watcher, "spectators", "Beau coup !")
    assert written.status_code == 201 and written.json()["sender"]["fr"] == "Spectateur"
    assert [m["body"] for m in read(client, game, token(game, "north"))["messages"]] == ["Beau coup !"]


def test_a_public_games_anonymous_watcher_reads_the_spectators_but_writes_only_signed_in(talk):
    store, client = talk
    game = client.post("/api/games", json={"ruleset": "manoeuvre", "open": {"south": "anyone"}}).json()
    say(client, game, token(game, "north"), "spectators", "Bienvenue aux spectateurs")
    anonymous = client.get(f"/api/games/{game['id']}/messages")
    assert anonymous.status_code == 200 and [m["body"] for m in anonymous.json()["messages"]] == [
        "Bienvenue aux spectateurs"]
    assert [c["writable"] for c in anonymous.json()["channels"]] == [False]
    refused = client.post(f"/api/games/{game['id']}/messages", json={"channel": "spectators", "text": "Coucou"})
    assert refused.status_code == 403 and refused.json()["code"] == "sign_in_to_write"


def test_messages_are_rate_limited_per_address(db):
    store = Store(db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.defaults(messages="2/minute"))
    with TestClient(app) as client:
        game = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
        answers = [say(client, game, token(game, "north"), "table", f"n° {n}") for n in range(3)]
        assert [a.status_code for a in answers] == [201, 201, 429]
        assert answers[2].json()["limit"] == "messages" and "Retry-After" in answers[2].headers
    store.close()


def test_a_message_reaches_the_sockets_of_its_readers_live_and_in_order(talk):
    store, client = talk
    game = campaign(client)
    a, b, c = KINGDOMS[:3]
    with client.websocket_connect(f"/ws/games/{game['id']}?token={token(game, b)}") as socket, \
            client.websocket_connect(f"/ws/games/{game['id']}?token={token(game, c)}") as outsider:
        assert socket.receive_json()["type"] == "update" and outsider.receive_json()["type"] == "update"
        for n in range(3):
            say(client, game, token(game, a), pair(a, b), f"message {n}")
        say(client, game, token(game, a), "table", "à tous")
        bodies = []
        while len(bodies) < 4:
            frame = socket.receive_json()
            assert frame["type"] == "messages"
            bodies += [m["body"] for m in frame["messages"]]
        assert bodies == ["message 0", "message 1", "message 2", "à tous"]
        frame = outsider.receive_json()
        assert [m["body"] for m in frame["messages"]] == ["à tous"]
    with client.websocket_connect(f"/ws/games/{game['id']}?token={token(game, b)}&messages_since=2") as late:
        late.receive_json()
        assert [m["body"] for m in late.receive_json()["messages"]] == ["message 2", "à tous"]


def test_notices_group_new_messages_per_subscription_after_a_pause(talk):
    store, client = talk
    game = campaign(client)
    a, b = KINGDOMS[:2]
    hook = store.subscriptions.add(game["id"], b, "webhook", "https://example.org/hook", "kadesh", "fr", "https://x/")
    say(client, game, token(game, a), pair(a, b), "Premier")
    say(client, game, token(game, a), pair(a, b), "Second")
    say(client, game, token(game, b), pair(a, b), "Ma réponse")  # one's own words are not told back
    with store.engine.connect() as conn:
        queued = conn.execute(schema.jobs.select().where(schema.jobs.c.kind == MESSAGE_NOTICE)).all()
    assert [(job.target, job.version) for job in queued] == [(hook.id, 0)]  # one pending, later
    waits = datetime.fromisoformat(queued[0].run_after.replace("Z", "+00:00")) - datetime.now(UTC)
    assert timedelta(seconds=NOTICE_GAP - 60) < waits <= timedelta(seconds=NOTICE_GAP)
    assert store.jobs.claim("w", notices=True) is None  # not before the pause
    job = Job(queued[0].id, MESSAGE_NOTICE, game["id"], 0, 0, hook.id)
    subscription, notice = prepare(store, job, Settings.from_environment({}))
    assert notice.lines == ["Basse-Égypte : Premier", "Basse-Égypte : Second"] and notice.version == 3
    store.messages.mark_notified(game["id"], hook.id, notice.version)
    assert prepare(store, job, Settings.from_environment({})) is None


# -- the property -------------------------------------------------------------------------------------------------

def may_read(role: str, seat: str | None, channel: str, table: dict) -> bool:
    """The issue's audience, written out on its own: what each holder may read."""
    player = role in ("seat", "lord")
    moderator = role == "owner" or (role == "seat" and seat == MASTER)
    overseer = table["master_reads"] and moderator and not channel.startswith("draft:")  # a draft: its council's
    if channel == "table":
        return player or role == "owner"
    if channel == "spectators":
        return True
    if channel == "moderation":
        return moderator
    if channel.startswith("pair:"):
        return (player and seat in channel[5:].split(",")) or overseer
    return (player and seat == channel.split(":")[1]) or overseer


CHANNELS = ["table", "spectators", "moderation",
            *(pair(a, b) for a, b in itertools.combinations([*KINGDOMS, MASTER], 2)),
            *(f"{kind}:{k}" for k in KINGDOMS for kind in ("council", "draft"))]


@pytest.fixture(scope="module")
def shared(module_db):
    store = Store(module_db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited())
    with TestClient(app) as client:
        yield store, client
    store.close()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=st.fixed_dictionaries({"press": st.sampled_from(["full", "public", "none"]), "councils": st.booleans(),
                                    "master_reads": st.booleans()}),
       writes=st.lists(st.tuples(st.integers(0, 11), st.sampled_from(CHANNELS), st.booleans(), st.booleans()),
                       min_size=1, max_size=14))
def test_no_holder_ever_receives_a_message_outside_its_channel_on_any_path(shared, table, writes):
    store, client = shared
    game = campaign(client, **table)
    holders = [("seat", seat, link["token"]) for seat, link in game["seats"].items()]
    holders += [("lord", seat, link["token"]) for seat, link in game["lords"].items()]
    holders += [("spectator", None, game["spectator"]["token"]), ("owner", None, game["owner"]["token"])]
    hook = {seat: store.subscriptions.add(game["id"], seat, "webhook", "https://example.org/h", "kadesh", "fr",
                                          "https://x/") for seat in game["seats"]}
    written: dict[str, str] = {}  # body: channel
    for n, (who, channel, report, hide) in enumerate(writes):
        role, seat, secret = holders[who % len(holders)]
        body = f"m{n}-{role}-{seat}"
        if channel.startswith("draft:"):
            answer = client.put(f"/api/games/{game['id']}/draft", headers=auth(secret), json={"text": body})
            channel = f"draft:{seat}"
        else:
            answer = say(client, game, secret, channel, body)
        if answer.status_code not in (200, 201):
            continue
        written[body] = channel
        reporter = holders[(who + 1) % len(holders)]
        if report and client.post(f"/api/games/{game['id']}/messages/{answer.json()['seq']}/report",
                                  headers=auth(reporter[2])).status_code == 201:
            written[f"report:{body}"] = "moderation"
        if hide:
            client.post(f"/api/games/{game['id']}/messages/{answer.json()['seq']}/hide", headers=auth(secret))
    assert client.post(f"/api/games/{game['id']}/actions", headers=auth(token(game, MASTER)), json={
        "expected_version": 0, "action": {"type": "end_campaign", "winner": None, "reason": "fin"}}).status_code == 200

    def allowed(role: str, seat: str | None, bodies: list[str], channels: list[str]) -> None:
        for body, channel in zip(bodies, channels, strict=True):
            assert may_read(role, seat, channel, table), (role, seat, channel, body)

    for role, seat, secret in holders:
        listed = read(client, game, secret)["messages"]
        allowed(role, seat, [m["body"] for m in listed], [m["channel"] for m in listed])
        expected = {b for b, c in written.items() if may_read(role, seat, c, table) and not c.startswith("draft:")}
        assert {m["body"] for m in listed if m["body"] and m["kind"] != "report"} <= expected
        with client.websocket_connect(f"/ws/games/{game['id']}?token={secret}") as socket:
            socket.receive_json()
            if any(may_read(role, seat, c, table) for c in written.values()):
                frame = socket.receive_json()
                allowed(role, seat, [m["body"] for m in frame["messages"]], [m["channel"] for m in frame["messages"]])
        exported = client.get(f"/api/games/{game['id']}/export", headers=auth(secret)).json()["messages"]
        allowed(role, seat, [m["body"] for m in exported], [m["channel"] for m in exported])
        journal = " ".join(line["line"] for line in client.get(f"/api/games/{game['id']}/journal",
                                                               headers=auth(secret)).json())
        assert not any(body in journal for body in written)
    for seat, subscription in hook.items():
        job = Job(0, MESSAGE_NOTICE, game["id"], 0, 0, subscription.id)
        prepared = prepare(store, job, Settings.from_environment({}))
        told = " ".join(prepared[1].lines) if prepared else ""
        for body, channel in written.items():
            if body in told and not body.startswith("report:"):  # a reported message is forwarded to moderators
                forwarded = f"report:{body}" in written and may_read("seat", seat, "moderation", table)
                assert may_read("seat", seat, channel, table) or forwarded, (seat, channel, body)


def test_a_backup_carries_the_messages_and_the_restored_table_talks_on(db, tmp_path):
    from kadesh.store.backup import dump, restore

    store = Store(db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited())
    with TestClient(app) as client:
        game = campaign(client, councils=True, press="public")
        a = KINGDOMS[0]
        say(client, game, token(game, a), "table", "Avant la sauvegarde")
        lord = game["lords"][a]["token"]
        client.put(f"/api/games/{game['id']}/draft", headers=auth(lord), json={"text": "G19 reste"})
        client.put(f"/api/games/{game['id']}/mutes/{KINGDOMS[1]}", headers=auth(token(game, a)))
        before = read(client, game, token(game, a))
    items = list(dump(store))
    store.close()
    restored = Store(f"sqlite:///{tmp_path / 'restored.sqlite3'}")
    restore(restored, items[1:])
    app = create_app(store=restored, local_workers=0, rate_policy=RatePolicy.unlimited())
    with TestClient(app) as client:
        after = read(client, game, token(game, a))
        assert after == before and after["press"] == "public" and after["muted"] == [KINGDOMS[1]]
        assert say(client, game, game["lords"][a]["token"], "table", "Après").json()["seq"] == before["last"] + 1
    restored.close()


def test_a_lord_keeps_his_place_in_his_account_and_talks_from_it_without_the_link(served):
    store, device = served
    with device() as client:
        game = campaign(client, councils=True)
        kingdom = KINGDOMS[2]
        make_account(client, "Piânkhy", ORIGIN)
        kept = client.post(f"/api/games/{game['id']}/claim", headers=auth(game["lords"][kingdom]["token"]))
        assert kept.status_code == 200 and kept.json()["role"] == "lord"
        other = client.post(f"/api/games/{game['id']}/claim", headers=auth(token(game, KINGDOMS[0])))
        assert other.status_code == 409  # one place a person in a game
        seen = client.get(f"/api/games/{game['id']}", headers={"Origin": ORIGIN})
        assert (seen.json()["role"], seen.json()["seat"]) == ("lord", kingdom)
        written = client.post(f"/api/games/{game['id']}/messages", headers={"Origin": ORIGIN},
                              json={"channel": f"council:{kingdom}", "text": "De mon compte"})
        assert written.status_code == 201 and written.json()["role"] == "lord"
