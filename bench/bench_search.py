"""Stratège's search time for the same decisions: seeded games with no time limit, and what was played.

    python bench/bench_search.py [--seed 3 --seed 4 --seed 5] [--iterations 300]

Stratège (North, its turn budget out of reach, so that load changes nothing) plays Maladroit; each game's CPU time
is printed in seconds and in baseline units (the dict loop of bench_ai.py, timed in the same run), with a digest
of every action of the games. Run it in a worktree of each of two commits on a quiet machine: where the digests
are the same, the very same decisions were made, and the ratio of the times is the speed-up alone.
"""

from __future__ import annotations

import argparse
import hashlib
import time

from bench_ai import baseline_seconds

from kadesh import new_game
from kadesh.ai.base import make_bot, play_turn_of
from kadesh.ai.manoeuvre import DEFAULT_ITERATIONS

OUT_OF_REACH = 1e9  # seconds: a turn budget no search reaches


def play(seed: int, iterations: int) -> tuple[float, str, str]:
    """One game: its CPU seconds, the winner, and the digest of its actions."""
    bots = {"north": make_bot("manoeuvre", "stratege", seed=seed, iterations=iterations, turn_budget=OUT_OF_REACH),
            "south": make_bot("manoeuvre", "maladroit", seed=seed + 100)}
    game = new_game("manoeuvre", seed=seed)
    start = time.process_time()
    while game.outcome is None:
        seat = game.to_act()[0]
        play_turn_of(game, seat, bots[seat])
    cpu = time.process_time() - start
    digest = hashlib.sha256(repr(game.actions).encode()).hexdigest()[:12]
    return cpu, game.outcome["winner"], digest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, action="append", help="a game's seed (repeat for several)")
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    args = parser.parse_args()
    unit = baseline_seconds(1_000_000) / 1_000_000
    total, digests = 0.0, []
    for seed in args.seed or [3, 4, 5]:
        cpu, winner, digest = play(seed, args.iterations)
        total += cpu
        digests.append(digest)
        print(f"seed {seed}: {cpu:.2f} s of CPU ({cpu / unit / 1e6:,.1f} M baseline dicts), {winner} won, "
              f"actions {digest}", flush=True)
    every = hashlib.sha256(" ".join(digests).encode()).hexdigest()[:12]
    print(f"all: {total:.2f} s of CPU ({total / unit / 1e6:,.1f} M baseline dicts), actions {every}")


if __name__ == "__main__":
    main()
