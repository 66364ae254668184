"""Abuse at the rate limit (issue 40): a player's read of their game while the worst requests we can build
arrive as fast as the rate limits let them, and how soon the server's CPU is idle once the attackers leave.

    python bench/bench_abuse.py [--quick] [--scenarios one,many,legal] [--addresses 8] [--over 1.0]
                                [--kinds simulations,games,checks]

Each scenario has a real ``kadesh serve`` of its own (its default settings, rate limits on, two local workers,
a fresh SQLite file), everything over loopback:

1. idle: once its start-up is over, the server's CPU for a second, nothing asked (the floor of « idle »);
2. quiet: the player reads their Manœuvre game (``GET /api/games/{id}``, a seat's token) every 40 ms, one
   request at a time: p50 and p95 (nearest rank) of the answer's time, over a phase before the attack and one
   after it (once the server is idle again), so that the machine's own drift weighs on both sides;
3. attack: the same reads again while attackers, in a process of their own (so that their client's work does
   not slow the player's), send the worst requests we know of each rate-limited kind, each kind at
   ``--over`` times its shortest window's limit (20 games a minute: one every 3 s; 30 simulations: one
   every 2 s; 600 checks: one every 100 ms), a few unanswered at most per kind:
   - simulations: Bataille on an own field of 12 groups of levies, 30 turns of daylight, 2,000 games, both
     seats « careful » (more than the 20 s CPU ceiling of a simulation: every accepted one uses all of it);
   - games: in turn a Royaumes map of tables each holding an 8-part key (the costliest TOML shape through the
     app, bench/bench_parsers.py: refused after the parser) and Front's largest valid battle (400 units and as
     many works as fit in a body) with both sides given to the Chef d'état-major;
   - checks: in turn a Royaumes map's seats (the same TOML), a preview of 20,000 characters that NFKD makes
     18 times longer (U+FDFA), and the odds of a shot at a work in the largest battle;
4. leaving: the attackers' sockets are closed at once (requests unanswered included); the server's CPU is read
   from /proc every 100 ms, for 8 s (4 with ``--quick``) and on until the web process and its simulations are
   idle (30 s at most): the time until a 200 ms window holds less than 5 % of a core (no 10 ms clock tick at
   all), for the web process with its simulations, and for the whole server (its workers too).

Scenarios: ``one`` (one address: the attackers share one rate-limit bucket, as one abusive client would),
``many`` (``--addresses`` addresses, each at the limits: the server believes loopback's ``X-Forwarded-For``
with ``KADESH_TRUSTED_PROXIES=127.0.0.1``, as behind nginx; many clients, or one with many addresses),
``legal`` (one address, two requests at a time: ``GET /api/games/{id}/legal`` of the largest Front battle, a
read no rate limit counts). Figures are ratios to the quiet reads of the same server. Note ``uptime``'s load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import multiprocessing
import os
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

with warnings.catch_warnings():  # bench_parsers imports FastAPI's TestClient, which warns about httpx
    warnings.simplefilter("ignore")
    from bench_parsers import MAX_TEXT, front_battle, toml_shapes  # noqa: E402
    from bench_parsers import _body as json_body  # noqa: E402
    from bench_parsers import _fitting as fitting  # noqa: E402
from bench_priority import percentiles  # noqa: E402

from kadesh import new_game  # noqa: E402
from kadesh.core.errors import RuleError  # noqa: E402
from kadesh.core.grid import chebyshev, map_cell_name  # noqa: E402
from kadesh.rules.front import fire  # noqa: E402
from kadesh.rules.royaumes.orders import MAX_TEXT as MAX_ORDERS  # noqa: E402
from kadesh.server.limits import MAX_BODY  # noqa: E402
from kadesh.server.rates import PROXIES_SETTING, SETTING, RatePolicy  # noqa: E402
from tests.server_support import ServerProcess  # noqa: E402

READ_EVERY = 0.04  # seconds between two of the player's reads
SAMPLE_EVERY = 0.1  # seconds between two readings of the server's CPU
IDLE_WINDOW = 0.2  # seconds
IDLE_SHARE = 0.05  # of a core: below it over IDLE_WINDOW, the server is idle
TICK = 1 / os.sysconf("SC_CLK_TCK")  # /proc's unit of CPU time
GROUPS = ("web", "simulations", "workers")  # the server's processes, as cpu_ticks tells them apart
TAIL_MOST = 30.0  # seconds: the longest the CPU is read after the attackers left
SIMULATED_GAMES = 2000  # the most SimulateRequest accepts
FIRST_ADDRESS = "10.40.0."  # the many addresses' prefix, as X-Forwarded-For


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: bytes = b""
    headers: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Lane:
    """One kind of attack: its requests sent in turn, one every ``every`` seconds (0: as soon as one is
    answered), at most ``in_flight`` unanswered."""

    name: str
    requests: tuple[Request, ...]
    every: float
    in_flight: int


# -- the worst bodies -------------------------------------------------------------------------------------------
def simulation_body(seed: int) -> bytes:
    groups = [{"side": side, "lane": ("west", "centre", "east")[index % 3], "troop": "levies"}
              for side in ("north", "south") for index in range(6)]
    return json_body({"options": {"field": {"name": "custom", "night": 30, "groups": groups}},
                      "seats": {"north": "careful", "south": "careful"}, "games": SIMULATED_GAMES, "seed": seed})


def in_a_body(wrap: Callable[[str], dict], text: str) -> bytes:
    """The body ``wrap`` makes of ``text``, the text cut to what fits in a body."""
    while len(body := json_body(wrap(text))) > MAX_BODY:
        text = text[: len(text) * MAX_BODY // len(body) - 64]
    return body


def costliest_map() -> str:
    return toml_shapes(MAX_TEXT["royaumes"])["tables, an 8-part key in each"]


def largest_battle() -> str:
    return fitting(front_battle, MAX_TEXT["front"])


def shot_at_a_work(battle: str) -> tuple[str, dict]:
    """The side to play first in ``battle`` and a shot of its at a work that the rules allow (its odds are the
    costliest check of Front's), found in process."""
    game = new_game("front", seed="bench", options={"scenario_toml": battle})
    side, state = game.to_act()[0], game.state
    shooters = sorted((u for u in state.units.values() if u.side == side and u.type.weapons
                       and u.type.weapons[0].order == "shoot"), key=lambda u: u.id)
    for unit in shooters:
        for cell in sorted(state.structures, key=lambda c: chebyshev(c, unit.cell)):
            if chebyshev(cell, unit.cell) > fire.fire_range(unit):
                break
            action = {"type": "shoot", "unit": unit.id, "target": map_cell_name(cell), "at": "structure"}
            with contextlib.suppress(RuleError):
                game.odds(side, action)
                return side, action
    raise SystemExit("no shot at a work in the largest battle")


# -- the server and its games -----------------------------------------------------------------------------------
@contextlib.contextmanager
def environment(**settings: str) -> Iterator[None]:
    """The server's environment: no limit or proxy setting of ours, then ``settings``."""
    saved = dict(os.environ)
    for name in [n for n in os.environ if n.startswith(SETTING.format("")) or n == PROXIES_SETTING]:
        del os.environ[name]
    os.environ.update(settings)
    try:
        yield
    finally:
        os.environ.clear()
        os.environ.update(saved)


def start_server(folder: Path, name: str, proxies: bool) -> ServerProcess:
    def server(attempt: int) -> ServerProcess:
        return ServerProcess(f"sqlite:///{folder}/{name}.sqlite3", folder / f"{name}-{attempt}.log")

    with environment(**({PROXIES_SETTING: "127.0.0.1"} if proxies else {})):
        for attempt in range(2):  # another session's tests may take the port first
            with contextlib.suppress(AssertionError):
                return server(attempt).start()
        return server(2).start()


@dataclass(frozen=True)
class Games:
    player: tuple[str, str]  # the player's game and seat token
    royaumes: tuple[str, str]
    battle: tuple[str, str]  # the largest Front battle, the side to play first


def open_games(http: httpx.Client, base: str, battle: str, side: str) -> Games:
    def created(body: dict, seat: str | None = None) -> tuple[str, str]:
        answer = http.post(f"{base}/api/games", json=body)
        answer.raise_for_status()
        seats = answer.json()["seats"]
        return answer.json()["id"], seats[seat or sorted(seats)[0]]["token"]

    return Games(created({"ruleset": "manoeuvre"}, "north"), created({"ruleset": "royaumes"}),
                 created({"ruleset": "front", "options": {"scenario_toml": battle}}, side))


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("Authorization", f"Bearer {token}"),)


