"""kadesh serve as a real process: every acknowledged action survives a kill -9 and a restart."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import httpx
import pytest

from tests.kadesh_http import deployment


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start(port: int, db: str) -> subprocess.Popen:
    process = subprocess.Popen([sys.executable, "-m", "kadesh.cli", "serve", "--port", str(port), "--db", db],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(process.stdout.read().decode(errors="replace"))
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/rulesets", timeout=1).status_code == 200:
                return process
        except httpx.TransportError:
            time.sleep(0.1)
    process.kill()
    raise AssertionError("the server did not start")


def _kill(process: subprocess.Popen) -> str:
    """SIGKILL the server (no clean shutdown at all) and return what it printed."""
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
    output = process.stdout.read().decode(errors="replace")
    process.stdout.close()
    return output


@pytest.mark.slow
def test_acknowledged_actions_survive_kill_9(tmp_path):
    port, db = _free_port(), f"sqlite:///{tmp_path / 'durable.sqlite3'}"
    server = _start(port, db)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            game = http.post("/api/games", json={"ruleset": "manoeuvre", "options": {"choice": "bow"}}).json()
            north = {"Authorization": f"Bearer {game['seats']['north']['token']}"}
            legal = http.get(f"/api/games/{game['id']}/legal", headers=north).json()["actions"]
            acknowledged = []
            for version, action in enumerate(deployment(legal)[:7]):
                answer = http.post(f"/api/games/{game['id']}/actions", headers=north,
                                   json={"expected_version": version, "action": action})
                assert answer.status_code == 200
                acknowledged.append(action)
            seen = http.get(f"/api/games/{game['id']}", headers=north).json()
    finally:
        _kill(server)

    server = _start(port, db)
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            after = http.get(f"/api/games/{game['id']}", headers=north).json()
            assert after["version"] == len(acknowledged)
            assert after["view"] == seen["view"]
            next_action = deployment(http.get(f"/api/games/{game['id']}/legal", headers=north).json()["actions"])[0]
            assert http.post(f"/api/games/{game['id']}/actions", headers=north,
                             json={"expected_version": len(acknowledged), "action": next_action}).status_code == 200
    finally:
        _kill(server)
    from kadesh.store import Store

    store = Store(db)
    assert [a["action"] for a in store.rebuild(game["id"]).actions][: len(acknowledged)] == acknowledged
    store.close()


@pytest.mark.slow
def test_serve_prints_the_url_to_open(tmp_path):
    port = _free_port()
    output = _kill(_start(port, f"sqlite:///{tmp_path / 'url.sqlite3'}"))
    assert f"http://127.0.0.1:{port}/" in output
