"""Parsers at their worst (issue 40): the costliest inputs we can build for every text the server parses
for a client, each timed along the whole path its request takes.

- TOML (a Front scenario, a Royaumes map, option ``scenario_toml``): every shape filled to the ruleset's
  ``MAX_TEXT``, or as far as tomlcheck's limits let it through, timed through ``new_game`` (options checked, the
  TOML checker, tomllib, the ruleset's own checks, the first state: what POST /api/games does), and through the
  checker and tomllib alone;
- Royaumes order messages at ``orders.MAX_TEXT``, in every shape of the order grammar, on a shipped map and on
  the own map costliest for them: the preview as POST /preview answers it (its JSON included), and the action as
  POST /actions plays it (the events and the view, as JSON);
- JSON bodies at the body limit (64 KiB): the request-limits check, ``json.loads``, pydantic, the store's check;
- each again, end to end through the app (FastAPI's TestClient, a SQLite file, no rate limits), as much as fits
  in a body;
- maps' documents (issue 61: a map's TOML as JSON, which the server writes out as TOML before the engine reads it)
  at their worst within a body: through ``check_map`` (the check process's work) and ``POST /api/maps/check``;
- ``--search N``: hypothesis looks for a costlier TOML shape than these (a snippet repeated to the limit,
  ``hypothesis.target`` on its CPU time), and prints the worst it found.

Each figure is the best of ``--repeat`` runs (a garbage collection before each), CPU time of the process
(``time.process_time``) and wall time, in milliseconds. Note ``uptime``'s load with the figures.

    python bench/bench_parsers.py [--repeat 5] [--parts toml,orders,json,http,maps] [--search 0]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import os
import re
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from kadesh import new_game
from kadesh.core import tomlcheck
from kadesh.core.errors import RuleError
from kadesh.core.grid import map_cell_name
from kadesh.core.tomlcheck import Checker
from kadesh.rules.front import scenario as front_scenarios
from kadesh.rules.royaumes import Royaumes, rules
from kadesh.rules.royaumes import orders as royaumes_orders
from kadesh.rules.royaumes import scenario as royaumes_maps
from kadesh.rules.royaumes.scenario import SCENARIOS
from kadesh.rules.royaumes.state import initial_state
from kadesh.server.app import create_app
from kadesh.server.limits import MAX_BODY, _has_lone_surrogate
from kadesh.server.map_checks import check_map
from kadesh.server.models import ActionRequest
from kadesh.server.problems import ApiProblem
from kadesh.server.rates import RatePolicy
from kadesh.store import json_value

MAX_TEXT = {"front": front_scenarios.MAX_TEXT, "royaumes": royaumes_maps.MAX_TEXT}
SHAPES = re.compile("")  # --shapes: only the shapes whose name it matches
CHECKER = Checker("bench", {"fr": "refusé", "en": "refused"}, {"fr": "du banc", "en": "bench's"})


# -- measuring --------------------------------------------------------------------------------------------------
def outcome_of(run: Callable[[], Any]) -> str:
    """What a request would get: ok, a 4xx (the rules' own refusal), or a 500 (any other exception)."""
    try:
        run()
    except RuleError as refused:
        return f"4xx {refused.code}: {refused.en[:60]}"
    except ApiProblem as refused:  # the server's own refusal (a map's document)
        return f"{refused.status} {refused.code}: {refused.en[:60]}"
    except RecursionError:
        return "4xx (RecursionError, FastAPI's 400)"
    except Exception as error:  # noqa: BLE001 - what the bench looks for
        return f"500 {type(error).__name__}: {str(error)[:50]}"
    return "ok"


def timed(run: Callable[[], Any], repeat: int, before: Callable[[], Any] | None = None) -> tuple[float, float, str]:
    """Best CPU and wall milliseconds of ``repeat`` runs, and the outcome."""
    cpu = wall = math.inf
    outcome = ""
    for _ in range(repeat):
        if before is not None:
            before()
        gc.collect()
        cpu0, wall0 = time.process_time(), time.perf_counter()
        outcome = outcome_of(run)
        cpu, wall = min(cpu, time.process_time() - cpu0), min(wall, time.perf_counter() - wall0)
    return cpu * 1000, wall * 1000, outcome


def chosen(shapes: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in shapes.items() if SHAPES.search(name)}


def row(path: str, shape: str, size: int, figures: tuple[float, float, str]) -> None:
    cpu, wall, outcome = figures
    print(f"| {path} | {shape} | {size:,} | {cpu:.1f} | {wall:.1f} | {outcome} |", flush=True)


def header(title: str) -> None:
    print(f"\n### {title}\n\n| path | shape | chars | CPU ms | wall ms | outcome |\n|---|---|---|---|---|---|")


def fill(piece: Callable[[int], str], size: int, head: str = "", tail: str = "",
         items: Callable[[str], int] | None = None, most: float = math.inf) -> str:
    """``head``, then ``piece(0)``, ``piece(1)``… as many as fit in ``size`` characters with ``tail`` (and in
    ``most`` items, as ``items`` counts them)."""
    parts, used, index = [head], len(head) + len(tail), 0
    counted = items(head + tail) if items else 0
    while used + len(next_piece := piece(index)) <= size:
        counted += items(next_piece) if items else 0
        if counted > most:
            break
        parts.append(next_piece)
        used += len(next_piece)
        index += 1
    return "".join(parts) + tail


# Before issue 40's count of items, a shape was filled to MAX_TEXT; since, to what tomlcheck lets through.
MAX_ITEMS = getattr(tomlcheck, "MAX_ITEMS", math.inf)


def toml_fill(piece: Callable[[int], str], size: int, head: str = "", tail: str = "") -> str:
    """As ``fill``, up to the most the TOML checker accepts: the costliest text within the limits."""
    if not math.isfinite(MAX_ITEMS):
        return fill(piece, size, head, tail)
    return fill(piece, size, head, tail, lambda text: tomlcheck.items(tomlcheck.set_aside(text)), MAX_ITEMS)


# -- TOML -------------------------------------------------------------------------------------------------------
EIGHT = ".b.c.d.e.f.g.h"  # seven more parts: a key of eight, the most tomlcheck lets through


def toml_shapes(size: int) -> dict[str, str]:
    """Every shape of TOML we could think of, each filled to ``size`` characters."""
    unit: dict[str, Callable[[int], str]] = {
        "plain keys": lambda i: f"k{i} = 1\n",
        "8-part keys": lambda i: f"k{i}{EIGHT} = 1\n",
        "tables": lambda i: f"[t{i}]\n",
        "tables, an 8-part key in each": lambda i: f"[t{i}]\na{EIGHT}=1\n",
        "8-part tables, an 8-part key in each": lambda i: f"[t{i}{EIGHT}]\na{EIGHT}=1\n",
        "arrays of tables": lambda i: "[[t]]\nk=1\n",
        "arrays of 8-part tables": lambda i: f"[[t{EIGHT}]]\n",
        "quoted 8-part keys": lambda i: f'"k{i}"."b"."c"."d"."e"."f"."g"."h"=1\n',
        "inline tables": lambda i: f"k{i} = {{a = 1, b.c = 2}}\n",
        "deep arrays (16)": lambda i: f"x{i}=" + "[" * 16 + "]" * 16 + "\n",
        "deep inline tables (16)": lambda i: f"x{i}=" + "{a=" * 15 + "{}" + "}" * 15 + "\n",
        "comments full of dots": lambda i: "# a.b.c.d.e.f.g.h.i.j.k.l.m\n",
        "blank lines": lambda i: "\n",
    }
    shapes = {name: toml_fill(piece, size) for name, piece in unit.items()}
    values = {"array of integers": "1,", "array of arrays": "[1],", "array of inline tables": "{b=1},",
              "array of floats": "1.5,", "array of empty strings": '"",'}
    shapes |= {name: toml_fill(lambda i, e=element: e, size, "x = [", "]") for name, element in values.items()}
    room = size - 20
    shapes |= {
        "long string": 'x = "' + "a" * room + '"',
        "string of escapes": 'x = "' + "\\u00e9" * (room // 6) + '"',
        "multi-line string": 'x = """' + "a\n" * (room // 2) + '"""',
        "multi-line string, line-ending backslashes": 'x = """' + "a\\\n  " * (room // 5) + '"""',
        "long bare key": "k" * room + " = 1",
        "long quoted key": '"' + "k" * room + '" = 1',
        "control character at the end": 'x = "' + "a" * room + '\x01"',
        "control character in a comment at the end": toml_fill(lambda i: f"k{i} = 1\n", room) + "#\x7f",
        "unterminated multi-line string": 'x = """' + "a" * room,
        "integer of 4,301 digits": "x = " + "1" * 4_301,
        "unterminated triple quotes (checker)": fill(lambda i: '"""\\', size),
        "lone quotes (checker)": fill(lambda i: "'''" + "'" * 5 + "\n", size),
        "a quote in a comment hides a dotted key (checker)":
            '# "\\\n' + "k" + ".k" * ((room - 20) // 2) + " = 1 # \\\n" + '# "\n',
    }
    return shapes


def royaumes_map(size: int, fill_with: str) -> str:
    """A valid map of the most costly kind we can build within ``size``: 200 × 200 cells, 8 kingdoms with
    20 aliases each, then as many cities, armies or river cells (``fill_with``) as fit."""
    name = "n" * 55
    rows = "".join(f'  "{"." * 200}",\n' for _ in range(200))
    head = (f'[scenario]\nid = "worst"\nfr = "{name}"\nen = "{name}"\nresources = ["gold"]\n'
            f"[map]\nrows = [\n{rows}]\n[costs]\narmy = {{ gold = 1 }}\nspy = {{ gold = 1 }}\nguild = {{ gold = 1 }}\n")
    kingdoms = []
    for k in range(8):
        aliases = ", ".join(f'"{name}{k:02d}{a:02d}"' for a in range(20))
        kingdoms.append(f'[kingdoms.k{k}]\nfr = "{name}{k}f"\nen = "{name}{k}e"\naliases = [{aliases}]\n'
                        f"military_level = 1\npopulation = 1\nresources = {{ gold = 1 }}\n"
                        f'cities = [{{ name = "c{k}", cell = "{map_cell_name((k, 0))}" }}')
    text = head + "".join(k + "]\n" for k in kingdoms)
    room = size - len(text) - 200
    cells = (map_cell_name((x, y)) for y in range(1, 200) for x in range(200))
    if fill_with == "cities":
        per = room // 8 // len(f'{{ name = "{name}00000", cell = "AAA200" }}, ') + 1
        text = head + "".join(kingdom + "".join(f', {{ name = "{name}{k}{c:04d}", cell = "{next(cells)}" }}'
                                                 for c in range(min(per, 999))) + "]\n"
                              for k, kingdom in enumerate(kingdoms))
    elif fill_with == "armies":
        listed = fill(lambda i: f'"{map_cell_name((i % 200, i // 200))}",', room)
        text = text.replace("[kingdoms.k0]\n", f"[kingdoms.k0]\narmies = [{listed}]\n", 1)
    else:  # river cells, drawn for the eye: 100 features of up to 1,000 cells each
        per_feature = fill(lambda i: f'"{map_cell_name((i % 200, i // 200))}",', 4_000)
        features = fill(lambda i: f'[[map.features]]\nkind = "river"\npath = [{per_feature}]\n', room)
        text += features
    return text


def front_battle(size: int, works: float = 0.5) -> str:
    """A valid battle of the most costly kind we can build: 64 × 64 cells, 400 units, then trenches (``works``
    of the room left) and mines."""
    rows = "".join(f'  "{"." * 64}",\n' for _ in range(64))
    tables = ('[scenario]\nseason = "summer"\nhour = "morning"\n[legend]\n"." = "meadow"\n'
              f"[map]\nrows = [\n{rows}]\n")
    kinds = ("infantry", "heavy_tank", "observer", "sniper", "scout", "general", "engineer", "mortar")
    units = "units = [\n"
    for index in range(400):
        side, x, y = ("blue", "red")[index % 2], index % 64, (index // 64) * 2 + index % 2 * 40
        units += f'  {{ side = "{side}", type = "{kinds[index % len(kinds)]}", cell = "{map_cell_name((x, y))}" }},\n'
    units += "]\n"
    free = [(x, y) for y in range(64) for x in range(64) if not (y < 14 or 40 <= y < 54)]
    room = size - len(tables) - len(units)
    trenches = fill(lambda i: f'{{ kind = "trench", cell = "{map_cell_name(free[i])}" }},\n',
                    int(room * works), "structures = [\n", "]\n")
    taken = trenches.count("trench")
    mines = fill(lambda i: f'{{ side = "red", cell = "{map_cell_name(free[taken + i])}" }},\n',
                 room - len(trenches), "mines = [\n", "]\n")
    return units + trenches + mines + tables


def toml_part(repeat: int) -> None:
    """Time every TOML shape, in process."""
    for ruleset, size in MAX_TEXT.items():
        header(f"TOML, {ruleset} (MAX_TEXT = {size:,})")
        shapes = toml_shapes(size)
        if ruleset == "royaumes":
            shapes |= {f"valid map, most {what}": royaumes_map(size, what) for what in ("cities", "armies", "river")}
        else:
            shapes["valid battle, most units, works and mines"] = front_battle(size)
            shapes["valid battle, most units and works"] = front_battle(size, works=1.0)
        clear = royaumes_maps.from_toml.cache_clear
        for shape, text in chosen(shapes).items():
            parsed = timed(partial(CHECKER.parse, text, size), repeat)
            row("checker + tomllib", shape, len(text), parsed)
            whole = timed(partial(new_game, ruleset, seed="bench", options={"scenario_toml": text}), repeat, clear)
            row(f"new_game({ruleset})", shape, len(text), whole)


# -- Royaumes order messages ------------------------------------------------------------------------------------
def order_shapes(size: int, state: Any) -> dict[str, str]:
    """Every shape of the order grammar, filled to ``size`` characters, in names of ``state``'s map."""
    kingdom = state.scenario.kingdoms[sorted(state.scenario.kingdoms)[-1]]
    other = max([kingdom.names["fr"], *kingdom.aliases], key=len)
    city = max(state.cities, key=len)
    cells = [map_cell_name((x, y)) for y in range(state.scenario.height) for x in range(state.scenario.width)]
    listed = {"war on unknown names": "guerre: ", "war on a kingdom, by its longest name": "guerre: ",
              "stay list of cells": "reste: ", "stay list of unknown cells": "reste: ", "spy list": "espion: "}
    names = {"war on unknown names": "x", "war on a kingdom, by its longest name": other,
             "stay list of cells": cells[0], "stay list of unknown cells": "q", "spy list": "x"}
    shapes = {shape: fill(lambda i, n=names[shape]: n + ",", size, start) for shape, start in listed.items()}
    lines = {
        "moves": lambda i: f"{cells[i % len(cells)]} -> {cells[(i + 1) % len(cells)]}\n",
        "moves with a count": lambda i: f"99999 x {cells[0]} -> {cells[1]}\n",
        "moves off the map": lambda i: "zzz9999 -> zzz9999\n",
        "stays": lambda i: f"{cells[0]} reste\n",
        "armies raised in the longest city name": lambda i: f"créer armée à {city}\n",
        "armies raised in an unknown city": lambda i: f"create army at {'x' * 60}\n",
        "build, conquest, tribute": lambda i: ("construire: guilde\n", "conquête: détruire\n", "tribut: or\n")[i % 3],
        "lines not understood (one character)": lambda i: "x\n",
        "blank lines": lambda i: "\n",
    }
    most = getattr(royaumes_orders, "MAX_LINES", royaumes_orders.MAX_ITEMS)  # as many lines as a message may have
    shapes |= {shape: fill(piece, size, items=lambda text: text.count("\n"), most=most)
               for shape, piece in lines.items()}
    shapes |= {"one long line": "x" * size, "characters NFKD makes 18 of (U+FDFA)": "guerre: " + "\ufdfa" * (size - 8),
               "combining accents": "e" + "\u0301" * (size - 1),
               "one line too many": "x\n" * most + "x"}
    return shapes


def order_map(size: int) -> Any:
    """The own map costliest for orders: 8 kingdoms with 20 long aliases, and as many long city names as fit."""
    return royaumes_maps.from_toml(royaumes_map(size, "cities"))


def orders_part(repeat: int) -> None:
    """Time every order shape on the shipped map and on the costliest own map, in process."""
    ruleset = Royaumes()
    size = royaumes_orders.MAX_TEXT
    for label, scenario in (("nil", SCENARIOS["nil"]), ("own map", order_map(royaumes_maps.MAX_TEXT))):
        state = initial_state(scenario)
        seat = sorted(state.kingdoms)[0]
        header(f"Order messages, map {label} ({len(state.scenario.kingdoms)} kingdoms, {len(state.cities)} cities; "
               f"MAX_TEXT = {size:,})")
        for shape, text in chosen(order_shapes(size, state)).items():
            action = {"type": "orders", "text": text}
            preview = timed(partial(_preview, ruleset, state, seat, action), repeat)
            row("preview", shape, len(text), preview)
            played = timed(partial(_act, ruleset, state, seat, action), repeat)
            row("action", shape, len(text), played)


def _preview(ruleset: Royaumes, state: Any, seat: str, action: dict[str, Any]) -> None:
    """What POST /preview does once the game is read: the preview, written out as JSON."""
    json.dumps(ruleset.preview(state, seat, action))


def _act(ruleset: Royaumes, state: Any, seat: str, action: dict[str, Any]) -> None:
    """What POST /actions does once the game is read: the store's check, the rules, the events and the view
    written out as JSON."""
    played = state.copy()
    events = rules.apply(played, seat, json_value(action))
    json.dumps([event.to_dict() for event in events])
    json.dumps(ruleset.view(played, seat))


# -- JSON bodies ------------------------------------------------------------------------------------------------
def json_bodies(size: int) -> dict[str, bytes]:
    """JSON bodies of ``size`` bytes at most, as an action would come."""
    def action(inner: str) -> bytes:
        return f'{{"expected_version": 0, "action": {inner}}}'.encode()

    room = size - 60
    return {
        "deep arrays (beyond the recursion limit)": action('{"a": ' + "[" * (room // 2) + "]" * (room // 2) + "}"),
        "deep arrays (900)": action('{"a": ' + "[" * 900 + "]" * 900 + "}"),
        "deep objects (900)": action('{"a": ' + '{"a":' * 900 + "1" + "}" * 900 + "}"),
        "many keys": action(fill(lambda i: f'"k{i}":0,', room, "{", '"type":"x"}')),
        "long string": action('{"type": "' + "a" * room + '"}'),
        "lone surrogates": action('{"type": "' + "\\ud800" * (room // 6) + '"}'),
        "surrogate pairs": action('{"type": "' + "\\ud800\\udc00" * (room // 12) + '"}'),
        "escapes": action('{"type": "' + "\\u00e9" * (room // 6) + '"}'),
        "many small arrays": action('{"a": [' + fill(lambda i: "[],", room - 10) + "[]]}"),
        "integer of 4,301 digits": action('{"a": ' + "1" * 4_301 + "}"),
        "many floats": action('{"a": [' + fill(lambda i: "1e400,", room - 10) + "1]}"),
    }


def json_part(repeat: int, bodies: dict[str, bytes]) -> None:
    header(f"JSON bodies (MAX_BODY = {MAX_BODY:,} bytes): limits check, json.loads, pydantic, the store's check")
    for shape, body in chosen(bodies).items():
        def read(b: bytes = body) -> None:
            if _has_lone_surrogate(b):
                raise RuleError("invalid_unicode", "", "lone surrogate (RequestLimits' 400)")
            try:
                parsed = json.loads(b)
            except (ValueError, RecursionError) as error:  # FastAPI answers 422 or 400
                raise RuleError("not_json", "", f"{type(error).__name__} (FastAPI's 4xx)") from None
            json_value(ActionRequest.model_validate(parsed).action)

        row("in process", shape, len(body), timed(read, repeat))


# -- HTTP, end to end -------------------------------------------------------------------------------------------
def http_part(repeat: int, bodies: dict[str, bytes]) -> None:
    header("End to end through the app (TestClient, SQLite, no rate limits); each text as much as fits in a body")
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'bench.sqlite3'}", local_workers=0,
                         rate_policy=RatePolicy.unlimited())
        with TestClient(app) as client:
            for ruleset, size in MAX_TEXT.items():
                shapes = toml_shapes(min(size, MAX_BODY))
                if ruleset == "royaumes":
                    shapes["valid map, most armies"] = _fitting(lambda n: royaumes_map(n, "armies"), size)
                else:
                    shapes["valid battle, most units, works and mines"] = _fitting(front_battle, size)
                for shape, text in chosen(shapes).items():
                    body = _body({"ruleset": ruleset, "options": {"scenario_toml": text}})
                    while len(body) > MAX_BODY:  # cut to what fits in a body
                        text = text[: len(text) * MAX_BODY // len(body) - 64]
                        body = _body({"ruleset": ruleset, "options": {"scenario_toml": text}})
                    row("POST /api/games", f"{ruleset}: {shape}", len(text),
                        timed(_posting(client, "/api/games", body), repeat, _clear))
            game_id, token = _royaumes_game(client)
            for shape, text in chosen(order_shapes(royaumes_orders.MAX_TEXT, initial_state(SCENARIOS["nil"]))).items():
                action = {"type": "orders", "text": text}
                run = _posting(client, f"/api/games/{game_id}/preview", _body({"action": action}), token)
                row("POST /preview", shape, len(text), timed(run, repeat))
                first = _FirstOrders(client, _body({"expected_version": 0, "action": action}))
                row("POST /actions", shape, len(text), timed(first.post, repeat, first.new_game))  # a new game each run
            game_id, token = _royaumes_game(client)
            for shape, raw in chosen(bodies).items():
                run = _posting(client, f"/api/games/{game_id}/actions", raw, token)
                row("POST /actions", shape, len(raw), timed(run, repeat))
        app.state.store.close()


def map_documents() -> dict[str, tuple[str, dict[str, Any]]]:
    """Documents at their worst within a body, by shape: (ruleset, document)."""
    import tomllib

    def fitting(ruleset: str, build: Callable[[int], str]) -> dict[str, Any]:
        """The largest document ``build`` makes whose body still fits."""
        size = MAX_TEXT[ruleset]
        while len(_body({"ruleset": ruleset, "document": tomllib.loads(build(size))})) > MAX_BODY:
            size -= 1_000
        return tomllib.loads(build(size))

    battle = fitting("front", front_battle)
    kingdoms = fitting("royaumes", lambda n: royaumes_map(n, "armies"))
    deep: dict[str, Any] = {"a": 1}
    for level in range(22):  # the deepest value at the 24th level, as deep as a document may go
        deep = {f"k{level}" * 200: deep}
    shapes = {
        "the largest valid battle": ("front", battle),
        "the valid map with most armies": ("royaumes", kingdoms),
        "2,000 tables under a key of 20,000 characters (each header repeats it)":
            ("front", {"x" * 20_000: {f"k{n}": {"a": 1} for n in range(2_000)}}),
        "3,000 small tables side by side": ("front", {f"t{n}": {"a": n} for n in range(3_000)}),
        "tables 23 deep, keys of 400 characters": ("royaumes", deep),
        "11,000 strings in an array": ("front", {"map": {"rows": ["x"] * 11_000}}),
    }
    for ruleset, document in shapes.values():
        assert len(_body({"ruleset": ruleset, "document": document})) <= MAX_BODY, ruleset
    return shapes


def maps_part(repeat: int) -> None:
    header("Maps' documents (issue 61): check_map (the check process's work), then POST /api/maps/check (wall)")
    shapes = chosen(map_documents())
    for shape, (ruleset, document) in shapes.items():
        run = partial(check_map, ruleset, None, document)
        row("check_map", f"{ruleset}: {shape}", len(_body(document)), timed(run, repeat, _clear))
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'bench.sqlite3'}", local_workers=0,
                         rate_policy=RatePolicy.unlimited())
        with TestClient(app) as client:
            for shape, (ruleset, document) in shapes.items():
                body = _body({"ruleset": ruleset, "document": document})
                row("POST /api/maps/check", f"{ruleset}: {shape}", len(body),
                    timed(_posting(client, "/api/maps/check", body), repeat, _clear))
        app.state.store.close()


def _body(value: Any) -> bytes:
    """A JSON body with its text in UTF-8 as is (ensure_ascii would make 6 bytes of a character)."""
    return json.dumps(value, ensure_ascii=False).encode()


def _fitting(build: Callable[[int], str], size: int) -> str:
    """The largest text ``build`` makes that still fits in a body once written as JSON."""
    text = build(size)
    while len(_body({"ruleset": "x", "options": {"scenario_toml": text}})) > MAX_BODY:
        size -= len(_body(text)) - len(text) + 1_000
        text = build(size)
    return text


class _FirstOrders:
    """Only a turn's first message is read: each run plays it in a new game."""

    def __init__(self, client: TestClient, body: bytes) -> None:
        self.client, self.body, self.game = client, body, ("", "")

    def new_game(self) -> None:
        self.game = _royaumes_game(self.client)

    def post(self) -> None:
        _posting(self.client, f"/api/games/{self.game[0]}/actions", self.body, self.game[1])()


def _clear() -> None:
    royaumes_maps.from_toml.cache_clear()


def _royaumes_game(client: TestClient) -> tuple[str, str]:
    created = client.post("/api/games", json={"ruleset": "royaumes", "options": {}}).json()
    return created["id"], created["seats"][sorted(created["seats"])[0]]["token"]


def _posting(client: TestClient, url: str, body: str | bytes, token: str | None = None) -> Callable[[], None]:
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}

    def post() -> None:
        answer = client.post(url, content=body, headers=headers)
        if answer.status_code >= 500:
            raise RuntimeError(f"{answer.status_code} {answer.text[:60]}")
        if answer.status_code >= 400:
            code = answer.json().get("code", answer.json().get("detail", ""))
            raise RuleError(str(code)[:40] or str(answer.status_code), "", str(answer.status_code))
    return post


# -- hypothesis looks for worse ---------------------------------------------------------------------------------
def search_part(examples: int) -> None:
    """Hypothesis draws a TOML snippet from the grammar's pieces, repeats it to the largest MAX_TEXT (a
    Royaumes map's) or the most items tomlcheck lets through, and steers (``target``) towards the costliest;
    prints the ten worst it met, timed again."""
    from hypothesis import HealthCheck, Phase, given, settings, target
    from hypothesis import strategies as st

    word = st.sampled_from(["a", "b", "k{i}", '"q{i}"', "'l'", "t{i}"])
    key = st.lists(word, min_size=1, max_size=8).map(".".join)
    scalar = st.sampled_from(["1", "1.5", "true", '""', "1979-05-27", "0x1", "inf", "[]", "{}"])
    value = st.recursive(scalar, lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda items: "[" + ",".join(items) + "]"),
        st.lists(st.tuples(key, inner), max_size=3).map(
            lambda pairs: "{" + ",".join(f"{k}={v}" for k, v in pairs) + "}")), max_leaves=6)
    line = st.one_of(st.tuples(key, value).map(lambda kv: f"{kv[0]} = {kv[1]}"), key.map(lambda k: f"[{k}]"),
                     key.map(lambda k: f"[[{k}]]"), st.just("# a.b.c"), st.just(""))
    snippet = st.lists(line, min_size=1, max_size=4).map(lambda lines: "\n".join(lines) + "\n")
    size, found, read = royaumes_maps.MAX_TEXT, [], royaumes_maps.from_toml.__wrapped__

    @settings(max_examples=examples, database=None, deadline=None, phases=[Phase.generate, Phase.target],
              suppress_health_check=list(HealthCheck))
    @given(snippet)
    def costliest(piece: str) -> None:
        text = toml_fill(lambda i: piece.replace("{i}", str(i)), size)
        cpu, _, outcome = timed(partial(read, text), 1)
        found.append((cpu, piece, outcome))
        target(cpu)

    costliest()
    header(f"Hypothesis's costliest TOML ({examples} examples, a snippet repeated to {size:,} characters)")
    for _, piece, _ in sorted(found, reverse=True)[:10]:
        text = toml_fill(lambda i, p=piece: p.replace("{i}", str(i)), size)
        again = timed(partial(read, text), 3)
        row("royaumes from_toml", repr(piece).replace("|", "\\|"), len(text), again)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--parts", default="toml,orders,json,http,maps")
    parser.add_argument("--shapes", default="", help="a regular expression: only the shapes it finds")
    parser.add_argument("--search", type=int, default=0, help="hypothesis examples looking for a worse TOML")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    global SHAPES
    SHAPES = re.compile(args.shapes)
    print(f"load average at the start: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; repeat {args.repeat}")
    started = time.perf_counter()
    bodies = json_bodies(MAX_BODY)
    if "toml" in parts:
        toml_part(args.repeat)
    if "orders" in parts:
        orders_part(args.repeat)
    if "json" in parts:
        json_part(args.repeat, bodies)
    if "http" in parts:
        http_part(args.repeat, bodies)
    if "maps" in parts:
        maps_part(args.repeat)
    if args.search:
        search_part(args.search)
    print(f"\nload average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
