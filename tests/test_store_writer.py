"""Players' actions by token (``Store.play`` and ``play_soon``), and the store's writers (one on SQLite, two on
PostgreSQL): the actions queued while they write are committed together, a refused one changes nothing, and a
group that fails is written again action by action."""

from __future__ import annotations

import threading
import time

import pytest
from sqlalchemy import String, cast, event, select
from sqlalchemy.exc import OperationalError, ProgrammingError

from kadesh.core import Game, RuleError
from kadesh.store import BadToken, GameNotFound, NotASeat, StaleVersion, Store, TokenRevoked, WrongGame, schema
from kadesh.store import writer as writer_module
from kadesh.store.writer import GroupWriter, Play

DEPLOY = {"type": "deploy", "element": "n1", "cell": "c1"}
UNDEPLOY = {"type": "undeploy", "element": "n1"}


@pytest.fixture
def store(db):
    opened = Store(db)
    yield opened
    opened.close()


def count_commits(store):
    commits = []
    event.listen(store.engine, "commit", lambda conn: commits.append(1))
    return commits


def game_and_token(store):
    created = store.create_game("manoeuvre")
    return created.id, created.seat_tokens["north"]


def test_play_knows_the_seat_by_its_token_and_refuses_the_rest(store):
    created = store.create_game("manoeuvre")
    other = store.create_game("manoeuvre")
    access, result = store.play(created.id, created.seat_tokens["north"], 0, DEPLOY, after=lambda g, seat: seat)
    assert (access.seat, result.version, result.after, result.has_bots) == ("north", 1, "north", False)
    refusals = [("nothing", created.seat_tokens["north"], GameNotFound), (created.id, None, BadToken),
                (created.id, "not-a-token", BadToken), (created.id, other.seat_tokens["north"], WrongGame),
                (created.id, created.spectator_token, NotASeat), (created.id, created.owner_token, NotASeat)]
    for game_id, token, error in refusals:
        with pytest.raises(error):
            store.play(game_id, token, 1, UNDEPLOY)
    store.reissue_token(created.id, "seat", "north")
    with pytest.raises(TokenRevoked):
        store.play(created.id, created.seat_tokens["north"], 1, UNDEPLOY)
    assert store.action_count(created.id) == 1


def test_play_soon_answers_as_play_does(store):
    game_id, token = game_and_token(store)
    access, result = store.play_soon(game_id, token, 0, DEPLOY).result(timeout=30)
    assert access.seat == "north" and result.version == 1
    with pytest.raises(StaleVersion):
        store.play_soon(game_id, token, 0, UNDEPLOY).result(timeout=30)
    store.set_bot(game_id, "south", "maladroit")
    assert store.play_soon(game_id, token, 1, UNDEPLOY).result(timeout=30)[1].has_bots


def wait_for_an_empty_queue(store):
    deadline = time.monotonic() + 10
    while not store._writer._queue.empty():
        assert time.monotonic() < deadline, "the writers never took their actions"
        time.sleep(0.01)


class HeldGame:
    """A game's lock, held by the test, that tells when a writer waits for it (put in the store's place)."""

    def __init__(self):
        self._lock = threading.Lock()
        self._lock.acquire()
        self.waited = threading.Event()

    def acquire(self):
        self.waited.set()
        self._lock.acquire()

    def release(self):
        self._lock.release()

    def __enter__(self):
        self.acquire()

    def __exit__(self, *_):
        self.release()


class HeldWriters:
    """One action submitted per writer while its game is held: each writer takes one and waits for its game,
    so what is submitted next waits in the queue. ``release()`` frees the first writer, which writes its
    action and then everything queued as one group, and after that the others."""

    def __init__(self, store):
        self.store = store
        self.held, self.firsts = [], []
        for _ in range(store._writer.size):  # one at a time, so that each writer takes one
            game_id, token = game_and_token(store)
            held = HeldGame()
            store._locks[game_id] = held
            self.held.append(held)
            self.firsts.append(store.play_soon(game_id, token, 0, DEPLOY))
            assert held.waited.wait(10), "no writer took the action"

    def release(self):
        self.held[0].release()
        assert self.firsts[0].result(timeout=30)[1].version == 1
        wait_for_an_empty_queue(self.store)  # the first writer has taken the queued actions
        for held in self.held[1:]:
            held.release()
        assert [first.result(timeout=30)[1].version for first in self.firsts] == [1] * len(self.firsts)


