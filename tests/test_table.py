"""The table around the games (issue 42): a time per move and its claim, rated games and their ratings, the
leaderboards, and recomputing every rating from the games' records."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from kadesh.cli import app as cli
from kadesh.core import RuleError, load_game
from kadesh.server.accounts_api import days_in_words
from kadesh.server.worker import Worker
from kadesh.store import SEAT, Store, schema
from kadesh.store.ratings import NEW, PROVISIONAL_SIGMA
from kadesh.store.table import COMPUTER, DAY, TableSettings
from kadesh.store.vacations import NoVacationLeft
from tests.asgi_client import TestClient
from tests.kadesh_http import auth, deploy_all, deploy_side, first_moves
from tests.manoeuvre_pages import NORTH_CELLS
from tests.webauthn_support import ORIGIN, make_account

A_DAY_LATER = timedelta(days=1, seconds=1)


def settle_jobs(store: Store) -> None:
    """Every job a worker would take now: the ratings' among them."""
    worker = Worker(store, budget=0.01)
    while worker.work_once():
        pass


# -- time per move ------------------------------------------------------------------------------------------------

def test_a_side_whose_time_ran_out_loses_on_the_others_claim_and_the_record_replays_it(served):
    store, device = served
    client = device()
    made = client.post("/api/games", json={"ruleset": "manoeuvre", "clock": {"days_per_move": 1}}).json()
    gid, north, south = made["id"], made["seats"]["north"]["token"], made["seats"]["south"]["token"]
    table = client.get(f"/api/games/{gid}", headers=auth(north)).json()["table"]
    assert table["days_per_move"] == 1 and table["on_timeout"] == "claim" and not table["rated"]
    assert set(table["deadlines"]) == {"north", "south"} and table["late"] == []
    early = client.post(f"/api/games/{gid}/timeout", headers=auth(north))
    assert early.status_code == 409 and early.json()["code"] == "not_late"
    forged = client.post(f"/api/games/{gid}/actions", headers=auth(north),
                         json={"expected_version": 0, "action": {"type": "claim_timeout", "against": "south"}})
    assert forged.status_code == 422 and store.current_version(gid) == 0  # never a player's action
    deploy_side(client, gid, north, 0)  # the north deploys within its time; the south does nothing
    later = datetime.now(UTC) + A_DAY_LATER
    assert gid in store.due_games(later)
    _, claimed = store.claim_on_time(gid, north, now=later)
    assert [event.type for event in claimed.events] == ["timed_out"]
    seen = client.get(f"/api/games/{gid}", headers=auth(south)).json()
    assert seen["outcome"] == {"winner": "north", "reason": "time", "late": "south"} and seen["to_act"] == []
    lines = client.get(f"/api/games/{gid}/journal?lang=fr", headers=auth(south)).json()
    assert lines[-1]["line"] == "Sud n'a pas joué à temps : Nord gagne la partie."
    assert client.get(f"/api/games/{gid}/verify", headers=auth(south)).json()["ok"]
    assert load_game(store.export(gid)["record"]).outcome == seen["outcome"]
    again = client.post(f"/api/games/{gid}/timeout", headers=auth(north))
    assert again.status_code == 409 and again.json()["code"] == "game_over"


def test_a_clock_starts_at_the_turn_and_a_worker_stops_looking_once_it_ran_out(served):
    store, device = served
    made = device().post("/api/games", json={"ruleset": "front", "clock": {"days_per_move": 3}}).json()
    gid = made["id"]
    with store.game(gid) as game:
        seat = game.to_act()[0]
        began = game.written_at[game.turn_began[seat]]
    deadline = datetime.fromisoformat(device().get(f"/api/games/{gid}", headers=auth(made["seats"][seat]["token"]))
                                      .json()["table"]["deadlines"][seat])
    assert deadline == began + timedelta(days=3)
    later = deadline + timedelta(seconds=1)
    assert store.due_games(later) == [gid]
    assert store.act_when_due(gid, now=later) is None  # nothing to play: the claim is the other side's
    assert store.due_games(later) == []
    other = next(s for s in made["seats"] if s != seat)
    assert store.claim_on_time(gid, made["seats"][other]["token"], now=later)[1].version == 1
    with pytest.raises(Exception, match="over"):
        store.claim_on_time(gid, made["seats"][seat]["token"], now=later)


