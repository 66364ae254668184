"""Push latency and memory per watching socket through a real ``kadesh serve``, against a bare broadcaster (issue 46).

    python bench/bench_push.py [--sockets 1000,5000,10000] [--databases sqlite,postgresql] [--actions 200] [--quick]
                               [--one-game] [--py-spy /tmp/push]

G Manœuvre games, each watched by W = 64 spectator sockets (``/ws/games/{id}``, the token in the subprotocol; with
``--one-game``, one game watched by them all: a featured game, issue 60), then one action at a time to a random game
(POST with ``expected_version``,
alternating a deploy and an undeploy, ``--interval`` seconds after the answer), each watcher noting when the update
carrying the new version arrives; the latency runs from the moment the POST was sent. Kadesh: ``kadesh serve``
(its own settings, no workers) on a fresh SQLite file; with ``postgresql``, two servers on one database of a
throwaway PostgreSQL server (tests/pg_support.py), the watchers split between them, the actions posted to the
first. Bare: ``bench/bare_push.py`` under uvicorn's defaults (permessage-deflate on), sockets in memory, each
POST sent to its game's sockets, the same view in each update; with ``--one-game``, as many bare servers as Kadesh
has (the sockets split between them, each POST sent to all at once: one process holds 20,000 sockets only past
this machine's ceiling of open files). The Kadesh servers run with ``KADESH_SOCKETS_PER_ADDRESS=none``: every
socket comes from loopback. The watchers run in ``--clients`` processes of their own (``bench/push_client.py``), the
actions from this one.

Prints, for each: how long a POST took to answer (p50), p50/p95/p99 push latency, the p95's ratio to the bare's
of the same run, memory per socket (the server's RSS with the sockets open minus before, over the sockets; the
games read once before, so that their cache is not counted) and its ratio to the bare's, and whether every update
arrived; how long a cheap read (``GET /api/rulesets``, bare's ``/health``) sent every 20 ms meanwhile waited, p95 and
longest: how long the pushes held the event loop; with the load average, since the figures are only as quiet as
the machine; on stderr, which action's push was the slowest (its p50) and how long its POST took.
``--bare-without-deflate`` runs the bare broadcaster without permessage-deflate, as ``kadesh serve`` runs.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import http.client
import json
import os
import random
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # run from anywhere: the bench's own neighbours
from bench_http import free_port, post, wait_until_up  # noqa: E402

WATCHERS = 64  # sockets per game, as many games as needed (the ceiling per game before issue 60)
DEPLOY = {"type": "deploy", "element": "n1", "cell": "c1"}
UNDEPLOY = {"type": "undeploy", "element": "n1"}


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


@dataclass
class Game:
    id: str
    watch_token: str = ""
    act_token: str = ""
    version: int = 0


@dataclass
class Servers:
    """One side of the measure: its processes, where the watchers connect, where the actions go."""

    name: str
    processes: list[subprocess.Popen]
    watch_bases: list[str]  # ws://… of each server; the sockets go round them
    act_bases: list[str]  # where each action is posted: Kadesh's first server, or every bare server
    kadesh: bool
    games: list[Game] = field(default_factory=list)

    def create_games(self, count: int) -> None:
        for _ in range(count):
            if self.kadesh:
                made = post(f"{self.act_bases[0]}/api/games", {"ruleset": "manoeuvre"})
                self.games.append(Game(made["id"], made["spectator"]["token"], made["seats"]["north"]["token"]))
            else:
                game_id = post(f"{self.act_bases[0]}/games")["id"]
                for base in self.act_bases[1:]:
                    post(f"{base}/games?id={game_id}")
                self.games.append(Game(game_id))

    def warm(self) -> None:
        """Each game read once by each server: its cache is the game's memory, not its sockets'."""
        for base in self.watch_bases if self.kadesh else []:
            http_base = base.replace("ws://", "http://")
            for game in self.games:
                urllib.request.urlopen(f"{http_base}/api/games/{game.id}?token={game.watch_token}").read()

    def socket_url(self, index: int, game: Game) -> str:
        base = self.watch_bases[index % len(self.watch_bases)]
        return f"{base}/ws/games/{game.id}"

    def action_path(self, game: Game) -> str:
        return f"/api/games/{game.id}/actions" if self.kadesh else f"/games/{game.id}/actions"

    def rss(self) -> int:
        return sum(rss_kib(process.pid) for process in self.processes)

    def cheap_read(self) -> str:
        """A read that costs its server nothing (the rulesets, bare's health): its wait is the event loop's."""
        base = self.watch_bases[0].replace("ws://", "http://")
        return f"{base}/api/rulesets" if self.kadesh else f"{base}/health"


class Probe(threading.Thread):
    """Times a cheap read every 20 ms while the actions are pushed: how long a push holds the event loop from the
    server's other requests."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url, self.waits, self.done = url, [], threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.02):
            began = time.monotonic()
            urllib.request.urlopen(self.url).read()
            self.waits.append((time.monotonic() - began) * 1000)


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    return subprocess.Popen(command, env={**os.environ, **env}, stdout=log.open("w"), stderr=subprocess.STDOUT)


def start_kadesh(db: str, folder: Path, tag: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = start([sys.executable, "-m", "kadesh.cli", "serve", "--db", db, "--port", str(port), "--workers", "0",
                     "--log-level", "warning"], {"KADESH_LIMIT_GAMES": "none", "KADESH_SOCKETS_PER_ADDRESS": "none",
                                                 "KADESH_SOCKETS_PER_SERVER": "none"}, folder / f"kadesh-{tag}.log")
    wait_until_up(f"http://127.0.0.1:{port}/api/rulesets", process, seconds=60.0)
    return process, f"127.0.0.1:{port}"


def start_bare(folder: Path, view: Path, deflate: bool, tag: str = "") -> tuple[subprocess.Popen, str]:
    port = free_port()
    process = start([sys.executable, "-m", "uvicorn", "bare_push:app", "--app-dir", str(HERE), "--port", str(port),
                     "--log-level", "warning", "--ws-per-message-deflate", str(deflate).lower()],
                    {"KADESH_BENCH_VIEW": str(view)}, folder / f"bare{tag}.log")
    wait_until_up(f"http://127.0.0.1:{port}/health", process, seconds=60.0)
    return process, f"127.0.0.1:{port}"


def open_watchers(servers: Servers, sockets: int, per_game: int, clients: int) -> list[subprocess.Popen]:
    plan = [(servers.socket_url(i, servers.games[i // per_game]), servers.games[i // per_game].watch_token,
             i // per_game) for i in range(sockets)]
    processes = []
    for number in range(clients):
        share = plan[number::clients]
        process = subprocess.Popen([sys.executable, str(HERE / "push_client.py")], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True)
        process.stdin.write(json.dumps({"sockets": share, "connecting": 64}) + "\n")
        process.stdin.flush()
        processes.append(process)
    for process in processes:
        line = process.stdout.readline().split()
        if not line or line[0] != "open" or int(line[2]):
            for client in processes:
                client.kill()
            sys.exit(f"{servers.name}: watchers could not all connect: {line}")
    return processes


def play(servers: Servers, actions: int, interval: float, rng: random.Random,
         answered: list[float]) -> dict[tuple[int, int], float]:
    """One action at a time on a random game (posted to each of ``act_bases`` at once): when each (game, version)
    was sent (and, in ``answered``, how long each POST took to answer, in ms)."""
    connections = [http.client.HTTPConnection(*base.removeprefix("http://").split(":")) for base in servers.act_bases]
    sent: dict[tuple[int, int], float] = {}
    with concurrent.futures.ThreadPoolExecutor(len(connections)) as senders:
        for _ in range(actions):
            index = rng.randrange(len(servers.games))
            game = servers.games[index]
            body = json.dumps({"expected_version": game.version,
                               "action": DEPLOY if game.version % 2 == 0 else UNDEPLOY})
            headers = {"Content-Type": "application/json"}
            if game.act_token:
                headers["Authorization"] = f"Bearer {game.act_token}"
            began = time.monotonic()
            post_one = functools.partial(act, path=servers.action_path(game), body=body, headers=headers)
            answers = list(senders.map(post_one, connections))
            answered.append((time.monotonic() - began) * 1000)
            for status, answer in answers:
                if status != 200:
                    sys.exit(f"{servers.name}: action refused ({status}): {answer}")
            game.version = answers[0][1]["version"]
            sent[(index, game.version)] = began
            time.sleep(interval)
    return sent


def act(connection: http.client.HTTPConnection, path: str, body: str, headers: dict[str, str]) -> tuple[int, dict]:
    connection.request("POST", path, body, headers)
    response = connection.getresponse()
    return response.status, json.loads(response.read())


def percentile(values: list[float], share: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(share) - 1] if len(values) > 1 else values[0]


def measure(servers: Servers, sockets: int, args: argparse.Namespace) -> dict:
    per_game = sockets if args.one_game else WATCHERS
    games = (sockets + per_game - 1) // per_game
    servers.create_games(games)
    servers.warm()
    time.sleep(1)
    before = servers.rss()
    watchers = open_watchers(servers, sockets, per_game, args.clients)
    time.sleep(2)
    after = servers.rss()
    spy = None
    if args.py_spy and servers.kadesh:  # the first Kadesh server while the actions are pushed
        spy = subprocess.Popen(["py-spy", "record", "--pid", str(servers.processes[0].pid), "--format", "raw",
                                "-r", "250", "-o", f"{args.py_spy}-{servers.name}-{sockets}.txt", "--nonblocking"])
    answered: list[float] = []
    probe = Probe(servers.cheap_read())
    probe.start()
    sent = play(servers, args.actions, args.interval, random.Random(sockets), answered)
    probe.done.set()
    probe.join()
    if spy is not None:
        spy.send_signal(2)
        spy.wait()
    time.sleep(2)
    records = []
    for process in watchers:
        process.stdin.write("stop\n")
        process.stdin.flush()
        records.extend(json.loads(process.stdout.readline()))
        process.wait(timeout=60)
    latencies, expected, arrived = [], 0, 0
    by_action: dict[tuple[int, int], list[float]] = {}
    for record in records:
        got = dict(record["got"])
        for (game, version), began in sent.items():
            if game == record["game"]:
                expected += 1
                if version in got:
                    arrived += 1
                    latencies.append((got[version] - began) * 1000)
                    by_action.setdefault((game, version), []).append(latencies[-1])
    order = list(sent)
    slowest = max(by_action, key=lambda action: statistics.median(by_action[action]))
    print(f"{servers.name}: slowest push, the action {order.index(slowest) + 1} of {len(order)}: p50 "
          f"{statistics.median(by_action[slowest]):.0f} ms; its POST answered in "
          f"{answered[order.index(slowest)]:.0f} ms", file=sys.stderr)
    return {"sockets": sockets, "games": games, "per_game": min(sockets, per_game),
            "kib": (after - before) / sockets, "expected": expected,
            "arrived": arrived, "answer": percentile(answered, 50), "p50": percentile(latencies, 50),
            "p95": percentile(latencies, 95),
            "p99": percentile(latencies, 99), "read_p95": percentile(probe.waits, 95), "read_max": max(probe.waits)}


def spectator_view(folder: Path) -> Path:
    """Kadesh's spectator view of a new Manœuvre game, for the bare broadcaster's updates."""
    process, base = start_kadesh(f"sqlite:///{folder / 'view.sqlite3'}", folder, "view")
    try:
        made = post(f"http://{base}/api/games", {"ruleset": "manoeuvre"})
        with urllib.request.urlopen(f"http://{base}/api/games/{made['id']}?token={made['spectator']['token']}") as r:
            view = json.load(r)["view"]
    finally:
        process.terminate()
        process.wait(timeout=10)
    path = folder / "view.json"
    path.write_text(json.dumps(view))
    return path


KADESH_SERVERS = {"sqlite": 1, "postgresql": 2}


def side(name: str, sockets: int, folder: Path, view: Path, args: argparse.Namespace, count: int = 1) -> dict:
    """One measure on fresh servers: "bare" (``count`` of them), "sqlite" (one Kadesh server) or "postgresql"
    (two)."""
    postgres = None
    if name == "bare":
        started = [start_bare(folder, view, not args.bare_without_deflate, f"-{n}") for n in range(count)]
        servers = Servers(name if count == 1 else f"bare ×{count}", [p for p, _ in started],
                          [f"ws://{b}" for _, b in started], [f"http://{b}" for _, b in started], kadesh=False)
    elif name == "sqlite":
        process, base = start_kadesh(f"sqlite:///{folder / f'kadesh-{sockets}.sqlite3'}", folder, f"sqlite-{sockets}")
        servers = Servers(name, [process], [f"ws://{base}"], [f"http://{base}"], kadesh=True)
    else:
        sys.path.insert(0, str(HERE.parent))
        from tests.pg_support import PostgresServer

        postgres = PostgresServer(fast=False).start()
        db = postgres.new_database()
        started = [start_kadesh(db, folder, f"pg{n}-{sockets}") for n in (1, 2)]
        servers = Servers("postgresql ×2", [p for p, _ in started], [f"ws://{b}" for _, b in started],
                          [f"http://{started[0][1]}"], kadesh=True)
    try:
        return {"name": servers.name, **measure(servers, sockets, args)}
    finally:
        for process in servers.processes:
            process.terminate()
            process.wait(timeout=30)
        if postgres is not None:
            postgres.destroy()


def print_row(result: dict, bare: dict) -> None:
    print(f"| {result['name']} | {result['sockets']:,} | {result['games']} × {result['per_game']:,} "
          f"| {result['answer']:.1f} ms | {result['p50']:.1f} ms | {result['p95']:.1f} ms | {result['p99']:.1f} ms "
          f"| {result['p95'] / bare['p95']:.2f} | {result['kib']:.0f} | {result['kib'] / bare['kib']:.2f} "
          f"| {result['arrived']:,}/{result['expected']:,} | {result['read_p95']:.0f} / {result['read_max']:.0f} ms |",
          flush=True)


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))  # the servers are stopped on the way out
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", default="1000,5000,10000", help="watching sockets, comma-separated")
    parser.add_argument("--databases", default="sqlite", help="sqlite, postgresql (two servers) or both")
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--interval", type=float, default=0.05, help="seconds between an answer and the next POST")
    parser.add_argument("--clients", type=int, default=2, help="processes of watchers")
    parser.add_argument("--quick", action="store_true", help="200 sockets, 50 actions")
    parser.add_argument("--one-game", action="store_true",
                        help="one game watched by every socket (a featured game), against as many bare servers as "
                             "Kadesh servers")
    parser.add_argument("--bare-without-deflate", action="store_true",
                        help="the bare broadcaster without permessage-deflate, as kadesh serve (default: uvicorn's)")
    parser.add_argument("--py-spy", metavar="PREFIX", help="profile Kadesh while it pushes (py-spy, raw stacks)")
    args = parser.parse_args()
    if args.quick:
        args.sockets, args.actions = "200", min(args.actions, 50)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # inherited by the servers: 10,000 sockets and more
    if hard < 2 * max(int(n) for n in args.sockets.split(",")) // args.clients + 1000:
        print(f"warning: the open-files limit ({hard}) may be too low for these sockets", file=sys.stderr)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores\n")
    print("| server | sockets | games × watchers | POST answered, p50 | push p50 | p95 | p99 | p95 / bare "
          "| KiB per socket | / bare | arrived | a read meanwhile, p95 / max |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        view = spectator_view(folder)
        for sockets in (int(n) for n in args.sockets.split(",")):
            bares: dict[int, dict] = {}  # by number of bare servers
            for db in args.databases.split(","):
                count = KADESH_SERVERS[db] if args.one_game else 1
                if count not in bares:
                    bares[count] = side("bare", sockets, folder, view, args, count)
                    print_row(bares[count], bares[count])
                print_row(side(db, sockets, folder, view, args), bares[count])
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