def test_actions_queued_meanwhile_are_written_in_one_commit(store):
    games = [game_and_token(store) for _ in range(5)]
    held = HeldWriters(store)
    commits = count_commits(store)
    answers = [store.play_soon(game_id, token, 0, DEPLOY) for game_id, token in games]
    held.release()
    assert [answer.result(timeout=30)[1].version for answer in answers] == [1] * 5
    # Each held writer's action, and the five queued meanwhile in one.
    assert len(commits) == store._writer.size + 1
    assert [store.action_count(game_id) for game_id, _ in games] == [1] * 5


def test_in_a_group_a_refused_action_changes_nothing_and_the_others_are_written(store):
    (good_id, good_token), (bad_id, bad_token), (same_id, same_token) = (game_and_token(store) for _ in range(3))
    held = HeldWriters(store)
    good = store.play_soon(good_id, good_token, 0, DEPLOY)
    refused = store.play_soon(bad_id, bad_token, 0, {"type": "ready"})
    stale = store.play_soon(bad_id, bad_token, 5, DEPLOY)
    then = [store.play_soon(same_id, same_token, version, action)  # one game twice in one group, in order
            for version, action in ((0, DEPLOY), (1, UNDEPLOY), (1, DEPLOY))]
    held.release()
    assert good.result(timeout=30)[1].version == 1
    with pytest.raises(RuleError):
        refused.result(timeout=30)
    with pytest.raises(StaleVersion):
        stale.result(timeout=30)
    assert [answer.result(timeout=30)[1].version for answer in then[:2]] == [1, 2]
    with pytest.raises(StaleVersion):
        then[2].result(timeout=30)
    assert (store.action_count(good_id), store.action_count(bad_id), store.action_count(same_id)) == (1, 0, 2)
    with store.game(same_id) as game:
        assert game.version == 2


def test_in_a_group_each_action_is_refused_or_written_as_it_would_be_alone(store):
    """On PostgreSQL the group's entries are read at once: a token is still refused for what it is, a game
    played by an account is still its seat's, and one game's versions follow its actions in the group."""
    created, other = store.create_game("manoeuvre"), store.create_game("manoeuvre")
    north = created.seat_tokens["north"]
    revoked = created.seat_tokens["south"]
    store.reissue_token(created.id, "seat", "south")
    player = store.accounts.create_player("Hatchepsout", "fr")
    store.accounts.claim(other.id, "seat", "north", player.id)
    held = HeldWriters(store)
    refused = [(store.play_soon(game_id, token, 0, DEPLOY), error) for game_id, token, error in (
        ("nothing", north, GameNotFound), (created.id, None, BadToken), (created.id, "not-a-token", BadToken),
        (created.id, other.seat_tokens["north"], WrongGame), (created.id, created.spectator_token, NotASeat),
        (created.id, revoked, TokenRevoked), (other.id, None, BadToken))]
    played = [store.play_soon(created.id, north, 0, DEPLOY), store.play_soon(created.id, north, 1, UNDEPLOY),
              store.play_soon(other.id, None, 0, DEPLOY, player_id=player.id),
              store.play_soon(other.id, other.seat_tokens["north"], 1, UNDEPLOY)]
    held.release()
    for answer, error in refused:
        with pytest.raises(error):
            answer.result(timeout=30)
    assert [(access.seat, result.version) for access, result in (answer.result(timeout=30) for answer in played)] \
        == [("north", 1), ("north", 2), ("north", 1), ("north", 2)]
    assert (store.action_count(created.id), store.action_count(other.id)) == (2, 2)


def failing_for(statement, broken):
    """``statement``, but the disk fails when ``broken(values)`` holds of what it writes."""
    class Failing:
        def run(self, conn, **values):
            if broken(values):
                raise OperationalError("INSERT", {}, Exception("disk I/O error"))
            return statement.run(conn, **values)
    return Failing()


