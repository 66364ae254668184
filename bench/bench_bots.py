"""Computer players in worker processes (issue 24): what the web process's requests feel while bots think, how
many bot actions a second 1, 2 and 4 workers play, and how long a person waits for the computer's answer when many
games are played at once.

    python bench/bench_bots.py [--seconds 15] [--games 1,10,50] [--rounds 2]

Web latency: an unrelated ``GET /api/games/{id}`` on a real ``kadesh serve``, 300 times, quiet, then while its
local workers play 10 games of Stratège against Stratège; p50, p95, and the p95's ratio.

Throughput: 20 games of Manœuvre, Maladroit against Maladroit, in a fresh SQLite file; ``kadesh worker``
processes play them for ``--seconds`` (after a warm-up); the bot actions written per second, and per worker.
Baseline, in the same run: the same bots playing the same kind of games in this process with no store at all.

Waiting: a real ``kadesh serve`` (its own two local workers) over loopback; each game has reached its battle
(deployed by Maladroit), North is a person who ends each turn at once, South is Maladroit or Stratège (at its
default: 300 iterations an action). The wait is from the person's ``end_turn`` answered to the moment the
server says it is North's turn again, read every 20 ms; medians and 90th percentiles over every round of
every game, all games played at once.
"""

from __future__ import annotations

import argparse
import math
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kadesh import new_game  # noqa: E402
from kadesh.ai.base import make_bot  # noqa: E402
from kadesh.store import Store  # noqa: E402
from tests.server_support import ServerProcess  # noqa: E402

GAMES = 20


def bare_actions_per_second(seconds: float) -> float:
    """Maladroit against Maladroit, in this process, with no store: the baseline."""
    bots = {seat: make_bot("manoeuvre", "maladroit", seed=i) for i, seat in enumerate(("north", "south"))}
    done, number, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = new_game("manoeuvre", seed=number)
        number += 1
        while game.outcome is None and time.perf_counter() - start < seconds:
            seat = game.to_act()[0]
            game.act(seat, bots[seat].choose(game.view(seat), seat, game.legal_actions(seat)))
            done += 1
    return done / (time.perf_counter() - start)


def workers_throughput(count: int, seconds: float, db: str) -> float:
    store = Store(db)
    games = []
    for _ in range(GAMES):
        game_id = store.create_game("manoeuvre").id
        for seat in ("north", "south"):
            store.set_bot(game_id, seat, "maladroit")
        games.append(game_id)
    command = [sys.executable, "-m", "kadesh.cli", "worker"]
    workers = [subprocess.Popen(command, env={**os.environ, "KADESH_DB": db}, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(count)]
    try:
        time.sleep(3)  # start-up and warm-up
        before = sum(store.versions(games).values())
        time.sleep(seconds)
        after = sum(store.versions(games).values())
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGTERM)
        for worker in workers:
            worker.wait(timeout=30)
        store.close()
    return (after - before) / seconds


def battle_against(store: Store, level: str) -> tuple[str, str]:
    """A game of Manœuvre deployed by Maladroit on both sides, North (a person) to play, South the computer."""
    created = store.create_game("manoeuvre")
    maladroit, version = make_bot("manoeuvre", "maladroit", seed=1), 0
    while True:
        with store.game(created.id) as game:
            if game.state.phase == "battle" and game.to_act() == ["north"]:
                break
            seat = game.to_act()[0]
            action = maladroit.choose(game.view(seat), seat, game.legal_actions(seat))
        version = store.act(created.id, seat, version, action).version
    store.set_bot(created.id, "south", level)
    return created.id, created.seat_tokens["north"]


def person(base: str, game_id: str, token: str, rounds: int, waits: list[float]) -> None:
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(timeout=120) as http:
        for _ in range(rounds):
            state = http.get(f"{base}/api/games/{game_id}", headers=headers).json()
            if state["outcome"] is not None:
                return
            answer = http.post(f"{base}/api/games/{game_id}/actions", headers=headers,
                               json={"expected_version": state["version"], "action": {"type": "end_turn"}})
            answer.raise_for_status()
            start = time.perf_counter()
            while True:
                state = http.get(f"{base}/api/games/{game_id}", headers=headers).json()
                if state["to_act"] == ["north"] or state["outcome"] is not None:
                    break
                time.sleep(0.02)
            waits.append(time.perf_counter() - start)


