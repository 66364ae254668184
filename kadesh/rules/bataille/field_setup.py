"""A field battle's set-up: a shipped field by name, or one written by hand, checked value by value.

The normalised set-up is stored with the game and holds every value (each group's full figures),
so that a later change to the catalogue or to a shipped field never changes a game already played.
"""

from __future__ import annotations

from typing import Any

from kadesh.core.errors import RuleError
from kadesh.rules.bataille.data import RULES, SIDES, TROOP_FIELDS

FIELD_KEYS = {"name", "groups", "fortress", "river", "night", "storm"}
GROUP_KEYS = {"side", "lane", "troop", "turn", *TROOP_FIELDS}
GIVEN_KEYS = GROUP_KEYS | {"id"}  # a stored set-up's names come back in; they are given again, the same
PREFIX = {"north": "n", "south": "s"}
MAX_NIGHT = 30  # the longest day a set-up may ask for, in turns


def _bad(where: str, fr: str, en: str) -> RuleError:
    return RuleError("bad_options", f"Champ de bataille, {where} : {fr}", f"Battlefield, {where}: {en}",
                     option=f"field.{where}" if where else "field")


def normalize_field(spec: object, limits: dict[str, tuple[int, int]]) -> dict[str, Any]:
    """``spec`` is a shipped field's name or a whole field; the answer has every value written out."""
    if isinstance(spec, str):
        if spec not in RULES.fields:
            raise _bad("name", f"champ inconnu « {spec} » (champs : {', '.join(RULES.fields)}).",
                       f"unknown field '{spec}' (fields: {', '.join(RULES.fields)}).")
        spec = {"name": spec, **{k: v for k, v in RULES.fields[spec].items() if k in FIELD_KEYS}}
    if not isinstance(spec, dict):
        raise _bad("", "le nom d'un champ ou un objet.", "a field's name or an object.")
    unknown = sorted(set(spec) - FIELD_KEYS)
    if unknown:
        raise _bad(unknown[0], "clé inconnue.", "unknown key.")
    night = _whole(spec.get("night", RULES.night), "night", 2, MAX_NIGHT)
    storm = spec.get("storm")
    if storm is not None:
        storm = _whole(storm, "storm", 1, night)
    groups = _groups(spec.get("groups"), night, limits)
    return {"name": _name(spec.get("name", "custom")), "groups": groups,
            "fortress": _fortress(spec.get("fortress", {})), "river": _river(spec.get("river", [])),
            "night": night, "storm": storm}


def _name(name: object) -> str:
    if not isinstance(name, str) or not (name in RULES.fields or name == "custom"):
        raise _bad("name", f"le nom d'un champ livré ({', '.join(RULES.fields)}) ou « custom ».",
                   f"a shipped field's name ({', '.join(RULES.fields)}) or 'custom'.")
    return name


def _whole(value: object, where: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(where, f"un entier de {low} à {high}.", f"a whole number from {low} to {high}.")
    return value


def _groups(raw: object, night: int, limits: dict[str, tuple[int, int]]) -> list[dict[str, Any]]:
    if not isinstance(raw, list) or not raw:
        raise _bad("groups", "une liste de groupes.", "a list of groups.")
    if len(raw) > RULES.max_groups:
        raise _bad("groups", f"au plus {RULES.max_groups} groupes.", f"at most {RULES.max_groups} groups.")
    checked = [_group(spec, f"groups[{index}]", night, limits) for index, spec in enumerate(raw)]
    out, counts = [], dict.fromkeys(SIDES, 0)
    # Named in order of arrival, so that no name gives away a reinforcement still to come.
    for group in sorted(checked, key=lambda g: g["turn"]):
        counts[group["side"]] += 1
        out.append({"id": f"{PREFIX[group['side']]}{counts[group['side']]}", **group})
    for side in SIDES:
        if not any(g["side"] == side and g["turn"] == 0 for g in out):
            raise _bad("groups", f"{side} n'a aucun groupe sur le terrain au début.",
                       f"{side} has no group on the field at the start.")
    return out


def _group(spec: object, where: str, night: int, limits: dict[str, tuple[int, int]]) -> dict[str, Any]:
    if not isinstance(spec, dict) or set(spec) - GIVEN_KEYS:
        raise _bad(where, f"un objet avec {', '.join(sorted(GROUP_KEYS))}.",
                   f"an object with {', '.join(sorted(GROUP_KEYS))}.")
    side, lane = spec.get("side"), spec.get("lane")
    if side not in SIDES:
        raise _bad(f"{where}.side", "north ou south.", "north or south.")
    if lane not in RULES.lanes:
        raise _bad(f"{where}.lane", f"{', '.join(RULES.lanes)}.", f"{', '.join(RULES.lanes)}.")
    troop = spec.get("troop", "custom")
    if troop != "custom" and troop not in RULES.troops:
        raise _bad(f"{where}.troop", f"troupe inconnue « {troop} ».", f"unknown troop '{troop}'.")
    if troop == "custom" and set(TROOP_FIELDS) - set(spec):
        raise _bad(f"{where}.troop", "une troupe « custom » donne toutes ses valeurs.",
                   "a 'custom' troop gives every value.")
    turn = _whole(spec.get("turn", 0), f"{where}.turn", 0, night)
    if turn == 1:
        raise _bad(f"{where}.turn", "0 pour un groupe présent au début, ou le tour d'arrivée des renforts (2 ou plus).",
                   "0 for a group there at the start, or the turn reinforcements arrive (2 or more).")
    out: dict[str, Any] = {"side": side, "lane": lane, "troop": troop, "turn": turn}
    for name in TROOP_FIELDS:
        low, high = limits[name]
        out[name] = _whole(spec.get(name, getattr(RULES.troops.get(troop), name, None)), f"{where}.{name}", low, high)
    return out


def _fortress(raw: object) -> dict[str, str]:
    if not isinstance(raw, dict) or set(raw) - set(SIDES) or any(lane not in RULES.lanes for lane in raw.values()):
        raise _bad("fortress", f"un objet camp → couloir ({', '.join(RULES.lanes)}).",
                   f"an object side → lane ({', '.join(RULES.lanes)}).")
    return {side: raw[side] for side in SIDES if side in raw}


def _river(raw: object) -> list[str]:
    if not isinstance(raw, list) or any(side not in SIDES for side in raw):
        raise _bad("river", "la liste des camps qui ont un fleuve derrière eux.",
                   "the list of the sides with a river behind them.")
    return [side for side in SIDES if side in raw]
