"""A real Kadesh server in a thread and Debian's Chromium, for the browser tests."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from tests.server_support import free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


@contextmanager
def running_server(db_path: str) -> Iterator[tuple[str, object]]:
    """Serve Kadesh on a free loopback port; yields (base URL, the app's store)."""
    from kadesh.server.app import create_app

    app = create_app(f"sqlite:///{db_path}")
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}", app.state.store
    finally:
        server.should_exit = True
        thread.join(timeout=10)
