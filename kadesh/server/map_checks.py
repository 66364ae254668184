"""A map being designed, checked by the engine itself: its faults, its size and seats, and what a seat sees of it.

A designable ruleset is one that takes a text of the player's own (the option ``scenario_toml``: a Front battle, a
Royaumes map). A map comes as its TOML text or as its document (the same keys and values, as JSON); the server is
the only place that turns one into the other (``kadesh.core.tomlwrite`` one way, ``tomllib`` the other). Its faults
are what creating a game on it would refuse (``Ruleset.normalize_options``, the one door: no second validator), the
first the engine finds (docs/scenarios.md, « Designing a map »), with the cell of the map it names where it names
one, so that a page marks it there.

These functions run in the check process (``kadesh.server.checks``): reading a text of the client's own costs the
rules' time, kept away from where requests are answered.
"""

from __future__ import annotations

import re
from typing import Any

from kadesh.core import Ruleset, get_ruleset, new_game
from kadesh.core.errors import RuleError, UnknownRuleset
from kadesh.core.grid import map_cell_name, parse_map_cell
from kadesh.core.tomlcheck import MAX_KEY_PARTS, read
from kadesh.core.tomlcheck import MAX_NESTING as TOML_NESTING
from kadesh.core.tomlwrite import NotWritable, TooLong, write
from kadesh.server.problems import ApiProblem

OWN_MAP = "scenario_toml"  # the option that carries a map of one's own
# Tables and arrays within each other in a document: a Royaumes map's deepest value, a city's cell, is at 6; TOML's
# own text may nest 16 arrays or inline tables under a key of 8 parts (``kadesh.core.tomlcheck``).
MAX_DEPTH = TOML_NESTING + MAX_KEY_PARTS
# The text a document may make, as a multiple of its format's MAX_TEXT: longer than MAX_TEXT, the engine's own fault
# says so with the text; far longer, the document is refused (a header repeats its tables' keys: a small document
# can make a huge text).
WRITTEN_MOST = 4
CELL_KEYS = frozenset({"cell", "cells", "exit", "armies", "path", "label"})  # keys whose values are cells
_STEP = re.compile(r"\.?([^.\[\]]+)|\[([0-9]+)\]")  # ``kingdoms.koush.cities[2].cell``, one part at a time


def designable(name: object) -> Ruleset:
    """The ruleset called ``name``, if a map of one's own may be designed for it (422 otherwise)."""
    try:
        rules = get_ruleset(str(name))
    except UnknownRuleset:
        rules = None
    if rules is None or OWN_MAP not in rules.options_schema:
        raise ApiProblem(422, "not_designable", f"Pas de carte à dessiner pour ce jeu : {name}.",
                         f"No map to design for this game: {name}.")
    return rules


def max_text(rules: Ruleset) -> int:
    """Characters of TOML a map of this ruleset may have (its format's ``MAX_TEXT``)."""
    return int(rules.options_schema[OWN_MAP]["max_length"])


def check_depth(document: object) -> None:
    """422 ``bad_document`` for a document nested deeper than a map can be (``MAX_DEPTH``): read without recursion,
    before it goes anywhere (to the check process, it is pickled, and pickling recurses)."""
    waiting = [(document, 1)]
    while waiting:
        value, depth = waiting.pop()
        if depth > MAX_DEPTH:
            raise ApiProblem(422, "bad_document", f"Document refusé : plus de {MAX_DEPTH} niveaux imbriqués.",
                             f"Document refused: more than {MAX_DEPTH} nested levels.")
        inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        waiting.extend((item, depth + 1) for item in inner)


