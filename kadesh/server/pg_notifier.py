"""Notifications across servers on one PostgreSQL database, through LISTEN/NOTIFY.

The store sends ``NOTIFY kadesh_games, '<game id> <version>'`` inside the transaction that
writes an action (``'<game id> m<seq>'`` for a message, ``'<game id> a'`` for a replaced token, ``'<game id> t<n>'``
for a table's change), so a
notification goes out exactly when (and only if) the action is committed, in commit order, whichever server
wrote it. Each server keeps one connection
listening on that channel, in a thread, and hands what it hears to its own listeners.

When the listening connection is lost (PostgreSQL restarted), the thread reconnects with
a growing pause and then tells every listener to read its game again: nothing is missed.
"""

from __future__ import annotations

import logging
import threading

import psycopg
from sqlalchemy.engine import make_url

from kadesh.server.notifier import InProcessNotifier
from kadesh.store.schema import NOTIFY_CHANNEL

log = logging.getLogger(__name__)

POLL_SECONDS = 0.5  # how often the thread looks up from its wait to see whether it must stop
MAX_PAUSE = 5.0  # the longest pause between two reconnection attempts


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL (postgresql+psycopg://...) as a libpq one (postgresql://...)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresNotifier(InProcessNotifier):
    """Local listeners hear local actions at once, and every server's actions through LISTEN."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.conninfo = libpq_url(url)
        self.listening = threading.Event()  # set while the LISTEN connection is up
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._listen_forever, name="kadesh-listen", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def _listen_forever(self) -> None:
        pause, first = 0.1, True
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5) as connection:
                    connection.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    self.listening.set()
                    if not first:
                        self.resync()  # what was committed while we were away
                    first, pause = False, 0.1
                    self._hear(connection)
            except psycopg.Error as error:
                if self.listening.is_set():
                    log.warning("lost the LISTEN connection (%s); reconnecting", error)
                self.listening.clear()
                first = False
                self._stop.wait(pause)
                pause = min(pause * 2, MAX_PAUSE)
        self.listening.clear()

    def _hear(self, connection: psycopg.Connection) -> None:
        while not self._stop.is_set():
            for notification in connection.notifies(timeout=POLL_SECONDS):
                game_id, _, number = notification.payload.partition(" ")
                if number.isdigit():
                    self.publish(game_id, int(number))
                elif number.startswith("m") and number[1:].isdigit():
                    self.publish_message(game_id, int(number[1:]))
                elif number == "a":
                    self.publish_access(game_id)
                elif number.startswith("t") and number[1:].isdigit():
                    self.publish_table(game_id, int(number[1:]))
