"""Simulations asked for over HTTP (``POST /api/rulesets/{name}/simulate``), run away from the web process.

A simulation's cost is chosen by its request (a twelve-group field two thousand times: a minute of CPU), so
it never runs where requests are answered: each one is a child process (forked from a server that has
loaded the bots already, so it starts in milliseconds), with a ceiling on the CPU time it may use. At most
``running`` simulations run at once per server and ``waiting`` more wait for a free place; beyond that the
request is refused with 429 and ``Retry-After``. A child whose client has gone away is stopped at once, and
so is one that reaches its ceiling (the client is told to ask for fewer games).

A simulation is a function of its request (the set-up, the generals, the number of games and the seed): the
server remembers its last answers, and the same request again (a page's odds of the default set-up, asked by
everyone who opens it, chunk by chunk with the same seeds) is answered without computing it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import resource
from collections import OrderedDict
from multiprocessing.connection import Connection
from typing import Any

from starlette.requests import Request

from kadesh.ai.base import simulator
from kadesh.core import RuleError
from kadesh.server.children import children, ended
from kadesh.server.places import Places
from kadesh.server.priority import as_batch
from kadesh.server.problems import ApiProblem

SIMULATIONS_RUNNING = 1      # per server: the other cores answer requests and play the bots
SIMULATIONS_WAITING = 4      # per server: more are refused (429) rather than queued
SIMULATION_CPU_SECONDS = 20  # the most one request may make the server compute
SIMULATION_NICENESS = 10     # below the checks and the bots a person waits on, on the same cores
RETRY_AFTER = 5              # seconds, for a client refused because the queue is full
DISCONNECT_CHECK = 0.25      # seconds between looks at whether the client is still there
SIMULATIONS_REMEMBERED = 16  # per server: the last answers kept (at most 2,000 games' losses each)



def _simulate(result: Connection, name: str, options: dict[str, Any], seats: dict[str, str], games: int,
              seed: int, cpu_seconds: int) -> None:
    """In the child: the simulation, or the rules' refusal, sent back; the kernel stops it at its ceiling."""
    os.nice(SIMULATION_NICENESS)
    as_batch()  # off the web process's core (priority.py)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
    run = simulator(name)
    assert run is not None
    try:
        result.send(("odds", run(options, seats, games, seed)))
    except RuleError as error:
        result.send(("refused", (error.code, error.fr, error.en)))


BUSY = ApiProblem(429, "simulations_busy", "Trop de simulations en cours : réessaie dans un moment.",
                  "Too many simulations under way: try again in a moment.", retry_after=RETRY_AFTER)


class Simulations:
    """This server's simulations: how many run and wait, and each one's child process."""

    def __init__(self, running: int = SIMULATIONS_RUNNING, waiting: int = SIMULATIONS_WAITING,
                 cpu_seconds: int = SIMULATION_CPU_SECONDS) -> None:
        self.cpu_seconds = cpu_seconds
        self.places = Places(running, waiting, BUSY, DISCONNECT_CHECK)
        self.children: set[multiprocessing.process.BaseProcess] = set()  # the simulations' processes, while they run
        self.started = 0  # child processes started, ever
        self.remembered: OrderedDict[str, dict[str, Any]] = OrderedDict()  # request → answer, the newest last

    async def run(self, request: Request, name: str, options: dict[str, Any], seats: dict[str, str],
                  games: int, seed: int) -> dict[str, Any] | None:
        """The simulation's result; None if the client went away first."""
        key = json.dumps([name, options, seats, games, seed], sort_keys=True)
        if key in self.remembered:
            self.remembered.move_to_end(key)
            return self.remembered[key]
        async with self.places.taken(request) as mine:
            if not mine:
                return None
            answer = await self._child(request, (name, options, seats, games, seed, self.cpu_seconds))
        if answer is not None:
            self.remembered[key] = answer
            while len(self.remembered) > SIMULATIONS_REMEMBERED:
                self.remembered.popitem(last=False)
        return answer

    async def _child(self, request: Request, arguments: tuple) -> dict[str, Any] | None:
        context = children()
        receiving, sending = context.Pipe(duplex=False)
        process = context.Process(target=_simulate, args=(sending, *arguments), daemon=True)
        await asyncio.to_thread(process.start)  # the first one starts the fork server: seconds, off the loop
        self.started += 1
        self.children.add(process)
        sending.close()  # the child's end: the pipe reads as closed once the child is gone
        try:
            if not await _readable(receiving, request):
                return None
            try:
                kind, value = receiving.recv()
            except EOFError:  # no answer: the kernel stopped the child at its ceiling
                raise ApiProblem(422, "simulation_too_costly",
                                 f"Trop de calcul pour une seule demande ({self.cpu_seconds} s au plus) : demande "
                                 "moins de parties, en plusieurs fois.",
                                 f"Too much work for one request ({self.cpu_seconds} s at most): ask for fewer "
                                 "games, over several requests.") from None
            if kind == "refused":
                raise RuleError(*value)
            return value
        finally:
            receiving.close()
            if process.is_alive():
                process.kill()
            await asyncio.to_thread(process.join)
            ended(process)
            self.children.discard(process)


async def _readable(connection: Connection, request: Request) -> bool:
    """Wait until the child answers or is gone (True), or the client leaves (False)."""
    loop = asyncio.get_running_loop()
    ready = asyncio.Event()
    loop.add_reader(connection.fileno(), ready.set)
    try:
        while not ready.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ready.wait(), DISCONNECT_CHECK)
            if not ready.is_set() and await request.is_disconnected():
                return False
        return True
    finally:
        loop.remove_reader(connection.fileno())
