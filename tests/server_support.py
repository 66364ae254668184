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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ServerProcess:
    """One ``kadesh serve`` on a loopback port and a database URL."""

    def __init__(self, db: str, log: Path, port: int | None = None, *options: str) -> None:
        self.db, self.log, self.port, self.options = db, log, port or free_port(), options
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> ServerProcess:
        command = [sys.executable, "-m", "kadesh.cli", "serve", "--port", str(self.port), "--db", self.db,
                   *self.options]
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"kadesh serve stopped at start:\n{self.output()}")
            try:
                if httpx.get(f"{self.url}/api/rulesets", timeout=1).status_code == 200:
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
    """``count`` quiet servers on one database (their logs in ``folder``)."""
    return [ServerProcess(db, folder / f"serve-{i}.log", None, "--log-level", "warning", *options).start()
            for i in range(count)]
