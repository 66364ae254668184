"""Maps as documents (issue 61): the TOML writer gives back what ``tomllib`` reads, for documents of each map
format's shape, and for random edits of the shipped maps the text written from the document is the map the
document says, with exactly the engine's faults (``POST /api/maps/check``'s own function)."""

from __future__ import annotations

import copy
import tomllib
from importlib import resources

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kadesh.core.errors import RuleError
from kadesh.core.tomlwrite import NotWritable, TooLong, write
from kadesh.rules.front import scenario as front
from kadesh.rules.royaumes import scenario as royaumes
from kadesh.server.map_checks import check_map

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- documents of each format's shape ---------------------------------------------------------------------------
texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)  # any text TOML holds: no lone surrogate
keys = st.text(st.characters(blacklist_categories=("Cs",)), min_size=0, max_size=6)
ints = st.integers(min_value=-(2**63), max_value=2**63 - 1)
scalars = st.one_of(texts, ints, st.booleans())
flat_lists = st.one_of(st.lists(texts, max_size=5), st.lists(ints, max_size=5))
cells = st.builds(lambda column, row: f"{column}{row}", st.sampled_from("ABCDEFGHIJ"), st.integers(1, 12))
rows = st.lists(st.text(".~#=hfs\"\\'", min_size=1, max_size=14), min_size=1, max_size=8)


def table(**fields: st.SearchStrategy) -> st.SearchStrategy:
    """A table with some of these keys, and now and then a key of any text."""
    return st.fixed_dictionaries({}, optional={**fields, "odd key": scalars})


front_documents = st.fixed_dictionaries({
    "scenario": table(id=texts, fr=texts, en=texts, season=texts, hour=texts, days_per_season=ints),
    "legend": st.dictionaries(st.text(min_size=1, max_size=1), texts, max_size=6),
    "map": st.fixed_dictionaries({"rows": rows}),
}, optional={
    "units": st.lists(table(side=texts, type=texts, cell=cells, tag=texts, drones=st.lists(texts, max_size=2),
                            flying=st.booleans()), max_size=5),
    "points": st.lists(table(cell=cells), max_size=3),
    "mines": st.lists(table(side=texts, cell=cells), max_size=3),
    "structures": st.lists(table(kind=texts, cell=cells, side=texts, complete=st.booleans()), max_size=3),
    "victory": table(default=st.booleans(), points_to_win=ints, objectives=st.lists(
        table(kind=texts, side=texts, cells=st.lists(cells, max_size=3), until=ints, tag=texts, target=texts),
        max_size=2)),
})

amounts = st.dictionaries(keys, ints, max_size=3)
kingdom = table(fr=texts, en=texts, aliases=st.lists(texts, max_size=3), colour=texts, military_level=ints,
                population=ints, guild_level=ints, armies=st.lists(cells, max_size=4), resources=amounts,
                cities=st.lists(table(name=texts, cell=cells), max_size=3))
royaumes_documents = st.fixed_dictionaries({
    "scenario": table(id=texts, fr=texts, en=texts, resources=st.lists(texts, max_size=3)),
    "map": st.fixed_dictionaries({"rows": rows}, optional={"features": st.lists(
        table(kind=texts, fr=texts, path=st.lists(cells, max_size=4), label=cells), max_size=2)}),
    "costs": st.dictionaries(keys, amounts, max_size=3),
    "kingdoms": st.dictionaries(keys, kingdom, max_size=4),
}, optional={"resource_names": st.dictionaries(keys, table(fr=texts, en=texts), max_size=2),
             "anything": st.recursive(scalars | flat_lists, lambda inner: st.dictionaries(keys, inner, max_size=3)
                                      | st.lists(inner, max_size=3), max_leaves=8)})


@SETTINGS
@given(front_documents)
def test_a_front_document_written_reads_back_whole(document: dict) -> None:
    assert tomllib.loads(write(document)) == document


@SETTINGS
@given(royaumes_documents)
def test_a_royaumes_document_written_reads_back_whole(document: dict) -> None:
    assert tomllib.loads(write(document)) == document