def test_a_failing_group_is_written_again_action_by_action(store, monkeypatch):
    (broken_id, broken_token), (good_id, good_token) = game_and_token(store), game_and_token(store)
    if store._group_write is not None:  # PostgreSQL: the group's one statement, then each action's own
        write_moves = store._write_moves

        def failing_moves(conn, moves, commit):
            if any(move.game_id == broken_id for move in moves):
                raise OperationalError("WITH", {}, Exception("disk I/O error"))
            return write_moves(conn, moves, commit)

        monkeypatch.setattr(store, "_write_moves", failing_moves)
        monkeypatch.setattr(store, "_bump_record_notify_watchers", failing_for(
            store._bump_record_notify_watchers, lambda values: values["game_id"] == broken_id))
    else:  # SQLite: the action's row, after its game's row was bumped
        monkeypatch.setattr(store, "_record", failing_for(store._record,
                                                          lambda values: values["game_id"] == broken_id))
    held = HeldWriters(store)
    good_before = store.play_soon(good_id, good_token, 0, DEPLOY)
    broken = store.play_soon(broken_id, broken_token, 0, DEPLOY)
    good_after = store.play_soon(good_id, good_token, 1, UNDEPLOY)
    held.release()
    with pytest.raises(OperationalError):
        broken.result(timeout=30)
    assert [good_before.result(timeout=30)[1].version, good_after.result(timeout=30)[1].version] == [1, 2]
    assert (store.current_version(broken_id), store.action_count(broken_id)) == (0, 0)
    with store.game(broken_id) as game:
        assert game.version == 0
    with store.game(good_id) as game:
        assert game.version == store.action_count(good_id) == 2


def test_a_ruleset_failing_in_a_group_leaves_its_game_s_next_actions_as_they_would_be_alone(store, monkeypatch):
    """A ruleset that fails (not a refusal) on one action of a group drops its game from the store's cache; the
    game's next action in the group is still played on the game as the group left it, never on the database's
    older one (which has none of the group's moves yet): a legal one is written, an illegal one refused."""
    act = Game.act

    def failing(self, seat, action):
        if action.get("type") == "boom":
            raise ZeroDivisionError("a ruleset's bug")
        return act(self, seat, action)

    monkeypatch.setattr(Game, "act", failing)
    (game_id, token), (other_id, other_token) = game_and_token(store), game_and_token(store)
    held = HeldWriters(store)
    answers = [store.play_soon(game_id, token, 0, DEPLOY), store.play_soon(game_id, token, 1, {"type": "boom"}),
               store.play_soon(game_id, token, 1, dict(DEPLOY, element="n2")),  # the cell n1 took
               store.play_soon(game_id, token, 1, UNDEPLOY),  # n1 is on the field
               store.play_soon(other_id, other_token, 0, DEPLOY)]
    held.release()
    assert answers[0].result(timeout=30)[1].version == 1
    for refused in answers[1:3]:
        with pytest.raises(RuleError):
            refused.result(timeout=30)
    assert [answers[3].result(timeout=30)[1].version, answers[4].result(timeout=30)[1].version] == [2, 1]
    store.cache.clear()
    with store.game(game_id) as game:  # replayed from the database alone
        assert game.version == store.action_count(game_id) == 2


def test_nothing_is_read_for_a_group_after_its_commit(told_store, monkeypatch):
    """PostgreSQL sends a group's COMMIT with its write when it queues no job: what the answers need comes back
    with the write. A read failing after it would replay actions already committed and answer them as stale."""
    store, told = told_store
    moved_id, moved_token = moved_under_the_group(store, monkeypatch)
    good_id, good_token = game_and_token(store)

    class Unreadable:
        def run(self, conn, **values):
            raise OperationalError("SELECT", {}, Exception("server closed the connection"))

    held = HeldWriters(store)
    monkeypatch.setattr(store, "_version", Unreadable())
    lost = store.play_soon(moved_id, moved_token, 0, DEPLOY)
    good = store.play_soon(good_id, good_token, 0, DEPLOY)
    held.release()
    with pytest.raises(StaleVersion):
        lost.result(timeout=30)
    assert good.result(timeout=30)[1].version == store.action_count(good_id) == 1
    assert (good_id, 1) in told


