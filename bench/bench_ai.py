"""Strength and speed of the Manœuvre bots: tournaments with 95 % intervals, whole-turn times, search speed.

    python bench/bench_ai.py [--games 200] [--seed 1 --seed 2] [--busy 2] [--jobs 2] [--budget S]
                             [--pairs stratege:maladroit,...]

The acceptance measurement of issue 44 (Stratège at its default budget, a turn budget):

    nice -n 5 python bench/bench_ai.py --games 100 --seed 1 --seed 2 --pairs stratege:maladroit --jobs 2
    nice -n 5 python bench/bench_ai.py --games 100 --seed 1 --seed 2 --pairs stratege:maladroit --jobs 2 --busy 2

(200 games each: two seeds of 100.)

Each pair plays ``--games`` games per seed through ``kadesh.ai.duel`` (the games ``kadesh duel`` plays with the
same seed): sides alternate, A having the first seat (North, who moves first in Manœuvre) in even games. For
each seed it prints A's wins with their Wilson 95 % interval, split by first and second seat, and the wall time
of A's whole turns (every action from its first to its last, the view and legal actions included: what a
player waits for), median and 95th percentile. ``--busy N`` starts N CPU-bound processes beside the games for
the whole run (a busy machine); ``--budget S`` gives Stratège S seconds per action instead of its turn budget.
The baseline for speed is the same as bench_manoeuvre.py's: building small dicts in a loop, in this process.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from kadesh import new_game
from kadesh.ai.base import make_bot, play_turn_of
from kadesh.ai.duel import duel, percentile
from kadesh.ai.manoeuvre import DEFAULT_ITERATIONS, TURN_BUDGET

DEFAULT_PAIRS = "stratege:random,stratege:maladroit,maladroit:random"
SPIN = "while True: pass"  # a CPU-bound process for --busy


def baseline_seconds(count: int) -> float:
    start = time.perf_counter()
    for i in range(count):
        _ = {"type": "move", "element": "n5", "to": i, "facing": "S"}
    return time.perf_counter() - start


def search_speed(budget: float | None, decisions: int = 12) -> tuple[float, float]:
    """Stratège's iterations per second of CPU over the first decisions of a battle, and its longest think
    (wall time)."""
    game = new_game("manoeuvre", seed=21)
    deployer = make_bot("manoeuvre", "maladroit", seed=1)
    while game.view(None)["phase"] == "deployment":
        play_turn_of(game, game.to_act()[0], deployer)
    stratege = make_bot("manoeuvre", "stratege", seed=2, budget=budget)
    iterations, cpu, longest = 0, 0.0, 0.0
    for _ in range(decisions):
        seat = game.to_act()[0]
        view, legal = game.view(seat), game.legal_actions(seat)  # what the server hands the bot
        start, start_cpu = time.perf_counter(), time.process_time()
        action = stratege.choose(view, seat, legal)
        cpu += time.process_time() - start_cpu
        longest = max(longest, time.perf_counter() - start)
        iterations += stratege.search.last_iterations - stratege.search.last_carried  # those it ran
        game.act(seat, action)
    return iterations / cpu, longest


def start_busy(count: int) -> list[subprocess.Popen]:
    """``count`` CPU-bound processes, at this process's niceness."""
    return [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(count)]


def stop_busy(spinners: list[subprocess.Popen]) -> None:
    for spinner in spinners:
        spinner.terminate()
    for spinner in spinners:
        spinner.wait()


def tournament(a: str, b: str, games: int, seed: int, budget: float | None, jobs: int) -> None:
    start = time.perf_counter()
    result = duel("manoeuvre", a, b, games, seed=seed, budget=budget, jobs=jobs)
    rate, low, high = result.rate()
    second_games = result.games - result.a_first_games
    print(f"{a} vs {b}, seed {seed}: {result.a_wins}-{result.b_wins} (unfinished {result.unfinished}) "
          f"of {result.games}; {a} wins {rate:.1%} [95 % CI {low:.1%}, {high:.1%}]; first seat "
          f"{result.a_first_wins}/{result.a_first_games}, second seat {result.a_wins - result.a_first_wins}/"
          f"{second_games}; {time.perf_counter() - start:.0f} s", flush=True)
    if result.a_lost:
        print(f"  games {a} lost (numbered as the duel plays them: the same seed plays them again): "
              f"{', '.join(map(str, sorted(result.a_lost)))}", flush=True)
    if result.a_searches and budget is None:
        print(f"  {a}'s searches cut short by its time budget: {result.a_cut_short} of {result.a_searches} "
              f"({result.a_cut_short / result.a_searches:.1%}; with none cut, these are the games a quiet machine "
              "plays)", flush=True)
    turns = [t for t in result.a_turns if t > 0]
    if turns:
        print(f"  {a}'s whole turns: {len(turns)}, median {percentile(turns, 0.5):.2f} s, "
              f"95th percentile {percentile(turns, 0.95):.2f} s, longest {max(turns):.2f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per pair and per seed")
    parser.add_argument("--budget", type=float, default=None,
                        help=f"Stratège's seconds per action (default: its own, {DEFAULT_ITERATIONS} iterations "
                             f"per action within {TURN_BUDGET} s a turn)")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS)
    parser.add_argument("--seed", type=int, action="append", help="a seed of the games (repeat for several)")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    parser.add_argument("--busy", type=int, default=0, help="CPU-bound processes to run beside the games")
    parser.add_argument("--no-speed", action="store_true", help="skip the search speed measure")
    args = parser.parse_args()

    spinners = start_busy(args.busy)
    try:
        print(f"{args.busy} CPU-bound processes beside the games; {args.jobs} playing", flush=True)
        if not args.no_speed:
            speed, longest = search_speed(args.budget)
            per_iteration = 1 / speed
            print(f"Stratège search: {speed:,.0f} iterations per CPU second (one iteration = "
                  f"{per_iteration / (baseline_seconds(100_000) / 100_000):,.0f} baseline dicts); "
                  f"longest think {longest:.3f} s", flush=True)
        for seed in args.seed or [1]:
            for pair in args.pairs.split(","):
                a, b = pair.split(":")
                tournament(a, b, args.games, seed, args.budget, args.jobs)
    finally:
        stop_busy(spinners)


if __name__ == "__main__":
    main()