def test_the_shipped_maps_written_read_back_whole() -> None:
    for ruleset in ("front", "royaumes"):
        for entry in resources.files(f"kadesh.rules.{ruleset}").joinpath("scenarios").iterdir():
            if entry.name.endswith(".toml"):
                document = tomllib.loads(entry.read_text(encoding="utf-8"))
                assert tomllib.loads(write(document)) == document, entry.name


def test_a_value_toml_has_no_word_for_is_refused_by_its_key() -> None:
    with pytest.raises(NotWritable) as refused:
        write({"units": [{"cell": "A1"}, {"cell": None}]})
    assert refused.value.where == "units[2].cell"


def test_a_legend_key_is_quoted_and_a_map_row_escaped() -> None:
    text = write({"legend": {".": "meadow", '"': "road"}, "map": {"rows": ['a"b\\c', "\t\n"]}})
    assert '"." = "meadow"' in text
    assert tomllib.loads(text)["map"]["rows"] == ['a"b\\c', "\t\n"]


# -- random edits of the shipped maps: the same map, the same faults ------------------------------------------
def shipped(ruleset: str, name: str) -> dict:
    text = resources.files(f"kadesh.rules.{ruleset}").joinpath("scenarios", f"{name}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


FRONT_SHIPPED = {name: shipped("front", name) for name in ("test_small", "skirmish", "mission_hold")}
ROYAUMES_SHIPPED = {name: shipped("royaumes", name) for name in ("delta", "nil")}
FRONT_UNITS = ["infantry", "truck", "heavy_tank", "sniper", "bomb_drone", "tank"]  # two the engine refuses


@st.composite
def front_edits(draw: st.DrawFn) -> dict:
    """A shipped battle with a few edits a designer makes: a cell of the map painted, a unit moved, added or
    removed, a capture point added or removed, the season changed."""
    document = copy.deepcopy(FRONT_SHIPPED[draw(st.sampled_from(sorted(FRONT_SHIPPED)))])
    rows = document["map"]["rows"]
    marks = [*document["legend"], "?"]  # a mark not in the legend now and then
    for _ in range(draw(st.integers(1, 4))):
        edit = draw(st.sampled_from(["paint", "move", "add", "remove", "point", "unpoint", "season"]))
        cell = draw(st.tuples(st.integers(0, len(rows[0]) - 1), st.integers(0, len(rows) - 1)))
        name = f"{chr(ord('A') + cell[0])}{cell[1] + 1}"
        units = document.setdefault("units", [])
        if edit == "paint":
            row = rows[cell[1]]
            rows[cell[1]] = row[:cell[0]] + draw(st.sampled_from(marks)) + row[cell[0] + 1:]
        elif edit == "move" and units:
            units[draw(st.integers(0, len(units) - 1))]["cell"] = name
        elif edit == "add":
            units.append({"side": draw(st.sampled_from(["blue", "red"])), "type": draw(st.sampled_from(FRONT_UNITS)),
                          "cell": name})
        elif edit == "remove" and units:
            units.pop(draw(st.integers(0, len(units) - 1)))
        elif edit == "point":
            document.setdefault("points", []).append({"cell": name})
        elif edit == "unpoint" and document.get("points"):
            document["points"].pop()
        elif edit == "season":
            document["scenario"]["season"] = draw(st.sampled_from([*front.SEASONS, "monsoon"]))
    return document


@st.composite
def royaumes_edits(draw: st.DrawFn) -> dict:
    """A shipped map with a few edits: land or water painted, an army moved, added or removed, a city added or
    removed."""
    document = copy.deepcopy(ROYAUMES_SHIPPED[draw(st.sampled_from(sorted(ROYAUMES_SHIPPED)))])
    rows = document["map"]["rows"]
    for _ in range(draw(st.integers(1, 4))):
        edit = draw(st.sampled_from(["paint", "move", "add", "remove", "city", "uncity"]))
        kingdom = document["kingdoms"][draw(st.sampled_from(sorted(document["kingdoms"])))]
        cell = draw(st.tuples(st.integers(0, len(rows[0]) - 1), st.integers(0, len(rows) - 1)))
        name = f"{chr(ord('A') + cell[0])}{cell[1] + 1}" if cell[0] < 26 else "A1"
        armies = kingdom.setdefault("armies", [])
        if edit == "paint":
            row = rows[cell[1]]
            rows[cell[1]] = row[:cell[0]] + draw(st.sampled_from(".~x")) + row[cell[0] + 1:]
        elif edit == "move" and armies:
            armies[draw(st.integers(0, len(armies) - 1))] = name
        elif edit == "add":
            armies.append(name)
        elif edit == "remove" and armies:
            armies.pop()
        elif edit == "city":
            kingdom["cities"].append({"name": draw(st.sampled_from(["Thinis", "Pe", "Abydos"])), "cell": name})
        elif edit == "uncity":
            kingdom["cities"].pop()
    return document


def engine_verdict(parse, text: str):  # noqa: ANN001, ANN202 - the format's parse; the map or the refusal
    try:
        return parse(text), None
    except RuleError as error:
        return None, error


def front_map(state: front.State) -> tuple:
    """What a battle's map is: its ground, season and hour, units, points and victory."""
    units = sorted((unit.side, unit.type.id, unit.cell, unit.aboard) for unit in state.units.values())
    return (state.width, state.height, state.original, state.season, state.hour, units, state.points, state.victory)


@settings(SETTINGS, max_examples=40)
@given(front_edits())
def test_a_front_edit_written_is_the_map_and_the_faults_the_document_says(document: dict) -> None:
    text = write(document)
    assert tomllib.loads(text) == document
    state, refused = engine_verdict(front.parse, text)
    try:
        from_document = front._build(copy.deepcopy(document))  # the engine's reading of the document itself
    except RuleError as error:
        assert refused is not None and (error.fr, error.en) == (refused.fr, refused.en)
    else:
        assert refused is None and front_map(state) == front_map(from_document)
    checked = check_map("front", document=document)
    assert checked["toml"] == text and checked["playable"] == (refused is None)
    assert [(f["message"], f["message_en"]) for f in checked["faults"]] == ([(refused.fr, refused.en)] if refused
                                                                           else [])
    where = refused.details.get("where", "") if refused else ""
    if where.startswith("units[") and where.endswith(".cell"):  # a unit placed where it may not stand: its cell
        unit = document["units"][int(where[len("units["):where.index("]")]) - 1]
        assert checked["faults"][0]["cell"] == unit["cell"], (where, unit)
    if where.startswith("map.rows["):  # a mark not in the legend: its cell
        assert checked["faults"][0]["cell"] is not None


@settings(SETTINGS, max_examples=40)
@given(royaumes_edits())
def test_a_royaumes_edit_written_is_the_map_and_the_faults_the_document_says(document: dict) -> None:
    text = write(document)
    assert tomllib.loads(text) == document
    scenario, refused = engine_verdict(royaumes.from_toml, text)
    try:
        from_document = royaumes.from_dict(copy.deepcopy(document))
    except RuleError as error:
        assert refused is not None and (error.fr, error.en) == (refused.fr, refused.en)
    else:
        assert refused is None and scenario == from_document
    checked = check_map("royaumes", document=document)
    assert checked["toml"] == text and checked["playable"] == (refused is None)
    assert [(f["message"], f["message_en"]) for f in checked["faults"]] == ([(refused.fr, refused.en)] if refused
                                                                           else [])


def test_a_document_whose_text_would_be_far_longer_is_stopped_while_written() -> None:
    """A header repeats the keys around it: 3,000 tables under a key of 30,000 characters would make 90 MB."""
    document = {"x" * 30_000: {f"k{n}": {"a": 1} for n in range(3_000)}}
    with pytest.raises(TooLong):
        write(document, most=240_000)
    assert tomllib.loads(write({"a": {"b": 1}}, most=14)) == {"a": {"b": 1}}  # "[a]\nb = 1\n": 10 characters
    with pytest.raises(TooLong):
        write({"a": {"b": 1}}, most=8)
