"""Small Royaumes campaigns for rule-case tests: a map, four kingdoms, orders in a chosen order."""

from __future__ import annotations

from typing import Any

from kadesh.core.events import Event
from kadesh.rules.royaumes import rules
from kadesh.rules.royaumes.data import GAME_MASTER
from kadesh.rules.royaumes.scenario import from_dict as scenario_from_dict
from kadesh.rules.royaumes.state import ALLY, WAR, State, initial_state

KINGDOMS = ("a", "b", "c", "d")
LAND_6x6 = ["......"] * 6


def campaign(rows: list[str] | None = None, **kingdoms: dict[str, Any]) -> State:
    """A campaign on ``rows`` (default 6×6 land). Each kingdom ``a``…``d``: ``cities`` (name, cell)
    with its initial city first, ``armies`` (cells), ``level``, ``population``, ``resources``."""
    corners = {"a": ("Alpha", "A1"), "b": ("Beta", "F1"), "c": ("Gamma", "A6"), "d": ("Delta", "F6")}
    raw: dict[str, Any] = {
        "scenario": {"id": "case", "fr": "Cas", "en": "Case", "resources": ["gold", "wheat", "stone"]},
        "resource_names": {"gold": {"fr": "or", "en": "gold"}, "wheat": {"fr": "blé", "en": "wheat"},
                           "stone": {"fr": "pierre", "en": "stone"}},
        "map": {"rows": rows or LAND_6x6},
        "costs": {"army": {"gold": 100}, "spy": {"gold": 50}, "guild": {"gold": 100, "stone": 50}},
        "kingdoms": {},
    }
    for kid in KINGDOMS:
        spec = kingdoms.get(kid, {})
        raw["kingdoms"][kid] = {
            "fr": kid.upper(), "en": kid.upper(), "aliases": [kid.upper()],
            "cities": [{"name": n, "cell": c} for n, c in spec.get("cities", [corners[kid]])],
            "armies": spec.get("armies", []), "military_level": spec.get("level", 1),
            "population": spec.get("population", 100), "guild_level": spec.get("guild", 0),
            "resources": spec.get("resources", {"gold": 1000, "wheat": 100, "stone": 100}),
        }
    return initial_state(scenario_from_dict(raw))


def war(state: State, a: str, b: str) -> None:
    state.kingdoms[a].stance[b] = WAR


def ally(state: State, a: str, b: str) -> None:
    state.kingdoms[a].stance[b] = ALLY
    state.kingdoms[b].stance[a] = ALLY


def play_turn(state: State, orders: dict[str, Any], arrival: list[str] | None = None) -> list[Event]:
    """Send each kingdom's orders (a dict, or a text) in ``arrival`` order; those not given send
    an empty order last, so the turn adjudicates. Returns every event of the turn."""
    events: list[Event] = []
    arrival = arrival or list(orders)
    for kingdom in arrival + [k for k in KINGDOMS if k not in arrival]:
        order = orders.get(kingdom, {})
        action = {"type": "orders", "text": order} if isinstance(order, str) else {"type": "orders", **order}
        events += rules.apply(state, kingdom, action)
    return events


def gm(state: State, action: dict[str, Any]) -> list[Event]:
    return rules.apply(state, GAME_MASTER, action)


def armies(state: State, kingdom: str, cell: str | None = None) -> int:
    where = state.scenario.cell(cell) if cell else None
    return sum(1 for a in state.armies.values() if a.kingdom == kingdom and (where is None or a.cell == where))


def of_type(events: list[Event], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == kind]


def move(start: str, end: str, count: int = 1) -> dict[str, Any]:
    return {"from": start, "to": end, "count": count}