def toml_of(document: object, most: int) -> str:
    """The TOML text of a document (422 ``bad_document`` for a value TOML cannot hold, such as null, or a text of
    more than ``most`` characters)."""
    try:
        return write(document, most)  # type: ignore[arg-type]
    except TooLong:
        raise ApiProblem(422, "bad_document", f"Document refusé : son texte TOML aurait plus de {most} caractères.",
                         f"Document refused: its TOML text would be more than {most} characters.") from None
    except NotWritable as error:
        where = error.where or "document"
        raise ApiProblem(422, "bad_document", f"Document refusé, {where} : TOML n'a pas de valeur {error.kind}.",
                         f"Document refused, {where}: TOML has no {error.kind} value.") from None


def check_map(ruleset: str, toml: str | None = None, document: dict[str, Any] | None = None) -> dict[str, Any]:
    """``POST /api/maps/check``'s answer: the text and document, whether a game may be played on it, its faults
    (the engine's refusal, as a game's creation would answer it), its size and how many players it seats."""
    rules = designable(ruleset)
    if document is not None:
        check_depth(document)
    text = toml_of(document, WRITTEN_MOST * max_text(rules)) if document is not None else toml or ""
    if document is None:
        document = read(text, max_text(rules))
    size = size_of(document)
    try:
        options = rules.normalize_options({OWN_MAP: text})
    except RuleError as error:
        return {"ruleset": rules.name, "toml": text, "document": document, "playable": False,
                "faults": [fault(error, document, size)], "size": size, "players": None}
    return {"ruleset": rules.name, "toml": text, "document": document, "playable": True, "faults": [], "size": size,
            "players": len(rules.bot_seats(options))}


def preview_map(ruleset: str, toml: str, seat: str) -> dict[str, Any]:
    """What ``seat`` sees of a game on this map at its start (version 0), as the game's own ``view`` shows it:
    422 ``bad_scenario`` if no game may be played on it, ``unknown_seat`` for a seat it does not have."""
    game = new_game(designable(ruleset).name, options={OWN_MAP: toml})
    if seat not in game.seats:
        raise ApiProblem(422, "unknown_seat", f"Siège inconnu : {seat} ({', '.join(game.seats)}).",
                         f"Unknown seat: {seat} ({', '.join(game.seats)}).")
    return {"seat": seat, "view": game.view(seat)}


def size_of(document: object) -> dict[str, int] | None:
    """The map's columns and rows as its document draws them (``map.rows``), where it draws any."""
    rows = document.get("map", {}).get("rows") if isinstance(document, dict) else None
    if not isinstance(rows, list) or not rows or not isinstance(rows[0], str):
        return None
    return {"columns": len(rows[0]), "rows": len(rows)}


def fault(error: RuleError, document: dict[str, Any] | None, size: dict[str, int] | None) -> dict[str, Any]:
    """One fault as a page shows it: where (the key), on which cell of the map, in the engine's words."""
    where = str(error.details.get("where") or "")
    cell = error.details.get("cell") or cell_named(where, document, size)
    return {"where": where, "cell": cell, "message": error.fr, "message_en": error.en}


def cell_named(where: str, document: dict[str, Any] | None, size: dict[str, int] | None) -> str | None:
    """The cell a key names: its own value (``units[3].cell``, ``kingdoms.koush.armies[2]``), else the ``cell`` of
    the nearest table around it (a unit's ``type``: the unit's cell). None where none is a cell of the map."""
    if not where or document is None or size is None:
        return None
    found: list[tuple[str, Any]] = []  # (the key that holds it, the value), from the document inwards
    here: Any = document
    for name, index in _STEP.findall(where):
        if name and isinstance(here, dict) and name in here:
            here = here[name]
            found.append((name, here))
        elif index and isinstance(here, list) and 1 <= int(index) <= len(here):
            here = here[int(index) - 1]
            found.append((found[-1][0] if found else "", here))
        else:
            break
    for holder, value in reversed(found):
        named = value.get("cell") if isinstance(value, dict) else value if holder in CELL_KEYS else None
        cell = parse_map_cell(named, size["columns"], size["rows"])
        if cell is not None:
            return map_cell_name(cell)
    return None
