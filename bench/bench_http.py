"""Actions per second through a real ``kadesh serve``, against a bare endpoint doing the same insert, with wrk.

    python bench/bench_http.py [--seconds 10] [--rounds 2] [--connections 1,2,8] [--databases sqlite,postgresql]
                               [--also CHECKOUT] [--server-env NAME=VALUE]
    python bench/bench_http.py --scrape [same options]

With ``--scrape``, the cost of ``/metrics`` (issue 60) instead: Kadesh alone, interleaved in rounds three ways, two
servers side by side: without metrics; with ``--metrics-port`` unscraped; the same while a scraper reads ``/metrics``
every second (Prometheus scrapes every 15 s by default: a second is fifteen times that). Prints each one's actions
per second, the ratios (scraped / unscraped is the scrapes' cost; with metrics / without, the recording's), their
p99, and the scrapes' own time.

``--also CHECKOUT`` serves another checkout of Kadesh beside this one (a git worktree of an older commit, run with
its own code on the same interpreter), and the bare endpoint answers two ways: a plain ``def`` in the thread pool,
and an ``async def`` under a lock on the event loop (issue 60's baseline); each ratio is given to both.

Kadesh: ``kadesh serve`` with its default settings, each wrk connection on its own Manœuvre game, POST
/api/games/{id}/actions alternating a deploy and an undeploy with ``expected_version`` (the token check, the
version check, the rules, the write, the seat's view, the announcement). Bare: ``bench/bare_insert.py``
served by uvicorn, one row inserted and committed per POST. On SQLite, each its own fresh file in WAL mode
with ``synchronous=FULL``; on PostgreSQL, each its own database of a throwaway server (tests/pg_support.py)
with ``fsync`` on: the same durability on both sides. Both over loopback, driven by ``wrk`` (one connection
per thread), in rounds that interleave the two so that the machine's load falls on both alike. Prints each
measure's actions per second, the ratio, and latency percentiles, with the load average at the start.

wrk is Debian's package: ``apt-get install wrk``; PostgreSQL's server is Debian's ``postgresql``. The bench
installs nothing by itself.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent

LUA = """
games = {%(games)s}
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("id", games[counter][1])
  thread:set("token", games[counter][2])
end
function init(args)
  version = 0
end
function request()
  local action = '{"type":"undeploy","element":"n1"}'
  if version %% 2 == 0 then action = '{"type":"deploy","element":"n1","cell":"c1"}' end
  local body = '{"expected_version":' .. version .. ',"action":' .. action .. '}'
  local headers = {["Content-Type"] = "application/json"}
  if token ~= "" then headers["Authorization"] = "Bearer " .. token end
  return wrk.format("POST", "%(path)s" .. id .. "%(tail)s", headers, body)
end
function response(status, headers, body)
  if status == 200 then version = version + 1 end
