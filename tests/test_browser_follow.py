"""Following the play (issue 44), in Debian's Chromium: what a page draws of the other side's turn says the truth
about who won and who lost."""

from __future__ import annotations

import json

import pytest

from tests.browser_support import running_server
from tests.manoeuvre_setup import battle

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with running_server(str(tmp_path_factory.mktemp("follow") / "follow.sqlite3")) as (base, store):
        yield base, store


DRAW = """async ([view, mark]) => {
    const { drawField } = await import('/static/rules/manoeuvre-field.js');
    const { T } = await import('/static/rules/manoeuvre-text.js');
    const none = new Set();
    const svg = drawField({ view, seat: 'north', t: T.fr, zone: none, legalCells: none, destCells: none, pending: null,
        threatCell: null, selected: null, targets: none, aimed: null, inspected: null, marks: [mark],
        drag: {}, tooltip: () => null, onCell: () => {}, onElement: () => {}, onDrop: () => {} });
    document.body.append(svg);
    const box = (node) => node.getBBox();
    const label = svg.querySelector('.fight-result rect');
    const cellAt = (cell) => box(svg.querySelector(`rect.cell[data-cell="${cell}"]`));
    const inside = (inner, outer) => inner.x >= outer.x && inner.x + inner.width <= outer.x + outer.width
        && inner.y >= outer.y && inner.y + inner.height <= outer.y + outer.height;
    return { word: svg.querySelector('.fight-result text').textContent,
             onAttacker: inside(box(label), cellAt(mark.from)), onDefender: inside(box(label), cellAt(mark.cell)) };
}"""


def test_a_chariot_destroyed_attacking_is_marked_on_its_own_cell_and_named_by_its_side(browser, site):
    """The issue's case: a South light chariot attacking from c7 lost against North's at c6; « détruit » was drawn
    on North's survivor, and the journal said « le char léger est détruit » of either."""
    base, _ = site
    game = battle({"n1": "a1 S", "s1": "l12 N", "n2": "c6 S", "s2": "c7 N"}, active="south", dice=[1, 6])
    game.act("south", {"type": "attack", "element": "s2", "target": "n2"})
    line, mark = [(line, mark) for _, line, mark in game.journal_marked("north", "fr")][-1]
    assert line.endswith("le char léger du Sud est détruit.")
    assert mark["destroyed"] == "s2" and mark["defender"] == "n2"
    mark = {**mark, "from": "c7", "cell": "c6"}  # where they stood (this position was set by hand, not deployed)
    page = browser.new_page()
    page.goto(f"{base}/")
    drawn = page.evaluate(DRAW, [json.loads(json.dumps(game.view("north"))), mark])
    assert drawn == {"word": "détruit", "onAttacker": True, "onDefender": False}
    page.close()
