"""A bounded load on running Kadesh servers, and the checks that nothing was lost or doubled.

``run_load`` opens games and plays each one with random bots through the HTTP API only, as
fast as the servers answer, spreading requests over every server given, for a fixed time.
It keeps every acknowledged action (a 200 answer to ``POST …/actions``). ``check_load``
then reads the database directly: every acknowledged action is stored once, at the version
it was acknowledged with, and every game's state as the servers hold it is what a replay
of the database gives.

Transport errors and 503 answers (a server killed, the database away) are retried after a
pause, as a real client would: they are counted, never hidden.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

MOVES_BEFORE_RESIGN = 400  # a random game that drags on is resigned, and a new one opened
RETRY_PAUSE = 0.2  # seconds before a client tries again after an error


@dataclass
class LoadedGame:
    id: str
    seats: dict[str, str]  # seat -> token
    spectator: str
    acknowledged: dict[int, tuple[str, Any]] = field(default_factory=dict)  # version -> (seat, action)
    ambiguous: int = 0  # actions sent whose answer never came: they may or may not have landed


@dataclass
class LoadReport:
    seconds: float = 0.0
    statuses: Counter = field(default_factory=Counter)  # HTTP status -> count; 0 for transport errors
    codes: Counter = field(default_factory=Counter)  # problem codes of the 4xx and 5xx answers
    latencies: list[float] = field(default_factory=list)  # seconds, every answered request
    action_latencies: list[float] = field(default_factory=list)  # seconds, acknowledged actions
    games: list[LoadedGame] = field(default_factory=list)
    acknowledged_at: list[float] = field(default_factory=list)  # seconds since the start, per acknowledgment

    @property
    def actions(self) -> int:
        return sum(len(game.acknowledged) for game in self.games)

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0

    @property
    def server_errors(self) -> int:
        return sum(count for status, count in self.statuses.items() if status >= 500)

    def percentile(self, share: float, actions_only: bool = False) -> float:
        values = sorted(self.action_latencies if actions_only else self.latencies)
        if not values:
            return 0.0
        return values[min(len(values) - 1, int(share * len(values)))]

    def summary(self) -> dict[str, Any]:
        return {"seconds": round(self.seconds, 1), "games": len(self.games), "actions": self.actions,
                "actions_per_second": round(self.actions_per_second, 1), "requests": len(self.latencies),
                "p50_ms": round(1000 * self.percentile(0.50), 1), "p99_ms": round(1000 * self.percentile(0.99), 1),
                "action_p50_ms": round(1000 * self.percentile(0.50, True), 1),
                "action_p99_ms": round(1000 * self.percentile(0.99, True), 1),
                "statuses": dict(sorted(self.statuses.items())), "codes": dict(self.codes)}


class _Client:
    """Requests spread over the servers; a transport error or a 503 moves on to the next server."""

    def __init__(self, http: httpx.AsyncClient, servers: list[str], report: LoadReport, rng: random.Random) -> None:
        self.http, self.servers, self.report, self.rng = http, servers, report, rng

    async def request(self, method: str, path: str, token: str | None = None,
                      body: Any = None) -> httpx.Response | None:
        """The answer, or None after a transport error (the caller decides whether to retry)."""
        server = self.rng.choice(self.servers)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        started = time.perf_counter()
        try:
            response = await self.http.request(method, server + path, json=body, headers=headers)
        except httpx.TransportError:
            self.report.statuses[0] += 1
            await asyncio.sleep(RETRY_PAUSE)
            return None
        self.report.latencies.append(time.perf_counter() - started)
        self.report.statuses[response.status_code] += 1
        if response.status_code >= 400:
            code = response.json().get("code", "?") if _is_json(response) else "?"
            self.report.codes[code] += 1
        if response.status_code == 503:
            if "retry-after" not in response.headers:
                self.report.codes["503 without Retry-After"] += 1
            await asyncio.sleep(RETRY_PAUSE)
        return response


def _is_json(response: httpx.Response) -> bool:
    return "json" in response.headers.get("content-type", "")


async def _open_game(client: _Client, ruleset: str, options: dict[str, Any], stop_at: float,
                     webhook: str | None = None) -> LoadedGame | None:
    while time.monotonic() < stop_at:
        response = await client.request("POST", "/api/games", body={"ruleset": ruleset, "options": options})
        if response is not None and response.status_code == 201:
            data = response.json()
            game = LoadedGame(data["id"], {s: link["token"] for s, link in data["seats"].items()},
                              data["spectator"]["token"])
            client.report.games.append(game)
            if webhook is not None:  # every seat told of its turns there
                for token in game.seats.values():
                    await client.request("POST", f"/api/games/{game.id}/subscriptions", token,
                                         {"channel": "webhook", "address": webhook})
            return game
    return None


async def _play_one(client: _Client, game: LoadedGame, started: float) -> bool:
    """One action of whichever seat must act; False once the game is over."""
    for seat, token in client.rng.sample(list(game.seats.items()), len(game.seats)):
        response = await client.request("GET", f"/api/games/{game.id}/legal", token)
        if response is None or response.status_code != 200:
            return True  # try again
        legal = response.json()
        weary = len(game.acknowledged) > MOVES_BEFORE_RESIGN
        choices = [a for a in legal["actions"] if a.get("type") != "resign" or weary]
        if not choices:
            continue
        action = client.rng.choice(choices)
        sent = time.perf_counter()
        answer = await client.request("POST", f"/api/games/{game.id}/actions", token,
                                      {"expected_version": legal["version"], "action": action})
        if answer is None or answer.status_code == 503:
            game.ambiguous += 1  # it may have landed before the answer was lost
        elif answer.status_code == 200:
            version = answer.json()["version"]
            game.acknowledged[version] = (seat, action)
            client.report.action_latencies.append(time.perf_counter() - sent)
            client.report.acknowledged_at.append(time.monotonic() - started)
        return True
    response = await client.request("GET", f"/api/games/{game.id}", game.spectator)
    return response is None or response.status_code != 200 or response.json()["outcome"] is None


async def _player(client: _Client, ruleset: str, options: dict[str, Any], started: float, stop_at: float,
                  webhook: str | None = None, until: Callable[[LoadReport], bool] | None = None) -> None:
    game = await _open_game(client, ruleset, options, stop_at, webhook)
    while game is not None and time.monotonic() < stop_at and not (until is not None and until(client.report)):
        if not await _play_one(client, game, started):
            game = await _open_game(client, ruleset, options, stop_at, webhook)


async def run_load_async(servers: list[str], seconds: float, games: int = 16, ruleset: str = "manoeuvre",
                         options: dict[str, Any] | None = None, seed: int = 0,
                         webhook: str | None = None, enough: int | None = None,
                         until: Callable[[LoadReport], bool] | None = None) -> LoadReport:
    """``run_load``'s coroutine; with ``until``, the load also stops as soon as ``until(report)`` holds."""
    if enough is not None:
        until = _either(until, lambda report: report.actions >= enough)
    report = LoadReport()
    limits = httpx.Limits(max_connections=games * 2, max_keepalive_connections=games * 2)
    async with httpx.AsyncClient(timeout=30, limits=limits) as http:
        started = time.monotonic()
        stop_at = started + seconds
        players = [_player(_Client(http, servers, report, random.Random(seed * 1000 + i)), ruleset, options or {},
                           started, stop_at, webhook, until) for i in range(games)]
        await asyncio.gather(*players)
        report.seconds = time.monotonic() - started
    return report


