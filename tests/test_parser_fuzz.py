"""Every text the server parses for a client, fuzzed (issue 40): TOML maps and scenarios, Royaumes order
messages, JSON bodies, in every size, nesting, dotted and quoted key and control character hypothesis makes.

Each input is read, or refused with the parser's own error (``bad_scenario``, ``bad_action``: what the API answers
with a 4xx), never with anything else (a 500). Time is not asserted here (it lives in bench/bench_parsers.py);
what is asserted instead cannot depend on the machine's load: what the TOML parser builds never exceeds what the
checker counted before letting it run, so the limits bound the parser's work, and an order message gets one
problem a line at most, each quoting its line once.

Hypothesis's deadline is off (``deadline=None``) throughout: it is a clock, and these tests must hold on a busy
machine."""

from __future__ import annotations

import datetime
import json
import math
import tomllib
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kadesh.core import tomlcheck
from kadesh.core.errors import BAD_ACTION, RuleError
from kadesh.rules.front import scenario as front_scenarios
from kadesh.rules.royaumes import Royaumes, orders, rules
from kadesh.rules.royaumes import scenario as maps
from kadesh.rules.royaumes.scenario import SCENARIOS
from kadesh.rules.royaumes.state import initial_state
from kadesh.server.app import create_app
from kadesh.server.rates import RatePolicy
from tests.asgi_client import TestClient
from tests.test_royaumes_maps import OWN_MAP

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.data_too_large])
SHIPPED = {f"{ruleset}/{entry.name}": entry.read_text("utf-8")
           for ruleset in ("front", "royaumes")
           for entry in resources.files(f"kadesh.rules.{ruleset}").joinpath("scenarios").iterdir()
           if entry.name.endswith(".toml")}

# -- TOML, in every shape ---------------------------------------------------------------------------------------
CONTROL = st.sampled_from(["\x00", "\x01", "\x08", "\x1b", "\x7f", "\r", "\t", "\u2028", "\u202e", "\ufeff"])
SOME_TEXT = st.text(st.one_of(st.characters(codec="utf-8"), CONTROL, st.sampled_from('"\'#\\.=[]{},\n ')),
                    max_size=12)
BARE = st.one_of(st.from_regex(r"[A-Za-z0-9_-]{1,8}", fullmatch=True), st.just("t{i}"),
                 st.sampled_from(["scenario", "map", "rows", "units", "kingdoms", "legend", "cities", "1", "-"]))
QUOTED = st.one_of(SOME_TEXT.map(lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'),
                   SOME_TEXT.map(lambda t: "'" + t.replace("'", "") + "'"), SOME_TEXT.map(lambda t: f'"{t}"'))
KEY = st.lists(st.one_of(BARE, QUOTED), min_size=1, max_size=9).flatmap(
    lambda parts: st.sampled_from([".", " . ", "."]).map(lambda dot: dot.join(parts)))
SCALAR = st.one_of(
    st.integers().map(str), st.sampled_from([4_300, 4_301, 6_000]).map(lambda n: "1" * n),
    st.integers(1, 900).map(lambda n: "0x" + "f" * n),
    st.sampled_from(["1.5", "-0.0", "inf", "nan", "1e400", "1_000", "true", "false", "1979-05-27T07:32:00Z",
                     "1979-13-45", "07:32:00", "0o777", "0b1"]),
    QUOTED, SOME_TEXT.map(lambda t: f'"""{t}"""'), SOME_TEXT.map(lambda t: f"'''{t}'''"))
VALUE = st.recursive(SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=5).map(lambda items: "[" + ", ".join(items) + "]"),
    st.lists(st.tuples(KEY, inner), max_size=4).map(
        lambda pairs: "{" + ", ".join(f"{k} = {v}" for k, v in pairs) + "}"),
), max_leaves=12)


def _nested(depth: int, opening: str) -> str:
    opened = opening * depth
    return opened + "1" + "".join("]" if c == "[" else "}" for c in reversed(opened) if c in "[{")


DEEP = st.tuples(st.integers(0, 40), st.sampled_from(["[", "{a=", "[{a="])).map(lambda spec: _nested(*spec))
LINE = st.one_of(
    st.tuples(KEY, st.one_of(VALUE, DEEP)).map(lambda kv: f"{kv[0]} = {kv[1]}"),
    st.tuples(KEY, VALUE).map(lambda kv: f"{kv[0]} = {kv[1]} # \\"),  # a comment that ends in a backslash
    KEY.map(lambda k: f"[{k}]"), KEY.map(lambda k: f"[[{k}]]"),
    SOME_TEXT.map(lambda t: "#" + t), SOME_TEXT, st.just(""), st.just('# "\\'), st.just("# \\"), st.just('"""'))