end
"""

UNLIMITED_GAMES = {"KADESH_LIMIT_GAMES": "none"}  # a run makes more games than an address's 20 a minute


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post(url: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(url, data=json.dumps(body or {}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def wait_until_up(url: str, process: subprocess.Popen, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"the server stopped at start: {url}")
        try:
            urllib.request.urlopen(url)
            return
        except OSError:
            time.sleep(0.1)
    process.terminate()
    sys.exit(f"no answer from {url}")


def start(command: list[str], env: dict[str, str], log: Path, cwd: Path | None = None) -> subprocess.Popen:
    return subprocess.Popen(command, env={**os.environ, **env}, stdout=log.open("w"), stderr=subprocess.STDOUT,
                            cwd=cwd)


def kadesh_games(base: str, count: int) -> list[tuple[str, str]]:
    games = [post(f"{base}/api/games", {"ruleset": "manoeuvre"}) for _ in range(count)]
    return [(g["id"], g["seats"]["north"]["token"]) for g in games]


def bare_games(base: str, count: int) -> list[tuple[str, str]]:
    return [(post(f"{base}/games")["id"], "") for _ in range(count)]


def run_wrk(base: str, games: list[tuple[str, str]], path: str, tail: str, seconds: int, folder: Path) -> dict:
    script = folder / "actions.lua"
    script.write_text(LUA % {"games": ",".join(f'{{"{i}","{t}"}}' for i, t in games), "path": path, "tail": tail})
    count = len(games)
    out = subprocess.run(["wrk", f"-t{count}", f"-c{count}", f"-d{seconds}s", "--latency", "-s", str(script), base],
                         capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    failed = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    latency = {p: re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out) for p in ("50", "99")}
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}
    return {"rate": rate, "failed": int(failed.group(1)) if failed else 0,
            **{f"p{p}": float(m.group(1)) * scale[m.group(2)] for p, m in latency.items()}}


@dataclass
class Side:
    """One server measured: where it answers, how its games are made, where an action is posted."""

    name: str
    base: str
    games: Callable[[str, int], list[tuple[str, str]]]
    path: str
    tail: str = ""


def measure(database: str, folder: Path, args: argparse.Namespace) -> None:
    """Interleaved rounds of Kadesh (and each ``--also`` checkout) and the bare endpoints on ``database``."""
    postgres = None
    if database == "postgresql":
        sys.path.insert(0, str(HERE.parent))
        from tests.pg_support import PostgresServer

        postgres = PostgresServer(fast=False).start()  # fsync on: every commit synced, as SQLite's
        kadesh_dbs = [postgres.new_database() for _ in range(1 + len(args.also))]
        bare_env = {"KADESH_BENCH_PG": postgres.new_database().replace("+psycopg", "")}
    else:
        kadesh_dbs = [f"sqlite:///{folder / f'kadesh-{n}.sqlite3'}" for n in range(1 + len(args.also))]
        bare_env = {"KADESH_BENCH_SQLITE": str(folder / "bare.sqlite3")}
    processes, sides = [], []
    for checkout, db in zip([None, *args.also], kadesh_dbs, strict=True):
        port = free_port()
        env = {"PYTHONPATH": str(Path(checkout).resolve())} if checkout else {}
        label = f"Kadesh at {checkout}" if checkout else "Kadesh"
        serve = [sys.executable, "-m", "kadesh.cli", "serve", "--db", db, "--port", str(port)]
        # Run from the checkout's own folder: ``python -m`` puts its working folder before PYTHONPATH, so a server
        # started from this repository would import this repository's kadesh whatever PYTHONPATH says.
        processes.append(start(serve, {**UNLIMITED_GAMES, **env, **args.server_env}, folder / f"kadesh-{port}.log",
                               cwd=Path(checkout).resolve() if checkout else HERE.parent))
        sides.append(Side(label, f"http://127.0.0.1:{port}", kadesh_games, "/api/games/", "/actions"))
    bare_port = free_port()
    processes.append(start([sys.executable, "-m", "uvicorn", "bare_insert:app", "--app-dir", str(HERE), "--port",
                            str(bare_port), "--log-level", "warning"], bare_env, folder / f"bare-{database}.log"))
    bare_base = f"http://127.0.0.1:{bare_port}"
    bares = [Side("bare, thread pool", bare_base, bare_games, "/bare/"),
             Side("bare, async with a lock", bare_base, bare_games, "/bare-async/")]
    try:
        for side, process in zip(sides, processes, strict=False):
            wait_until_up(f"{side.base}/api/rulesets", process)
        wait_until_up(f"{bare_base}/docs", processes[-1])
        print(f"\n{database}: load average at start {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
        print("| round | connections | server | actions/s | ratio to each bare | p50 / p99 |")
        print("|---|---|---|---|---|---|")
        for number in range(1, args.rounds + 1):
            for count in (int(c) for c in args.connections.split(",")):
                measured = [(side, run_wrk(side.base, side.games(side.base, count), side.path, side.tail,
                                           args.seconds, folder)) for side in [*sides, *bares]]
                bare_rates = [result["rate"] for side, result in measured if side in bares]
                for side, result in measured:
                    refused = f" ({result['failed']} refused)" if result["failed"] else ""
                    ratios = " / ".join(f"{result['rate'] / rate:.2f}" for rate in bare_rates)
                    print(f"| {number} | {count} | {side.name} | {result['rate']:,.0f}{refused} | {ratios} "
                          f"| {result['p50']:.1f} / {result['p99']:.1f} ms |", flush=True)
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=10)
        if postgres is not None:
            postgres.destroy()


class Scraper:
    """Reads ``url`` every ``every`` seconds in a thread until stopped; the time each read took."""

    def __init__(self, url: str, every: float = 1.0) -> None:
        self.url, self.every = url, every
        self.took: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Scraper:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            started = time.perf_counter()
            with urllib.request.urlopen(self.url) as response:
                response.read()
            self.took.append(time.perf_counter() - started)


def rotated(items: list[str], turn: int) -> list[str]:
    return items[turn % len(items):] + items[:turn % len(items)]


SCRAPES_TIMED = 200


def cpu_seconds(pid: int) -> float:
    """The CPU time of a process and its children so far (from /proc)."""
    def own(one: int) -> float:
        fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return sum(own(one) for one in [pid, *map(int, children)])


def scrape_cpu(url: str, pid: int, count: int) -> float:
    """The server's CPU seconds per scrape of ``url``, over ``count`` scrapes one after the other: less noisy than
    the action path's rate with and without scrapes, which moves by more than the 2 % asked from run to run."""
    before = cpu_seconds(pid)
    for _ in range(count):
        with urllib.request.urlopen(url) as response:
            response.read()
    return (cpu_seconds(pid) - before) / count