def test_bad_tables_are_refused_in_words_and_create_nothing(served):
    store, device = served
    client = device()
    cases = [
        ({"ruleset": "royaumes", "clock": {"days_per_move": 1}}, 422, "clock_not_here"),
        ({"ruleset": "manoeuvre", "clock": {"days_per_move": 5}}, 422, "invalid_request"),
        ({"ruleset": "manoeuvre", "clock": {"days_per_move": 1, "on_timeout": "coin"}}, 422, "invalid_request"),
        ({"ruleset": "manoeuvre", "rated": True, "open": {"south": "accounts"}}, 401, "not_signed_in"),
    ]
    for body, status, code in cases:
        answer = client.post("/api/games", json=body)
        assert (answer.status_code, answer.json()["code"]) == (status, code), body
    make_account(client, "Khety", ORIGIN)
    for body, code in [({"ruleset": "manoeuvre", "rated": True, "bots": {"south": "maladroit"}}, "rated_with_computer"),
                       ({"ruleset": "manoeuvre", "rated": True, "open": {"south": "anyone"}}, "rated_seats"),
                       ({"ruleset": "manoeuvre", "rated": True}, "rated_seats")]:
        answer = client.post("/api/games", json=body)
        assert (answer.status_code, answer.json()["code"]) == (422, code), body
    assert client.get("/api/account/games").json() == []
    games = client.post(f"/api/games/{'0' * 16}/timeout")
    assert games.status_code in (403, 404)


def test_no_clock_runs_while_a_seat_is_open_and_every_seat_s_starts_at_the_last_take(served):
    """A game waiting for its players has no deadline, no claim and no computer stand-in; its clocks start when
    its last open seat is taken, the creator's too (whose turn began at the creation)."""
    store, device = served
    creator = device()
    made = creator.post("/api/games", json={"ruleset": "manoeuvre", "open": {"south": "anyone"},
                                            "clock": {"days_per_move": 1, "on_timeout": "computer"}}).json()
    gid, north = made["id"], made["seats"]["north"]["token"]
    table = creator.get(f"/api/games/{gid}", headers=auth(north)).json()["table"]
    assert table["deadlines"] == {} and table["late"] == [] and table["claimable"] == []
    days_later = datetime.now(UTC) + timedelta(days=3)
    assert gid not in store.due_games(days_later) and Worker(store, budget=0.01).stand_in(gid, now=days_later) == 0
    assert store.act_when_due(gid, now=days_later) is None and gid not in store.due_games(days_later)
    assert store.current_version(gid) == 0  # the computer played nobody's turn
    taken_at = datetime.now(UTC)
    assert device().post(f"/api/games/{gid}/seats/south/take").status_code == 200
    deadlines = creator.get(f"/api/games/{gid}", headers=auth(north)).json()["table"]["deadlines"]
    assert set(deadlines) == {"north", "south"}
    assert all(datetime.fromisoformat(deadline) >= taken_at + timedelta(days=1) for deadline in deadlines.values())
    assert gid in store.due_games(datetime.now(UTC) + A_DAY_LATER)


# -- ratings ------------------------------------------------------------------------------------------------------

def rated_game(creator: TestClient, taker: TestClient, days: int | None = None) -> dict:
    """A rated Manœuvre made by ``creator`` (north), its south taken by ``taker``, both signed in."""
    body = {"ruleset": "manoeuvre", "rated": True, "open": {"south": "accounts"}}
    if days:
        body["clock"] = {"days_per_move": days}
    made = creator.post("/api/games", json=body)
    assert made.status_code == 201, made.text
    open_seat = next(iter(body["open"]))
    taken = taker.post(f"/api/games/{made.json()['id']}/seats/{open_seat}/take")
    assert taken.status_code == 200, taken.text
    return made.json()


def test_a_rated_game_moves_both_ratings_once_and_the_leaderboard_shows_them(served):
    store, device = served
    creator, taker, reader = device(), device(), device()
    make_account(creator, "Sinouhe", ORIGIN)
    make_account(taker, "Hatchepsout", ORIGIN)
    made = rated_game(creator, taker)
    gid = made["id"]
    version = first_moves(store, gid)
    resigned = taker.post(f"/api/games/{gid}/actions", json={"expected_version": version,
                                                             "action": {"type": "resign"}})
    assert resigned.status_code == 200, resigned.text
    settle_jobs(store)
    assert store.settle_rating(gid) is None  # once: a second settlement changes nothing
    board = reader.get("/api/leaderboards/manoeuvre").json()
    assert [(row["rank"], row["name"]) for row in board] == [(1, "Sinouhe"), (2, "Hatchepsout")]
    assert board[0]["rating"] > NEW.shown > board[1]["rating"] and all(row["provisional"] for row in board)
    assert all(row["games"] == 1 for row in board)
    mine = reader.get("/api/players/Sinouhe/ratings").json()
    assert [(r["ruleset"], [p["rating"] for p in r["history"]]) for r in mine] == \
        [("manoeuvre", [NEW.shown, board[0]["rating"]])]
    table = creator.get(f"/api/games/{gid}").json()["table"]
    assert table["rated"] and table["counted"] is True
    assert reader.get("/api/players/Nobody/ratings").status_code == 404
    assert reader.get("/api/leaderboards/chess").status_code == 404