def limited_lanes(games: Games, battle: str, shot: dict, over: float) -> list[Lane]:
    """The rate-limited kinds, each at ``over`` times its shortest window's limit."""
    limits = RatePolicy.defaults().limits

    def every(kind: str) -> float:
        shortest = min(limits[kind], key=lambda item: item.get_expiry())
        return shortest.get_expiry() / shortest.amount / over

    royaumes, front = games.royaumes, games.battle
    checks = (Request("POST", "/api/rulesets/royaumes/seats",
                      in_a_body(lambda text: {"options": {"scenario_toml": text}}, costliest_map())),
              Request("POST", f"/api/games/{royaumes[0]}/preview",
                      json_body({"action": {"type": "orders", "text": "guerre: " + "\ufdfa" * (MAX_ORDERS - 8)}}),
                      bearer(royaumes[1])),
              Request("POST", f"/api/games/{front[0]}/odds", json_body({"action": shot}), bearer(front[1])))
    new_games = (Request("POST", "/api/games", in_a_body(
                     lambda text: {"ruleset": "royaumes", "options": {"scenario_toml": text}}, costliest_map())),
                 Request("POST", "/api/games", json_body({"ruleset": "front", "options": {"scenario_toml": battle},
                                                          "bots": {"blue": "etat_major", "red": "etat_major"}})))
    simulations = tuple(Request("POST", "/api/rulesets/bataille/simulate", simulation_body(seed)) for seed in range(8))
    return [Lane("simulations", simulations, every("simulations"), 8),
            Lane("games", new_games, every("games"), 4),
            Lane("checks", checks, every("checks"), 8)]


