"""Tournaments between bots: sides alternate, win rates come with 95 % confidence intervals."""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial

from kadesh.ai.base import Bot, make_bot, play_turn_of
from kadesh.core import new_game

MAX_ACTIONS = 20_000


@dataclass
class DuelResult:
    a: str
    b: str
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    unfinished: int = 0

    def rate(self) -> tuple[float, float, float]:
        """A's win rate (unfinished games count as half) with its Wilson 95 % interval."""
        return wilson(self.a_wins + self.unfinished / 2, self.games)


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float, float]:
    if trials == 0:
        return 0.0, 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return p, max(0.0, centre - half), min(1.0, centre + half)


def play_game(ruleset: str, seats: dict[str, Bot], seed: int) -> str | None:
    """One game between bots; returns the winning seat, or None if unfinished."""
    game = new_game(ruleset, seed=seed)
    for _ in range(MAX_ACTIONS):
        if game.outcome is not None:
            return game.outcome["winner"]
        seat = game.to_act()[0]
        play_turn_of(game, seat, seats[seat])
    return None


def duel_game(ruleset: str, a: str, b: str, number: int, seed: int = 0, budget: float | None = None) -> str | None:
    """Game ``number`` of a duel: "a", "b", or None if unfinished. A takes the first seat in even games."""
    bot_a = make_bot(ruleset, a, seed=seed * 100_003 + 2 * number, budget=budget)
    bot_b = make_bot(ruleset, b, seed=seed * 100_003 + 2 * number + 1, budget=budget)
    seats = bot_a.rules.seats(bot_a.rules.normalize_options({}))
    first, second = (bot_a, bot_b) if number % 2 == 0 else (bot_b, bot_a)
    winner = play_game(ruleset, {seats[0]: first, seats[1]: second}, seed * 1_000_003 + number)
    if winner is None:
        return None
    return "a" if (winner == seats[0]) == (number % 2 == 0) else "b"


def duel(ruleset: str, a: str, b: str, games: int, seed: int = 0, budget: float | None = None,
         progress: Callable[[DuelResult], None] | None = None, jobs: int = 1) -> DuelResult:
    """Play ``games`` games, A taking the first seat in even games and the second in odd ones,
    on ``jobs`` processes (each game is the same whatever the number of processes)."""
    result = DuelResult(a, b)
    play = partial(duel_game, ruleset, a, b, seed=seed, budget=budget)
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            _count(result, pool.imap_unordered(play, range(games)), progress)
    else:
        _count(result, map(play, range(games)), progress)
    return result


def _count(result: DuelResult, winners: Iterable[str | None], progress: Callable[[DuelResult], None] | None) -> None:
    for winner in winners:
        result.games += 1
        if winner is None:
            result.unfinished += 1
        elif winner == "a":
            result.a_wins += 1
        else:
            result.b_wins += 1
        if progress:
            progress(result)
