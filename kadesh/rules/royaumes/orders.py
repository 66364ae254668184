"""A kingdom's order message: the JSON form, the plain-text form (French or English), and how
both become one normalized order.

A message whose *shape* is wrong (not an object, unknown keys, wrong types) is refused: it was
never sent, and the kingdom may send another. A message that is well formed but says something
unclear (an unknown cell, a kingdom that does not exist, a line that is not understood) is
accepted, because only the first message counts: what is unclear is listed in ``problems``,
line by line, and the report says that those armies did not move.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from kadesh.core.errors import bad_action
from kadesh.core.grid import map_cell_name
from kadesh.rules.royaumes.state import ALLY, CONVERT, DESTROY, PEACE, WAR, State

MAX_TEXT = 20_000
MAX_ITEMS = 10_000  # lines, moves or names in one message
BUILDINGS = ("guild",)
ORDER_KEYS = {"type", "moves", "stay", "war", "peace", "ally", "create", "build", "spies", "conquest", "tribute"}


def fold(text: str) -> str:
    """Lower case without accents or extra spaces: « Thèbes » and « thebes » name the same city."""
    decomposed = unicodedata.normalize("NFKD", text)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).lower().split())


def empty_order() -> dict[str, Any]:
    return {"moves": [], "stay": [], "stances": {}, "create": None, "build": [], "spies": [],
            "conquest": None, "tribute": None, "problems": []}


def problem(line: int | None, text: str, fr: str, en: str) -> dict[str, Any]:
    return {"line": line, "text": text, "fr": fr, "en": en}


# -- names ----------------------------------------------------------------------------------------
def kingdom_named(state: State, name: str) -> str | None:
    wanted = fold(name)
    for kid, spec in state.scenario.kingdoms.items():
        if wanted in {fold(kid), fold(spec.names["fr"]), fold(spec.names["en"]), *map(fold, spec.aliases)}:
            return kid
    return None


def city_named(state: State, name: str) -> str | None:
    wanted = fold(name)
    return next((c for c in state.cities if fold(c) == wanted), None)


def resource_named(state: State, name: str) -> str | None:
    wanted = fold(name)
    for resource, names in state.scenario.resource_names.items():
        if wanted in {fold(resource), fold(names["fr"]), fold(names["en"])}:
            return resource
    return None


# -- the JSON form --------------------------------------------------------------------------------
def _strings(action: dict[str, Any], key: str) -> list[str]:
    value = action.get(key, [])
    if not isinstance(value, list) or len(value) > MAX_ITEMS or not all(isinstance(v, str) for v in value):
        raise bad_action(f"« {key} » doit être une liste de textes.", f"'{key}' must be a list of strings.")
    return value


def _optional_string(action: dict[str, Any], key: str) -> str | None:
    value = action.get(key)
    if value is not None and not isinstance(value, str):
        raise bad_action(f"« {key} » doit être un texte.", f"'{key}' must be a string.")
    return value


def from_json(state: State, kingdom: str, action: dict[str, Any]) -> dict[str, Any]:
    """Normalize a JSON order; refuse a malformed one (``bad_action``)."""
    unknown = set(action) - ORDER_KEYS
    if unknown:
        raise bad_action(f"Champs inconnus dans les ordres : {', '.join(sorted(unknown))}.",
                         f"Unknown fields in the orders: {', '.join(sorted(unknown))}.")
    moves = action.get("moves", [])
    if not isinstance(moves, list) or len(moves) > MAX_ITEMS:
        raise bad_action("« moves » doit être une liste.", "'moves' must be a list.")
    order = empty_order()
    for number, move in enumerate(moves, start=1):
        if (not isinstance(move, dict) or set(move) - {"from", "to", "count"}
                or not isinstance(move.get("from"), str) or not isinstance(move.get("to"), str)
                or not _is_count(move.get("count", 1))):
            raise bad_action(f"Mouvement n° {number} : il faut « from », « to » et un « count » entier positif.",
                             f"Move {number}: it needs 'from', 'to' and a positive whole 'count'.")
        _add_move(state, order, move["from"], move["to"], move.get("count", 1), None, f"{move['from']} -> {move['to']}")
    for cell in _strings(action, "stay"):
        _add_stay(state, order, cell, None, cell)
    for stance, key in ((WAR, "war"), (PEACE, "peace"), (ALLY, "ally")):
        for name in _strings(action, key):
            _add_stance(state, kingdom, order, stance, name, None, f"{key}: {name}")
    create = _optional_string(action, "create")
    if create is not None:
        _add_create(state, order, create, None, create)
    for building in _strings(action, "build"):
        _add_build(order, building, None, building)
    for name in _strings(action, "spies"):
        _add_spy(state, kingdom, order, name, None, name)
    conquest = _optional_string(action, "conquest")
    if conquest is not None:
        _add_conquest(order, conquest, None, conquest)
    tribute = _optional_string(action, "tribute")
    if tribute is not None:
        _add_tribute(state, order, tribute, None, tribute)
    return order


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_ITEMS


# -- the text form --------------------------------------------------------------------------------
_CELL = r"([a-z]{1,3}[0-9]{1,4})"
_MOVE = re.compile(rf"^(?:([0-9]{{1,5}})\s*(?:x|×|\*|armees?|armies)?\s+)?{_CELL}\s*(?:->|=>|→|vers|to)\s*{_CELL}$")
_STAY = re.compile(rf"^{_CELL}\s*(?:reste|restent|stays?|holds?)$")
_STAY_LIST = re.compile(r"^(?:reste|restent|stays?|hold)\s*:\s*(.+)$")
_STANCE = re.compile(r"^(guerre|war|paix|peace|alliance|allie|ally|allies)\s*:\s*(.+)$")
_CREATE = re.compile(r"^(?:creer|create|raise)\s+(?:une\s+|an\s+)?(?:armee|army)\s+(?:a|at|in|en|dans)\s+(.+)$")
_SPY = re.compile(r"^(?:espion|espions|spy|spies)\s*:\s*(.+)$")
_BUILD = re.compile(r"^(?:construire|build)\s*:\s*(.+)$")
_CONQUEST = re.compile(r"^(?:conquete|conquest)\s*:\s*(.+)$")
_TRIBUTE = re.compile(r"^(?:tribut|tribute)\s*:\s*(.+)$")
_STANCE_WORDS = {"guerre": WAR, "war": WAR, "paix": PEACE, "peace": PEACE,
                 "alliance": ALLY, "allie": ALLY, "ally": ALLY, "allies": ALLY}


def from_text(state: State, kingdom: str, text: object) -> dict[str, Any]:
    """Parse an order message line by line; every line not understood becomes a problem."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise bad_action(f"Le message d'ordres est un texte de {MAX_TEXT} caractères au plus.",
                         f"An order message is a text of at most {MAX_TEXT} characters.")
    lines = text.splitlines()
    if len(lines) > MAX_ITEMS:
        raise bad_action(f"Au plus {MAX_ITEMS} lignes.", f"At most {MAX_ITEMS} lines.")
    order = empty_order()
    for number, raw in enumerate(lines, start=1):
        line = fold(raw.split("#", 1)[0]).rstrip(" .;")
        if line:
            _parse_line(state, kingdom, order, number, raw.strip(), line)
    return order