def legal_lane(games: Games) -> list[Lane]:
    game_id, token = games.battle
    return [Lane("legal", (Request("GET", f"/api/games/{game_id}/legal", b"", bearer(token)),), 0, 2)]


# -- the attackers, in a process of their own -------------------------------------------------------------------
async def send(port: int, request: Request, extra: tuple[tuple[str, str], ...]) -> int:
    """One request on a connection of its own; its status. Cancelled, the connection is cut at once."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        headers = [("Host", "kadesh"), ("Connection", "close"), ("Content-Type", "application/json"),
                   ("Content-Length", str(len(request.body))), *request.headers, *extra]
        head = f"{request.method} {request.path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
        writer.write(head.encode() + b"\r\n" + request.body)
        status = int((await reader.readline()).split()[1])
        while await reader.read(1 << 16):
            pass
        return status
    finally:
        writer.transport.abort()


def category(status: int) -> str:
    if status == 429:
        return "429"
    return f"{status // 100}xx" if status < 500 else "5xx or failed"


async def run_lane(port: int, lane: Lane, extra: tuple[tuple[str, str], ...], counts: Counter) -> None:
    """Send ``lane``'s requests until cancelled; then cut the unanswered ones."""
    slots, pending = asyncio.Semaphore(lane.in_flight), set()

    async def one(request: Request) -> None:
        try:
            counts[lane.name, category(await send(port, request, extra))] += 1
        except (OSError, ValueError, IndexError):
            counts[lane.name, "5xx or failed"] += 1
        finally:
            slots.release()

    due = time.monotonic()
    try:
        for request in itertools.cycle(lane.requests):
            await slots.acquire()
            counts[lane.name, "sent"] += 1
            task = asyncio.create_task(one(request))
            pending.add(task)
            task.add_done_callback(pending.discard)
            due = max(due + lane.every, time.monotonic())  # late (no free slot): no burst to catch up
            await asyncio.sleep(due - time.monotonic())
    finally:
        counts[lane.name, "unanswered"] += len(pending)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)


async def attack(port: int, lanes: list[Lane], addresses: list[str], seconds: float) -> Counter:
    counts: Counter = Counter()
    extras = [(("X-Forwarded-For", address),) if address else () for address in addresses]
    runners = [asyncio.create_task(run_lane(port, lane, extra, counts)) for extra in extras for lane in lanes]
    await asyncio.sleep(seconds)
    for runner in runners:
        runner.cancel()
    await asyncio.gather(*runners, return_exceptions=True)
    return counts


def attackers(port: int, lanes: list[Lane], addresses: list[str], seconds: float, report: Connection) -> None:
    counts = asyncio.run(attack(port, lanes, addresses, seconds))
    report.send((counts, time.process_time()))


