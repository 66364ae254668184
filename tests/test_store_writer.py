"""Players' actions by token (``Store.play`` and ``play_soon``), and SQLite's single writer: the actions
queued while it writes are committed together, a refused one changes nothing, and a group that fails is
written again action by action."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from kadesh.core import RuleError
from kadesh.store import BadToken, GameNotFound, NotASeat, StaleVersion, Store, TokenRevoked, WrongGame

DEPLOY = {"type": "deploy", "element": "n1", "cell": "c1"}
UNDEPLOY = {"type": "undeploy", "element": "n1"}


@pytest.fixture
def store(db):
    opened = Store(db)
    yield opened
    opened.close()


@pytest.fixture
def sqlite_store(tmp_path):
    opened = Store(f"sqlite:///{tmp_path / 'writer.sqlite3'}")
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


def hold_the_writer(store):
    """Submit one action while the store's writing turn is held: the writer takes it and waits for the turn,
    so what is submitted next waits in the queue, to be written as one group."""
    first_id, first_token = game_and_token(store)
    store._writing.acquire()
    first = store.play_soon(first_id, first_token, 0, DEPLOY)
    deadline = time.monotonic() + 10
    while not store._writer._queue.empty():
        assert time.monotonic() < deadline, "the writer never took the first action"
        time.sleep(0.01)
    return first


def test_actions_queued_meanwhile_are_written_in_one_commit(sqlite_store):
    store = sqlite_store
    games = [game_and_token(store) for _ in range(5)]
    first = hold_the_writer(store)
    commits = count_commits(store)
    answers = [store.play_soon(game_id, token, 0, DEPLOY) for game_id, token in games]
    store._writing.release()
    assert first.result(timeout=30)[1].version == 1
    assert [answer.result(timeout=30)[1].version for answer in answers] == [1] * 5
    assert len(commits) == 2  # the first action's, then the five queued meanwhile
    assert [store.action_count(game_id) for game_id, _ in games] == [1] * 5


def test_in_a_group_a_refused_action_changes_nothing_and_the_others_are_written(sqlite_store):
    store = sqlite_store
    (good_id, good_token), (bad_id, bad_token), (same_id, same_token) = (game_and_token(store) for _ in range(3))
    first = hold_the_writer(store)
    good = store.play_soon(good_id, good_token, 0, DEPLOY)
    refused = store.play_soon(bad_id, bad_token, 0, {"type": "ready"})
    stale = store.play_soon(bad_id, bad_token, 5, DEPLOY)
    then = [store.play_soon(same_id, same_token, version, action)  # one game twice in one group, in order
            for version, action in ((0, DEPLOY), (1, UNDEPLOY), (1, DEPLOY))]
    store._writing.release()
    first.result(timeout=30)
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


def test_a_failing_group_is_written_again_action_by_action(sqlite_store, monkeypatch):
    store = sqlite_store
    (broken_id, broken_token), (good_id, good_token) = game_and_token(store), game_and_token(store)
    record = store._record

    class FailingRecord:  # the disk fails on one game's action, after its game row was bumped
        def run(self, conn, **values):
            if values["game_id"] == broken_id:
                raise OperationalError("INSERT", {}, Exception("disk I/O error"))
            return record.run(conn, **values)

    monkeypatch.setattr(store, "_record", FailingRecord())
    first = hold_the_writer(store)
    good_before = store.play_soon(good_id, good_token, 0, DEPLOY)
    broken = store.play_soon(broken_id, broken_token, 0, DEPLOY)
    good_after = store.play_soon(good_id, good_token, 1, UNDEPLOY)
    store._writing.release()
    first.result(timeout=30)
    with pytest.raises(OperationalError):
        broken.result(timeout=30)
    assert [good_before.result(timeout=30)[1].version, good_after.result(timeout=30)[1].version] == [1, 2]
    assert (store.current_version(broken_id), store.action_count(broken_id)) == (0, 0)
    with store.game(broken_id) as game:
        assert game.version == 0
    with store.game(good_id) as game:
        assert game.version == store.action_count(good_id) == 2
