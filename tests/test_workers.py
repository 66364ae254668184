"""Computer players off the web server (issue 24): jobs in the database, taken by ``kadesh worker`` processes.

Each bot action is one job, queued in the transaction that makes it due; workers take the oldest free job,
so games take turns; a worker killed mid-thought leaves its job to another once its lease runs out, and the
versioned write keeps every action once. Run on SQLite and on PostgreSQL (the ``db`` fixture)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from kadesh.server.app import create_app
from kadesh.store import Store, schema
from tests.asgi_client import TestClient
from tests.store_support import watched
from tests.waiting import wait_until

pytestmark = pytest.mark.slow


def start_worker(db: str, *options: str) -> subprocess.Popen:
    command = [sys.executable, "-m", "kadesh.cli", "worker", *options]
    return subprocess.Popen(command, env={**os.environ, "KADESH_DB": db}, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def stop(*workers: subprocess.Popen) -> None:
    for worker in workers:
        if worker.poll() is None:
            worker.send_signal(signal.SIGTERM)
    for worker in workers:
        worker.wait(timeout=30)


def wait_for(predicate):
    return wait_until(predicate, "the workers' next step", every=0.1)


def stored_seqs(store: Store, game_id: str) -> list[int]:
    with store.engine.connect() as conn:
        return [row.seq for row in conn.execute(select(schema.actions.c.seq).where(schema.actions.c.game_id == game_id)
                                                .order_by(schema.actions.c.seq))]


def bot_game(store: Store, north: str, south: str, ruleset: str = "manoeuvre") -> str:
    created = store.create_game(ruleset)
    store.set_bot(created.id, "north", north)
    store.set_bot(created.id, "south", south)
    return watched(store, created.id)


def test_ten_bot_games_share_two_workers_and_every_game_moves_on(db):
    store = Store(db)
    games = [bot_game(store, "maladroit", "maladroit") for _ in range(10)]
    assert store.jobs.pending() == 10  # each game's first move is queued with the seats
    workers = [start_worker(db), start_worker(db)]
    try:
        wait_for(lambda: all(store.current_version(g) >= 6 for g in games))
    finally:
        stop(*workers)
    for game_id in games:  # no action doubled or lost: the versions are 1, 2, 3… with nothing missing
        seqs = stored_seqs(store, game_id)
        assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) == store.current_version(game_id)
    store.close()


def battle_for_stratege(store: Store) -> str:
    """A game of Manœuvre played by Maladroit to its battle, then handed to two Stratèges: its first job is a
    search."""
    from kadesh.ai.base import make_bot

    game_id, maladroit, version = store.create_game("manoeuvre").id, make_bot("manoeuvre", "maladroit", seed=1), 0
    while True:
        with store.game(game_id) as game:
            if game.state.phase == "battle":
                break
            seat = game.to_act()[0]
            action = maladroit.choose(game.view(seat), seat, game.legal_actions(seat))
        version = store.act(game_id, seat, version, action).version
    store.set_bot(game_id, "north", "stratege")
    store.set_bot(game_id, "south", "stratege")
    return watched(store, game_id)


def test_a_worker_killed_mid_search_leaves_its_game_to_another(db):
    store = Store(db)
    game_id = battle_for_stratege(store)
    start = store.current_version(game_id)
    slow = start_worker(db, "--bot-budget", "30", "--lease", "2")  # thinks far longer than its lease
    try:
        claimed = wait_for(lambda: _claimed_by(store, game_id))
        slow.send_signal(signal.SIGKILL)
        slow.wait(timeout=30)
        assert store.current_version(game_id) == start and _claimed_by(store, game_id) == claimed  # mid-thought
        quick = start_worker(db, "--bot-budget", "0.05")
        try:
            wait_for(lambda: store.current_version(game_id) >= start + 4)
        finally:
            stop(quick)
    finally:
        stop(slow)
    seqs = stored_seqs(store, game_id)
    assert seqs == list(range(1, len(seqs) + 1))
    store.close()


def _claimed_by(store: Store, game_id: str) -> str | None:
    with store.engine.connect() as conn:
        return conn.execute(select(schema.jobs.c.claimed_by).where(schema.jobs.c.game_id == game_id)).scalar()


def test_two_workers_racing_on_one_job_play_it_once(db):
    """A lease shorter than the thought: the second worker takes the job while the first still thinks, both
    answer, and the versioned write keeps one answer."""
    store = Store(db)
    game_id = battle_for_stratege(store)
    start = store.current_version(game_id)
    workers = [start_worker(db, "--bot-budget", "1.5", "--lease", "0.5") for _ in range(2)]
    try:
        wait_for(lambda: store.current_version(game_id) >= start + 3)
    finally:
        stop(*workers)
    seqs = stored_seqs(store, game_id)
    assert seqs == list(range(1, len(seqs) + 1))
    store.close()


def test_bots_never_run_in_the_web_process(db, monkeypatch):
    """The server's own worker processes play the computer's moves: in the web process, making a bot fails."""
    import kadesh.ai.base

    def no_bots_here(*args, **kwargs):
        raise AssertionError("a bot was made in the web process")

    monkeypatch.setattr(kadesh.ai.base, "make_bot", no_bots_here)
    app = create_app(db, local_workers=1, bot_budget=0.05)
    with TestClient(app) as client:
        created = client.post("/api/games", json={"ruleset": "manoeuvre",
                                                  "bots": {"north": "maladroit", "south": "stratege"}}).json()
        store = app.state.store
        watched(store, created["id"])
        wait_for(lambda: store.current_version(created["id"]) >= 5)
        assert len(app.state.workers.processes) == 1 and app.state.workers.processes[0].pid != os.getpid()
    assert app.state.workers.processes == []  # stopped with the server
    app.state.store.close()


def test_a_game_waiting_for_its_bot_before_the_queue_existed_gets_its_job(db):
    store = Store(db)
    game_id = bot_game(store, "maladroit", "maladroit")
    with store.engine.begin() as conn:
        conn.execute(schema.jobs.delete())  # as a database from before the job queue has it
    assert store.queue_waiting_bots() == 1 and store.jobs.pending() == 1
    assert store.jobs.claim("w").game_id == game_id
    assert store.queue_waiting_bots() == 1 and store.jobs.pending() == 1  # queued once, even claimed
    store.close()


@pytest.mark.postgresql
def test_two_servers_and_three_workers_on_postgresql_play_bots_deadlines_and_people(postgres, tmp_path):
    """The multi-server set-up with the workers apart: bot games move on, a person's game gets its bot's
    answer whichever server took the person's action, and a deadline is acted on exactly once."""
    import httpx

    from tests.server_support import start_servers

    db = postgres.new_database(migrated=True)
    servers = start_servers(db, tmp_path, 2, "--workers", "0")
    workers = [start_worker(db, "--deadline-poll", "0.1", "--bot-budget", "0.05") for _ in range(3)]
    store = Store(db)
    try:
        one, two = (server.url for server in servers)
        with httpx.Client(timeout=30) as http:
            bots = [http.post(f"{one}/api/games", json={"ruleset": "manoeuvre", "bots": {
                "north": "maladroit", "south": "stratege"}}).json()["id"] for _ in range(3)]
            for game_id in bots:
                watched(store, game_id)
            person = http.post(f"{two}/api/games", json={"ruleset": "bataille", "options": {"field": "gue"},
                                                         "bots": {"south": "careful"}}).json()
            north = {"Authorization": f"Bearer {person['seats']['north']['token']}"}
            for index in range(3):  # the North's three orders, one through each server in turn
                server = (one, two)[index % 2]
                legal = http.get(f"{server}/api/games/{person['id']}/legal", headers=north).json()
                assert http.post(f"{server}/api/games/{person['id']}/actions", headers=north, json={
                    "expected_version": legal["version"], "action": legal["actions"][0]}).status_code == 200
            royaumes = http.post(f"{two}/api/games", json={"ruleset": "royaumes"}).json()
            imhotep = {"Authorization": f"Bearer {royaumes['seats']['imhotep']['token']}"}
            due = datetime.now(UTC) + timedelta(seconds=1)
            assert http.post(f"{one}/api/games/{royaumes['id']}/actions", headers=imhotep, json={
                "expected_version": 0, "action": {"type": "set_deadline", "deadline": due.isoformat()}}
            ).status_code == 200
            wait_for(lambda: all(store.current_version(g) >= 6 for g in bots))
            # The South's general answers: its two groups' orders, after the North's three
            wait_for(lambda: http.get(f"{one}/api/games/{person['id']}", headers=north).json()["version"] >= 5)
            wait_for(lambda: store.current_version(royaumes["id"]) == 2)
            time.sleep(1.0)  # ten more looks by each worker: none acts on the deadline again
        events = store.stored_events(royaumes["id"])
        assert sum(1 for action in events for event in action if event["type"] == "adjudication") == 1
        assert len(events) == 2
        for game_id in [*bots, person["id"]]:
            seqs = stored_seqs(store, game_id)
            assert seqs == list(range(1, len(seqs) + 1))
    finally:
        stop(*workers)
        for server in servers:
            server.kill()
        store.close()
        postgres.drop_database(db)


def test_a_worker_tells_stratege_when_its_turn_began(db, monkeypatch):
    """Stratège's budget is per turn, and any worker may play any decision of a turn: the worker tells the bot
    how long ago the store gave its seat the turn, and later decisions of the same turn hear of an older start."""
    import kadesh.ai.manoeuvre
    from kadesh.server.worker import Worker

    monkeypatch.setattr(kadesh.ai.manoeuvre, "DEFAULT_ITERATIONS", 5)  # the search is not what is tested
    told: list[float] = []
    monkeypatch.setattr(kadesh.ai.manoeuvre.Stratege, "turn_started", lambda bot, ago: told.append(ago))
    store = Store(db)
    game_id = battle_for_stratege(store)
    movers = []
    for _ in range(2):
        job = store.jobs.claim("w")
        assert job is not None and job.game_id == game_id
        with store.game(game_id) as game:
            movers.append((game.to_act(), game.state.turn))
        assert Worker(store).play(job)  # a worker each: the second knows nothing of the first
    assert len(told) == 2 and told[0] >= 0
    if movers[0] == movers[1]:  # the same turn (the first decision did not end it)
        assert told[1] >= told[0]
    store.close()