# -- the server's CPU --------------------------------------------------------------------------------------------
def cpu_ticks(session: int) -> Counter:
    """CPU time (clock ticks) of every process of the server's session: the web process, its workers, and the
    rest (the forkserver and the simulations, with the children they reaped)."""
    ticks: Counter = Counter()
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue  # gone meanwhile
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[3]) != session:
            continue
        own, reaped = int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])
        if int(entry) == session:
            ticks["web"] += own
        elif b"\0worker\0" in command:
            ticks["workers"] += own + reaped
        else:
            ticks["simulations"] += own + reaped
    return ticks


def cpu_samples(session: int, seconds: float, until: Callable[[list[Counter]], bool] = lambda _: False,
                most: float = 0.0) -> list[Counter]:
    """The CPU ticks used in each SAMPLE_EVERY interval for ``seconds``, and on until ``until`` says so or
    ``most`` seconds have passed."""
    deltas, before, due = [], cpu_ticks(session), time.monotonic()
    while len(deltas) < round(seconds / SAMPLE_EVERY) or (not until(deltas) and len(deltas) < most / SAMPLE_EVERY):
        due += SAMPLE_EVERY
        time.sleep(max(0.0, due - time.monotonic()))
        now = cpu_ticks(session)
        deltas.append(Counter({group: max(0, now[group] - before[group]) for group in now}))
        before = now
    return deltas


def settle(session: int, most: float = 15.0) -> None:
    """Wait until the server has started its workers and does nothing (their start-up is no one's load)."""
    deadline = time.monotonic() + most
    while idle_after(cpu_samples(session, IDLE_WINDOW), GROUPS) is None and time.monotonic() < deadline:
        pass


def idle_after(deltas: list[Counter], groups: tuple[str, ...]) -> float | None:
    """Seconds from the first sample until the first window of IDLE_WINDOW with less than IDLE_SHARE of a core
    used by ``groups``; None if there was none."""
    span = round(IDLE_WINDOW / SAMPLE_EVERY)
    for start in range(len(deltas) - span + 1):
        used = sum(delta[group] for delta in deltas[start:start + span] for group in groups) * TICK
        if used < IDLE_SHARE * IDLE_WINDOW:
            return start * SAMPLE_EVERY
    return None


# -- the player --------------------------------------------------------------------------------------------------
def reads(http: httpx.Client, base: str, game: tuple[str, str], seconds: float) -> list[float]:
    """The player's reads of their game for ``seconds``, one every READ_EVERY: each one's time."""
    url, headers = f"{base}/api/games/{game[0]}", dict(bearer(game[1]))
    times, due = [], time.monotonic()
    end = due + seconds
    while due < end:
        time.sleep(max(0.0, due - time.monotonic()))
        start = time.perf_counter()
        http.get(url, headers=headers).raise_for_status()
        times.append(time.perf_counter() - start)
        due = max(due + READ_EVERY, time.monotonic())
    return times


# -- a scenario --------------------------------------------------------------------------------------------------
@dataclass
class Attacked:
    reads: tuple[float, float]  # the player's p50 and p95 meanwhile
    cores: dict[str, float]  # each group's share of a core meanwhile
    idle_web: float | None  # seconds after the attackers left
    idle_all: float | None
    watched: float  # seconds the CPU was read after they left
    counts: Counter
    client_cpu: float  # seconds of the attackers' own process


@dataclass
class Outcome:
    quiet: tuple[float, float]
    floor: float  # the idle server's share of a core
    attacked: Attacked


def run_scenario(folder: Path, name: str, args: argparse.Namespace, battle: str, side: str, shot: dict) -> Outcome:
    server = start_server(folder, name, proxies=name == "many")
    try:
        with httpx.Client(timeout=120) as http:
            games = open_games(http, server.url, battle, side)
            odds = http.post(f"{server.url}/api/games/{games.battle[0]}/odds", headers=dict(bearer(games.battle[1])),
                             json={"action": shot})
            assert odds.status_code == 200, f"the shot at a work was refused: {odds.text}"
            settle(server.process.pid)
            floor = sum(sum(delta.values()) for delta in cpu_samples(server.process.pid, 1.0)) * TICK
            quiet = reads(http, server.url, games.player, args.quiet)
            lanes = legal_lane(games) if name == "legal" else [
                lane for lane in limited_lanes(games, battle, shot, args.over) if lane.name in args.kinds.split(",")]
            addresses = [f"{FIRST_ADDRESS}{n + 1}" for n in range(args.addresses)] if name == "many" else [""]
            attacked = attack_and_leave(http, server, games, lanes, addresses, args)
            settle(server.process.pid)
            quiet += reads(http, server.url, games.player, args.quiet)  # before and after: the machine's drift
            return Outcome(percentiles(quiet), floor, attacked)
    finally:
        server.kill()


