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
from collections.abc import Callable
from typing import Any

from kadesh.core.errors import bad_action
from kadesh.core.grid import map_cell_name
from kadesh.rules.royaumes.state import ALLY, CONVERT, DESTROY, PEACE, WAR, State

MAX_TEXT = 20_000
MAX_ITEMS = 10_000  # moves or names in one message
# Lines of a text message: each line not understood costs a problem of half a kilobyte, in the preview and in the
# journal (10,000 lines of one letter took 70 ms to play); a line of a real order has 7 characters at least, so
# the 20,000 characters of MAX_TEXT hold fewer than 2,500 of them, the bots' included.
MAX_LINES = 2_500
MAX_SHOWN = 80      # characters of a name quoted in a problem
BUILDINGS = ("guild",)
ORDER_KEYS = {"type", "moves", "stay", "war", "peace", "ally", "create", "build", "spies", "conquest", "tribute"}


def fold(text: str) -> str:
    """Lower case without accents or extra spaces: « Thèbes » and « thebes » name the same city."""
    decomposed = unicodedata.normalize("NFKD", text)
    # The accents found by looking at each distinct character once, not at each of the text's: NFKD makes up to
    # 18 characters of one (U+FDFA), and a message of those took 70 ms to read a character at a time.
    accents = {ord(char): None for char in set(decomposed) if unicodedata.combining(char)}
    return " ".join((decomposed.translate(accents) if accents else decomposed).lower().split())


def empty_order() -> dict[str, Any]:
    return {"moves": [], "stay": [], "stances": {}, "create": None, "build": [], "spies": [],
            "conquest": None, "tribute": None, "problems": []}


def problem(line: int | None, text: str, fr: str, en: str) -> dict[str, Any]:
    return {"line": line, "text": text, "fr": fr, "en": en}


# -- names ----------------------------------------------------------------------------------------
class Names:
    """The map's kingdoms, cities and resources by every name an order may give them, folded (``fold``) once
    per message: each name in it is then found at once, however many the map has (an own map may give 8
    kingdoms 20 aliases each, and hundreds of cities)."""

    def __init__(self, state: State) -> None:
        self.kingdoms: dict[str, str] = {}
        for kid, spec in state.scenario.kingdoms.items():
            for name in (kid, spec.names["fr"], spec.names["en"], *spec.aliases):
                self.kingdoms.setdefault(fold(name), kid)
        self.cities: dict[str, str] = {}
        for city in state.cities:
            self.cities.setdefault(fold(city), city)
        self.resources: dict[str, str] = {}
        for resource, names in state.scenario.resource_names.items():
            for name in (resource, names["fr"], names["en"]):
                self.resources.setdefault(fold(name), resource)



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
    order, names = empty_order(), Names(state)
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
            _add_stance(names, kingdom, order, stance, name, None, f"{key}: {name}", fold(name))
    create = _optional_string(action, "create")
    if create is not None:
        _add_create(names, order, create, None, create, fold(create))
    for building in _strings(action, "build"):
        _add_build(order, building, None, building, fold(building))
    for name in _strings(action, "spies"):
        _add_spy(names, kingdom, order, name, None, name, fold(name))
    conquest = _optional_string(action, "conquest")
    if conquest is not None:
        _add_conquest(order, conquest, None, conquest, fold(conquest))
    tribute = _optional_string(action, "tribute")
    if tribute is not None:
        _add_tribute(names, order, tribute, None, tribute, fold(tribute))
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
_LIST_SEPARATOR = re.compile(r"[,;]|\bet\b|\band\b")
_STANCE_WORDS = {"guerre": WAR, "war": WAR, "paix": PEACE, "peace": PEACE,
                 "alliance": ALLY, "allie": ALLY, "ally": ALLY, "allies": ALLY}