def test_a_time_out_in_a_rated_game_counts_as_a_loss(served):
    store, device = served
    creator, taker = device(), device()
    make_account(creator, "Amenemhat", ORIGIN)
    make_account(taker, "Senousret", ORIGIN)
    gid = rated_game(creator, taker, days=1)["id"]
    deploy_all(store, gid, "north", first_moves(store, gid))  # the south placed one element, and no more
    north = store.accounts.holding(gid, store.accounts.by_name("Amenemhat").id)
    assert [claim.seat for claim in north if claim.role == SEAT] == ["north"]
    store.claim_on_time(gid, None, player_id=store.accounts.by_name("Amenemhat").id,
                        now=datetime.now(UTC) + A_DAY_LATER)
    settle_jobs(store)
    ratings = {row["name"]: row["rating"] for row in creator.get("/api/leaderboards/manoeuvre").json()}
    assert ratings["Amenemhat"] > NEW.shown > ratings["Senousret"]


def test_a_rated_game_with_a_seat_nobody_kept_is_recorded_as_not_counted(db):
    store = Store(db)
    try:
        player = store.accounts.create_player("Ipuwer", "fr")
        created = store.create_game("manoeuvre", table=TableSettings(rated=True))
        store.accounts.claim(created.id, SEAT, "north", player.id)
        store.act(created.id, "south", 0, {"type": "resign"})
        settle_jobs(store)
        assert store.ratings.settled(created.id) is False and store.ratings.of(player.id) == {}
    finally:
        store.close()


def test_two_workers_settling_one_game_at_once_rate_it_once(db):
    store = Store(db)
    try:
        players = [store.accounts.create_player(name, "fr").id for name in ("Merikare", "Kagemni")]
        created = store.create_game("manoeuvre", table=TableSettings(rated=True))
        for seat, player in zip(("north", "south"), players, strict=True):
            store.accounts.claim(created.id, SEAT, seat, player)
        store.act(created.id, "south", first_moves(store, created.id), {"type": "resign"})
        answers, start = [], threading.Barrier(4)

        def settle() -> None:
            start.wait()
            answers.append(store.settle_rating(created.id))

        threads = [threading.Thread(target=settle) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers, key=str) == [None, None, None, True]
        assert {r.games for r in (store.ratings.of(p)["manoeuvre"] for p in players)} == {1}
    finally:
        store.close()


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(games=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.sampled_from(["resign", "time"]),
                                st.booleans()), min_size=1, max_size=8))
def test_recomputing_every_rating_from_the_records_gives_the_stored_numbers(tmp_path_factory, games):
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('ratings')}/k.sqlite3")
    try:
        players = [store.accounts.create_player(f"Scribe{i}", "fr").id for i in range(4)]
        for first, second, ending, north_loses in games:
            if first == second:
                continue
            ruleset = "manoeuvre"
            created = store.create_game(ruleset, table=TableSettings(seconds_per_move=DAY, rated=True))
            store.accounts.claim(created.id, SEAT, "north", players[first])
            store.accounts.claim(created.id, SEAT, "south", players[second])
            version = first_moves(store, created.id)
            loser = "north" if north_loses else "south"
            winner = "south" if north_loses else "north"
            if ending == "resign":
                store.act(created.id, loser, version, {"type": "resign"})
            else:  # the winner is ready; the loser places no more elements
                deploy_all(store, created.id, winner, version)
                store.claim_on_time(created.id, None, player_id=players[first if winner == "north" else second],
                                    now=datetime.now(UTC) + A_DAY_LATER)
            settle_jobs(store)
        stored = store.ratings.stored()
        assert store.recompute_ratings() == stored
        assert all(rating.sigma < NEW.sigma for rating in stored.values())
        result = CliRunner().invoke(cli, ["ratings", "--db", store.url])
        assert result.exit_code == 0, result.output
        assert "none differ" in result.output
    finally:
        store.close()


