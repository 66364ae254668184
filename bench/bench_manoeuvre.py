"""Manœuvre speed: random playouts and legal-action generation, as ratios to a baseline.

The baseline runs in the same process: building the same number of small dicts from a
fixed list (what any generator of JSON-able actions must at least do). Ratios are what
to compare between machines and commits; absolute figures are printed for reference.

    python bench/bench_manoeuvre.py [--games 30] [--positions 200]
"""

from __future__ import annotations

import argparse
import random
import time

from kadesh import new_game
from kadesh.cli import random_playout


def baseline_dicts(count: int) -> float:
    """Seconds to build ``count`` action-shaped dicts: the floor for any action generator."""
    cells = [f"{c}{r}" for c in "abcdefghijkl" for r in range(1, 13)]
    start = time.perf_counter()
    for i in range(count):
        _ = {"type": "move", "element": "n5", "to": cells[i % 144], "facing": "S"}
    return time.perf_counter() - start


def sample_positions(count: int, seed: int = 7) -> list:
    """Battle positions reached by random play, with the seat to act."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        game = new_game("manoeuvre", seed=rng.randrange(2**32))
        while game.outcome is None and len(positions) < count:
            seat = game.to_act()[0]
            actions = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
            if game.state.phase == "battle" and rng.random() < 0.05:
                positions.append((game.ruleset.clone(game.state), seat))
            game.act(seat, rng.choice(actions))
    return positions


def bench_legal(positions: list, repeat: int) -> tuple[float, int]:
    from kadesh.rules.manoeuvre.rules import legal_actions

    generated = 0
    start = time.perf_counter()
    for _ in range(repeat):
        for state, seat in positions:
            generated += sum(1 for _ in legal_actions(state, seat))
    return time.perf_counter() - start, generated


def bench_playouts(games: int) -> tuple[float, int]:
    actions = 0
    start = time.perf_counter()
    for seed in range(games):
        game = new_game("manoeuvre", seed=seed)
        random_playout(game, random.Random(seed))
        actions += game.version
    return time.perf_counter() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    positions = sample_positions(args.positions)
    legal_seconds, generated = bench_legal(positions, args.repeat)
    calls = args.positions * args.repeat
    base_seconds = baseline_dicts(generated)
    playout_seconds, actions = bench_playouts(args.games)
    base_per_action = baseline_dicts(actions) / actions

    print(f"legal-action generations: {calls / legal_seconds:,.0f}/s "
          f"({generated / calls:.0f} actions each, {generated / legal_seconds:,.0f} actions/s)")
    print(f"  ratio to baseline dict building: {legal_seconds / base_seconds:.1f}x")
    print(f"random playouts: {args.games / playout_seconds:.2f}/s "
          f"({actions / args.games:.0f} actions each, {actions / playout_seconds:,.0f} actions/s)")
    print(f"  cost of one action (generate all legal + choose + apply) vs one baseline dict: "
          f"{(playout_seconds / actions) / base_per_action:.0f}x")


if __name__ == "__main__":
    main()