def _names(listed: str) -> list[str]:
    return [name.strip() for name in re.split(r"[,;]|\bet\b|\band\b", listed) if name.strip()]


def _parse_line(state: State, kingdom: str, order: dict[str, Any], number: int, raw: str, line: str) -> None:
    if match := _MOVE.match(line):
        count = int(match.group(1)) if match.group(1) else 1
        if not 1 <= count <= MAX_ITEMS:
            order["problems"].append(problem(number, raw, "Nombre d'armées impossible.", "Impossible army count."))
            return
        _add_move(state, order, match.group(2), match.group(3), count, number, raw)
    elif match := _STAY.match(line):
        _add_stay(state, order, match.group(1), number, raw)
    elif match := _STAY_LIST.match(line):
        for cell in _names(match.group(1)):
            _add_stay(state, order, cell, number, raw)
    elif match := _STANCE.match(line):
        for name in _names(match.group(2)):
            _add_stance(state, kingdom, order, _STANCE_WORDS[match.group(1)], name, number, raw)
    elif match := _CREATE.match(line):
        _add_create(state, order, match.group(1), number, raw)
    elif match := _SPY.match(line):
        for name in _names(match.group(1)):
            _add_spy(state, kingdom, order, name, number, raw)
    elif match := _BUILD.match(line):
        _add_build(order, match.group(1), number, raw)
    elif match := _CONQUEST.match(line):
        _add_conquest(order, match.group(1), number, raw)
    elif match := _TRIBUTE.match(line):
        _add_tribute(state, order, match.group(1), number, raw)
    else:
        order["problems"].append(problem(
            number, raw, "Ligne non comprise : ni mouvement (« C4 -> D5 »), ni « C7 reste », ni « guerre: », "
            "« paix: », « alliance: », « créer armée à … », « espion: », « construire: », « conquête: », « tribut: ».",
            "Line not understood: not a move ('C4 -> D5'), nor 'C7 stays', nor 'war:', 'peace:', 'ally:', "
            "'create army at …', 'spy:', 'build:', 'conquest:', 'tribute:'."))


