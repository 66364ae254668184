"""Royaumes' computer kingdoms: how strong the Vizier is, and how fast a campaign of computers runs.

Strength: campaigns of ``--turns`` turns on the shipped map, one Vizier and three Clumsy
kingdoms, the Vizier's kingdom turning round the four seats so that each holds it equally often.
A campaign counts as the Vizier's when it ends holding strictly more cities than every other
kingdom (a tie for the most counts apart). Chance would give one in four; the same campaigns
with four Clumsy kingdoms give each seat's own rate, the comparison in the same run.

Each campaign also counts the alliance lines the rules refused (« un allié maximum »): none since issue 45.

Speed: seconds for a whole campaign of four computer kingdoms, and as a ratio to the same
campaign with four kingdoms that send empty orders (what adjudication and the journal cost alone).

    python bench/bench_royaumes_ai.py [--campaigns 100] [--turns 30] [--workers 2]
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from kadesh.ai.royaumes import cities_held, play_campaign

KINGDOMS = ("basse_egypte", "haute_egypte", "koush", "libye")


def campaign(args: tuple[int, int, str]) -> tuple[str, dict[str, int], int]:
    seed, turns, strong_level = args
    strong = KINGDOMS[seed % len(KINGDOMS)]
    levels = {k: (strong_level if k == strong else "maladroit") for k in KINGDOMS}
    game = play_campaign(levels, turns, seed)
    refused = sum(1 for _, event in game.events if event.type == "ally_refused")  # issue 45: must be none
    return strong, cities_held(game), refused


def strength(campaigns: int, turns: int, workers: int, strong_level: str) -> dict[str, float]:
    jobs = [(seed, turns, strong_level) for seed in range(campaigns)]
    with ProcessPoolExecutor(workers) as pool:
        results = list(pool.map(campaign, jobs))
    most = tied = 0
    for strong, held, _ in results:
        best_other = max(n for k, n in held.items() if k != strong)
        most += held[strong] > best_other
        tied += held[strong] == best_other
    return {"most": most / campaigns, "tied": tied / campaigns,
            "cities": statistics.mean(held[strong] for strong, held, _ in results),
            "others": statistics.mean(n for strong, held, _ in results for k, n in held.items() if k != strong),
            "refused": statistics.mean(refused for _, _, refused in results)}


def speed(turns: int, repeat: int) -> tuple[float, float]:
    def best(levels: dict[str, str]) -> float:
        times = []
        for seed in range(repeat):
            start = time.perf_counter()
            play_campaign(levels, turns, seed)
            times.append(time.perf_counter() - start)
        return min(times)

    return best({k: ("vizir" if i % 2 else "maladroit") for i, k in enumerate(KINGDOMS)}), best({})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--campaigns", type=int, default=100)
    parser.add_argument("--turns", type=int, default=30)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    vizier = strength(args.campaigns, args.turns, args.workers, "vizir")
    clumsy = strength(args.campaigns, args.turns, args.workers, "maladroit")
    print(f"{args.campaigns} campaigns of {args.turns} turns, one kingdom against three Clumsy ones:")
    for name, result in (("Vizier", vizier), ("Clumsy (the same seat, for comparison)", clumsy)):
        print(f"  {name}: strictly the most cities in {result['most']:.0%}, tied for the most in {result['tied']:.0%}; "
              f"{result['cities']:.2f} cities at the end (the three others {result['others']:.2f} on average); "
              f"alliance lines refused: {result['refused']:.2f} a campaign")
    computers, empty = speed(args.turns, 3)
    print(f"A campaign of {args.turns} turns with four computer kingdoms (two Viziers, two Clumsy): {computers:.2f} s, "
          f"{computers / empty:.1f}× the same campaign with empty orders ({empty:.2f} s)")


if __name__ == "__main__":
    main()