def _either(first: Callable[[LoadReport], bool] | None,
          second: Callable[[LoadReport], bool]) -> Callable[[LoadReport], bool]:
    return second if first is None else lambda report: first(report) or second(report)


def run_load(servers: list[str], seconds: float, games: int = 16, ruleset: str = "manoeuvre",
             options: dict[str, Any] | None = None, seed: int = 0, webhook: str | None = None,
             enough: int | None = None) -> LoadReport:
    """Play ``games`` games at once on ``servers`` (base URLs) for ``seconds``; see the module's doc. With
    ``webhook``, every seat of every game subscribes to it (the servers must allow its address). With
    ``enough``, the load stops as soon as that many actions are acknowledged (``seconds`` is then a ceiling:
    a test waits on how much was played, not on how fast a busy machine plays it)."""
    return asyncio.run(run_load_async([s.rstrip("/") for s in servers], seconds, games, ruleset, options, seed,
                                      webhook, enough))


def check_load(report: LoadReport, db_url: str, servers: list[str]) -> list[str]:
    """What went wrong, as sentences (empty when all is well): stored once, replays to the servers' state."""
    from kadesh.store import Store
    from kadesh.store.store import json_value

    problems: list[str] = []
    store = Store(db_url)
    http = httpx.Client(timeout=30)  # one for every game: each client makes a TLS context (50 ms of CPU)
    try:
        for game in report.games:
            stored = _stored_actions(store, game.id)
            for version, (seat, action) in game.acknowledged.items():
                if stored.get(version) != (seat, json_value(action)):
                    problems.append(f"game {game.id}: acknowledged action {version} is not stored as sent")
            extra = len(stored) - len(game.acknowledged)
            if not 0 <= extra <= game.ambiguous:
                problems.append(f"game {game.id}: {len(stored)} actions stored, {len(game.acknowledged)} "
                                f"acknowledged and {game.ambiguous} unanswered")
            problems.extend(_replay_problems(store, http, game, servers))
    finally:
        http.close()
        store.close()
    return problems


def _stored_actions(store, game_id: str) -> dict[int, tuple[str, Any]]:
    from sqlalchemy import select

    from kadesh.store import schema

    with store.engine.connect() as conn:
        rows = conn.execute(select(schema.actions.c.seq, schema.actions.c.seat, schema.actions.c.action)
                            .where(schema.actions.c.game_id == game_id)).all()
    return {row.seq: (row.seat, row.action) for row in rows}


def _replay_problems(store, http: httpx.Client, game: LoadedGame, servers: list[str]) -> list[str]:
    replayed = store.rebuild(game.id)
    problems = []
    for server in servers:
        answer = http.get(f"{server.rstrip('/')}/api/games/{game.id}", params={"token": game.spectator})
        if answer.status_code != 200:
            problems.append(f"game {game.id}: {server} answered {answer.status_code}")
            continue
        held = answer.json()
        if held["version"] != replayed.version or held["view"] != _plain(replayed.view(None)):
            problems.append(f"game {game.id}: {server} holds a state that is not the replay of the database")
    return problems


def _plain(value: Any) -> Any:
    """As it travels in JSON (tuples become lists)."""
    return json.loads(json.dumps(value))
