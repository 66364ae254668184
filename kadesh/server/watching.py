"""The games this server watches: those with a WebSocket open here (a page of the game, any seat's or a
spectator's). A game where the computer holds every seat is played only while some server watches it
(``kadesh.store.watches``, issue 40): an anonymous client's computer-only games stop costing the workers once
nobody looks at them, and they go on where they were when someone opens them again."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid

from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool

from kadesh.store import Store
from kadesh.store.metrics import SOCKETS_OPEN
from kadesh.store.watches import RENEW_EVERY

log = logging.getLogger(__name__)


class Watching:
    """This server's open sockets per game (counted on the event loop only) and its rows of ``watches``."""

    def __init__(self, store: Store) -> None:
        self.store, self.server = store, uuid.uuid4().hex
        self.sockets: dict[str, int] = {}
        self._renewing: asyncio.Task[None] | None = None

    async def opened(self, game_id: str) -> None:
        SOCKETS_OPEN.inc()
        self.sockets[game_id] = self.sockets.get(game_id, 0) + 1
        if self.sockets[game_id] == 1:
            await self._write(self.store.watches.open, game_id, self.server)
            if game_id not in self.sockets:  # closed while the row was written: the close may have come first
                await self._write(self.store.watches.close, game_id, self.server)

    async def closed(self, game_id: str) -> None:
        SOCKETS_OPEN.dec()
        self.sockets[game_id] -= 1
        if self.sockets[game_id] <= 0:
            del self.sockets[game_id]
            # Shielded: a socket's task cancelled as it ends (a client's test harness, a server stopping) still
            # ends the watch, rather than leaving it to the next renewal.
            await asyncio.shield(self._write(self.store.watches.close, game_id, self.server))
            if game_id in self.sockets:  # opened again while the row was deleted: the open may have come first
                await self._write(self.store.watches.open, game_id, self.server)

    def start(self) -> None:
        self._renewing = asyncio.get_running_loop().create_task(self._renew_forever())

    async def stop(self) -> None:
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
        await self._write(self.store.watches.forget, self.server)

    async def _renew_forever(self) -> None:
        """Every ``RENEW_EVERY`` seconds, this server's watches as its sockets are (a row that a write in the
        wrong order left or removed is put right here)."""
        while True:
            await asyncio.sleep(RENEW_EVERY)
            await self._write(self.store.watches.renew, self.server, list(self.sockets))

    async def _write(self, write, *args: object) -> None:  # noqa: ANN001 - one of Watches' writes
        """A write of this server's watches; a database away is logged (the next renewal puts it right)."""
        try:
            await run_in_threadpool(write, *args)
        except SQLAlchemyError as error:
            log.warning("watches of server %s not written: %s", self.server, error.__class__.__name__)
