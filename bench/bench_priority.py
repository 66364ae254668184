"""Computer-only games never delay a person's (issue 40): how long a person waits for the computer's answer while
games where the computer holds every seat fill the job queue.

    python bench/bench_priority.py [--games 20] [--rounds 10] [--budget 0.3] [--fifo REV]

A real ``kadesh serve`` (its two local workers, ``--bot-budget``) on a fresh SQLite file, everything over HTTP on
loopback. A person opens a game of Manœuvre against Stratège and deploys (Maladroit's choices) until the battle
and their turn. Then the flood: ``--games`` games with Stratège at both seats, as anyone may open them (the rate
limit on new games is lifted, as for a flood from many addresses), given the time to reach their battles, where
each of their actions is a search of ``--budget`` seconds. Then the person ends each turn at once
(``end_turn``), ``--rounds`` times: from the action's answer, the game is read every 20 ms until the computer's
first action is visible (the version past the person's) and until it is the person's turn again (Stratège's
whole turn, several actions, each one job: its time divided by its actions, as turns differ in length). p50 and
p95 (nearest rank) of both; the same without the flood is the baseline of the same run.

``--fifo REV``: the same two runs with the server of commit REV, before the priority (oldest job first), taken
from this repository with ``git archive`` and put first on ``PYTHONPATH`` (its workers inherit it), the server
started outside this repository (``python -m`` puts its working folder before ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import math
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kadesh.ai.base import make_bot  # noqa: E402
from tests.server_support import ServerProcess  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
POLL = 0.02  # seconds between two reads of the person's game


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def person_to_battle(http: httpx.Client, base: str) -> tuple[str, str]:
    """A game against Stratège (South), North deployed by the person with Maladroit's choices: the game's id and
    North's token, once it is North's turn in the battle."""
    created = http.post(f"{base}/api/games", json={"ruleset": "manoeuvre", "bots": {"south": "stratege"}})
    created.raise_for_status()
    game_id, token = created.json()["id"], created.json()["seats"]["north"]["token"]
    maladroit = make_bot("manoeuvre", "maladroit", seed=1)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        game = http.get(f"{base}/api/games/{game_id}", headers=_bearer(token)).json()
        if game["view"]["phase"] != "deployment" and game["to_act"] == ["north"]:
            return game_id, token
        if "north" in game["to_act"]:
            legal = http.get(f"{base}/api/games/{game_id}/legal", headers=_bearer(token)).json()
            action = maladroit.choose(game["view"], "north", legal["actions"])
            http.post(f"{base}/api/games/{game_id}/actions", headers=_bearer(token),
                      json={"expected_version": game["version"], "action": action})  # 409 if South moved: again
        else:
            time.sleep(POLL)
    raise SystemExit("the person's game did not reach its battle")


def flood(http: httpx.Client, base: str, games: int) -> list[tuple[str, str]]:
    """``games`` games of Stratège against Stratège, waited for until each is in its battle (searching): their ids
    and spectators' tokens."""
    watched = []
    for _ in range(games):
        created = http.post(f"{base}/api/games", json={"ruleset": "manoeuvre",
                                                       "bots": {"north": "stratege", "south": "stratege"}})
        created.raise_for_status()
        watched.append((created.json()["id"], created.json()["spectator"]["token"]))
    deadline = time.monotonic() + 300
    for game_id, token in watched:
        while http.get(f"{base}/api/games/{game_id}", headers=_bearer(token)).json()["view"]["phase"] == "deployment":
            if time.monotonic() > deadline:
                raise SystemExit("the computer-only games did not reach their battles")
            time.sleep(0.2)
    return watched


def actions_played(http: httpx.Client, base: str, watched: list[tuple[str, str]]) -> int:
    return sum(http.get(f"{base}/api/games/{game_id}", headers=_bearer(token)).json()["version"]
               for game_id, token in watched)