def attack_and_leave(http: httpx.Client, server: ServerProcess, games: Games, lanes: list[Lane], addresses: list[str],
                     args: argparse.Namespace) -> Attacked:
    """The player's reads while the attackers run, then the server's CPU once they are gone."""
    session = server.process.pid
    receiving, sending = multiprocessing.Pipe(duplex=False)
    attacking = multiprocessing.get_context("fork").Process(
        target=attackers, args=(server.port, lanes, addresses, args.attack, sending))
    before, started = cpu_ticks(session), time.monotonic()
    attacking.start()
    loaded = reads(http, server.url, games.player, args.attack)
    counts, client_cpu = receiving.recv()
    attacking.join()  # gone: every socket of the attackers is closed
    during, elapsed = cpu_ticks(session), time.monotonic() - started
    tail = cpu_samples(session, args.tail, lambda deltas: idle_after(deltas, GROUPS[:2]) is not None, TAIL_MOST)
    return Attacked(percentiles(loaded), {group: (during[group] - before[group]) * TICK / elapsed for group in GROUPS},
                    idle_after(tail, GROUPS[:2]), idle_after(tail, GROUPS), len(tail) * SAMPLE_EVERY, counts,
                    client_cpu)


# -- the report --------------------------------------------------------------------------------------------------
def seconds_or_more(value: float | None, most: float) -> str:
    return f"> {most:.0f} s" if value is None else f"{value:.1f} s"


def ms(pair: tuple[float, float]) -> str:
    return f"{pair[0] * 1000:.1f} / {pair[1] * 1000:.1f} ms"


def print_outcome(name: str, outcome: Outcome) -> None:
    attacked, cores = outcome.attacked, outcome.attacked.cores
    print(f"| {name} | {ms(outcome.quiet)} | {ms(attacked.reads)} | **{attacked.reads[1] / outcome.quiet[1]:.1f}×** "
          f"| {cores['web']:.2f} / {cores['simulations']:.2f} / {cores['workers']:.2f} "
          f"| {seconds_or_more(attacked.idle_web, attacked.watched)} "
          f"| {seconds_or_more(attacked.idle_all, attacked.watched)} "
          f"| {outcome.floor:.2f} | {attacked.client_cpu:.1f} s |", flush=True)


def print_counts(results: dict[str, Outcome]) -> None:
    columns = ("sent", "2xx", "4xx", "429", "5xx or failed", "unanswered")
    print(f"\n| scenario | kind | {' | '.join(columns)} |\n|---|---|{'---|' * len(columns)}")
    for name, outcome in results.items():
        counts = outcome.attacked.counts
        for kind in dict.fromkeys(lane for lane, _ in counts):
            print(f"| {name} | {kind} | {' | '.join(str(counts[kind, column]) for column in columns)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="shorter phases (4 s quiet, 10 s attack, 4 s after)")
    parser.add_argument("--scenarios", default="one,many,legal")
    parser.add_argument("--addresses", type=int, default=8, help="the many addresses of scenario « many »")
    parser.add_argument("--over", type=float, default=1.0, help="each kind's rate, in times its limit")
    parser.add_argument("--kinds", default="simulations,games,checks", help="the rate-limited kinds sent")
    args = parser.parse_args()
    args.quiet, args.attack, args.tail = (4, 10, 4) if args.quick else (8, 25, 8)
    print(f"load average at start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores; "
          f"reads every {READ_EVERY * 1000:.0f} ms, {args.quiet} s quiet, {args.attack} s attacked, "
          f"CPU read {args.tail} s after; rates {args.over}× the limits", flush=True)
    battle = largest_battle()
    side, shot = shot_at_a_work(battle)
    print("\n| scenario | quiet read p50 / p95 | attacked p50 / p95 | p95 ratio (goal ≤ 1.5) | cores used attacked: "
          "web / simulations / workers | idle after leaving: web and simulations (goal ≤ 1 s) | whole server "
          "| idle floor (CPU s in 1 s) | attackers' own CPU |")
    print("|---|---|---|---|---|---|---|---|---|")
    results = {}
    with tempfile.TemporaryDirectory() as temporary:
        for name in args.scenarios.split(","):
            results[name] = run_scenario(Path(temporary), name, args, battle, side, shot)
            print_outcome(name, results[name])
    print_counts(results)
    print(f"\nload average at end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