SNIPPET = st.lists(LINE, min_size=1, max_size=8).flatmap(
    lambda lines: st.sampled_from(["\n", "\r\n"]).map(lambda end: end.join(lines) + end))
# Well-formed lines, whose copies the parser reads to the end: each key numbered in its copy (``{i}``).
GOOD_KEY = st.lists(st.sampled_from(["a", "b", '"q"', "'l'"]), max_size=7).map(lambda parts: ".".join(["k{i}", *parts]))
GOOD_SCALAR = st.sampled_from(["1", "1.5", "true", '""', "'x'", "1979-05-27", "0x1", "inf", '"""a\nb"""'])
GOOD_VALUE = st.recursive(GOOD_SCALAR, lambda inner: st.one_of(
    st.lists(inner, max_size=5).map(lambda items: "[" + ",".join(items) + "]"),
    st.lists(inner, max_size=3).map(lambda items: "{" + ",".join(f"v{n} = {v}" for n, v in enumerate(items)) + "}"),
), max_leaves=10)
GOOD_SNIPPET = st.lists(st.one_of(st.tuples(GOOD_KEY, GOOD_VALUE).map(lambda kv: f"{kv[0]} = {kv[1]}\n"),
                                  GOOD_KEY.map(lambda k: f"[{k}]\n"), GOOD_KEY.map(lambda k: f"[[{k}]]\n")),
                        min_size=1, max_size=4).map("".join)


