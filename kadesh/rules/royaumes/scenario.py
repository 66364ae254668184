"""Royaumes maps: the TOML format (docs/rules/royaumes.md, « A map of one's own »), read and checked
key by key.

The shipped maps and a game master's own (``options["scenario_toml"]``) come through the same
door: a map that is not well-formed TOML, that has an unknown or missing key, a value of the
wrong kind, two cities on one cell, or a city or army on water, is refused with a ``RuleError``
``bad_scenario`` that names the key at fault (``kingdoms.koush.cities[2].cell``).
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources as package_files
from typing import Any

from kadesh.core.grid import Cell, map_cell_name, parse_map_cell
from kadesh.core.tomlcheck import Checker
from kadesh.rules.royaumes.data import GAME_MASTER, LAND, WATER, CitySpec, KingdomSpec, Scenario

MAX_TEXT = 60_000       # characters of TOML in an uploaded map: under a request's 64 KiB, so that its refusal names it
MAX_SIDE = 200          # cells: a map is at most 200 × 200
MAX_KINGDOMS = 8
MAX_ARMIES = 10_000     # armies on the map at the start, all kingdoms together
MAX_NUMBER = 10**9      # resources, population, costs
MAX_LEVEL = 100         # military and Guild levels
NAME_LENGTH = 60        # characters of a name (a kingdom's, a city's, a resource's)
COSTS = ("army", "spy", "guild")
FEATURE_KINDS = ("river", "sea", "lake")
ID = re.compile(r"[a-z][a-z0-9_]{0,31}")
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")

_TOP = ({"scenario", "map", "costs", "kingdoms"}, {"resource_names"})
_HEAD = ({"id", "fr", "en", "resources"}, set())
_MAP = ({"rows"}, {"features"})
_KINGDOM = ({"fr", "en", "cities", "military_level", "population", "resources"},
            {"aliases", "colour", "armies", "guild_level"})
_CITY = ({"name", "cell"}, set())
_FEATURE = ({"kind"}, {"fr", "en", "path", "label"})


CHECK = Checker("bad_scenario", {"fr": "Carte refusée", "en": "Map refused"}, {"fr": "de la carte", "en": "map's"})
bad = CHECK.bad  # a map refused, naming the key at fault


@lru_cache(maxsize=64)
def from_toml(text: str) -> Scenario:
    """A map from its whole TOML text, checked (RuleError ``bad_scenario``). The same text gives
    the same (immutable) scenario, read once."""
    return from_dict(CHECK.parse(text, MAX_TEXT))


def from_dict(raw: object) -> Scenario:
    """A map from its TOML structure (also how tests and benches make their own)."""
    top = _keys(raw, "", *_TOP)
    head = _keys(top["scenario"], "scenario", *_HEAD)
    resources = _resources(head["resources"])
    rows, water = _rows(_keys(top["map"], "map", *_MAP)["rows"])
    width, height = len(rows[0]), len(rows)
    names = _resource_names(top.get("resource_names", {}), resources)
    reader = _Reader(width, height, water)
    kingdoms = _kingdoms(top["kingdoms"], reader, resources)
    return Scenario(
        id=_id(head["id"], "scenario.id"), names=_names(head, "scenario"), width=width, height=height,
        water=water, resources=resources, resource_names=names, costs=_costs(top["costs"], resources),
        kingdoms=kingdoms,
        features=tuple(_feature(f, f"map.features[{i}]", reader)
                       for i, f in enumerate(_list(top["map"].get("features", []), "map.features", 100), start=1)))


# -- values ----------------------------------------------------------------------------------------
_keys, _int, _list = CHECK.keys, CHECK.integer, CHECK.items


def _text(raw: object, where: str) -> str:
    return CHECK.text(raw, where, NAME_LENGTH).strip()


def _names(raw: dict[str, Any], where: str) -> dict[str, str]:
    return {lang: _text(raw[lang], f"{where}.{lang}") for lang in ("fr", "en")}


def _id(raw: object, where: str) -> str:
    if not isinstance(raw, str) or not ID.fullmatch(raw):
        raise bad(where, "un identifiant en minuscules (a-z, 0-9, _ ; 32 caractères au plus) est attendu.",
                  "a lower-case identifier (a-z, 0-9, _; at most 32 characters) is expected.")
    return raw


def _int(raw: object, where: str, low: int, high: int) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool) or not low <= raw <= high:
        raise bad(where, f"un entier de {low} à {high} est attendu.", f"an integer from {low} to {high} is expected.")
    return raw


def _list(raw: object, where: str, most: int) -> list[Any]:
    if not isinstance(raw, list) or len(raw) > most:
        raise bad(where, f"une liste de {most} éléments au plus est attendue.",
                  f"a list of at most {most} items is expected.")
    return raw


def _resources(raw: object) -> tuple[str, ...]:
    listed = _list(raw, "scenario.resources", 20)
    if not listed:
        raise bad("scenario.resources", "au moins une ressource (l'or d'abord).", "at least one resource (gold first).")
    found = tuple(_id(r, f"scenario.resources[{i}]") for i, r in enumerate(listed, start=1))
    if len(set(found)) != len(found):
        raise bad("scenario.resources", "une ressource est nommée deux fois.", "a resource is listed twice.")
    return found


def _resource_names(raw: object, resources: tuple[str, ...]) -> dict[str, dict[str, str]]:
    table = _keys(raw, "resource_names", set(), set(resources))
    return {r: _names(_keys(table[r], f"resource_names.{r}", {"fr", "en"}, set()), f"resource_names.{r}")
            if r in table else {"fr": r, "en": r} for r in resources}


def _amounts(raw: object, where: str, resources: tuple[str, ...]) -> dict[str, int]:
    table = _keys(raw, where, set(), set(resources))
    return {r: _int(n, f"{where}.{r}", 0, MAX_NUMBER) for r, n in table.items()}


def _costs(raw: object, resources: tuple[str, ...]) -> dict[str, dict[str, int]]:
    table = _keys(raw, "costs", set(COSTS), set())
    return {what: _amounts(table[what], f"costs.{what}", resources) for what in COSTS}


def _rows(raw: object) -> tuple[list[str], frozenset[Cell]]:
    rows = _list(raw, "map.rows", MAX_SIDE)
    if not rows:
        raise bad("map.rows", "la carte n'a aucune ligne.", "the map has no row.")
    width = len(rows[0]) if isinstance(rows[0], str) else 0
    for number, row in enumerate(rows, start=1):
        where = f"map.rows[{number}]"
        if not isinstance(row, str) or len(row) != width or not 1 <= width <= MAX_SIDE:
            length = len(row) if isinstance(row, str) else 0
            end = map_cell_name((min(length, width - 1), number - 1)) if 1 <= width <= MAX_SIDE else None
            raise bad(where, f"toutes les lignes ont la même longueur, de 1 à {MAX_SIDE} cases.",
                      f"every row has the same length, 1 to {MAX_SIDE} cells.", end)
        strange = next((column for column, mark in enumerate(row) if mark not in (LAND, WATER)), None)
        if strange is not None:
            raise bad(where, f"« {LAND} » pour la terre, « {WATER} » pour l'eau, rien d'autre.",
                      f"'{LAND}' for land, '{WATER}' for water, nothing else.", map_cell_name((strange, number - 1)))
    water = frozenset((x, y) for y, row in enumerate(rows) for x, mark in enumerate(row) if mark == WATER)
    return rows, water


class _Reader:
    """Cells of one map, and what already stands on them."""

    def __init__(self, width: int, height: int, water: frozenset[Cell]) -> None:
        self.width, self.height, self.water = width, height, water
        self.cities: dict[Cell, str] = {}
        self.city_names: set[str] = set()
        self.armies = 0

    def cell(self, raw: object, where: str, land: bool = True) -> Cell:
        cell = parse_map_cell(raw, self.width, self.height)
        corner = map_cell_name((self.width - 1, self.height - 1))
        if cell is None:
            raise bad(where, f"« {raw} » n'est pas une case de la carte (A1 à {corner}).",
                      f"'{raw}' is not a cell of the map (A1 to {corner}).")
        if land and cell in self.water:
            raise bad(where, f"{map_cell_name(cell)} est de l'eau.", f"{map_cell_name(cell)} is water.")
        return cell

    def city(self, raw: object, where: str) -> CitySpec:
        city = _keys(raw, where, *_CITY)
        name = _text(city["name"], f"{where}.name")
        cell = self.cell(city["cell"], f"{where}.cell")
        if name.casefold() in self.city_names:
            raise bad(f"{where}.name", f"une autre cité s'appelle déjà {name}.",
                      f"another city is already called {name}.")
        if cell in self.cities:
            raise bad(f"{where}.cell", f"{self.cities[cell]} est déjà sur {map_cell_name(cell)}.",
                      f"{self.cities[cell]} already stands on {map_cell_name(cell)}.")
        self.city_names.add(name.casefold())
        self.cities[cell] = name
        return CitySpec(name, cell)


def _kingdoms(raw: object, reader: _Reader, resources: tuple[str, ...]) -> dict[str, KingdomSpec]:
    table = _keys(raw, "kingdoms", set(), set(raw) if isinstance(raw, dict) else set())
    if not 2 <= len(table) <= MAX_KINGDOMS:
        raise bad("kingdoms", f"de 2 à {MAX_KINGDOMS} royaumes.", f"2 to {MAX_KINGDOMS} kingdoms.")
    kingdoms = {}
    for kid, spec_raw in table.items():
        where = f"kingdoms.{kid}"
        if _id(kid, where) == GAME_MASTER:
            raise bad(where, f"« {GAME_MASTER} » est le siège du maître du jeu.",
                      f"'{GAME_MASTER}' is the game master's seat.")
        spec = _keys(spec_raw, where, *_KINGDOM)
        cities = _list(spec["cities"], f"{where}.cities", 1_000)
        if not cities:
            raise bad(f"{where}.cities", "au moins une cité, la cité initiale d'abord.",
                      "at least one city, the initial city first.")
        armies = _list(spec.get("armies", []), f"{where}.armies", MAX_ARMIES)
        reader.armies += len(armies)
        if reader.armies > MAX_ARMIES:
            raise bad(f"{where}.armies", f"plus de {MAX_ARMIES} armées sur la carte.",
                      f"more than {MAX_ARMIES} armies on the map.")
        colour = spec.get("colour", "#888888")
        if not isinstance(colour, str) or not COLOUR.fullmatch(colour):
            raise bad(f"{where}.colour", "une couleur « #rrvvbb » est attendue.", "a '#rrggbb' colour is expected.")
        aliases = _list(spec.get("aliases", []), f"{where}.aliases", 20)
        kingdoms[kid] = KingdomSpec(
            id=kid, names=_names(spec, where),
            aliases=tuple(_text(a, f"{where}.aliases[{i}]") for i, a in enumerate(aliases, start=1)),
            colour=colour,
            cities=tuple(reader.city(c, f"{where}.cities[{i}]") for i, c in enumerate(cities, start=1)),
            armies=tuple(reader.cell(a, f"{where}.armies[{i}]") for i, a in enumerate(armies, start=1)),
            military_level=_int(spec["military_level"], f"{where}.military_level", 1, MAX_LEVEL),
            population=_int(spec["population"], f"{where}.population", 0, MAX_NUMBER),
            guild_level=_int(spec.get("guild_level", 0), f"{where}.guild_level", 0, MAX_LEVEL),
            resources=_amounts(spec["resources"], f"{where}.resources", resources),
        )
    return kingdoms


def _feature(raw: object, where: str, reader: _Reader) -> dict[str, Any]:
    """Drawn on the map for the eye, never read by the rules: a river's path, a sea's or lake's name."""
    spec = _keys(raw, where, *_FEATURE)
    if spec["kind"] not in FEATURE_KINDS:
        raise bad(f"{where}.kind", f"valeurs permises : {', '.join(FEATURE_KINDS)}.",
                  f"allowed values: {', '.join(FEATURE_KINDS)}.")
    out: dict[str, Any] = {"kind": spec["kind"], "names": {lang: spec.get(lang, "") for lang in ("fr", "en")}}
    for lang in ("fr", "en"):
        if lang in spec:
            _text(spec[lang], f"{where}.{lang}")
    if "path" in spec:
        path = _list(spec["path"], f"{where}.path", 1_000)
        out["path"] = [map_cell_name(reader.cell(c, f"{where}.path[{i}]", land=False)) for i, c in enumerate(path, 1)]
    if "label" in spec:
        out["label"] = map_cell_name(reader.cell(spec["label"], f"{where}.label", land=False))
    return out


def _shipped() -> dict[str, Scenario]:
    found = {}
    for entry in package_files.files(__package__).joinpath("scenarios").iterdir():
        if entry.name.endswith(".toml"):
            scenario = from_toml(entry.read_text(encoding="utf-8"))
            found[scenario.id] = scenario
    return found


SCENARIOS = _shipped()
DEFAULT_SCENARIO = "nil"