def test_a_game_written_by_another_server_while_it_is_read_again_answers_stale(tmp_path, monkeypatch):
    """SQLite's readers do not wait for a writer: a server that rebuilds a game just after reading its version
    may find the game a version further (another server wrote between). The action is answered as stale, as a
    race lost at the write is, never played on a state its version does not name."""
    url = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    here, there = Store(url), Store(url)
    try:
        game_id, token = game_and_token(there)
        there.play(game_id, token, 0, DEPLOY)
        rebuild = here.rebuild

        def written_meanwhile(game):
            there.play(game_id, token, 1, UNDEPLOY)
            return rebuild(game)

        monkeypatch.setattr(here, "rebuild", written_meanwhile)
        with pytest.raises(StaleVersion) as refusal:
            here.play(game_id, token, 1, UNDEPLOY)
        assert (refusal.value.current, there.current_version(game_id), there.action_count(game_id)) == (2, 2, 2)
    finally:
        here.close()
        there.close()


def refuse_actions_of(store, game_id):
    """A trigger that makes the database refuse any action row of ``game_id`` as a broken constraint."""
    with store.engine.begin() as conn:
        if store.engine.dialect.name == "sqlite":
            conn.exec_driver_sql(f"CREATE TRIGGER refused BEFORE INSERT ON actions WHEN NEW.game_id = '{game_id}' "
                                 "BEGIN SELECT RAISE(ABORT, 'refused'); END")
        else:
            conn.exec_driver_sql("CREATE FUNCTION refused() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                                 f"IF NEW.game_id = '{game_id}' THEN "
                                 "RAISE EXCEPTION 'refused' USING ERRCODE = 'check_violation'; END IF; "
                                 "RETURN NEW; END $$")
            conn.exec_driver_sql("CREATE TRIGGER refused BEFORE INSERT ON actions FOR EACH ROW "
                                 "EXECUTE FUNCTION refused()")


def test_a_group_the_database_refuses_is_written_again_action_by_action(store):
    """A constraint that one action of a group breaks (on PostgreSQL, in the statement that writes the whole
    group, sent with its COMMIT): nothing of the group is kept, then each action is written alone, the refused
    one answered as a lost race is (nothing of it written)."""
    (refused_id, refused_token), (good_id, good_token) = game_and_token(store), game_and_token(store)
    refuse_actions_of(store, refused_id)
    held = HeldWriters(store)
    refused = store.play_soon(refused_id, refused_token, 0, DEPLOY)
    good = store.play_soon(good_id, good_token, 0, DEPLOY)
    held.release()
    with pytest.raises(StaleVersion):
        refused.result(timeout=30)
    assert good.result(timeout=30)[1].version == 1
    assert (store.current_version(refused_id), store.current_version(good_id)) == (0, 1)
    assert (store.action_count(refused_id), store.action_count(good_id)) == (0, 1)
    with store.game(refused_id) as game:
        assert game.version == 0


def written_rows(store, game_id):
    """What the database holds of a game's actions and jobs, as text where it is JSON: what a lone write and a
    group's must leave alike (the moments and the subscriptions' ids aside)."""
    with store.engine.connect() as conn:
        actions = conn.execute(select(schema.actions.c.seq, schema.actions.c.seat,
                                      cast(schema.actions.c.action, String), cast(schema.actions.c.events, String))
                               .where(schema.actions.c.game_id == game_id).order_by(schema.actions.c.seq)).all()
        game = conn.execute(select(schema.games.c.version, cast(schema.games.c.outcome, String),
                                   schema.games.c.due_at).where(schema.games.c.id == game_id)).one()
        jobs = conn.execute(select(schema.jobs.c.kind, schema.jobs.c.version, schema.jobs.c.target != "",
                                   schema.jobs.c.priority).where(schema.jobs.c.game_id == game_id)
                            .order_by(schema.jobs.c.version, schema.jobs.c.kind)).all()
    return [tuple(row) for row in actions], tuple(game), [tuple(row) for row in jobs]


