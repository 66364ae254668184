"""A STAND-IN for ``POST /api/maps/check`` and ``POST /api/maps/preview`` (issue 61), kept only so that the
designer page (branch ``designer``) can be built and tested while the real routes are written on branch
``maps-api``: the lead drops this file at the merge, in favour of those. It keeps to the contract
(/tmp/s23/maps_contract.md) and asks the engine itself: a game is made from the text as ``POST /api/games``
makes it (``new_game``), so the faults and the view are the engine's own. Its TOML writer is the smallest
that writes a document of the two formats back; the real one lives in kadesh/core."""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from kadesh.core import new_game
from kadesh.core.errors import RuleError
from kadesh.core.grid import parse_map_cell
from kadesh.server.problems import ApiProblem

router = APIRouter(prefix="/api")
DESIGNABLE = ("front", "royaumes")
_WHERE = re.compile(r"^[^,:]+, (.+?) : ")  # « Scénario refusé, units[3].cell : … »
_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _ruleset(body: dict[str, Any]) -> str:
    ruleset = body.get("ruleset")
    if ruleset not in DESIGNABLE:
        raise ApiProblem(422, "bad_request", "« ruleset » : front ou royaumes.", "'ruleset': front or royaumes.")
    return ruleset


@router.post("/maps/check", include_in_schema=False)
async def check(body: dict[str, Any]) -> dict[str, Any]:
    ruleset = _ruleset(body)
    if isinstance(body.get("document"), dict):
        document, text = body["document"], write(body["document"])
    elif isinstance(body.get("toml"), str):
        text = body["toml"]
        try:
            document = tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            document = None
    else:
        raise ApiProblem(422, "bad_request", "« toml » ou « document » attendu.", "'toml' or 'document' expected.")
    fault = await run_in_threadpool(_fault, ruleset, text)
    faults = [] if fault is None else [_described(fault, document)]
    size = _size(document)
    return {"ruleset": ruleset, "toml": text, "document": document, "playable": not faults, "faults": faults,
            "size": size}


@router.post("/maps/preview", include_in_schema=False)
async def preview(body: dict[str, Any]) -> dict[str, Any]:
    ruleset, seat = _ruleset(body), body.get("seat")
    try:
        game = await run_in_threadpool(new_game, ruleset, None, {"scenario_toml": body.get("toml", "")})
        view = game.view(seat)
    except RuleError as error:
        raise ApiProblem(422, error.code, error.fr, error.en) from None
    return {"view": view, "seat": seat}


def _fault(ruleset: str, text: str) -> RuleError | None:
    try:
        new_game(ruleset, "check", {"scenario_toml": text})
    except RuleError as error:
        return error
    return None


def _described(error: RuleError, document: Any) -> dict[str, Any]:
    found = _WHERE.match(error.fr)
    where = found.group(1) if found else ""
    return {"where": where, "cell": _cell_named(document, where), "message": error.fr, "message_en": error.en}


def _cell_named(document: Any, where: str) -> str | None:
    """The map cell the key at fault names: its own value (``units[3].cell``), else its table's ``cell``."""
    node, tables = document, []
    for name, index in _STEP.findall(where):
        if isinstance(node, dict) and name in node:
            tables.append(node)
            node = node[name]
        elif index and isinstance(node, list) and 0 < int(index) <= len(node):
            node = node[int(index) - 1]
        else:
            break
    for value in [node, *(t.get("cell") for t in reversed(tables) if isinstance(t, dict))]:
        if isinstance(value, str) and parse_map_cell(value, 200, 200) is not None:
            return value
        if isinstance(value, dict) and isinstance(value.get("cell"), str):
            return value["cell"]
    return None


def _size(document: Any) -> dict[str, int] | None:
    rows = document.get("map", {}).get("rows") if isinstance(document, dict) else None
    if not isinstance(rows, list) or not rows or not isinstance(rows[0], str):
        return None
    return {"columns": len(rows[0]), "rows": len(rows)}


# -- the smallest TOML writer for these documents -------------------------------------------------------------
def write(document: dict[str, Any]) -> str:
    lines: list[str] = []
    _table(lines, [], document)
    return "\n".join(lines).strip() + "\n"


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _table(lines: list[str], path: list[str], table: dict[str, Any], header: str | None = None) -> None:
    plain = {k: v for k, v in table.items() if not isinstance(v, dict) and not _is_tables(v)}
    if header is not None:
        lines += ["", header]
    elif path and plain:
        lines += ["", f"[{_dotted(path)}]"]
    lines += [f"{_key(k)} = {_value(v)}" for k, v in plain.items()]
    for key, value in table.items():
        if isinstance(value, dict):
            _table(lines, [*path, key], value)
    for key, value in table.items():
        if _is_tables(value):
            for item in value:
                _table(lines, [*path, key], item, f"[[{_dotted([*path, key])}]]")


def _dotted(path: list[str]) -> str:
    return ".".join(_key(k) for k in path)


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise ApiProblem(422, "bad_request", "valeur inconnue dans le document.", "unknown value in the document.")
