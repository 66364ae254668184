"""Properties of Imhotep's adjudication over random campaigns and random orders (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kadesh.core.grid import king_neighbours, map_cell_name
from kadesh.rules.royaumes import rules, view
from kadesh.rules.royaumes.data import GAME_MASTER
from kadesh.rules.royaumes.state import STANCES, State
from tests.royaumes_cases import KINGDOMS, campaign

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_campaign(rng: random.Random) -> State:
    size = 7
    rows = ["".join("~" if rng.random() < 0.15 else "." for _ in range(size)) for _ in range(size)]
    land = [map_cell_name((x, y)) for y in range(size) for x in range(size) if rows[y][x] == "."]
    cells = rng.sample(land, 8)
    kingdoms = {}
    for index, kid in enumerate(KINGDOMS):
        initial, other = cells[2 * index], cells[2 * index + 1]
        kingdoms[kid] = {"cities": [(f"{kid}-capital", initial), (f"{kid}-town", other)],
                         "armies": [rng.choice(land) for _ in range(rng.randint(1, 6))],
                         "level": rng.randint(1, 4), "population": rng.randint(10, 500),
                         "resources": {"gold": rng.randint(0, 400), "wheat": rng.randint(0, 50),
                                       "stone": rng.randint(0, 200)}}
    state = campaign(rows, **kingdoms)
    for kid in KINGDOMS:
        for other in KINGDOMS:
            if other != kid:
                state.kingdoms[kid].stance[other] = rng.choice(STANCES)
    return state


def random_order(state: State, kingdom: str, rng: random.Random) -> dict:
    mine = sorted({a.cell for a in state.armies.values() if a.kingdom == kingdom})
    moves = []
    for cell in mine:
        if rng.random() < 0.8:
            target = rng.choice(list(king_neighbours(cell)))
            moves.append({"from": map_cell_name(cell), "to": map_cell_name((target[0] % 7, target[1] % 7)),
                          "count": rng.randint(1, 3)})
    others = [k for k in KINGDOMS if k != kingdom]
    order = {"moves": moves, "war": rng.sample(others, rng.randint(0, 2)),
             "spies": rng.sample(others, rng.randint(0, 1))}
    if rng.random() < 0.4:
        order["create"] = rng.choice(list(state.cities))
    if rng.random() < 0.2:
        order["build"] = ["guild"]
    if rng.random() < 0.3:
        order["conquest"] = rng.choice(["convert", "destroy"])
    return order


def play(seed: int, turns: int = 3):
    """A few turns of random orders in a random arrival order; yields (state, events) per turn."""
    rng = random.Random(seed)
    state = random_campaign(rng)
    for _ in range(turns):
        arrival = rng.sample(KINGDOMS, 4)
        orders = {k: random_order(state, k, rng) for k in arrival}
        before = state.copy()
        events = []
        for kingdom in arrival:
            events += rules.apply(state, kingdom, {"type": "orders", **orders[kingdom]})
        yield before, orders, arrival, state, events


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_adjudication_is_deterministic_for_the_same_orders_in_the_same_order(seed):
    for before, orders, arrival, after, events in play(seed):
        again = before.copy()
        replayed = []
        for kingdom in arrival:
            replayed += rules.apply(again, kingdom, {"type": "orders", **orders[kingdom]})
        assert replayed == events and repr(again) == repr(after)


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_armies_are_only_raised_or_lost_by_the_rules_and_stand_on_land_in_one_place(seed):
    for before, _, _, after, events in play(seed):
        raised = sum(1 for e in events if e.type == "army_raised")
        lost = sum(side["lost"] for e in events if e.type == "battle" for side in e.data["sides"])
        assert len(after.armies) == len(before.armies) + raised - lost
        assert all(after.scenario.is_land(a.cell) for a in after.armies.values())
        assert all(army_id == army.id for army_id, army in after.armies.items())
        survivors = set(before.armies) & set(after.armies)
        for army_id in survivors:  # an army moves at most one cell a turn
            a, b = before.armies[army_id].cell, after.armies[army_id].cell
            assert max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1
        counted = sum(entry["count"] for entry in view(after, None)["armies"])
        assert counted == len(after.armies)


@SETTINGS
@given(st.integers(min_value=0, max_value=2**32))
def test_a_kingdom_never_sees_an_unspied_level_nor_orders_not_yet_adjudicated(seed):
    rng = random.Random(seed)
    state = random_campaign(rng)
    for _ in range(3):
        arrival = rng.sample(KINGDOMS, 4)
        for sent, kingdom in enumerate(arrival):
            for seat in KINGDOMS:
                seen = view(state, seat)
                assert "secrets" not in seen and "arrival" not in seen
                assert seen["you"]["kingdom"] == seat
                public = {key: value for key, value in seen.items() if key != "you"}
                assert "military_level" not in repr(public) and "'orders'" not in repr(public)
                spied = seen["you"]["intelligence"]
                assert set(spied) <= set(KINGDOMS) - {seat}
                assert all(known["turn"] <= state.turn for known in spied.values())
                if seat not in arrival[:sent]:
                    assert seen["you"]["orders"] is None
            events = rules.apply(state, kingdom, {"type": "orders", **random_order(state, kingdom, rng)})
            for event in events:
                if event.type in ("orders_received", "spy_report", "tribute"):
                    assert event.audience is not None and GAME_MASTER in event.audience
                if event.type == "battle_own_total":
                    assert event.audience == (event.data["kingdom"],)
                if event.type == "spy_report":
                    assert event.audience == (event.data["kingdom"], GAME_MASTER)
                if event.type == "battle_totals":
                    assert event.audience == (GAME_MASTER,)
