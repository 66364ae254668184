"""Bataille: how fast battles are simulated for the odds (whole battles, both generals automatic),
as a ratio to a baseline run in the same process (building the decision dicts alone).

    python bench/bench_bataille.py [--games 10000]
"""

from __future__ import annotations

import argparse
import time

from kadesh.ai.bataille import battle_odds

SETUPS = {
    "archers – spearmen": {"north": {"troop": "archers"}, "south": {"troop": "spearmen"}},
    "nubian bowmen – chariots": {"north": {"troop": "nubian_bowmen"}, "south": {"troop": "chariots"}},
    "guards – levies, shelter, events": {"north": {"troop": "guards"}, "south": {"troop": "levies"},
                                         "shelter": True, "events": True},
    "field: La plaine de Kadesh": {"field": "kadesh"},
    "field: Le gué": {"field": "gue"},
}
FIELD_SHARE = 10  # a battle on a field takes some fifty decisions: a tenth as many battles are fought


def baseline_seconds(count: int) -> float:
    start = time.perf_counter()
    for i in range(count):
        _ = {"type": "stance", "stance": "attack", "n": i}
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    per_dict = baseline_seconds(200_000) / 200_000
    for name, options in SETUPS.items():
        games = max(100, args.games // FIELD_SHARE) if "field" in options else args.games
        start = time.perf_counter()
        odds = battle_odds(options, {"north": "careful", "south": "bold"}, games=games)
        seconds = time.perf_counter() - start
        ratio = seconds / games / per_dict
        print(f"{name}: {games / seconds:,.0f} battles/s ({games:,} in {seconds:.1f} s; one battle = "
              f"{ratio:,.0f} baseline dicts); north holds the field {odds.share('north'):.1%}")
    fairness(max(100, args.games // FIELD_SHARE))


def fairness(games: int) -> None:
    """How often the North holds each shipped field when the same general commands both sides."""
    for name, options in SETUPS.items():
        if "field" in options:
            shares = {general: battle_odds(options, dict.fromkeys(("north", "south"), general), games=games,
                                           seed=1).share("north") for general in ("careful", "bold")}
            print(f"{name}, same general on both sides: the North holds the field {shares['careful']:.0%} "
                  f"(Prudent), {shares['bold']:.0%} (Téméraire), over {games:,} battles each")


if __name__ == "__main__":
    main()