def waiting(level: str, games: int, rounds: int, folder: str) -> list[float]:
    db = f"sqlite:///{folder}/waiting-{level}-{games}.sqlite3"
    store = Store(db)
    seats = [battle_against(store, level) for _ in range(games)]
    for game_id, _ in seats:  # the queued first moves of the bots are not the person's wait
        with store.engine.begin() as conn:
            conn.exec_driver_sql("DELETE FROM jobs WHERE game_id = ?", (game_id,))
    store.close()
    server = ServerProcess(db, Path(folder) / f"serve-{level}-{games}.log", None, "--log-level", "warning").start()
    waits: list[float] = []
    try:
        threads = [threading.Thread(target=person, args=(server.url, game_id, token, rounds, waits))
                   for game_id, token in seats]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.kill()
    return waits


def get_latencies(http: httpx.Client, url: str, count: int) -> list[float]:
    out = []
    for _ in range(count):
        start = time.perf_counter()
        http.get(url).raise_for_status()
        out.append(time.perf_counter() - start)
        time.sleep(0.01)
    return sorted(out)


def web_latency(folder: str, thinking_games: int, count: int = 300) -> None:
    """An unrelated GET on a real ``kadesh serve`` (its two local workers), quiet, then while the workers play
    ``thinking_games`` games of Stratège against Stratège."""
    db = f"sqlite:///{folder}/latency.sqlite3"
    server = ServerProcess(db, Path(folder) / "serve-latency.log", None, "--log-level", "warning").start()
    try:
        with httpx.Client(timeout=30) as http:
            game = http.post(f"{server.url}/api/games", json={"ruleset": "manoeuvre"}).json()
            url = f"{server.url}/api/games/{game['id']}?token={game['seats']['north']['token']}"
            quiet = get_latencies(http, url, count)
            for _ in range(thinking_games):
                http.post(f"{server.url}/api/games", json={"ruleset": "manoeuvre",
                                                           "bots": {"north": "stratege", "south": "stratege"}})
            time.sleep(3)  # the workers start and reach the battles, where Stratège searches
            busy = get_latencies(http, url, count)
    finally:
        server.kill()
    print("| GET /api/games/{id} | p50 | p95 | max |")
    print("|---|---|---|---|")
    for name, values in (("quiet", quiet), (f"{thinking_games} Stratège games thinking", busy)):
        p95 = values[math.ceil(0.95 * len(values)) - 1]
        print(f"| {name} | {1000 * statistics.median(values):.1f} ms | {1000 * p95:.1f} ms | "
              f"{1000 * values[-1]:.1f} ms |")
    ratio = busy[math.ceil(0.95 * len(busy)) - 1] / quiet[math.ceil(0.95 * len(quiet)) - 1]
    print(f"p95 while the bots think / quiet p95: {ratio:.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--games", default="1,10,50")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--skip-throughput", action="store_true")
    parser.add_argument("--skip-waiting", action="store_true")
    parser.add_argument("--postgresql", action="store_true",
                        help="the throughput on a throwaway PostgreSQL server too (Debian's postgresql package)")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        web_latency(folder, thinking_games=10)
        if not args.skip_throughput:
            bare = bare_actions_per_second(args.seconds)
            print(f"baseline: Maladroit against Maladroit in one process, no store: {bare:,.0f} actions/s", flush=True)
            print("| workers | bot actions/s | per worker | against the baseline |")
            print("|---|---|---|---|")
            for count in (1, 2, 4):
                rate = workers_throughput(count, args.seconds, f"sqlite:///{folder}/throughput-{count}.sqlite3")
                print(f"| {count} (SQLite) | {rate:,.0f} | {rate / count:,.0f} | {rate / bare:.2f} |", flush=True)
            if args.postgresql:
                from tests.pg_support import PostgresServer

                server = PostgresServer().start()
                try:
                    for count in (1, 2, 4):
                        rate = workers_throughput(count, args.seconds, server.new_database())
                        print(f"| {count} (PostgreSQL) | {rate:,.0f} | {rate / count:,.0f} | {rate / bare:.2f} |",
                              flush=True)
                finally:
                    server.destroy()
        print("| opponent | games at once | waits | median wait | 90th percentile | longest |")
        print("|---|---|---|---|---|---|")
        for level in () if args.skip_waiting else ("maladroit", "stratege"):
            for games in (int(g) for g in args.games.split(",")):
                waits = sorted(waiting(level, games, args.rounds, folder))
                ninetieth = waits[math.ceil(0.9 * len(waits)) - 1]  # nearest rank
                print(f"| {level} | {games} | {len(waits)} | {statistics.median(waits):.2f} s | "
                      f"{ninetieth:.2f} s | {waits[-1]:.2f} s |", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