def from_text(state: State, kingdom: str, text: object) -> dict[str, Any]:
    """Parse an order message line by line; every line not understood becomes a problem."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise bad_action(f"Le message d'ordres est un texte de {MAX_TEXT} caractères au plus.",
                         f"An order message is a text of at most {MAX_TEXT} characters.")
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise bad_action(f"Au plus {MAX_LINES} lignes.", f"At most {MAX_LINES} lines.")
    order, names = empty_order(), Names(state)
    for number, raw in enumerate(lines, start=1):
        line = fold(raw.split("#", 1)[0]).rstrip(" .;")
        if line:
            _parse_line(state, names, kingdom, order, number, raw.strip(), line)
    return order


def _listed(order: dict[str, Any], number: int, listed: str, add: Callable[[str], None]) -> None:
    """Each name of a list line (« guerre: Koush, Libye »), with one problem at most for the line: the first
    name not understood, and how many more were not (the line is quoted once, not once a name)."""
    before = len(order["problems"])
    for name in [name.strip() for name in _LIST_SEPARATOR.split(listed) if name.strip()]:
        add(name)
    more = len(order["problems"]) - before - 1
    if more > 0:
        first = order["problems"][before]
        del order["problems"][before + 1:]
        first["fr"] += f" (de même pour {more} autre{'s' if more > 1 else ''} de la ligne {number})"
        first["en"] += f" (and so {'are' if more > 1 else 'is'} {more} other{'s' if more > 1 else ''} on line {number})"


def _parse_line(state: State, names: Names, kingdom: str, order: dict[str, Any], number: int, raw: str,
                line: str) -> None:
    if match := _MOVE.match(line):
        count = int(match.group(1)) if match.group(1) else 1
        if not 1 <= count <= MAX_ITEMS:
            order["problems"].append(problem(number, raw, "Nombre d'armées impossible.", "Impossible army count."))
            return
        _add_move(state, order, match.group(2), match.group(3), count, number, raw)
    elif match := _STAY.match(line):
        _add_stay(state, order, match.group(1), number, raw)
    elif match := _STAY_LIST.match(line):
        _listed(order, number, match.group(1), lambda cell: _add_stay(state, order, cell, number, raw))
    elif match := _STANCE.match(line):
        stance = _STANCE_WORDS[match.group(1)]
        _listed(order, number, match.group(2),
                lambda name: _add_stance(names, kingdom, order, stance, name, number, raw, name))
    elif match := _CREATE.match(line):
        _add_create(names, order, match.group(1), number, raw, match.group(1))
    elif match := _SPY.match(line):
        _listed(order, number, match.group(1), lambda name: _add_spy(names, kingdom, order, name, number, raw, name))
    elif match := _BUILD.match(line):
        _add_build(order, match.group(1), number, raw, match.group(1))
    elif match := _CONQUEST.match(line):
        _add_conquest(order, match.group(1), number, raw, match.group(1))
    elif match := _TRIBUTE.match(line):
        _add_tribute(names, order, match.group(1), number, raw, match.group(1))
    else:
        order["problems"].append(problem(
            number, raw, "Ligne non comprise : ni mouvement (« C4 -> D5 »), ni « C7 reste », ni « guerre: », "
            "« paix: », « alliance: », « créer armée à … », « espion: », « construire: », « conquête: », « tribut: ».",
            "Line not understood: not a move ('C4 -> D5'), nor 'C7 stays', nor 'war:', 'peace:', 'ally:', "
            "'create army at …', 'spy:', 'build:', 'conquest:', 'tribute:'."))


# -- one item of an order, from either form: ``name`` as written, ``key`` folded --------------------------
def _shown(name: str) -> str:
    """A name quoted in a problem, cut short: a name may be as long as the message, or 18 times longer once
    folded."""
    return name if len(name) <= MAX_SHOWN else name[: MAX_SHOWN - 1] + "…"


def _add_move(state: State, order: dict[str, Any], start: str, end: str, count: int, line: int | None,
              raw: str) -> None:
    origin, target = state.scenario.cell(start), state.scenario.cell(end)
    if origin is None or target is None:
        bad = _shown(start if origin is None else end)
        order["problems"].append(problem(line, raw, f"« {bad} » n'est pas une case de la carte : pas de mouvement.",
                                         f"'{bad}' is not a cell of the map: no move."))
        return
    order["moves"].append({"from": map_cell_name(origin), "to": map_cell_name(target), "count": count,
                           "line": line, "text": raw})


def _add_stay(state: State, order: dict[str, Any], name: str, line: int | None, raw: str) -> None:
    cell = state.scenario.cell(name)
    if cell is None:
        order["problems"].append(problem(line, raw, f"« {_shown(name)} » n'est pas une case de la carte.",
                                         f"'{_shown(name)}' is not a cell of the map."))
        return
    order["stay"].append(map_cell_name(cell))


def _add_stance(names: Names, kingdom: str, order: dict[str, Any], stance: str, name: str, line: int | None,
                raw: str, key: str) -> None:
    other = names.kingdoms.get(key)
    if other is None or other == kingdom:
        order["problems"].append(problem(line, raw, f"« {_shown(name)} » n'est pas un autre royaume.",
                                         f"'{_shown(name)}' is not another kingdom."))
        return
    order["stances"][other] = stance


def _add_create(names: Names, order: dict[str, Any], name: str, line: int | None, raw: str, key: str) -> None:
    city = names.cities.get(key)
    if city is None:
        order["problems"].append(problem(line, raw, f"« {_shown(name)} » n'est pas une cité : pas d'armée créée.",
                                         f"'{_shown(name)}' is not a city: no army raised."))
    elif order["create"] is not None:  # « qu'une seule nouvelle armée par tour »
        order["problems"].append(problem(line, raw, "Une seule armée peut être créée par tour.",
                                         "Only one army may be raised per turn."))
    else:
        order["create"] = city


def _add_build(order: dict[str, Any], name: str, line: int | None, raw: str, key: str) -> None:
    if key not in ("guild", "guilde", "guilde des constructeurs", "builders' guild", "builders guild"):
        order["problems"].append(problem(line, raw,
                                         f"« {_shown(name)} » : seule la Guilde des Constructeurs se construit ici.",
                                         f"'{_shown(name)}': only the Builders' Guild is built here."))
    elif "guild" in order["build"]:
        order["problems"].append(problem(line, raw, "La Guilde ne s'agrandit que d'un niveau par tour.",
                                         "The Guild grows by one level a turn at most."))
    else:
        order["build"].append("guild")


def _add_spy(names: Names, kingdom: str, order: dict[str, Any], name: str, line: int | None, raw: str,
             key: str) -> None:
    other = names.kingdoms.get(key)
    if other is None or other == kingdom:
        order["problems"].append(problem(line, raw, f"« {_shown(name)} » n'est pas un autre royaume : pas d'espion.",
                                         f"'{_shown(name)}' is not another kingdom: no spy."))
    elif other not in order["spies"]:
        order["spies"].append(other)


def _add_conquest(order: dict[str, Any], name: str, line: int | None, raw: str, key: str) -> None:
    choice = {"convertir": CONVERT, "convert": CONVERT, "detruire": DESTROY, "destroy": DESTROY}.get(key)
    if choice is None:
        order["problems"].append(problem(line, raw, "Conquête : « convertir » ou « détruire ».",
                                         "Conquest: 'convert' or 'destroy'."))
    else:
        order["conquest"] = choice


def _add_tribute(names: Names, order: dict[str, Any], name: str, line: int | None, raw: str, key: str) -> None:
    resource = names.resources.get(key)
    if resource is None:
        order["problems"].append(problem(line, raw, f"« {_shown(name)} » n'est pas une ressource.",
                                         f"'{_shown(name)}' is not a resource."))
    else:
        order["tribute"] = resource


# -- a normalized order written back as text ------------------------------------------------------------
_WORDS = {
    "fr": {WAR: "guerre", PEACE: "paix", ALLY: "alliance", "stays": "reste", "create": "créer une armée à",
           "build": "construire: guilde", "spies": "espions", "conquest": "conquête",
           CONVERT: "convertir", DESTROY: "détruire", "tribute": "tribut"},
    "en": {WAR: "war", PEACE: "peace", ALLY: "ally", "stays": "stays", "create": "raise an army at",
           "build": "build: guild", "spies": "spies", "conquest": "conquest",
           CONVERT: "convert", DESTROY: "destroy", "tribute": "tribute"},
}


def to_text(state: State, order: dict[str, Any], lang: str) -> str:
    """A normalized order as a text message in ``lang``, one order a line, that ``from_text`` reads back as the
    same order: the page's form carried to its text tab, a Seigneur's draft for his Chef (issue 59)."""
    words = _WORDS["en" if lang == "en" else "fr"]
    kingdom = {kid: spec.names["en" if lang == "en" else "fr"] for kid, spec in state.scenario.kingdoms.items()}
    lines = [f"{move['count']} x {move['from']} -> {move['to']}" if move["count"] > 1
             else f"{move['from']} -> {move['to']}" for move in order["moves"]]
    lines += [f"{cell} {words['stays']}" for cell in order["stay"]]
    for stance in (WAR, PEACE, ALLY):
        towards = [kingdom[other] for other, chosen in order["stances"].items() if chosen == stance]
        lines += _listing(words[stance], towards)
    if order["create"]:
        lines.append(f"{words['create']} {order['create']}")
    if order["build"]:
        lines.append(words["build"])
    lines += _listing(words["spies"], [kingdom[other] for other in order["spies"]])
    if order["conquest"]:
        lines.append(f"{words['conquest']}: {words[order['conquest']]}")
    if order["tribute"]:
        lines.append(f"{words['tribute']}: {state.scenario.resource_names[order['tribute']][lang]}")
    return "\n".join(lines)


def _listing(word: str, names: list[str]) -> list[str]:
    """« paix: Koush, Libye »: one line for the names, or one line a name where a name would be read as several
    (a map of one's own may name a kingdom « Amont et Aval »)."""
    if not names:
        return []
    if any(len(_LIST_SEPARATOR.split(fold(name))) > 1 for name in names):
        return [f"{word}: {name}" for name in names]
    return [f"{word}: {', '.join(names)}"]
