"""Strength and speed of Front's bots on the default battle: tournaments with 95 % intervals, think times.

    python bench/bench_ai_front.py [--games 100] [--pairs etat_major:maladroit,...] [--jobs 2] [--turn-games 2]

Sides alternate from game to game (``kadesh.ai.duel``: A is blue in even games, red in odd ones); a game
unfinished after ``duel.MAX_ACTIONS`` orders counts half. A player waits for a whole side's turn, so the think
time is measured by the turn: every ``choose`` of one side from its first order to its ``end_turn``, with the
view the server hands the bot (bots of Front are not handed the legal list: ``Bot.wants_legal``). The baseline,
measured in the same run, is one ``view`` and one ``state_from_view`` of the default battle: a bot's turn
costs at least that per order.
"""

from __future__ import annotations

import argparse
import statistics
import time

from kadesh import new_game
from kadesh.ai.base import make_bot
from kadesh.ai.duel import duel
from kadesh.core.registry import get_ruleset

DEFAULT_PAIRS = "etat_major:maladroit,etat_major:random,maladroit:random"
LEVELS = ("random", "maladroit", "etat_major")


def baseline_seconds(rounds: int = 50) -> float:
    """One view and one rebuilt battle of the default battle's opening, the least a bot does per order."""
    game, rules = new_game("front", seed=1), get_ruleset("front")
    start = time.perf_counter()
    for _ in range(rounds):
        rules.state_from_view(game.view("blue"), "blue")
    return (time.perf_counter() - start) / rounds


def turn_seconds(level: str, opponent: str, games: int, seed: int = 7,
                 max_turn: int = 40) -> tuple[list[float], list[int]]:
    """Think time of each whole turn of ``level`` against ``opponent``, with the orders in it."""
    times, orders = [], []
    for number in range(games):
        game = new_game("front", seed=seed * 1000 + number)
        mine = ("blue", "red")[number % 2]
        bots = {mine: make_bot("front", level, seed=number),
                ("red" if mine == "blue" else "blue"): make_bot("front", opponent, seed=number + 1)}
        spent, count = 0.0, 0
        while game.outcome is None and game.state.turn <= max_turn:
            seat = game.to_act()[0]
            start = time.perf_counter()
            action = bots[seat].choose(game.view(seat), seat, [])
            if seat == mine:
                spent += time.perf_counter() - start
                count += 1
                if action["type"] == "end_turn":
                    times.append(spent)
                    orders.append(count)
                    spent, count = 0.0, 0
            game.act(seat, action)
    return times, orders


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--pairs", default=DEFAULT_PAIRS)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--turn-games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    base = baseline_seconds()
    print(f"baseline: one view and one rebuilt battle {base * 1000:.2f} ms")
    print("| level | mean turn | slowest turn | orders a turn | slowest / baseline |")
    print("|---|---|---|---|---|")
    for level in LEVELS:
        times, orders = turn_seconds(level, "maladroit" if level != "maladroit" else "etat_major", args.turn_games)
        print(f"| {level} | {statistics.mean(times):.2f} s | {max(times):.2f} s | {statistics.mean(orders):.0f} "
              f"| {max(times) / base:.0f} |", flush=True)

    print("| A | B | games | A wins | B wins | unfinished | A's rate (95 % CI) | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for pair in args.pairs.split(","):
        a, b = pair.split(":")
        start = time.perf_counter()
        result = duel("front", a, b, args.games, seed=args.seed, jobs=args.jobs)
        rate, low, high = result.rate()
        print(f"| {a} | {b} | {result.games} | {result.a_wins} | {result.b_wins} | {result.unfinished} "
              f"| {rate:.1%} ({low:.1%}–{high:.1%}) | {time.perf_counter() - start:.0f} |", flush=True)


if __name__ == "__main__":
    main()