def test_the_ratings_command_finds_a_changed_rating_and_puts_it_back(tmp_path):
    url = f"sqlite:///{tmp_path}/k.sqlite3"
    store = Store(url)
    try:
        players = [store.accounts.create_player(name, "fr").id for name in ("Djedi", "Neferti")]
        created = store.create_game("manoeuvre", table=TableSettings(rated=True))
        for seat, player in zip(("north", "south"), players, strict=True):
            store.accounts.claim(created.id, SEAT, seat, player)
        store.act(created.id, "north", first_moves(store, created.id), {"type": "resign"})
        settle_jobs(store)
        right = store.ratings.stored()
        with store.engine.begin() as conn:
            conn.execute(schema.ratings.update().values(mu=99.0))
    finally:
        store.close()
    found = CliRunner().invoke(cli, ["ratings", "--db", url])
    assert found.exit_code == 1 and "2 differ" in found.output
    fixed = CliRunner().invoke(cli, ["ratings", "--db", url, "--write"])
    assert fixed.exit_code == 0 and "(replaced)" in fixed.output
    store = Store(url)
    try:
        assert store.ratings.stored() == right
        assert all(rating.sigma > PROVISIONAL_SIGMA for rating in right.values())
    finally:
        store.close()


def test_a_backup_carries_the_tables_and_ratings_and_the_restored_database_rates_on(db, tmp_path):
    source_url = f"sqlite:///{tmp_path}/source.sqlite3"
    source = Store(source_url)
    try:
        players = [source.accounts.create_player(name, "fr").id for name in ("Imhotep", "Amenhotep")]
        for loser in ("north", "south", "north"):
            created = source.create_game("manoeuvre", table=TableSettings(seconds_per_move=2 * DAY, rated=True))
            for seat, player in zip(("north", "south"), players, strict=True):
                source.accounts.claim(created.id, SEAT, seat, player)
            source.act(created.id, loser, first_moves(source, created.id), {"type": "resign"})
            settle_jobs(source)
        rated = source.ratings.stored()
        history = source.ratings.history(players[0], "manoeuvre")
    finally:
        source.close()
    backup = tmp_path / "backup.jsonl"
    assert CliRunner().invoke(cli, ["export", "--all", "--db", source_url, "-o", str(backup)]).exit_code == 0
    assert CliRunner().invoke(cli, ["import", str(backup), "--db", db]).exit_code == 0
    restored = Store(db)
    try:
        assert restored.ratings.stored() == rated and restored.ratings.history(players[0], "manoeuvre") == history
        assert restored.tables.of(created.id) == TableSettings(seconds_per_move=2 * DAY, rated=True)
        assert restored.recompute_ratings() == rated
        another = restored.create_game("manoeuvre", table=TableSettings(rated=True))  # rated on, after the restore
        newcomer = restored.accounts.create_player("Kheti", "fr").id  # the pair above had its three games today
        for seat, player in zip(("north", "south"), (players[0], newcomer), strict=True):
            restored.accounts.claim(another.id, SEAT, seat, player)
        restored.act(another.id, "north", first_moves(restored, another.id), {"type": "resign"})
        settle_jobs(restored)
        assert restored.ratings.settled(another.id) is True
        assert restored.recompute_ratings() == restored.ratings.stored()
    finally:
        restored.close()


def test_a_vacation_lengthens_the_clocks_of_the_seats_an_account_keeps(served):
    store, device = served
    north_device, south_device = device(), device()
    make_account(north_device, "Ramose", ORIGIN)
    make_account(south_device, "Kaemwaset", ORIGIN)
    gid = rated_game(north_device, south_device, days=1)["id"]
    with store.game(gid) as game:
        began = max(game.written_at[game.turn_began["south"]], store.open_seats.seated(gid)["south"])
    version = deploy_all(store, gid, "north", 0)  # the north is ready; the south's clock runs
    assert south_device.get("/api/account/vacation").json() == {"away_until": None, "days_left": 14.0,
                                                                 "days_per_year": 14}
    away = south_device.post("/api/account/vacation", json={"days": 3})
    assert away.status_code == 200 and away.json()["away_until"] and away.json()["days_left"] <= 14.0
    assert south_device.post("/api/account/vacation", json={"days": 1}).json()["code"] == "already_away"
    assert south_device.post("/api/account/vacation", json={"days": 15}).status_code == 422
    table = north_device.get(f"/api/games/{gid}").json()["table"]
    assert table["vacation"] == ["south"] and table["holders"] == {"north": "Ramose", "south": "Kaemwaset"}
    deadline = datetime.fromisoformat(table["deadlines"]["south"])
    assert timedelta(days=3, hours=23) < deadline - began < timedelta(days=4, hours=1)  # a day, and three away
    north = store.accounts.by_name("Ramose").id
    with pytest.raises(RuleError, match="still has time"):
        store.claim_on_time(gid, None, player_id=north, now=began + timedelta(days=2))
    assert store.claim_on_time(gid, None, player_id=north, now=deadline + timedelta(seconds=1))[1].version == \
        version + 1


