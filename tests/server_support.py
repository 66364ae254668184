"""``kadesh serve`` as a real process for the tests and benches: start, SIGKILL, start again.

The server's output goes to a file, not a pipe: under load an unread pipe fills up and
stalls the server."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

# Ports for the servers the tests start, below Linux's ephemeral range (32768-60999), so that no outgoing
# connection takes one between the probe and the server's bind; each pytest-xdist worker has a block of its
# own, so that two workers never probe the same port at the same instant and both find it free.
PORT_BLOCK = 1000
FIRST_PORT = 20000
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
_next_ports = iter(range(FIRST_PORT + PORT_BLOCK * (_WORKER % 12), FIRST_PORT + PORT_BLOCK * (_WORKER % 12 + 1)))


def free_port() -> int:
    """A loopback port that no server is bound to: the next free one in this process's block."""
    for port in _next_ports:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port left in this test process's block")


class ServerProcess:
    """One ``kadesh serve`` on a loopback port and a database URL."""

    def __init__(self, db: str, log: Path, port: int | None = None, *options: str) -> None:
        self.db, self.log, self.port, self.options = db, log, port or free_port(), options
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> ServerProcess:
        return self.launch().wait_ready(timeout)

    def launch(self) -> ServerProcess:
        """Start the process, without waiting for it to answer (``wait_ready``)."""
        command = [sys.executable, "-m", "kadesh.cli", "serve", "--port", str(self.port), "--db", self.db,
                   *self.options]
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
        return self

    def wait_ready(self, timeout: float = 60) -> ServerProcess:
        """Wait until the launched server answers."""
        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=1) as probe:  # one client: each makes a TLS context, 50 ms of CPU
            while time.monotonic() < deadline:
                if self.process.poll() is not None:
                    raise AssertionError(f"kadesh serve stopped at start:\n{self.output()}")
                try:
                    if probe.get(f"{self.url}/api/rulesets").status_code == 200:
                        return self
                except httpx.TransportError:
                    time.sleep(0.1)
        self.kill()
        raise AssertionError(f"kadesh serve did not start:\n{self.output()}")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown at all."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        self.process = None

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


def start_servers(db: str, folder: Path, count: int, *options: str) -> list[ServerProcess]:
    """``count`` quiet servers on one database (their logs in ``folder``), started side by side: a start is some
    2 s of wall, most of it imports, which two processes do at once on two cores. On PostgreSQL, give them a
    migrated database: on an empty one they would race to migrate it (what a test of its own is for)."""
    servers = [ServerProcess(db, folder / f"serve-{i}.log", None, "--log-level", "warning", *options).launch()
               for i in range(count)]
    try:
        return [server.wait_ready() for server in servers]
    except BaseException:
        for server in servers:
            server.kill()
        raise


def play_maladroit(http: httpx.Client, urls: list[str], game_id: str, tokens: dict[str, str], resign_at: int,
                   watch=None) -> dict:
    """Play a Manœuvre game to its end over HTTP, through ``urls`` in turn: each seat plays Général
    Maladroit's choice until the game's version reaches ``resign_at``, then resigns. ``watch(game, actor)``
    sees the game (as the North sees it) before each step and at the end, with the seat that played the step
    before (None at first). The finished game."""
    from kadesh.ai.base import make_bot

    bots = {seat: make_bot("manoeuvre", "maladroit", seed=index) for index, seat in enumerate(tokens)}
    actor = None
    for step in range(2000):
        url = urls[step % len(urls)]
        game = http.get(f"{url}/api/games/{game_id}", headers=_bearer(tokens["north"])).json()
        if watch is not None:
            watch(game, actor)
        if game["outcome"] is not None:
            return game
        actor = game["to_act"][0]
        mine = game if actor == "north" else (  # the North's game was just read: the same answer
            http.get(f"{url}/api/games/{game_id}", headers=_bearer(tokens[actor])).json())
        legal = http.get(f"{url}/api/games/{game_id}/legal", headers=_bearer(tokens[actor])).json()
        action = ({"type": "resign"} if mine["version"] >= resign_at
                  else bots[actor].choose(mine["view"], actor, legal["actions"]))
        answer = http.post(f"{url}/api/games/{game_id}/actions", headers=_bearer(tokens[actor]),
                           json={"expected_version": mine["version"], "action": action})
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