def test_a_group_writes_what_the_same_actions_write_alone(store):
    """Rows, outcome, deadline and jobs (a computer's seat's, a subscription's notices), alike whether the
    actions were written alone or together in a writer's group (on PostgreSQL, one statement for the group)."""
    pairs = []
    for watched in ("bot", "subscription"):
        pair = [store.create_game("manoeuvre") for _ in range(2)]
        for created in pair:
            if watched == "bot":
                store.set_bot(created.id, "south", "maladroit")
            else:
                store.subscriptions.add(created.id, "south", "webhook", "https://example.org/hook", "kadesh", "fr",
                                        "https://kadesh.example/g")
        pairs.append(pair)
    moves = [(0, DEPLOY), (1, UNDEPLOY), (2, {"type": "resign"})]
    for alone, _ in pairs:
        for version, action in moves:
            store.play(alone.id, alone.seat_tokens["north"], version, action)
    held = HeldWriters(store)
    answers = [store.play_soon(together.id, together.seat_tokens["north"], version, action)
               for _, together in pairs for version, action in moves]
    held.release()
    assert [answer.result(timeout=30)[1].version for answer in answers] == [1, 2, 3] * 2
    for alone, together in pairs:
        assert written_rows(store, together.id) == written_rows(store, alone.id)
    bot_jobs, notice_jobs = (written_rows(store, alone.id)[2] for alone, _ in pairs)
    assert "bot" in {kind for kind, *_ in bot_jobs} and "over" in {kind for kind, *_ in notice_jobs}


@pytest.fixture
def told_store(postgres):
    """A store on a PostgreSQL database of its own, and the (game, version) its commits were told."""
    url = postgres.new_database()
    store, told = Store(url), []
    store.on_commit = lambda game_id, version: told.append((game_id, version))
    yield store, told
    store.close()
    postgres.drop_database(url)


def moved_under_the_group(store, monkeypatch):
    """A game another writer moved where the games' row locks did not stop it: the group's entries and the game
    the store keeps say version 0, the database 1. Its token."""
    game_id, token = game_and_token(store)
    older = store.rebuild(game_id)
    store.play(game_id, token, 0, DEPLOY)
    entries_of = store._entries_of

    def behind(conn, group):
        known = entries_of(conn, group)
        if game_id in known.versions:
            known.versions[game_id] = 0
            store.cache.put(game_id, older)
        return known

    monkeypatch.setattr(store, "_entries_of", behind)
    return game_id, token


def test_in_a_group_a_game_moved_under_it_is_refused_as_stale_and_the_others_written(told_store, monkeypatch):
    """PostgreSQL writes a group's moves in one statement, each game's from the version its entries read: a
    game found elsewhere keeps what it had, its moves refused as stale, and the group's other games are written
    (by the group: its commit is told of them)."""
    store, told = told_store
    moved_id, moved_token = moved_under_the_group(store, monkeypatch)
    good_id, good_token = game_and_token(store)
    held = HeldWriters(store)
    lost = store.play_soon(moved_id, moved_token, 0, DEPLOY)
    good = store.play_soon(good_id, good_token, 0, DEPLOY)
    held.release()
    with pytest.raises(StaleVersion) as refusal:
        lost.result(timeout=30)
    assert (refusal.value.expected, refusal.value.current) == (0, 1)
    assert good.result(timeout=30)[1].version == 1 and (good_id, 1) in told
    assert (store.action_count(moved_id), store.action_count(good_id)) == (1, 1)
    with store.game(moved_id) as game:
        assert game.version == 1


class Groups:
    """A ``write_group`` that records its groups and connections; a group whose first game is in ``held``
    waits for its go."""

    def __init__(self, held=()):
        self.groups, self.opened = [], []
        self.held = {name: threading.Event() for name in held}
        self.entered = {name: threading.Event() for name in held}
        self.lock = threading.Lock()

    def connect(self):
        connection = FakeConnection(len(self.opened))
        self.opened.append(connection)
        return connection

    def write_group(self, group, connection):
        first = group[0].game_id
        if first in self.held:
            self.entered[first].set()
            self.held[first].wait(10)
        with self.lock:
            self.groups.append([play.game_id for play in group])
        for play in group:
            play.answer.set_result(play.game_id)


