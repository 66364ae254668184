"""The designer and the engine agree (issue 61's property): random edits made by the designer's own code
(front-design.js's and royaumes-design.js's ``paintAt`` and ``resize``, run in Chromium) give a document that the
server's check writes as TOML reading back as the same document, and the fault the page would show is exactly the one
the engine gives for that text (Front's ``scenario.parse``, Royaumes' ``from_toml``: the doors a game's creation goes
through), or none when it is playable."""

from __future__ import annotations

import json
import tomllib
import urllib.request

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kadesh.core.errors import RuleError
from kadesh.rules.front import scenario
from kadesh.rules.front.data import TABLES
from kadesh.rules.royaumes import scenario as maps
from tests.browser_support import running_server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

COLUMNS, ROWS = 10, 8  # the blank map the edits start from; a resize may shrink or grow it within these
SIDES = ["blue", "red", "none"]
UNIT_TYPES = sorted(u for u, t in TABLES.units.items() if t.aircraft != "drone")
PICKS = st.one_of(
    st.builds(lambda ground: {"kind": "terrain", "id": ground}, st.sampled_from(sorted(TABLES.terrain))),
    st.builds(lambda kind, side: {"kind": "unit", "id": kind, "side": side},
              st.sampled_from(UNIT_TYPES), st.sampled_from(SIDES)),
    st.builds(lambda kind, side: {"kind": "structure", "id": kind, "side": side},
              st.sampled_from(sorted(TABLES.structures)), st.sampled_from(SIDES)),
    st.builds(lambda side: {"kind": "mine", "side": side}, st.sampled_from(SIDES)),
    st.just({"kind": "point", "side": "blue"}),
    st.just({"kind": "eraser", "side": "blue"}),
)
EDITS = st.lists(st.one_of(
    st.fixed_dictionaries({"paint": st.tuples(st.integers(0, COLUMNS - 1), st.integers(0, ROWS - 1)), "pick": PICKS,
                           "tool": st.sampled_from(["brush", "fill"])}),
    st.fixed_dictionaries({"resize": st.tuples(st.integers(1, COLUMNS), st.integers(1, ROWS))}),
), min_size=1, max_size=25)

# The edits as the page makes them: a cell off the map (after a resize) is one the page cannot offer, so it is left.
RUN_EDITS = f"""async (edits) => {{
  const design = await import('/static/rules/front-design.js');
  const doc = design.blank({{ columns: {COLUMNS}, rows: {ROWS} }});
  for (const edit of edits) {{
    if (edit.resize) {{ design.resize(doc, edit.resize[0], edit.resize[1]); continue; }}
    const [x, y] = edit.paint;
    if (y < doc.map.rows.length && x < doc.map.rows[0].length) {{
      design.paintAt(doc, String.fromCharCode(65 + x) + (y + 1), edit.pick, edit.tool);
    }}
  }}
  return doc;
}}"""


class Designer:
    """One server for the module; the designer's page opened again for each test (each test's pages are closed at
    its end), and kept for all of a test's examples."""

    def __init__(self, browser, base: str) -> None:
        self.browser, self.base, self._page = browser, base, None

    def page(self):
        if self._page is None or self._page.is_closed():
            self._page = self.browser.new_page()
            self._page.goto(f"{self.base}/design")
            self._page.wait_for_selector("body[data-ready]")
        return self._page


@pytest.fixture(scope="module")
def designer(browser, tmp_path_factory):
    with running_server(str(tmp_path_factory.mktemp("design-properties") / "maps.sqlite3")) as (base, _):
        yield Designer(browser, base)


