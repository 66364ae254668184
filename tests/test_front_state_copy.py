"""Front: a battle's copy (``State.copy``, made for every order checked and every line a bot reads ahead) is
written out field by field for speed. It must be what ``copy.deepcopy`` gives, share no mutable object with
the original, and leave the original untouched whatever is played on it."""

from __future__ import annotations

import copy
import random
from dataclasses import fields, is_dataclass

import pytest

from kadesh.core.dice import SeededDice
from kadesh.core.game import Game
from kadesh.rules.front.data import TableEntry
from kadesh.rules.front.ruleset import Front
from kadesh.rules.front.state import Objective, Victory

RULES = Front()
SHARED = (str, int, float, bool, type(None), TableEntry, Victory, Objective)  # immutable: sharing them is safe


def shared_mutables(a, b, path: str = "state"):
    """The paths of the mutable objects ``a`` and ``b`` (a battle and its copy) have in common."""
    if isinstance(a, SHARED):
        return
    if isinstance(a, tuple):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from shared_mutables(x, y, f"{path}[{i}]")
        return
    if a is b:
        yield path
        return
    if is_dataclass(a):
        for spec in fields(a):
            yield from shared_mutables(getattr(a, spec.name), getattr(b, spec.name), f"{path}.{spec.name}")
    elif isinstance(a, dict):
        for key in a:
            yield from shared_mutables(a[key], b[key], f"{path}[{key!r}]")
    elif isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            yield from shared_mutables(x, y, f"{path}[{i}]")
    elif not isinstance(a, set | frozenset):  # a set holds cells: its own identity was checked above
        raise AssertionError(f"{path}: a {type(a).__name__} the copy test does not know; say how it is copied")


def battles(scenario: str, seed: int, actions: int):
    """The battle after every few random legal orders."""
    rng = random.Random(seed)
    options = RULES.normalize_options({"scenario": scenario})
    game = Game(RULES, options, str(seed), SeededDice(str(seed)))
    for step in range(actions):
        if game.outcome is not None:
            break
        seat = game.to_act()[0]
        orders = [a for a in game.legal_actions(seat) if a["type"] not in ("end_turn", "resign")]
        game.act(seat, rng.choice(orders) if orders and rng.random() < 0.85 else {"type": "end_turn"})
        if step % 10 == 0:
            yield game


@pytest.mark.parametrize("scenario", ["test_mixed", "test_air", "mission_general"])
def test_a_copy_is_a_deep_copy_that_shares_nothing_an_order_changes(scenario):
    checked = 0
    for game in battles(scenario, seed=7, actions=120):
        state = game.state
        twin = state.copy()
        assert twin == copy.deepcopy(state)
        assert list(shared_mutables(state, twin)) == []
        before = copy.deepcopy(state)
        rng = random.Random(checked)
        seat = RULES.to_act(twin)[0] if RULES.to_act(twin) else None
        for _ in range(5):  # play on the copy: the original does not move
            if seat is None or seat not in RULES.to_act(twin):
                break
            legal = list(RULES.legal_actions(twin, seat))
            RULES.apply(twin, seat, rng.choice(legal), SeededDice(str(checked)))
        assert state == before
        checked += 1
    assert checked >= 5


def test_the_copy_test_finds_a_shared_object():
    state = Game(RULES, RULES.normalize_options({"scenario": "test_mixed"}), "1", SeededDice("1")).state
    twin = state.copy()
    unit_id = next(iter(state.units))
    twin.units[unit_id] = state.units[unit_id]  # as a copy that forgot to copy the units would
    twin.structures_seen["blue"] = state.structures_seen["blue"]
    found = list(shared_mutables(state, twin))
    assert f"state.units[{unit_id!r}]" in found and "state.structures_seen['blue']" in found