def test_days_are_written_singular_or_plural_in_each_language():
    assert [days_in_words(n, "fr") for n in (1, 1.5, 2, 10.3)] == ["1 jour", "1,5 jour", "2 jours", "10,3 jours"]
    assert [days_in_words(n, "en") for n in (1, 1.5, 2)] == ["1 day", "1.5 days", "2 days"]


def test_vacation_days_are_counted_over_a_year_and_coming_back_early_gives_the_rest_back(db):
    store = Store(db)
    try:
        player = store.accounts.create_player("Nakhtmin", "fr").id
        start = datetime(2026, 1, 10, tzinfo=UTC)
        store.vacations.leave(player, 10, now=start)
        assert store.vacations.come_back(player, now=start + timedelta(days=4))  # four days taken
        assert store.vacations.days_left(player, now=start + timedelta(days=5)) == pytest.approx(10)
        with pytest.raises(NoVacationLeft):
            store.vacations.leave(player, 11, now=start + timedelta(days=5))
        store.vacations.leave(player, 10, now=start + timedelta(days=5))
        # While away, the stay counts whole: 14 − 4 − 10, not the day gone so far (issue 59).
        assert store.vacations.days_left(player, now=start + timedelta(days=6)) == pytest.approx(0)
        assert store.vacations.days_left(player, now=start + timedelta(days=20)) == pytest.approx(0)
        assert store.vacations.days_left(player, now=start + timedelta(days=366)) == pytest.approx(4)  # the second
        assert store.vacations.days_left(player, now=start + timedelta(days=371)) == pytest.approx(14)  # a year on
        store.accounts.delete_player(player)
        assert store.vacations.of(player) == []
    finally:
        store.close()


def test_the_computer_plays_a_late_sides_turn_when_the_creator_chose_so(db):
    store = Store(db)
    try:
        created = store.create_game("manoeuvre", table=TableSettings(seconds_per_move=DAY, on_timeout=COMPUTER))
        for version, cell in enumerate(NORTH_CELLS):
            store.act(created.id, "north", version, {"type": "deploy", "element": f"n{version + 1}", "cell": cell})
        store.act(created.id, "north", len(NORTH_CELLS), {"type": "ready"})
        late = datetime.now(UTC) + A_DAY_LATER
        with pytest.raises(RuleError, match="computer"):  # nothing to claim: the computer will play
            store.claim_on_time(created.id, created.seat_tokens["north"], now=late)
        worker = Worker(store, budget=0.01)
        assert worker.stand_in(created.id, now=datetime.now(UTC)) == 0  # not late yet
        assert worker.stand_in(created.id, now=late) > 0
        with store.game(created.id) as game:
            assert game.outcome is None and "south" not in game.to_act()  # its deployment played, the battle on
            assert all(element.cell is not None for element in game.state.elements.values() if element.side == "south")
            assert all(deadline > datetime.now(UTC) for deadline in store.clock(created.id, game).values())
    finally:
        store.close()


KINGDOMS = ("basse_egypte", "haute_egypte", "koush", "libye")