def rounds_of_waiting(http: httpx.Client, base: str, game_id: str, token: str, rounds: int) -> tuple[list, list]:
    """The person ends their turn ``rounds`` times: the waits for the computer's first action, and for each
    action of its turn (the whole turn's wait divided by its actions)."""
    first, whole = [], []
    for _ in range(rounds):
        game = http.get(f"{base}/api/games/{game_id}", headers=_bearer(token)).json()
        if game["outcome"] is not None:
            break
        answer = http.post(f"{base}/api/games/{game_id}/actions", headers=_bearer(token),
                           json={"expected_version": game["version"], "action": {"type": "end_turn"}})
        answer.raise_for_status()
        start, acknowledged, moved = time.perf_counter(), answer.json()["version"], None
        while True:
            game = http.get(f"{base}/api/games/{game_id}", headers=_bearer(token)).json()
            if moved is None and game["version"] > acknowledged:
                moved = time.perf_counter() - start
            if game["to_act"] == ["north"] or game["outcome"] is not None:
                break
            time.sleep(POLL)
        waited = time.perf_counter() - start
        first.append(moved if moved is not None else waited)
        whole.append(waited / max(1, game["version"] - acknowledged))
    return first, whole


def run(folder: Path, name: str, games: int, rounds: int, budget: float,
        pythonpath: str | None) -> tuple[list, list, float, str]:
    """The waits for the first answer and per action, the flood's actions a second meanwhile, and the database's
    revision (which server ran)."""
    environment, here = dict(os.environ), Path.cwd()
    os.environ["KADESH_LIMIT_GAMES"] = "none"  # one address opens the whole flood here
    if pythonpath is not None:
        os.environ["PYTHONPATH"] = pythonpath
    try:
        os.chdir(folder)
        for attempt in range(3):  # the tests of another session on this machine may take the port first
            server = ServerProcess(f"sqlite:///{folder}/{name}.sqlite3", folder / f"{name}-{attempt}.log", None,
                                   "--log-level", "warning", "--bot-budget", str(budget))
            try:
                server.start()
                break
            except AssertionError:
                if attempt == 2:
                    raise
    finally:
        os.chdir(here)
        os.environ.clear()
        os.environ.update(environment)
    try:
        with httpx.Client(timeout=120) as http:
            game_id, token = person_to_battle(http, server.url)
            watched = flood(http, server.url, games)
            if games:
                time.sleep(2 * budget)  # every worker in a search
            start, before = time.perf_counter(), actions_played(http, server.url, watched)
            first, each = rounds_of_waiting(http, server.url, game_id, token, rounds)
            rate = (actions_played(http, server.url, watched) - before) / (time.perf_counter() - start)
    finally:
        server.kill()
    with sqlite3.connect(folder / f"{name}.sqlite3") as database:
        revision = database.execute("SELECT version_num FROM alembic_version").fetchone()[0]
    return first, each, rate, revision


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[math.ceil(0.95 * len(ordered)) - 1]


def old_tree(folder: Path, commit: str) -> str:
    """The package ``kadesh`` of ``commit``, unpacked in ``folder``: its path for PYTHONPATH."""
    tree = folder / f"kadesh-{commit}"
    tree.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "kadesh"], check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return str(tree)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="computer-only games in the flood")
    parser.add_argument("--rounds", type=int, default=10, help="turns the person ends, each measured")
    parser.add_argument("--budget", type=float, default=0.3, help="seconds a Stratège action thinks")
    parser.add_argument("--fifo", metavar="REV", help="also measure the server of this commit (oldest job first)")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores; {args.games} computer-only "
          f"games, {args.rounds} rounds, Stratège {args.budget} s an action, 2 local workers", flush=True)
    print("| claim order (schema) | computer-only games | turns | first answer p50 | p95 | per action of the turn p50 "
          "| p95 | computer-only actions/s |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        servers = [("person first", None)]
        if args.fifo:
            servers.append((f"oldest first ({args.fifo})", old_tree(folder, args.fifo)))
        for label, pythonpath in servers:
            baseline: tuple[float, ...] | None = None
            for games in (0, args.games):
                name = f"{label[:6]}-{games}".replace(" ", "-")
                first, each, rate, revision = run(folder, name, games, args.rounds, args.budget, pythonpath)
                figures = (*percentiles(first), *percentiles(each))
                cells = [f"{value:.2f} s" + ("" if baseline is None else f" ({value / base:.1f}×)")
                         for value, base in zip(figures, baseline or figures, strict=True)]
                print(f"| {label} ({revision}) | {games} | {len(first)} | {' | '.join(cells)} | {rate:.1f} |",
                      flush=True)
                baseline = baseline or figures
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