def checked(base: str, document: dict, ruleset: str = "front") -> dict:
    request = urllib.request.Request(f"{base}/api/maps/check", method="POST",
                                     data=json.dumps({"ruleset": ruleset, "document": document}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


def engine_fault(text: str) -> str | None:
    try:
        scenario.parse(text)
    except RuleError as error:
        return error.fr
    return None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=EDITS)
# a playable battle, and a truck on water (the sea filled in one click): each way, always tried
@example(edits=[{"paint": (0, 0), "pick": {"kind": "unit", "id": "infantry", "side": "blue"}, "tool": "brush"},
                {"paint": (9, 7), "pick": {"kind": "unit", "id": "infantry", "side": "red"}, "tool": "brush"}])
@example(edits=[{"paint": (0, 0), "pick": {"kind": "terrain", "id": "water"}, "tool": "fill"},
                {"paint": (3, 3), "pick": {"kind": "unit", "id": "truck", "side": "red"}, "tool": "brush"}])
def test_random_edits_round_trip_and_the_faults_shown_are_the_engines(designer, edits):
    document = designer.page().evaluate(RUN_EDITS, edits)
    answer = checked(designer.base, document)
    assert tomllib.loads(answer["toml"]) == document  # the text saved is the map drawn
    assert answer["document"] == document
    fault = engine_fault(answer["toml"])
    assert [f["message"] for f in answer["faults"]] == ([fault] if fault else [])
    assert answer["playable"] is (fault is None)
    size = answer["size"]
    for shown in answer["faults"]:  # a cell the page marks is one of the map's
        if shown["cell"] is not None:
            column, row = ord(shown["cell"][0]) - 65, int(shown["cell"][1:])
            assert column < size["columns"] and row <= size["rows"], shown


# -- Royaumes: land and water, the Nile, seas' names, each of the four kingdoms' cities and armies ---------------------
KINGDOMS = ["nord", "sud", "est", "ouest"]
KINGDOM_PICKS = st.one_of(
    st.sampled_from([{"kind": kind} for kind in ("land", "water", "river", "waterName", "eraser")]),
    st.builds(lambda kind, kingdom: {"kind": kind, "kingdom": kingdom}, st.sampled_from(["city", "army"]),
              st.sampled_from(KINGDOMS)),
)
KINGDOM_EDITS = st.lists(st.one_of(
    st.fixed_dictionaries({"paint": st.tuples(st.integers(0, COLUMNS - 1), st.integers(0, ROWS - 1)),
                           "pick": KINGDOM_PICKS, "tool": st.sampled_from(["brush", "fill"])}),
    st.fixed_dictionaries({"resize": st.tuples(st.integers(1, COLUMNS), st.integers(1, ROWS))}),
), min_size=1, max_size=30)
RUN_KINGDOM_EDITS = f"""async (edits) => {{
  const design = await import('/static/rules/royaumes-design.js');
  const {{ TEXT }} = await import('/static/design-words.js');
  const doc = design.blank({{ words: TEXT.fr }});
  design.resize(doc, {COLUMNS}, {ROWS});
  for (const edit of edits) {{
    if (edit.resize) {{ design.resize(doc, edit.resize[0], edit.resize[1]); continue; }}
    const [x, y] = edit.paint;
    if (y < doc.map.rows.length && x < doc.map.rows[0].length) {{
      design.paintAt(doc, String.fromCharCode(65 + x) + (y + 1), edit.pick, edit.tool, TEXT.fr.royaumes);
    }}
  }}
  return doc;
}}"""


def kingdom_fault(text: str) -> str | None:
    try:
        maps.from_toml(text)
    except RuleError as error:
        return error.fr
    return None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits=KINGDOM_EDITS)
# four kingdoms of a city each: playable; a city on the sea: refused
@example(edits=[{"paint": cell, "pick": {"kind": "city", "kingdom": kingdom}, "tool": "brush"}
                for cell, kingdom in zip([(0, 0), (9, 0), (0, 7), (9, 7)], KINGDOMS, strict=True)])
@example(edits=[{"paint": (0, 0), "pick": {"kind": "water"}, "tool": "fill"},
                {"paint": (2, 2), "pick": {"kind": "city", "kingdom": "sud"}, "tool": "brush"}])
def test_random_kingdom_map_edits_round_trip_and_the_faults_shown_are_the_engines(designer, edits):
    document = designer.page().evaluate(RUN_KINGDOM_EDITS, edits)
    answer = checked(designer.base, document, "royaumes")
    assert tomllib.loads(answer["toml"]) == document
    fault = kingdom_fault(answer["toml"])
    assert [f["message"] for f in answer["faults"]] == ([fault] if fault else [])
    assert answer["playable"] is (fault is None)
