"""Odds, previews and seat lists run in a check process, not where requests are answered (issue 40): a bounded
queue per server (429 beyond), dropped when their client has gone, and a new process if one dies."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from kadesh.core import RuleError
from kadesh.server.app import create_app
from kadesh.server.checks import Answers, Checks, game_check
from kadesh.server.problems import ApiProblem
from kadesh.store import Store
from tests.asgi_client import TestClient
from tests.waiting import in_a_thread_of_its_own, wait_until


def run(coroutine):
    return in_a_thread_of_its_own(asyncio.run, coroutine)


class Client:
    """What ``Checks.run`` asks of a request: whether its client is still there."""

    def __init__(self, gone: bool = False) -> None:
        self.gone = gone

    async def is_disconnected(self) -> bool:
        return self.gone


@pytest.fixture
def checks(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/checks.sqlite3")
    made = Checks(store.url, running=1, waiting=1)
    yield made, store
    made.close()
    store.close()


def test_a_check_runs_in_a_process_of_its_own_on_the_same_games(checks):
    made, store = checks
    created = store.create_game("manoeuvre", seed="checks")
    assert run(made.run(Client(), os.getpid)) != os.getpid()
    with store.game(created.id) as game:
        deploy = game.legal_actions("north")[0]
    version, odds = run(made.run(Client(), game_check, "odds", created.id, "north", deploy))
    assert version == 0 and odds is None  # no dice in a deployment
    with pytest.raises(RuleError) as refused:  # the rules' refusal comes back whole, to be answered as ever
        run(made.run(Client(), game_check, "odds", created.id, "north", {"type": "end_turn"}))
    assert refused.value.code and refused.value.fr


def test_past_the_queue_a_check_is_refused_with_retry_after(checks):
    made, _ = checks

    async def three_at_once() -> list:
        return await asyncio.gather(*(made.run(Client(), time.sleep, 1.0) for _ in range(3)), return_exceptions=True)

    answers = run(three_at_once())
    refused = [answer for answer in answers if isinstance(answer, ApiProblem)]
    assert len(refused) == 1 and refused[0].status == 429 and refused[0].code == "checks_busy"
    assert refused[0].extra["retry_after"] >= 1


def test_a_check_whose_client_has_gone_is_never_computed(checks, tmp_path):
    made, _ = checks
    ran = tmp_path / "ran"
    client = Client()

    async def leave_while_queued() -> object:
        busy = asyncio.ensure_future(made.run(Client(), time.sleep, 1.0))
        await asyncio.sleep(0.2)  # the first holds the process: the second waits behind it
        queued = asyncio.ensure_future(made.run(client, ran.touch))
        await asyncio.sleep(0.2)
        client.gone = True
        answer = await queued
        await busy
        return answer

    assert run(leave_while_queued()) is None
    run(made.run(Client(), time.sleep, 0.3))  # anything not dropped would have run before this
    assert not ran.exists()


def test_a_check_process_that_dies_is_replaced(checks):
    made, _ = checks
    first = run(made.run(Client(), os.getpid))
    os.kill(first, signal.SIGKILL)
    wait_until(lambda: _gone(first), "the check process's end")
    answers = []
    for _ in range(3):  # the broken pool is noticed at the first check after, which may be refused (503)
        try:
            answers.append(run(made.run(Client(), os.getpid)))
        except ApiProblem as problem:
            assert problem.status == 503 and problem.code == "checks_unavailable"
    assert answers and answers[-1] != first


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    with open(f"/proc/{pid}/stat") as stat:  # a zombie until its parent reaps it
        return stat.read().split()[2] == "Z"


def test_legal_actions_are_computed_once_per_version_and_seat_and_never_in_the_web_process(tmp_path, monkeypatch):
    import kadesh.core.game

    def not_here(*args, **kwargs):
        raise AssertionError("legal actions computed in the web process")

    monkeypatch.setattr(kadesh.core.game.Game, "legal_actions", not_here)  # the check process imports its own
    with TestClient(create_app(f"sqlite:///{tmp_path}/legal.sqlite3", local_workers=0)) as client:
        answers = client.app.state.legal_answers
        game = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
        north = {"Authorization": f"Bearer {game['seats']['north']['token']}"}
        first = client.get(f"/api/games/{game['id']}/legal", headers=north)
        assert first.status_code == 200 and first.json()["version"] == 0 and first.json()["seat"] == "north"
        assert answers.get(game["id"], 0, "north") == first.content  # kept for the next ones at this version
        again = client.get(f"/api/games/{game['id']}/legal", headers=north)
        assert again.content == first.content and again.headers["cache-control"] == "no-store"
        deploy = first.json()["actions"][0]
        assert client.post(f"/api/games/{game['id']}/actions", headers=north,
                           json={"expected_version": 0, "action": deploy}).status_code == 200
        after = client.get(f"/api/games/{game['id']}/legal", headers=north).json()
        assert after["version"] == 1 and deploy not in after["actions"]
        south = {"Authorization": f"Bearer {game['seats']['south']['token']}"}
        assert client.get(f"/api/games/{game['id']}/legal", headers=south).json()["seat"] == "south"
        spectator = {"Authorization": f"Bearer {game['spectator']['token']}"}
        assert client.get(f"/api/games/{game['id']}/legal", headers=spectator).status_code == 403


def test_the_kept_answers_drop_the_oldest_past_their_bytes():
    answers = Answers(most_bytes=10)
    answers.put("g", 1, "north", b"12345")
    answers.put("g", 1, "south", b"6789")
    assert answers.get("g", 1, "north") == b"12345"  # now the most recent
    answers.put("g", 2, "north", b"abcd")
    assert answers.get("g", 1, "south") is None and answers.get("g", 1, "north") == b"12345"
    assert answers.bytes == 9
    answers.put("g", 3, "north", b"x" * 11)  # larger than them all: not kept
    assert answers.get("g", 3, "north") is None and answers.bytes == 9


def test_a_game_from_a_clients_own_text_is_opened_in_the_check_process(tmp_path, monkeypatch):
    """A map or battle of the client's own is read away from the web process, and its refusals come back whole."""
    from kadesh.store.store import Store as WebStore
    from tests.test_front_missions import HOLD, battle, unit

    def not_here(*args, **kwargs):
        raise AssertionError("a game from a client's text opened in the web process")

    monkeypatch.setattr(WebStore, "create_game", not_here)  # the check process imports its own
    text = battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "H5"), HOLD)
    with TestClient(create_app(f"sqlite:///{tmp_path}/open.sqlite3", local_workers=0)) as client:
        created = client.post("/api/games", json={"ruleset": "front", "options": {"scenario_toml": text},
                                                  "bots": {"red": "etat_major"}})
        assert created.status_code == 201, created.text
        game = created.json()
        blue = {"Authorization": f"Bearer {game['seats']['blue']['token']}"}
        read = client.get(f"/api/games/{game['id']}", headers=blue).json()
        assert read["bots"] == {"red": "etat_major"} and read["version"] == 0
        for body, code in (({"ruleset": "front", "options": {"scenario_toml": "cells = "}}, "bad_scenario"),
                           ({"ruleset": "front", "options": {"scenario_toml": text}, "bots": {"green": "etat_major"}},
                            "unknown_seat")):
            refused = client.post("/api/games", json=body)
            assert refused.status_code == 422 and refused.json()["code"] == code and refused.json()["fr"]


