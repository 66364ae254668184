"""Tournaments between bots: sides alternate, win rates come with 95 % confidence intervals, and the wall time
of each of A's whole turns (what a player waits for) is kept."""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
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
    a_first_games: int = 0  # games where A had the first seat (Manœuvre: North, who moves first)
    a_first_wins: int = 0
    a_turns: list[float] = field(default_factory=list)  # seconds of each of A's turns, first action to last
    a_searches: int = 0  # A's decisions searched
    a_cut_short: int = 0  # of them, those A's time budget stopped before its iteration budget
    a_lost: list[int] = field(default_factory=list)  # the numbers of the games A lost (to replay them: duel_game)

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


@dataclass
class GameRecord:
    winner: str | None  # "a", "b", or None if unfinished
    a_first: bool  # A had the first seat
    a_turns: list[float]  # seconds of each of A's turns
    a_searches: tuple[int, int] = (0, 0)  # A's decisions searched, and those its time budget cut short
    number: int = 0  # the game's number in its duel


def play_game(ruleset: str, seats: dict[str, Bot], seed: int,
              turns: dict[str, list[float]] | None = None) -> str | None:
    """One game between bots; returns the winning seat, or None if unfinished. ``turns``, if given, gets the
    wall time of each turn by seat: a run of actions by one seat, from the start of its first (view, legal
    actions, choice, action) to the end of its last."""
    game = new_game(ruleset, seed=seed)
    mover, began, ended = None, 0.0, 0.0
    for _ in range(MAX_ACTIONS):
        if game.outcome is not None:
            break
        seat = game.to_act()[0]
        start = time.perf_counter()
        play_turn_of(game, seat, seats[seat])
        if seat != mover:
            if mover is not None and turns is not None:
                turns.setdefault(mover, []).append(ended - began)
            mover, began = seat, start
        ended = time.perf_counter()
    if mover is not None and turns is not None:
        turns.setdefault(mover, []).append(ended - began)
    return game.outcome["winner"] if game.outcome is not None else None


def duel_record(ruleset: str, a: str, b: str, number: int, seed: int = 0,
                budget: float | None = None) -> GameRecord:
    """Game ``number`` of a duel. A takes the first seat in even games."""
    bot_a = make_bot(ruleset, a, seed=seed * 100_003 + 2 * number, budget=budget)
    bot_b = make_bot(ruleset, b, seed=seed * 100_003 + 2 * number + 1, budget=budget)
    seats = bot_a.rules.seats(bot_a.rules.normalize_options({}))
    a_first = number % 2 == 0
    first, second = (bot_a, bot_b) if a_first else (bot_b, bot_a)
    turns: dict[str, list[float]] = {}
    winner = play_game(ruleset, {seats[0]: first, seats[1]: second}, seed * 1_000_003 + number, turns)
    a_turns = turns.get(seats[0 if a_first else 1], [])
    a_won = None if winner is None else "a" if (winner == seats[0]) == a_first else "b"
    return GameRecord(a_won, a_first, a_turns, bot_a.searches(), number)


def duel_game(ruleset: str, a: str, b: str, number: int, seed: int = 0, budget: float | None = None) -> str | None:
    """Game ``number`` of a duel: "a", "b", or None if unfinished. A takes the first seat in even games."""
    return duel_record(ruleset, a, b, number, seed, budget).winner


def duel(ruleset: str, a: str, b: str, games: int, seed: int = 0, budget: float | None = None,
         progress: Callable[[DuelResult], None] | None = None, jobs: int = 1) -> DuelResult:
    """Play ``games`` games, A taking the first seat in even games and the second in odd ones,
    on ``jobs`` processes (each game is the same whatever the number of processes)."""
    result = DuelResult(a, b)
    play = partial(duel_record, ruleset, a, b, seed=seed, budget=budget)
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            _count(result, pool.imap_unordered(play, range(games)), progress)
    else:
        _count(result, map(play, range(games)), progress)
    return result


def _count(result: DuelResult, records: Iterable[GameRecord], progress: Callable[[DuelResult], None] | None) -> None:
    for record in records:
        result.games += 1
        result.a_first_games += record.a_first
        result.a_turns.extend(record.a_turns)
        result.a_searches += record.a_searches[0]
        result.a_cut_short += record.a_searches[1]
        if record.winner is None:
            result.unfinished += 1
        elif record.winner == "a":
            result.a_wins += 1
            result.a_first_wins += record.a_first
        else:
            result.b_wins += 1
            result.a_lost.append(record.number)
        if progress:
            progress(result)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile: the least value at or above ``share`` of them."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)] if ordered else 0.0
