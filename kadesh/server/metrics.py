"""``/metrics`` for an operator's Prometheus: where the server's series are recorded, and how they are served.

The series themselves are defined in ``kadesh.store.metrics``; here, the timing of requests by route template
(``RequestTimes``), of a player's action to its commit and its answer (``ActionClock``), of a push from its
announcement to the sockets (``PushClock``), the workers' queue counted at each scrape (``JobsWaiting``), and the
exposition: a small HTTP server of its own, on its own port, bound to loopback unless told otherwise
(``MetricsServer``, ``kadesh serve --metrics-port``). The public port has no ``/metrics`` at all (404): nothing
there to find, whatever proxy stands in front of it. docs/operations.md « Metrics ».
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from typing import Any

from prometheus_client import REGISTRY, CollectorRegistry, start_http_server
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import Collector
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kadesh.server.layers import HttpLayer
from kadesh.store import Store
from kadesh.store.jobs import GAME_KINDS, NOTICES
from kadesh.store.metrics import ACTION_ANSWER, ACTION_COMMIT, HTTP_REQUESTS, PUSH_FIRST, PUSH_LAST

log = logging.getLogger(__name__)

UNMATCHED = "<unmatched>"  # a request no route took (a 404, or one refused before routing): never its raw path
# Any other method a client makes up is "OTHER": a label's values must stay few, whatever clients send.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def multiprocess() -> bool:
    """Whether this server's processes write their values to a shared directory (``kadesh serve --metrics-port``)."""
    return "PROMETHEUS_MULTIPROC_DIR" in os.environ


class RequestTimes(HttpLayer):
    """ASGI middleware: every HTTP request's duration, by its route's template, method and status class
    (``kadesh_http_request_duration_seconds``). The histogram's children are kept in a plain dict: the client
    library's ``labels()`` takes a lock per call."""

    def __init__(self, app: ASGIApp) -> None:
        super().__init__(app)
        self._children: dict[tuple[str, str, str], Any] = {}

    async def http(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = time.perf_counter()
        status = 500  # an exception that escapes every handler is answered 500 by Starlette, outside

        async def noting_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, noting_status)
        finally:
            self._child(scope, status).observe(time.perf_counter() - started)

    def _child(self, scope: Scope, status: int) -> Any:
        route = scope.get("route")
        method = scope["method"] if scope["method"] in METHODS else "OTHER"
        key = (getattr(route, "path", UNMATCHED), method, f"{status // 100}xx")
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = HTTP_REQUESTS.labels(*key)
        return child


class ActionClock:
    """One player's action, timed from its handler to the commit that holds it and to its answer; the
    ruleset is noted as the store's writer plays it (the handler has no game before)."""

    __slots__ = ("committed", "ruleset", "started")

    def __init__(self) -> None:
        self.started = time.perf_counter()
        self.committed: float | None = None
        self.ruleset = ""

    def noting(self, after: Callable[[Any, str], Any]) -> Callable[[Any, str], Any]:
        """``after(game, seat)``, the store's callback just after the action's write, noting the game's ruleset."""
        def noted(game: Any, seat: str) -> Any:
            self.ruleset = game.ruleset.name
            return after(game, seat)
        return noted

    def commit(self, played: Future[Any]) -> None:
        """The writer's future is answered right after the commit, in the writer's thread: that is the commit."""
        if not played.cancelled() and played.exception() is None:
            self.committed = time.perf_counter()

    def answered(self) -> None:
        if self.committed is None:
            return
        to_commit, to_answer = _action_series(self.ruleset)
        to_commit.observe(self.committed - self.started)
        to_answer.observe(time.perf_counter() - self.started)


_ACTION_SERIES: dict[str, tuple[Any, Any]] = {}


def _action_series(ruleset: str) -> tuple[Any, Any]:
    """The ruleset's commit and answer histograms, kept (``labels()`` takes a lock at each call)."""
    found = _ACTION_SERIES.get(ruleset)
    if found is None:
        found = _ACTION_SERIES[ruleset] = ACTION_COMMIT.labels(ruleset), ACTION_ANSWER.labels(ruleset)
    return found


class PushClock:
    """One version's push to the sockets it was queued for: from its announcement to the first and to the last
    socket written. A socket that leaves first is never written: the last is then not measured."""

    __slots__ = ("announced_at", "left", "sockets")

    def __init__(self, announced_at: float, sockets: int) -> None:
        self.announced_at, self.sockets, self.left = announced_at, sockets, sockets

    def written(self) -> None:
        """One socket of the push written (on the event loop, as every socket's writer: no lock needed)."""
        elapsed = time.perf_counter() - self.announced_at
        if self.left == self.sockets:
            PUSH_FIRST.observe(elapsed)
        self.left -= 1
        if self.left == 0:
            PUSH_LAST.observe(elapsed)


class JobsWaiting(Collector):
    """``kadesh_jobs_waiting``: the workers' jobs free to be claimed now, by kind, read from the store at each
    scrape (whichever worker or server queued them)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def collect(self) -> Iterator[Metric]:
        family = GaugeMetricFamily("kadesh_jobs_waiting", "Workers' jobs due and not claimed, by kind (bot, rate, "
                                   "and the notices: turn, ready, over, remind, test, confirm, messages).",
                                   labels=["kind"])
        try:
            waiting = self.store.jobs.waiting()
        except SQLAlchemyError as error:  # the database away: the other series are still worth the scrape
            log.warning("metrics: the workers' queue could not be read (%s)", error.__class__.__name__)
            return
        for kind in dict.fromkeys([*GAME_KINDS, *NOTICES, *sorted(waiting)]):  # every kind, 0 included: a graph
            family.add_metric([kind], waiting.get(kind, 0))                     # starts at once
        yield family


class _ThisProcess(Collector):
    """The values of this process alone, when no directory gathers the children's (a server made in a test)."""

    def collect(self) -> Iterator[Metric]:
        yield from REGISTRY.collect()


def exposition_registry(store: Store) -> CollectorRegistry:
    """What a scrape reads: every process's values (or this one's) and the workers' queue."""
    registry = CollectorRegistry(auto_describe=False)
    if multiprocess():
        MultiProcessCollector(registry)
    else:
        registry.register(_ThisProcess())
    registry.register(JobsWaiting(store))
    return registry


class MetricsServer:
    """``/metrics`` on a port of its own, answered by a thread of the web process (a scrape a second costs the
    action path little: bench/bench_http.py --scrape)."""

    def __init__(self, store: Store, host: str, port: int) -> None:
        self.store, self.host, self.port = store, host, port
        self._server: Any = None

    def start(self) -> None:
        self._server, _thread = start_http_server(self.port, addr=self.host, registry=exposition_registry(self.store))

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