def test_a_ruleset_registered_by_importing_a_module_is_known_to_the_check_process(tmp_path):
    from tests.test_core_contract import SecretDuel  # registered on import, not through an entry point

    with TestClient(create_app(f"sqlite:///{tmp_path}/registered.sqlite3", local_workers=0)) as client:
        game = client.post("/api/games", json={"ruleset": SecretDuel.name}).json()
        seat, token = next(iter(game["seats"].items()))
        legal = client.get(f"/api/games/{game['id']}/legal", headers={"Authorization": f"Bearer {token['token']}"})
        assert legal.status_code == 200, legal.text
        assert legal.json()["seat"] == seat


def test_a_database_away_in_the_check_process_is_answered_as_anywhere_else():
    """The driver's own error may not rebuild in the web process (the pool then takes its process for dead):
    the check process sends what the web process answers, 503 ``database_unavailable`` with Retry-After."""
    import pickle

    from sqlalchemy.exc import OperationalError

    from kadesh.server.checks import in_the_child

    def away():
        raise OperationalError("SELECT 1", {}, Exception("the server closed the connection"))

    with pytest.raises(ApiProblem) as refused:
        in_the_child(away)()
    problem = pickle.loads(pickle.dumps(refused.value))  # as it crosses from the check process
    assert (problem.status, problem.code) == (503, "database_unavailable") and problem.extra["retry_after"] >= 1

    def bug():
        raise ValueError("a bug")

    with pytest.raises(ValueError):  # anything else passes as it is: a server error, logged
        in_the_child(bug)()

    class Unrebuildable(Exception):
        def __init__(self, first, second):
            super().__init__(f"{first} {second}")

    def odd():
        raise Unrebuildable(1, 2)

    with pytest.raises(RuntimeError, match="Unrebuildable"):  # told by its text: the pool stays whole
        in_the_child(odd)()


def test_a_warm_check_process_is_ready_and_a_stopped_server_warms_nothing(tmp_path):
    url = f"sqlite:///{tmp_path}/warm.sqlite3"
    Store(url).close()
    warm = Checks(url)
    try:
        warm.warm()
        assert run(warm.run(Client(), os.getpid)) != os.getpid()
    finally:
        warm.close()
    stopped = Checks(url)
    stopped.close()
    stopped.warm()  # a warm-up thread that comes after the server stopped
    assert stopped._pool is None