def test_a_campaign_refereed_by_kadesh_alone_adjudicates_when_every_order_is_in(served):
    store, device = served
    client = device()
    clock = {"days_per_move": 2, "on_timeout": "computer"}
    open_kingdoms = {kingdom: "anyone" for kingdom in KINGDOMS[1:]}
    for body, code in [
        ({"ruleset": "royaumes", "referee": "kadesh", "clock": {"days_per_move": 2}}, "clock_not_here"),
        ({"ruleset": "royaumes", "clock": clock}, "clock_not_here"),
        ({"ruleset": "manoeuvre", "referee": "kadesh"}, "no_referee_here"),
        ({"ruleset": "royaumes", "referee": "kadesh", "open": {"imhotep": "anyone"}}, "referee_seats"),
        ({"ruleset": "royaumes", "referee": "kadesh", "open": dict.fromkeys(KINGDOMS, "anyone")}, "referee_seats"),
    ]:
        answer = client.post("/api/games", json=body)
        assert (answer.status_code, answer.json()["code"]) == (422, code), body
    made = client.post("/api/games", json={"ruleset": "royaumes", "referee": "kadesh", "clock": clock,
                                           "open": open_kingdoms})
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    for kingdom in KINGDOMS[1:]:  # each open kingdom's clock starts when it is taken
        assert device().post(f"/api/games/{gid}/seats/{kingdom}/take").status_code == 200
    worker = Worker(store, budget=0.01)
    for number, kingdom in enumerate(KINGDOMS[:3]):
        store.act(gid, kingdom, number, {"type": "orders"})
    late = datetime.now(UTC) + timedelta(days=2, seconds=5)
    assert worker.stand_in(gid, now=datetime.now(UTC)) == 0  # Libye still has time
    assert worker.stand_in(gid, now=late) >= 1  # the computer sends Libye's orders: the turn is adjudicated
    with store.game(gid) as game:
        assert game.ruleset.round(game.state) == 2 and set(game.to_act()) == set(KINGDOMS)  # Libye's next turn is
        assert all(deadline > datetime.now(UTC) for deadline in store.clock(gid, game).values())  # its own again


def test_a_games_open_pages_hear_its_table_change(served):
    """A seat taken, a holder's vacation begun and ended, the rating settled, the open seats closed: each reaches
    the game's open sockets as a ``table`` frame with how often the table changed, as GET counts it (a page asks
    for its table again: the creator's « attend ses joueurs » does not stay after the seat is taken)."""
    store, device = served
    creator, taker = device(), device()
    make_account(creator, "Thoutmosis", ORIGIN)
    make_account(taker, "Nefertari", ORIGIN)
    made = creator.post("/api/games", json={"ruleset": "manoeuvre", "rated": True, "open": {"south": "accounts"},
                                            "clock": {"days_per_move": 1}}).json()
    gid, north = made["id"], made["seats"]["north"]["token"]
    with creator.websocket_connect(f"/ws/games/{gid}", subprotocols=["kadesh", f"kadesh.bearer.{north}"]) as socket:
        assert socket.receive_json()["table_changes"] == 0
        taken = taker.post(f"/api/games/{gid}/seats/south/take")
        assert taken.status_code == 200, taken.text
        assert socket.receive_json() == {"type": "table", "changes": 1}
        seen = creator.get(f"/api/games/{gid}", headers=auth(north)).json()
        assert seen["table_changes"] == 1 and seen["table"]["open"] == []
        said = taker.post(f"/api/games/{gid}/messages", json={"channel": "table", "text": "Bonne partie !"})
        assert said.status_code == 201, said.text
        frame = socket.receive_json()  # the message, signed with the side and the account that holds it
        assert frame["type"] == "messages" and frame["messages"][0]["sender"]["fr"] == "Sud (Nefertari)"
        listed = creator.get(f"/api/games/{gid}/messages", headers=auth(north)).json()["messages"]
        assert [m["sender"]["en"] for m in listed] == ["South (Nefertari)"]
        assert taker.post("/api/account/vacation", json={"days": 2}).status_code == 200
        assert socket.receive_json() == {"type": "table", "changes": 2}
        assert taker.delete("/api/account/vacation").status_code == 200
        assert socket.receive_json() == {"type": "table", "changes": 3}
        resigned = taker.post(f"/api/games/{gid}/actions", json={"expected_version": 0, "action": {"type": "resign"}})
        assert resigned.status_code == 200, resigned.text
        assert socket.receive_json()["type"] == "update"
        settle_jobs(store)
        assert socket.receive_json() == {"type": "table", "changes": 4}
    assert creator.get(f"/api/games/{gid}", headers=auth(north)).json()["table"]["counted"] is False
    other = creator.post("/api/games", json={"ruleset": "manoeuvre", "open": {"south": "anyone"}}).json()
    token = other["seats"]["north"]["token"]
    with creator.websocket_connect(f"/ws/games/{other['id']}", subprotocols=["kadesh", f"kadesh.bearer.{token}"]
                                   ) as socket:
        socket.receive_json()
        assert creator.delete(f"/api/games/{other['id']}/open", headers=auth(token)).status_code == 204
        frames = [socket.receive_json(), socket.receive_json()]  # the seats closed, and the game cancelled
        assert {"type": "table", "changes": 1} in frames and {frame["type"] for frame in frames} == {"table", "update"}