# -- one item of an order, from either form ---------------------------------------------------------
def _add_move(state: State, order: dict[str, Any], start: str, end: str, count: int, line: int | None,
              raw: str) -> None:
    origin, target = state.scenario.cell(start), state.scenario.cell(end)
    if origin is None or target is None:
        bad = start if origin is None else end
        order["problems"].append(problem(line, raw, f"« {bad} » n'est pas une case de la carte : pas de mouvement.",
                                         f"'{bad}' is not a cell of the map: no move."))
        return
    order["moves"].append({"from": map_cell_name(origin), "to": map_cell_name(target), "count": count,
                           "line": line, "text": raw})


def _add_stay(state: State, order: dict[str, Any], name: str, line: int | None, raw: str) -> None:
    cell = state.scenario.cell(name)
    if cell is None:
        order["problems"].append(problem(line, raw, f"« {name} » n'est pas une case de la carte.",
                                         f"'{name}' is not a cell of the map."))
        return
    order["stay"].append(map_cell_name(cell))


def _add_stance(state: State, kingdom: str, order: dict[str, Any], stance: str, name: str, line: int | None,
                raw: str) -> None:
    other = kingdom_named(state, name)
    if other is None or other == kingdom:
        order["problems"].append(problem(line, raw, f"« {name} » n'est pas un autre royaume.",
                                         f"'{name}' is not another kingdom."))
        return
    order["stances"][other] = stance


def _add_create(state: State, order: dict[str, Any], name: str, line: int | None, raw: str) -> None:
    city = city_named(state, name)
    if city is None:
        order["problems"].append(problem(line, raw, f"« {name} » n'est pas une cité : pas d'armée créée.",
                                         f"'{name}' is not a city: no army raised."))
    elif order["create"] is not None:  # « qu'une seule nouvelle armée par tour »
        order["problems"].append(problem(line, raw, "Une seule armée peut être créée par tour.",
                                         "Only one army may be raised per turn."))
    else:
        order["create"] = city


def _add_build(order: dict[str, Any], name: str, line: int | None, raw: str) -> None:
    if fold(name) not in ("guild", "guilde", "guilde des constructeurs", "builders' guild", "builders guild"):
        order["problems"].append(problem(line, raw, f"« {name} » : seule la Guilde des Constructeurs se construit ici.",
                                         f"'{name}': only the Builders' Guild is built here."))
    elif "guild" in order["build"]:
        order["problems"].append(problem(line, raw, "La Guilde ne s'agrandit que d'un niveau par tour.",
                                         "The Guild grows by one level a turn at most."))
    else:
        order["build"].append("guild")


def _add_spy(state: State, kingdom: str, order: dict[str, Any], name: str, line: int | None, raw: str) -> None:
    other = kingdom_named(state, name)
    if other is None or other == kingdom:
        order["problems"].append(problem(line, raw, f"« {name} » n'est pas un autre royaume : pas d'espion.",
                                         f"'{name}' is not another kingdom: no spy."))
    elif other not in order["spies"]:
        order["spies"].append(other)


def _add_conquest(order: dict[str, Any], name: str, line: int | None, raw: str) -> None:
    choice = {"convertir": CONVERT, "convert": CONVERT, "detruire": DESTROY, "destroy": DESTROY}.get(fold(name))
    if choice is None:
        order["problems"].append(problem(line, raw, "Conquête : « convertir » ou « détruire ».",
                                         "Conquest: 'convert' or 'destroy'."))
    else:
        order["conquest"] = choice


def _add_tribute(state: State, order: dict[str, Any], name: str, line: int | None, raw: str) -> None:
    resource = resource_named(state, name)
    if resource is None:
        order["problems"].append(problem(line, raw, f"« {name} » n'est pas une ressource.",
                                         f"'{name}' is not a resource."))
    else:
        order["tribute"] = resource