def measure_scrape(folder: Path, args: argparse.Namespace) -> None:
    """Interleaved rounds of Kadesh without metrics, with them unscraped and with them scraped every second, on
    SQLite, each server its own file."""
    plain_port, metered_port, metrics_port = free_port(), free_port(), free_port()
    plain = start([sys.executable, "-m", "kadesh.cli", "serve", "--db", f"sqlite:///{folder / 'plain.sqlite3'}",
                   "--port", str(plain_port)], UNLIMITED_GAMES, folder / "plain.log")
    metered = start([sys.executable, "-m", "kadesh.cli", "serve", "--db", f"sqlite:///{folder / 'metered.sqlite3'}",
                     "--port", str(metered_port), "--metrics-port", str(metrics_port)], UNLIMITED_GAMES,
                    folder / "metered.log")
    plain_base, metered_base = f"http://127.0.0.1:{plain_port}", f"http://127.0.0.1:{metered_port}"
    metrics = f"http://127.0.0.1:{metrics_port}/metrics"
    try:
        wait_until_up(f"{plain_base}/api/rulesets", plain)
        wait_until_up(f"{metered_base}/api/rulesets", metered)
        print(f"\nsqlite: load average at start {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
        print("| round | connections | no metrics actions/s | metrics actions/s | scraped actions/s "
              "| scraped / metrics | metrics / none | p99 none / metrics / scraped | scrape |")
        print("|---|---|---|---|---|---|---|---|---|")
        for number in range(1, args.rounds + 1):
            for count in (int(c) for c in args.connections.split(",")):
                scraper = Scraper(metrics)
                ways = {"none": (plain_base, contextlib.nullcontext()), "unscraped": (metered_base,
                        contextlib.nullcontext()), "scraped": (metered_base, scraper)}
                rates = {}
                for way in rotated(list(ways), number):  # each way first in turn: none pays for a cold start alone
                    base, beside = ways[way]
                    with beside:
                        rates[way] = run_wrk(base, kadesh_games(base, count), "/api/games/", "/actions", args.seconds,
                                             folder)
                none, unscraped, scraped = rates["none"], rates["unscraped"], rates["scraped"]
                took = sorted(scraper.took)
                print(f"| {number} | {count} | {none['rate']:,.0f} | {unscraped['rate']:,.0f} | {scraped['rate']:,.0f} "
                      f"| {scraped['rate'] / unscraped['rate']:.3f} | {unscraped['rate'] / none['rate']:.3f} "
                      f"| {none['p99']:.1f} / {unscraped['p99']:.1f} / {scraped['p99']:.1f} ms "
                      f"| {len(took)} × {1000 * took[len(took) // 2]:.1f} ms |", flush=True)
        per_scrape = scrape_cpu(metrics, metered.pid, SCRAPES_TIMED)
        print(f"\nA scrape costs the server {1000 * per_scrape:.1f} ms of CPU (its process and children, "
              f"{SCRAPES_TIMED} scrapes while idle): one a second is {100 * per_scrape:.1f} % of a core, where the "
              "action path is bound by one (the interpreter's lock).", flush=True)
    finally:
        for process in (plain, metered):
            process.terminate()
            process.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--connections", default="1,2,8")
    parser.add_argument("--also", action="append", default=[], metavar="CHECKOUT",
                        help="another checkout of Kadesh served beside this one (a git worktree of an older commit)")
    parser.add_argument("--server-env", action="append", default=[], metavar="NAME=VALUE",
                        help="an environment variable for the Kadesh servers")
    parser.add_argument("--databases", default="sqlite,postgresql",
                        help="sqlite, postgresql or both (PostgreSQL's server from Debian's postgresql package)")
    parser.add_argument("--scrape", action="store_true",
                        help="the cost of /metrics scraped every second instead, on SQLite (see above)")
    args = parser.parse_args()
    args.server_env = dict(item.split("=", 1) for item in args.server_env)
    if shutil.which("wrk") is None:
        sys.exit("wrk is needed: apt-get install wrk")
    with tempfile.TemporaryDirectory() as name:
        if args.scrape:
            measure_scrape(Path(name), args)
            return
        for database in args.databases.split(","):
            measure(database, Path(name), args)


if __name__ == "__main__":
    main()
