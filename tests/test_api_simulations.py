"""POST /api/rulesets/{name}/simulate against a real server (issue 40, finding 1): a simulation runs in a
child process, never in the web process; it has a ceiling on its CPU time, stops when its client leaves,
and only a few run or wait at once (429 with Retry-After beyond)."""

from __future__ import annotations

import json
import os
import socket
from urllib.parse import urlsplit

import httpx

from kadesh.server.simulations import Simulations
from tests.browser_support import running_server
from tests.waiting import wait_until

FIELD = {"options": {"field": "gue"}, "seats": {"north": "careful", "south": "careful"}, "seed": 1}
LONG = {**FIELD, "games": 2000}  # some ten seconds of CPU on this machine


def simulate(base: str, body: dict, timeout: float = 120) -> httpx.Response:
    return httpx.post(f"{base}/api/rulesets/bataille/simulate", json=body, timeout=timeout)


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_simulation_answers_from_a_child_process(tmp_path):
    with running_server(str(tmp_path / "k.sqlite3"), local_workers=0) as (base, _):
        answer = simulate(base, {**FIELD, "games": 10})
    assert answer.status_code == 200 and answer.json()["games"] == 10
    assert sum(answer.json()["holds_field"].values()) == 10


def test_the_same_simulation_asked_again_is_answered_from_memory(tmp_path):
    simulations = Simulations()
    with running_server(str(tmp_path / "k.sqlite3"), local_workers=0, simulations=simulations) as (base, _):
        first = simulate(base, {**FIELD, "games": 10})
        again = simulate(base, {**FIELD, "games": 10})
        other_seed = simulate(base, {**FIELD, "games": 10, "seed": 2})
    assert first.status_code == again.status_code == other_seed.status_code == 200
    assert again.json() == first.json()
    assert simulations.started == 2  # the first and the other seed's: the same request again ran nothing


def test_a_simulation_past_its_ceiling_is_stopped_and_refused(tmp_path):
    simulations = Simulations(cpu_seconds=1)
    with running_server(str(tmp_path / "k.sqlite3"), local_workers=0, simulations=simulations) as (base, _):
        answer = simulate(base, LONG)
    assert answer.status_code == 422 and answer.json()["code"] == "simulation_too_costly"
    assert "1 s" in answer.json()["fr"] and "fewer games" in answer.json()["en"]
    assert simulations.places.running == 0 and not simulations.children


def test_a_simulation_whose_client_leaves_is_stopped(tmp_path):
    simulations = Simulations()
    with running_server(str(tmp_path / "k.sqlite3"), local_workers=0, simulations=simulations) as (base, _):
        client = ask_without_waiting(base, LONG)
        child = wait_until(lambda: next(iter(simulations.children), None), "the simulation's child process")
        client.close()  # the client leaves, its request unanswered
        wait_until(lambda: gone(child.pid) and not simulations.children, "the child stopped")
        assert simulations.places.running == 0


def ask_without_waiting(base: str, body: dict) -> socket.socket:
    """A simulation asked for on a socket of one's own, to close it before the answer."""
    host, port = urlsplit(base).hostname, urlsplit(base).port
    payload = json.dumps(body).encode()
    client = socket.create_connection((host, port))
    client.sendall(b"POST /api/rulesets/bataille/simulate HTTP/1.1\r\nHost: kadesh\r\n"
                   b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(payload), payload))
    return client


def test_too_many_simulations_at_once_are_refused_with_retry_after(tmp_path):
    simulations = Simulations(running=1, waiting=0)
    with running_server(str(tmp_path / "k.sqlite3"), local_workers=0, simulations=simulations) as (base, _):
        first = ask_without_waiting(base, LONG)
        wait_until(lambda: simulations.children, "the first simulation running")
        refused = simulate(base, {**FIELD, "games": 10})
        first.close()
        assert refused.status_code == 429 and refused.json()["code"] == "simulations_busy"
        assert int(refused.headers["retry-after"]) > 0
        wait_until(lambda: not simulations.children and simulations.places.asked == 0, "the first simulation stopped")
        assert simulate(base, {**FIELD, "games": 10}).status_code == 200  # a place again
