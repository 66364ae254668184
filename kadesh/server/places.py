"""A bounded number of places for costly work asked by requests (simulations, checks): at most ``running`` at
once and ``waiting`` more waiting for a place, in the order they came; beyond, the request is refused (429).
A request whose client goes away while it waits gives up its turn, so that work nobody awaits never starts."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator

from starlette.requests import Request

from kadesh.server.problems import ApiProblem


class Places:
    """Counted on the event loop only: no lock."""

    def __init__(self, running: int, waiting: int, refusal: ApiProblem, look_every: float) -> None:
        self.places, self.most, self.refusal, self.look_every = running, running + waiting, refusal, look_every
        self.asked = 0  # running or waiting
        self.running = 0
        self._waiters: deque[asyncio.Future[None]] = deque()

    @contextlib.asynccontextmanager
    async def taken(self, request: Request) -> AsyncIterator[bool]:
        """A place for the request's work while the block runs (True), or False if its client went away while
        it waited; ``refusal`` (ApiProblem) at once if every place and every waiting turn is taken."""
        if self.asked >= self.most:
            raise self.refusal
        self.asked += 1
        try:
            if not await self._take_turn(request):
                yield False
                return
            try:
                yield True
            finally:
                self._give_turn()
        finally:
            self.asked -= 1

    async def _take_turn(self, request: Request) -> bool:
        while self.running >= self.places:
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            await asyncio.wait({waiter}, timeout=self.look_every)
            if not waiter.done():
                self._waiters.remove(waiter)
                if await request.is_disconnected():
                    return False
        self.running += 1
        return True

    def _give_turn(self) -> None:
        self.running -= 1
        while self._waiters:
            waiter = self._waiters.popleft()
            with contextlib.suppress(RuntimeError):  # a waiter of a loop that has closed (a test's)
                waiter.set_result(None)
                return
