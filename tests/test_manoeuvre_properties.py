"""Properties of random legal play (hypothesis): the rules hold whatever the seed."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kadesh import RuleError, load_game, new_game
from kadesh.core.grid import parse_cell
from kadesh.rules.manoeuvre.rules import fight_actions

pytestmark = pytest.mark.slow
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_ACTIONS = 20_000


def play(seed: int, check=None):
    rng = random.Random(seed)
    game = new_game("manoeuvre", seed=seed)
    for _ in range(MAX_ACTIONS):
        if game.outcome is not None:
            break
        seat = rng.choice(game.to_act())
        choices = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
        game.act(seat, rng.choice(choices))
        if check:
            check(game)
    return game


def board_invariants():
    """A check to run after every action: no shared cell, nobody off the board, losses never fall."""
    last_losses: dict[str, int] = {}

    def check(game) -> None:
        cells = [e["cell"] for e in game.view("north")["elements"] if e["side"] == "north" and e["cell"]]
        cells += [e["cell"] for e in game.view("south")["elements"] if e["side"] == "south" and e["cell"]]
        assert len(cells) == len(set(cells)), "two elements share a cell"
        assert all(parse_cell(c, 12, 12) is not None for c in cells), "an element left the board"
        losses = game.view(None)["losses"]
        for side, value in losses.items():
            assert value >= last_losses.get(side, 0), "losses went down"
        last_losses.update(losses)

    return check


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_random_legal_play_always_ends_and_keeps_the_board_sound(seed):
    game = play(seed, board_invariants())
    assert game.outcome is not None and game.outcome["winner"] in ("north", "south")


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_replaying_a_record_gives_the_same_views_and_journals(seed):
    game = play(seed)
    replay = load_game(game.to_record())
    for seat in (None, "north", "south"):
        assert replay.view(seat) == game.view(seat)
        for lang in ("fr", "en"):
            assert replay.journal(seat, lang) == game.journal(seat, lang)


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_fight_actions_are_exactly_the_legal_attacks_and_shots(seed):
    def check(game) -> None:
        for seat in ("north", "south"):
            fights = [a for a in game.legal_actions(seat) if a["type"] in ("attack", "shoot")]
            assert list(fight_actions(game.state, seat)) == fights

    play(seed, check)


def _mutations(action: dict, rng: random.Random) -> list:
    cells = ["a1", "c3", "l12", "m1", "z", 5, None]
    out = [{**action, "type": "teleport"}, {k: v for k, v in action.items() if k != "type"}, [action], "end_turn"]
    for key in action:
        if key != "type":
            out.append({**action, key: rng.choice(cells + ["n1", "s1", "N", "X"])})
    return out


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_an_illegal_action_never_changes_the_state(seed):
    rng = random.Random(seed)
    game = new_game("manoeuvre", seed=seed)
    for _ in range(400):
        if game.outcome is not None:
            break
        seat = rng.choice(game.to_act())
        legal = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
        other = "south" if seat == "north" else "north"
        allowed = {who: game.legal(who) for who in (seat, other)}
        before = (game.state.copy(), game.version, game.dice.index, len(game.events))  # each refusal leaves this
        for candidate in _mutations(rng.choice(legal), rng):
            for who in (seat, other):
                if isinstance(candidate, dict) and candidate in allowed[who]:
                    continue
                with pytest.raises(RuleError):
                    game.act(who, candidate)
                assert (game.state, game.version, game.dice.index, len(game.events)) == before  # fields compared
        game.act(seat, rng.choice(legal))


def _quoted(text: str) -> set[str]:
    """Every short word between single quotes in ``text`` (overlapping ones too): what ``f"'{cell}'" in text``
    finds of a cell's name, found for all names in one pass."""
    return set(QUOTED.findall(text))


QUOTED = re.compile(r"(?='([^'\s]{1,4})')")


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_north_view_during_deployment_never_reveals_south_placement(seed):
    rng = random.Random(seed)
    game = new_game("manoeuvre", seed=seed)
    journal = {"fr": [], "en": []}  # north's whole journal, its new lines added after each action
    journal_quoted: set[str] = set()  # every quoted word of its lines' text, each line read once
    while game.view(None)["phase"] == "deployment":
        seat = rng.choice(game.to_act())
        legal = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
        before = game.version
        game.act(seat, rng.choice(legal))
        for lang, lines in journal.items():
            new_lines = game.journal("north", lang, since=before)
            lines += new_lines
            journal_quoted |= _quoted(repr(new_lines))
        if game.view(None)["phase"] != "deployment":
            break
        north = game.view("north")
        assert all(e["cell"] is None and e["facing"] is None for e in north["elements"] if e["side"] == "south")
        south_cells = {e["cell"] for e in game.view("south")["elements"] if e["side"] == "south" and e["cell"]}
        shown = repr(north)  # a cell's name quoted in it, as ``_quoted`` finds one: searched for each cell placed
        assert not {cell for cell in south_cells if cell in journal_quoted or f"'{cell}'" in shown}
    assert journal == {lang: game.journal("north", lang) for lang in journal}  # what was checked is the journal
