"""Bataille: does a general have real decisions? Battles where one side's general (« Moi ») is replaced by a
random chooser over its legal actions and the other is a simple general (Téméraire or Prudent); for each
set-up, the median number of decisions the random side made (its readiness at deployment is not one; on a
field, each order to a group is one), how many of them were taken in a fight, how often the battle lasted
beyond its first turn and how often it saw fights in more than one turn.

    python bench/bench_bataille_decisions.py [--battles 1000]

Issue 23 asks for this figure before and after the battle on a field: the field's shipped set-ups come first
(each order to a group is a decision), then the one-against-one battles, which stay as they were.
"""

from __future__ import annotations

import argparse
import random
import statistics
from dataclasses import dataclass

from kadesh.ai.base import make_bot
from kadesh.core import new_game

SETUPS = {
    "field: La plaine de Kadesh (3 + 1 groups against 3 + 2)": {"field": "kadesh"},
    "field: Le gué (3 groups against 2 + 1)": {"field": "gue"},
    "one against one: archers – spearmen": {"north": {"troop": "archers"}, "south": {"troop": "spearmen"}},
    "one against one: chariots – nubian bowmen": {"north": {"troop": "chariots"}, "south": {"troop": "nubian_bowmen"}},
    "one against one: guards – levies, shelter, events": {"north": {"troop": "guards"}, "south": {"troop": "levies"},
                                         "shelter": True, "events": True},
}


@dataclass
class Battle:
    decisions: int         # every decision of the random side (an order to a group, a stance, a pursuit)
    in_fights: int         # those taken in a fight: stance, pursue, let go, stop
    turns: int             # battle turns played
    fight_turns: int       # battle turns in which at least one fight took place


FIGHT_DECISIONS = {"stance", "pursue", "let_go", "stop"}


def battle(options: dict, opponent: str, seed: int) -> Battle:
    game = new_game("bataille", seed=seed, options=options)
    rng, other = random.Random(seed), make_bot("bataille", opponent, seed=seed)
    decisions = in_fights = 0
    while game.outcome is None:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        if seat == "north":
            action = rng.choice(legal)
            decisions += action["type"] != "ready"
            in_fights += action["type"] in FIGHT_DECISIONS
        else:
            action = other.choose(game.view(seat), seat, legal)
        game.act(seat, action)
    return Battle(decisions, in_fights, game.state.turn, len(fight_turns(game)))


def fight_turns(game) -> set[int]:
    """Turns with a fight: on a field, those with an engagement; one against one, every turn played."""
    turn, out = 1, set()
    for _, event in game.events:
        if event.type == "turn":
            turn = event.data["turn"]
            if "field" not in game.options:
                out.add(turn)
        elif event.type == "engagement":
            out.add(turn)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--battles", type=int, default=1000)
    args = parser.parse_args()
    print("| set-up | other general | median decisions of « Moi » (of which in fights) | beyond the first turn "
          "| fights in more than one turn | median turns |")
    print("|---|---|---|---|---|---|")
    for name, options in SETUPS.items():
        for opponent in ("bold", "careful"):
            results = [battle(options, opponent, seed) for seed in range(args.battles)]
            median = statistics.median(r.decisions for r in results)
            fights = statistics.median(r.in_fights for r in results)
            longer = sum(r.turns > 1 for r in results) / len(results)
            several = sum(r.fight_turns > 1 for r in results) / len(results)
            turns = statistics.median(r.turns for r in results)
            print(f"| {name} | {opponent} | {median:g} ({fights:g}) | {longer:.0%} | {several:.0%} | {turns:g} |",
                  flush=True)


if __name__ == "__main__":
    main()
