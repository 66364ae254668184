"""Strength and speed of the Manœuvre bots: tournaments with 95 % intervals, search speed.

    python bench/bench_ai.py [--games 200] [--budget 0.25] [--pairs stratege:random,...] [--jobs 2]

Sides alternate from game to game. Stratège's budget is its thinking time per action; the
figures in docs/performance.md say which budget they were measured with. The baseline for
speed is the same as bench_manoeuvre.py's: building small dicts in a loop, in this process.
"""

from __future__ import annotations

import argparse
import time

from kadesh import new_game
from kadesh.ai.base import make_bot, play_turn_of
from kadesh.ai.duel import duel

DEFAULT_PAIRS = "stratege:random,stratege:maladroit,maladroit:random"


def baseline_seconds(count: int) -> float:
    start = time.perf_counter()
    for i in range(count):
        _ = {"type": "move", "element": "n5", "to": i, "facing": "S"}
    return time.perf_counter() - start


def search_speed(budget: float | None, decisions: int = 12) -> tuple[float, float]:
    """Stratège's iterations per second over the first decisions of a battle, and its longest think."""
    game = new_game("manoeuvre", seed=21)
    deployer = make_bot("manoeuvre", "maladroit", seed=1)
    while game.view(None)["phase"] == "deployment":
        play_turn_of(game, game.to_act()[0], deployer)
    stratege = make_bot("manoeuvre", "stratege", seed=2, budget=budget)
    iterations, seconds, longest = 0, 0.0, 0.0
    for _ in range(decisions):
        seat = game.to_act()[0]
        view, legal = game.view(seat), game.legal_actions(seat)  # what the server hands the bot
        start = time.perf_counter()
        action = stratege.choose(view, seat, legal)
        spent = time.perf_counter() - start
        seconds += spent
        longest = max(longest, spent)
        iterations += stratege.search.last_iterations
        game.act(seat, action)
    return iterations / seconds, longest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=0.25)
    parser.add_argument("--pairs", default=DEFAULT_PAIRS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    args = parser.parse_args()

    speed, _ = search_speed(args.budget)
    per_iteration = 1 / speed
    print(f"Stratège search: {speed:,.0f} iterations/s "
          f"(one iteration = {per_iteration / (baseline_seconds(100_000) / 100_000):,.0f} baseline dicts)")
    _, longest = search_speed(None)
    print(f"Stratège at its default budget: longest think {longest:.3f} s per action")
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        start = time.perf_counter()
        result = duel("manoeuvre", a, b, args.games, seed=args.seed, budget=args.budget, jobs=args.jobs)
        rate, low, high = result.rate()
        print(f"{a} vs {b}: {result.a_wins}-{result.b_wins} (unfinished {result.unfinished}) of {result.games}; "
              f"{a} wins {rate:.1%} [95 % CI {low:.1%}, {high:.1%}] in {time.perf_counter() - start:.0f} s",
              flush=True)


if __name__ == "__main__":
    main()