class FakeConnection:
    """What a writer's ``connect()`` opens, as far as it goes: closed or not."""

    def __init__(self, number):
        self.number, self.closed = number, False

    def close(self):
        self.closed = True


def submit_all(writer, names):
    return [writer.submit(Play(name, None, 0, {})) for name in names]


def test_two_writers_each_take_what_is_queued_when_their_turn_comes():
    recorder = Groups(held=["a", "b"])
    writer = GroupWriter(recorder.write_group, recorder.connect, threads=2)
    first = submit_all(writer, ["a"])
    assert recorder.entered["a"].wait(10)  # one writer busy with "a"
    second = submit_all(writer, ["b"])
    assert recorder.entered["b"].wait(10)  # the other with "b"
    queued = submit_all(writer, ["c", "d", "e"])
    recorder.held["a"].set()
    assert [answer.result(timeout=10) for answer in queued] == ["c", "d", "e"]
    recorder.held["b"].set()
    assert first[0].result(timeout=10) == "a" and second[0].result(timeout=10) == "b"
    writer.close()
    assert recorder.groups == [["a"], ["c", "d", "e"], ["b"]]
    assert len(recorder.opened) == 2 and all(connection.closed for connection in recorder.opened)


def test_a_writer_keeps_its_connection_while_it_works_and_opens_another_after_a_pause(monkeypatch):
    recorder = Groups()
    writer = GroupWriter(recorder.write_group, recorder.connect, threads=1)
    assert submit_all(writer, ["a"])[0].result(timeout=10) == "a"
    assert submit_all(writer, ["b"])[0].result(timeout=10) == "b"
    assert len(recorder.opened) == 1  # no new connection (nor the pool's check of it) between two groups
    monkeypatch.setattr(writer_module, "KEEP_CONNECTION_SECONDS", 0.0)
    time.sleep(0.01)
    assert submit_all(writer, ["c"])[0].result(timeout=10) == "c"
    assert len(recorder.opened) == 2 and recorder.opened[0].closed and not recorder.opened[1].closed
    writer.close()
    assert recorder.opened[1].closed


def test_a_writer_that_fails_answers_with_the_error_and_goes_on():
    def write_group(group, connection):
        if group[0].game_id == "broken":
            raise RuntimeError("broken")
        for play in group:
            play.answer.set_result(play.game_id)

    writer = GroupWriter(write_group, lambda: FakeConnection(0), threads=1)
    broken = submit_all(writer, ["broken"])[0]
    with pytest.raises(RuntimeError):
        broken.result(timeout=10)
    assert submit_all(writer, ["fine"])[0].result(timeout=10) == "fine"
    writer.close()


def test_the_action_path_survives_a_rollback_and_its_statements_deallocated(postgres):
    """PostgreSQL runs the action path's statements prepared on each connection (kadesh.store.prepared): a rollback
    leaves them in place (psycopg, which deallocates all of its own at a rollback, prepares none), and one
    deallocated under the store's feet costs that one statement, refused, before it is prepared again."""
    url = postgres.new_database()
    store = Store(url)
    try:
        game = store.create_game("manoeuvre")
        token = game.seat_tokens["north"]
        read = store._version_to_write
        with store.engine.connect() as conn:
            for _ in range(2):
                with conn.begin() as transaction:
                    assert read.run(conn, game_id=game.id).fetchone() == (0,)
                    for _ in range(6):  # a statement psycopg would prepare by itself at its fifth run
                        conn.execute(select(schema.games.c.version).where(schema.games.c.id == game.id)).one()
                    transaction.rollback()
            conn.exec_driver_sql("DEALLOCATE ALL")
            conn.commit()
            with conn.begin() as transaction:
                with pytest.raises(ProgrammingError, match="does not exist"):
                    read.run(conn, game_id=game.id)
                transaction.rollback()
            with conn.begin():
                assert read.run(conn, game_id=game.id).fetchone() == (0,)
        with store.game(game.id) as opened:
            action = next(iter(opened.legal_actions("north")))
        store.play(game.id, token, 0, action)  # the whole action path, on a connection that saw all of this
        assert store.current_version(game.id) == 1
    finally:
        store.close()
        postgres.drop_database(url)