@st.composite
def toml_texts(draw: st.DrawFn) -> str:
    """A document: a grammar's snippet repeated up to past the limits (``t{i}`` numbered in each copy, so that
    tables do not clash), a shipped document edited, or raw characters."""
    kind = draw(st.sampled_from(["snippet", "repeated", "well-formed", "edited", "raw"]))
    if kind == "edited":
        text = draw(st.sampled_from(sorted(SHIPPED.values())))
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.one_of(SNIPPET, SOME_TEXT, CONTROL)) + text[at + draw(st.integers(0, 3)):]
    if kind == "raw":
        return draw(st.text(st.one_of(st.sampled_from('"\'#\\.=[]{},\n t1'), CONTROL), max_size=400))
    snippet = draw(GOOD_SNIPPET if kind == "well-formed" else SNIPPET)
    copies = 1 if kind == "snippet" else draw(st.integers(2, 1 + 110_000 // len(snippet)))
    return "".join(snippet.replace("{i}", str(i)) for i in range(copies))


def read_or_refused(parse: Any, text: str) -> None:
    try:
        parse(text)
    except RuleError as refused:
        assert refused.code == "bad_scenario", refused
        assert len(refused.en) < 1_000 and len(refused.fr) < 1_000  # a long key is not echoed whole


@pytest.mark.slow
@FUZZ
@given(toml_texts())
def test_any_toml_text_is_a_scenario_a_map_or_a_bad_scenario(text):
    read_or_refused(front_scenarios.parse, text)
    read_or_refused(maps.from_toml.__wrapped__, text)  # not the cache: every text read


def nodes(value: Any) -> int:
    """What the parser built: one for each key of each table and each item of each array."""
    if isinstance(value, dict):
        return len(value) + sum(nodes(v) for v in value.values())
    if isinstance(value, list):
        return len(value) + sum(nodes(v) for v in value)
    return 0


class Spy:
    """tomllib.loads, counting what reaches it."""

    def __init__(self, loads: Any) -> None:
        self.loads, self.texts = loads, []

    def __call__(self, text: str) -> Any:
        self.texts.append(text)
        return self.loads(text)


@pytest.fixture
def spy(monkeypatch):
    watched = Spy(tomlcheck.tomllib.loads)
    monkeypatch.setattr(tomlcheck.tomllib, "loads", watched)
    return watched


CHECK = tomlcheck.Checker("bad_scenario", {"fr": "Refusé", "en": "Refused"}, {"fr": "du texte", "en": "text's"})


@pytest.mark.slow
@settings(FUZZ, suppress_health_check=[*FUZZ.suppress_health_check, HealthCheck.function_scoped_fixture])
@given(toml_texts())
def test_the_parser_never_builds_more_than_the_checker_counted(spy, text):
    """The cost proxy: what reaches the parser holds at most MAX_ITEMS items as the checker counts them, and
    the parser never builds more than that count (so no string or comment the checker set aside was read as
    keys and values: a quote in a comment hid a dotted key of 20,000 parts before)."""
    spy.texts.clear()
    try:
        parsed = CHECK.parse(text, maps.MAX_TEXT)
    except RuleError:
        parsed = None
    if not spy.texts:
        return  # refused before the parser
    counted = tomlcheck.items(tomlcheck.set_aside(text))
    assert counted <= tomlcheck.MAX_ITEMS
    if parsed is not None:
        assert nodes(parsed) <= counted


BEYOND = {
    "a dotted key of 9 parts": "a.b.c.d.e.f.g.h.i = 1",
    "a table name of 9 parts": "[a.b.c.d.e.f.g.h.i]",
    "quoted parts": '"a"."b"."c"."d"."e"."f"."g"."h"."i" = 1',
    "nesting of 17": "x = " + "[" * 17 + "]" * 17,
    "too many items": "x = [" + "1," * tomlcheck.MAX_ITEMS + "]",
    "too many tables": "".join(f"[t{i}]\n" for i in range(tomlcheck.MAX_ITEMS + 1)),
    "a quote in a comment hiding a dotted key": '# "\\\n' + "k" + ".k" * 20_000 + ' = 1 # \\\n# "\n',
    "a quote in a comment hiding tables": '# "\\\n' + "".join(f"[t{i}] # \\\n" for i in range(13_000)) + '# "\n',
    "a one-line string that does not end": 'x = "a\\\n' + "a.b.c.d.e.f.g.h.i = 1\n" + '"',
}


@pytest.mark.parametrize("text", BEYOND.values(), ids=BEYOND.keys())
def test_a_text_beyond_the_limits_never_reaches_the_parser(spy, text):
    with pytest.raises(RuleError) as refused:
        CHECK.parse(text, maps.MAX_TEXT)
    assert refused.value.code == "bad_scenario" and not spy.texts


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_the_shipped_maps_and_scenarios_stay_far_within_the_limits(name):
    text = SHIPPED[name]
    bare = tomlcheck.set_aside(text)
    assert tomlcheck.items(bare) * 10 <= tomlcheck.MAX_ITEMS and len(text) * 5 <= front_scenarios.MAX_TEXT
    assert tomlcheck._shape_problem(text) is None


def test_an_integer_python_will_not_read_is_a_bad_scenario_naming_it():
    with pytest.raises(RuleError) as refused:
        front_scenarios.parse("x = " + "1" * 5_000)
    assert refused.value.code == "bad_scenario" and "4300 digits" in refused.value.en
    assert "4300 chiffres" in refused.value.fr


def test_a_long_key_named_in_a_refusal_is_cut_short():
    with pytest.raises(RuleError) as refused:
        front_scenarios.parse("k" * 50_000 + " = 1")
    assert len(refused.value.en) < 300 and "…" in refused.value.en


# -- any value where a scenario or a map has one --------------------------------------------------------------
def toml_of(value: Any) -> str:
    """A value written as TOML (inline tables and arrays), as far as TOML can say it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return "nan" if math.isnan(value) else repr(value)  # inf and -inf as TOML writes them
    if isinstance(value, datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_of(v) for v in value) + "]"
    return "{" + ", ".join(f"{toml_of(k)} = {toml_of(v)}" for k, v in value.items()) + "}"


def toml_document(table: dict[str, Any]) -> str:
    return "".join(f"{toml_of(key)} = {toml_of(value)}\n" for key, value in table.items())


TOML_VALUE = st.recursive(
    st.one_of(st.integers(), st.floats(), st.booleans(), st.text(max_size=20), st.sampled_from(["A1", "B3", "Z99", ""]),
              st.dates(), st.times()),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=8)


def paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        found += [p for key, item in value.items() for p in paths(item, (*path, key))]
    elif isinstance(value, list):
        found += [p for index, item in enumerate(value) for p in paths(item, (*path, index))]
    return found


def replaced(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = dict(document) if isinstance(document, dict) else list(document)
    copy[path[0]] = replaced(document[path[0]], path[1:], value)
    return copy


@FUZZ
@given(st.data())
def test_any_value_anywhere_in_a_shipped_document_is_read_or_a_bad_scenario(data):
    name = data.draw(st.sampled_from(sorted(SHIPPED)))
    document = tomllib.loads(SHIPPED[name])
    path = data.draw(st.sampled_from(paths(document)[1:]))
    edited = replaced(document, path, data.draw(TOML_VALUE))
    parse = front_scenarios.parse if name.startswith("front/") else maps.from_toml.__wrapped__
    read_or_refused(parse, toml_document(edited))


# -- Royaumes order messages ------------------------------------------------------------------------------------
OWN = initial_state(maps.from_toml(OWN_MAP))
NIL = initial_state(SCENARIOS["nil"])
CELL = st.one_of(st.sampled_from(["A1", "b2", "C3", "G19", "g18", "E4", "zz9999", "Q", "a0", "A99999"]),
                 st.from_regex(r"[a-zA-Z]{1,3}[0-9]{1,5}", fullmatch=True))
NAME = st.one_of(st.sampled_from(["Koush", "koush", "Libye", "Royaume d'Aval", "Amont", "Thèbes", "THEBES", "Source",
                                  "or", "blé", "gold", "guilde", "détruire", "convert", "\ufdfa", "e\u0301"]),
                 SOME_TEXT)
LIST = st.lists(NAME, max_size=6).flatmap(
    lambda names: st.sampled_from([", ", ";", " et ", " and ", ","]).map(lambda sep: sep.join(names)))
ORDER_LINE = st.one_of(
    st.tuples(st.sampled_from(["", "2 x ", "99999 ", "3 armées ", "0 x "]), CELL,
              st.sampled_from(["->", "=>", "→", " vers ", " to ", "-"]), CELL).map("".join),
    CELL.map(lambda c: f"{c} reste"), CELL.map(lambda c: f"{c} holds"),
    st.tuples(st.sampled_from(["reste: ", "guerre: ", "paix : ", "alliance: ", "war: ", "espion: ", "spies: ",
                               "stay: "]), LIST).map("".join),
    NAME.map(lambda n: f"créer armée à {n}"), NAME.map(lambda n: f"create an army at {n}"),
    NAME.map(lambda n: f"construire: {n}"), NAME.map(lambda n: f"conquête: {n}"), NAME.map(lambda n: f"tribut: {n}"),
    SOME_TEXT, st.just(""), SOME_TEXT.map(lambda t: "# " + t))


@st.composite
def order_texts(draw: st.DrawFn) -> str:
    """A message: lines of the order grammar, then maybe repeated up to past the limits."""
    lines = draw(st.lists(ORDER_LINE, min_size=1, max_size=10))
    text = draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines)
    if draw(st.booleans()):
        text = (text + "\n") * draw(st.integers(1, 2 + 2 * orders.MAX_TEXT // max(1, len(text) + 1)))
    return text


def one_problem_a_line(order: dict[str, Any], text: str) -> None:
    lines = [p["line"] for p in order["problems"]]
    assert len(lines) == len(set(lines)) <= max(1, len(text.splitlines()))
    assert sum(len(p["text"]) for p in order["problems"]) <= len(text)


@FUZZ
@given(st.sampled_from([NIL, OWN]), order_texts())
def test_any_order_message_is_read_or_a_bad_action_with_one_problem_a_line_at_most(state, text):
    seat = sorted(state.kingdoms)[0]
    action = {"type": "orders", "text": text}
    try:
        preview = Royaumes().preview(state, seat, action)
    except RuleError as refused:
        assert refused.code == BAD_ACTION, refused
        return
    one_problem_a_line(preview["order"], text)
    played = state.copy()
    rules.apply(played, seat, action)
    one_problem_a_line(played.orders[seat], text)


def test_a_message_of_more_lines_than_max_lines_is_a_bad_action_naming_the_limit():
    with pytest.raises(RuleError) as refused:
        orders.from_text(NIL, "koush", "x\n" * orders.MAX_LINES + "x")
    assert refused.value.code == BAD_ACTION and str(orders.MAX_LINES) in refused.value.en
    assert str(orders.MAX_LINES) in refused.value.fr
    assert len(orders.from_text(NIL, "koush", "x\n" * orders.MAX_LINES)["problems"]) == orders.MAX_LINES


def test_a_list_line_gets_one_problem_quoting_it_once_and_counting_the_other_names():
    order = orders.from_text(NIL, "koush", "guerre: Atlantide, Libye, Rome, Carthage")
    assert len(order["problems"]) == 1 and order["stances"] == {"libye": "war"}
    assert "atlantide" in order["problems"][0]["en"] and "2 others on line 1" in order["problems"][0]["en"]
    assert "2 autres de la ligne 1" in order["problems"][0]["fr"]


def test_a_long_name_is_cut_short_in_its_problem():
    order = orders.from_text(NIL, "koush", "guerre: " + "x" * 15_000)
    assert len(order["problems"][0]["en"]) < 2 * orders.MAX_SHOWN


JSON_VALUE = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=12)),
                          lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                  st.dictionaries(st.text(max_size=6), inner, max_size=4)),
                          max_leaves=10)
ORDER_KEY = st.sampled_from(sorted(orders.ORDER_KEYS | {"text", "from", "to", "count", "x"}))


@FUZZ
@given(st.sampled_from([NIL, OWN]), st.dictionaries(ORDER_KEY, st.one_of(
    JSON_VALUE, st.lists(st.one_of(NAME, CELL, JSON_VALUE), max_size=6),
    st.lists(st.fixed_dictionaries({}, optional={"from": st.one_of(CELL, JSON_VALUE),
                                                 "to": st.one_of(CELL, JSON_VALUE),
                                                 "count": st.one_of(st.integers(), JSON_VALUE)}), max_size=4))))
def test_any_json_order_is_read_or_a_bad_action(state, action):
    seat = sorted(state.kingdoms)[0]
    try:
        rules.read_orders(state, seat, {"type": "orders", **action})
    except RuleError as refused:
        assert refused.code == BAD_ACTION, refused


# -- over HTTP: never a 5xx -------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def api(tmp_path_factory):
    app = create_app(f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'kadesh.sqlite3'}", local_workers=0,
                     rate_policy=RatePolicy.unlimited())
    with TestClient(app) as client:
        games = {}
        for ruleset in ("royaumes", "manoeuvre", "front"):
            created = client.post("/api/games", json={"ruleset": ruleset, "options": {}}).json()
            seat = sorted(created["seats"])[0]
            games[ruleset] = (created["id"], {"Authorization": f"Bearer {created['seats'][seat]['token']}"})
        yield client, games
    app.state.store.close()


HTTP = settings(FUZZ, max_examples=100,
                suppress_health_check=[*FUZZ.suppress_health_check, HealthCheck.function_scoped_fixture])


def no_5xx(answer: Any) -> None:
    assert answer.status_code < 500, (answer.status_code, answer.text[:300])


@pytest.mark.slow
@HTTP
@given(st.sampled_from(["front", "royaumes"]), toml_texts())
def test_over_http_no_toml_text_gets_a_5xx(api, ruleset, text):
    client, _ = api
    body = {"options": {"scenario_toml": text}}
    no_5xx(client.post(f"/api/rulesets/{ruleset}/seats", json=body))
    no_5xx(client.post("/api/games", json={"ruleset": ruleset, **body}))


@HTTP
@given(order_texts())
def test_over_http_no_order_message_gets_a_5xx(api, text):
    client, games = api
    game_id, headers = games["royaumes"]
    no_5xx(client.post(f"/api/games/{game_id}/preview", json={"action": {"type": "orders", "text": text}},
                       headers=headers))


@st.composite
def json_bodies(draw: st.DrawFn) -> bytes:
    """A body as a client may send one: an action, nested, long, cut short, with lone surrogates or escapes."""
    action = draw(st.one_of(JSON_VALUE, st.dictionaries(st.sampled_from(["type", "text", "moves", "x"]), JSON_VALUE)))
    body = json.dumps({"expected_version": draw(st.one_of(st.just(0), JSON_VALUE)), "action": action},
                      ensure_ascii=draw(st.booleans()))
    how = draw(st.sampled_from(["as is", "deep", "cut", "surrogates", "long", "big number"]))
    if how == "deep":
        depth = draw(st.integers(1, 40_000))
        body = body[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}"
    elif how == "cut":
        body = body[: draw(st.integers(0, len(body)))]
    elif how == "surrogates":
        body = body.replace('"action"', '"action\\ud800"') + "\\udc00" * draw(st.integers(0, 3))
    elif how == "long":
        body = body[:-1] + ', "long": "' + draw(st.sampled_from(["a", "\\u00e9", "\\ud800", "\\\\"])) * (
            draw(st.integers(1, 12_000))) + '"}'
    elif how == "big number":
        body = body[:-1] + ', "n": ' + "9" * draw(st.integers(1, 6_000)) + "}"
    return body.encode("utf-8", "surrogatepass")


@HTTP
@given(json_bodies(), st.sampled_from(["actions", "preview", "odds"]), st.sampled_from(["royaumes", "manoeuvre",
                                                                                         "front"]))
def test_over_http_no_json_body_gets_a_5xx(api, body, route, ruleset):
    client, games = api
    game_id, headers = games[ruleset]
    json_headers = {**headers, "Content-Type": "application/json"}
    no_5xx(client.post(f"/api/games/{game_id}/{route}", content=body, headers=json_headers))
    no_5xx(client.post("/api/games", content=body, headers=json_headers))
