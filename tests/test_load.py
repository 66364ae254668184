"""Bounded loads through real ``kadesh serve`` processes on loopback, and faults in the middle.

Each load stops by itself after a fixed time. Afterwards the database is read directly:
every acknowledged action is stored once, at its version, and every game's state as each
server holds it is the replay of the database. No timing is asserted: the figures are in
bench/bench_load.py and docs/performance.md."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import json
import time

import httpx
import pytest
import websockets

from kadesh.load import LoadReport, check_load, run_load, run_load_async
from tests.kadesh_http import migrated_url
from tests.pg_support import PostgresServer
from tests.server_support import ServerProcess, start_servers
from tests.waiting import in_a_thread_of_its_own


def _clean_load(db: str, folder, count: int) -> None:
    """A load on ``count`` servers: no 5xx, every acknowledged action stored once, replays match."""
    servers = start_servers(db, folder, count)
    try:
        # Until 50 actions are acknowledged, however busy the machine (120 s a ceiling, not a measure)
        report = in_a_thread_of_its_own(run_load, [s.url for s in servers], seconds=120, games=12, enough=50)
        assert report.actions >= 50, report.summary()
        assert report.server_errors == 0, report.summary()
        assert check_load(report, db, [server.url for server in servers]) == []
    finally:
        for server in servers:
            server.kill()


@pytest.mark.slow
def test_a_load_on_one_sqlite_server_loses_and_doubles_nothing(tmp_path, migrated_sqlite):
    _clean_load(migrated_url(migrated_sqlite, tmp_path / "load.sqlite3"), tmp_path, 1)


@pytest.mark.slow
@pytest.mark.postgresql
def test_a_load_on_two_servers_and_one_postgresql_loses_and_doubles_nothing(postgres, tmp_path):
    db = postgres.new_database(migrated=True)
    try:
        _clean_load(db, tmp_path, 2)
    finally:
        postgres.drop_database(db)


@pytest.fixture
def own_postgres():
    """A server of this test's own, since the test stops it."""
    server = PostgresServer().start()
    yield server
    server.destroy()


KILL_AT, RESTART_AT = 3.0, 5.0  # seconds into the load: SIGKILL one server, then start it again
DB_DOWN_AT, DB_DOWN_SECONDS = 8.0, 3.0  # PostgreSQL stopped (at the earliest then), and for how long
LOAD_SECONDS = 60.0  # a ceiling, room for a slow machine's restarts: the load stops once play went on after
PLAYED_AFTER = 20  # actions acknowledged more than a second after the database came back


def _refusal(socket_url: str) -> tuple[dict, int]:
    """The first frame of a socket opened while the database is away, and its close code."""
    from websockets.sync.client import connect

    with connect(socket_url) as socket:
        frame = json.loads(socket.recv(timeout=10))
        with contextlib.suppress(websockets.ConnectionClosed):
            socket.recv(timeout=10)
        return frame, socket.close_code


async def _faults(servers: list[ServerProcess], postgres: PostgresServer, started: float,
                  socket_url: str, back: list[float]) -> tuple[httpx.Response, tuple[dict, int], float]:
    """Kill and restart the first server, stop and start PostgreSQL; returns what was seen while it was away,
    and when (seconds into the load) it was back, also put in ``back``."""
    async def at(moment: float) -> None:
        await asyncio.sleep(max(0.0, started + moment - time.monotonic()))

    await at(KILL_AT)
    servers[0].kill()
    await at(RESTART_AT)
    await asyncio.to_thread(servers[0].start)
    await at(DB_DOWN_AT)
    await asyncio.to_thread(postgres.stop)
    stopped = time.monotonic() - started
    health = await asyncio.to_thread(httpx.get, f"{servers[1].url}/health", timeout=10)
    refusal = await asyncio.to_thread(_refusal, socket_url)
    await at(stopped + DB_DOWN_SECONDS)
    await asyncio.to_thread(postgres.start)
    back.append(time.monotonic() - started)
    return health, refusal, back[0]


def _acknowledged_after(report: LoadReport, moment: float) -> int:
    """How many actions were acknowledged after ``moment`` (seconds into the load; the list is in time order)."""
    return len(report.acknowledged_at) - bisect.bisect_right(report.acknowledged_at, moment)


async def _watch(url: str, frames: list[dict], ready: asyncio.Event) -> None:
    async with websockets.connect(url) as socket:
        ready.set()
        async for text in socket:
            frames.append(json.loads(text))


async def _faulty_load(servers: list[ServerProcess], postgres: PostgresServer):
    first, second = servers
    async with httpx.AsyncClient(timeout=30) as http:
        watched = (await http.post(f"{second.url}/api/games", json={"ruleset": "manoeuvre"})).json()
        frames: list[dict] = []
        ready = asyncio.Event()
        token = watched["spectator"]["token"]
        socket_url = f"{second.url.replace('http', 'ws')}/ws/games/{watched['id']}?token={token}"
        listener = asyncio.create_task(_watch(socket_url, frames, ready))
        await ready.wait()
        started = time.monotonic()
        back: list[float] = []

        def play_went_on(report: LoadReport) -> bool:
            return bool(back) and _acknowledged_after(report, back[0] + 1) >= PLAYED_AFTER

        load = asyncio.create_task(run_load_async([s.url for s in servers], LOAD_SECONDS, games=12,
                                                  until=play_went_on))
        health, refusal, back_at = await _faults(servers, postgres, started, socket_url, back)
        report = await load
        # The socket opened on the second server before the outage still hears actions sent to the first.
        north = watched["seats"]["north"]
        headers = {"Authorization": f"Bearer {north['token']}"}
        legal = (await http.get(f"{first.url}/api/games/{watched['id']}/legal", headers=headers)).json()
        answer = await http.post(f"{first.url}/api/games/{watched['id']}/actions", headers=headers,
                                 json={"expected_version": 0, "action": legal["actions"][0]})
        assert answer.status_code == 200, answer.text
        for _ in range(200):
            if frames and frames[-1]["version"] == 1:
                break
            await asyncio.sleep(0.05)
        listener.cancel()
        return report, frames, health, refusal, back_at


@pytest.mark.slow
@pytest.mark.postgresql
def test_a_killed_server_and_a_stopped_database_lose_nothing_and_recover_alone(own_postgres, tmp_path):
    db = own_postgres.new_database(migrated=True)
    servers = start_servers(db, tmp_path, 2)
    try:
        report, frames, health, (frame, close_code), back = in_a_thread_of_its_own(
            asyncio.run, _faulty_load(servers, own_postgres))
        assert health.status_code == 503 and health.headers["retry-after"], health.text
        assert health.json()["code"] == "database_unavailable"
        assert frame["problem"]["code"] == "database_unavailable" and close_code == 1013  # the page retries
        summary = report.summary()
        assert report.statuses[0] > 0, summary  # the killed server's clients saw connection errors...
        assert report.statuses[503] > 0, summary  # ...and the database's absence a clear, retryable 503
        assert {status for status in report.statuses if status >= 500} == {503}, summary
        assert report.codes["database_unavailable"] == report.statuses[503], summary
        assert report.codes["503 without Retry-After"] == 0, summary
        assert _acknowledged_after(report, back + 1) >= PLAYED_AFTER, summary  # play went on
        assert check_load(report, db, [s.url for s in servers]) == []  # both servers answer, nothing lost
        assert frames[-1]["version"] == 1, "the socket opened before the outage went deaf"
    finally:
        for server in servers:
            server.kill()
