"""Strength and speed of the Manœuvre bots: tournaments with 95 % intervals, search speed.

    python bench/bench_ai.py [--games 200] [--budget 0.25] [--pairs stratege:random,...] [--jobs 2]
                             [--turn-games 4]

Sides alternate from game to game. Stratège's default is ``DEFAULT_ITERATIONS`` search iterations per action
under a ``DEFAULT_BUDGET`` ceiling (load does not change its play); ``--budget S`` makes it search S seconds
instead. The figures in docs/performance.md say which they were measured with. A player waits for a whole
turn, not one action: ``turn_seconds`` times every Stratège turn (all its decisions until it ends its turn)
in games against Maladroit. The baseline for speed is the same as bench_manoeuvre.py's: building small dicts
in a loop, in this process.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kadesh import new_game
from kadesh.ai.base import make_bot, play_turn_of
from kadesh.ai.duel import duel
from kadesh.ai.manoeuvre import DEFAULT_BUDGET, DEFAULT_ITERATIONS

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


def turn_seconds(budget: float | None, games: int = 4, seed: int = 7) -> tuple[list[float], list[int]]:
    """Wall time of each whole Stratège turn (every decision until its end_turn) against Maladroit,
    with the number of actions in each, over ``games`` games (Stratège North, then South, …)."""
    times, actions = [], []
    for number in range(games):
        game = new_game("manoeuvre", seed=seed * 1000 + number)
        stratege_seat = ("north", "south")[number % 2]
        bots = {stratege_seat: make_bot("manoeuvre", "stratege", seed=number, budget=budget),
                ("south" if stratege_seat == "north" else "north"): make_bot("manoeuvre", "maladroit", seed=number)}
        spent, count = 0.0, 0
        while game.outcome is None and game.version < 5000:
            seat = game.to_act()[0]
            start = time.perf_counter()  # what the server does per action too: the view, the legal actions
            view, legal = game.view(seat), game.legal_actions(seat)
            action = bots[seat].choose(view, seat, legal)
            if seat == stratege_seat and view["phase"] == "battle":
                spent += time.perf_counter() - start
                count += 1
                if action["type"] == "end_turn":
                    times.append(spent)
                    actions.append(count)
                    spent, count = 0.0, 0
            game.act(seat, action)
    return times, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--budget", type=float, default=None,
                        help=f"Stratège's seconds per action (default: its own, {DEFAULT_ITERATIONS} iterations "
                             f"within {DEFAULT_BUDGET} s)")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    parser.add_argument("--turn-games", type=int, default=4, help="games against Maladroit to time whole turns")
    args = parser.parse_args()

    speed, _ = search_speed(args.budget)
    per_iteration = 1 / speed
    print(f"Stratège search: {speed:,.0f} iterations/s "
          f"(one iteration = {per_iteration / (baseline_seconds(100_000) / 100_000):,.0f} baseline dicts)")
    _, longest = search_speed(None)
    print(f"Stratège at its default ({DEFAULT_ITERATIONS} iterations within {DEFAULT_BUDGET} s): longest think "
          f"{longest:.3f} s per action")
    if args.turn_games:
        times, actions = turn_seconds(args.budget, args.turn_games)
        ordered = sorted(times)
        thought = f"{args.budget} s" if args.budget else f"{DEFAULT_ITERATIONS} iterations"
        print(f"Stratège's whole turns at {thought} per action, {len(times)} turns "
              f"in {args.turn_games} games: median {statistics.median(times):.2f} s, "
              f"90th percentile {ordered[int(0.9 * (len(ordered) - 1))]:.2f} s, longest {ordered[-1]:.2f} s; "
              f"{statistics.mean(actions):.1f} actions per turn (most {max(actions)})", flush=True)
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
