"""Bataille: does a general have real decisions? Battles where one side's general (« Moi ») is replaced by a
random chooser over its legal actions and the other is a simple general (Téméraire or Prudent); for each
set-up, the median number of decisions the random side made (its readiness at deployment is not one) and
how often the battle lasted beyond its first turn.

    python bench/bench_bataille_decisions.py [--battles 1000]

Issue 23 asks for this figure before and after the battle on a field; this is the measure, run on whatever
the ruleset plays.
"""

from __future__ import annotations

import argparse
import random
import statistics

from kadesh.ai.base import make_bot
from kadesh.core import new_game

SETUPS = {
    "archers – spearmen": {"north": {"troop": "archers"}, "south": {"troop": "spearmen"}},
    "chariots – nubian bowmen": {"north": {"troop": "chariots"}, "south": {"troop": "nubian_bowmen"}},
    "guards – levies, shelter, events": {"north": {"troop": "guards"}, "south": {"troop": "levies"},
                                         "shelter": True, "events": True},
}


def battle(options: dict, opponent: str, seed: int) -> tuple[int, bool]:
    """(decisions of the random side, whether the battle went beyond its first turn)."""
    game = new_game("bataille", seed=seed, options=options)
    rng, other = random.Random(seed), make_bot("bataille", opponent, seed=seed)
    decisions = 0
    while game.outcome is None:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        if seat == "north":
            action = rng.choice(legal)
            decisions += action["type"] != "ready"
        else:
            action = other.choose(game.view(seat), seat, legal)
        game.act(seat, action)
    return decisions, game.state.turn > 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=1000)
    args = parser.parse_args()
    print("| set-up | other general | median decisions of « Moi » | beyond the first turn |")
    print("|---|---|---|---|")
    for name, options in SETUPS.items():
        for opponent in ("bold", "careful"):
            results = [battle(options, opponent, seed) for seed in range(args.battles)]
            median = statistics.median(d for d, _ in results)
            longer = sum(beyond for _, beyond in results) / len(results)
            print(f"| {name} | {opponent} | {median:g} | {longer:.0%} |", flush=True)


if __name__ == "__main__":
    main()
