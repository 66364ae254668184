"""Real receivers on loopback for the notification tests: an SMTP server (aiosmtpd) and an HTTP server for
webhooks. Each keeps what it accepted; the webhook receiver can also fail or hold chosen requests."""

from __future__ import annotations

import email
import email.policy
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from aiosmtpd.controller import Controller

from kadesh.server.delivery import Deliverer, Settings
from kadesh.store import Store
from tests.server_support import free_port


class MailBox:
    """An SMTP server on a free loopback port; ``messages`` are the e-mails it accepted."""

    def __init__(self) -> None:
        self.messages: list[email.message.EmailMessage] = []
        self._lock = threading.Lock()
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._lock:
            self.messages.append(message)
        return "250 Message accepted for delivery"

    def __enter__(self) -> MailBox:
        self.controller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.controller.stop()

    def environment(self) -> dict[str, str]:
        return {"KADESH_SMTP_HOST": "127.0.0.1", "KADESH_SMTP_PORT": str(self.port), "KADESH_SMTP_SECURITY": "none",
                "KADESH_SMTP_FROM": "Kadesh <kadesh@example.org>"}


class Hooks:
    """A webhook receiver on a free loopback port. ``received`` holds the JSON bodies it answered 204 to;
    ``fail_first`` answers 500 to the first request of each notice id; ``hold`` keeps the first request
    unanswered until ``release`` (and never counts it)."""

    def __init__(self, fail_first: bool = False, hold: bool = False) -> None:
        self.received: list[dict] = []
        self.held: dict = {}  # the request held unanswered
        self.held_from: tuple[str, int] = ("", 0)  # the address and port it came from
        self.failed: list[dict] = []
        self.fail_first, self.hold = fail_first, hold
        self.holding = threading.Event()
        self.released = threading.Event()
        self._lock = threading.Lock()
        hooks = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the standard library's hook name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                if hooks._take_hold(body, self.client_address):
                    hooks.released.wait(120)
                    return  # never answered: the worker that sent it is gone
                with hooks._lock:
                    failing = hooks.fail_first and all(f.get("id") != body.get("id") for f in hooks.failed)
                    (hooks.failed if failing else hooks.received).append(body)
                self.send_response(500 if failing else 204)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"

    def _take_hold(self, body: dict, sender: tuple[str, int]) -> bool:
        with self._lock:
            if self.hold and not self.holding.is_set():
                self.held, self.held_from = body, sender
                self.holding.set()
                return True
        return False

    def release(self) -> None:
        self.released.set()

    def __enter__(self) -> Hooks:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.release()
        self.server.shutdown()
        self.server.server_close()


class BlackHole:
    """A webhook that accepts connections and never answers (for the load bench and its test)."""

    def __init__(self) -> None:
        import socket

        self.socket = socket.socket()
        self.socket.bind(("127.0.0.1", 0))
        self.socket.listen(1024)
        self.url = f"http://127.0.0.1:{self.socket.getsockname()[1]}/hook"

    def close(self) -> None:
        self.socket.close()


def process_with_port(pids: list[int], port: int) -> int | None:
    """Which of these processes holds the loopback TCP connection whose local port is ``port`` (Linux's
    /proc): who sent a request, known from the request alone."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(fields[9])
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:[") and target[8:-1] in inodes:
                return pid
    return None


def deliver_all(store: Store, settings: Settings) -> None:
    """Send every notice due, as one worker's notice thread would."""
    deliverer = Deliverer(store, "test-worker", settings, threads=1)
    while deliverer.work_once():
        pass


def play_round(store: Store, game_id: str) -> None:
    """Every kingdom sends its orders: the turn is judged, and a new one begins for every kingdom."""
    with store.game(game_id) as game:
        kingdoms, version = list(game.to_act()), game.version
    for kingdom in kingdoms:
        store.act(game_id, kingdom, version, {"type": "orders", "text": ""})
        version += 1

