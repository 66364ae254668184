"""Royaumes: an order message read back before it is sent warns of what will not be done as
written, in both languages, with the line it comes from (issue 17: « 2 x H17 -> H16 » with one
army there passed the preview and was flagged only after adjudication).

Choice (docs/rules/royaumes.md): asking for more armies than can leave moves those that can
(``move_short``); the preview says so before the message is sent.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from kadesh.core.grid import map_cell_name
from kadesh.rules.royaumes import Royaumes
from kadesh.rules.royaumes.scenario import DEFAULT_SCENARIO, SCENARIOS
from kadesh.rules.royaumes.state import initial_state
from tests.royaumes_cases import campaign, move, of_type, play_turn

RULESET = Royaumes()


def read(state, kingdom, text):
    return RULESET.preview(state, kingdom, {"type": "orders", "text": text})


def test_p1_moving_more_armies_than_are_there_is_flagged_at_preview():
    state = campaign(a={"armies": ["C3"]})
    answer = read(state, "a", "2 x C3 -> C4")
    (line,) = answer["lines"]
    assert line["understood"]
    assert line["warning"]["fr"] == "2 armées demandées, mais 1 seulement peut partir de C3 : 1 partira."
    assert line["warning"]["en"] == "2 armies asked, but only 1 can leave C3: 1 will go."
    assert [w["line"] for w in answer["warnings"]] == [1]
    # What the warning announced is what the adjudication does.
    events = play_turn(state, {"a": "2 x C3 -> C4"})
    assert of_type(events, "move_short")[0] == {"kingdom": "a", "from": "C3", "to": "C4", "asked": 2, "found": 1}


def test_p2_armies_already_sent_by_another_line_are_counted():
    state = campaign(a={"armies": ["C3", "C3"]})
    answer = read(state, "a", "C3 -> C4\nC3 -> D4\nC3 -> B4")
    assert [w["line"] for w in answer["warnings"]] == [3]
    assert "déjà par d'autres lignes" in answer["warnings"][0]["fr"]
    assert "already leave by other lines" in answer["warnings"][0]["en"]


def test_p3_no_army_water_and_new_armies_are_flagged():
    rows = ["......", "..~...", "......", "......", "......", "......"]
    state = campaign(rows, a={"armies": ["B2"]})
    state.raise_army("a", state.scenario.cell("E5"))  # raised this turn: it moves only the next
    answer = read(state, "a", "B2 -> C2\nD4 -> D5\nE5 -> E4")
    by_line = {w["line"]: w for w in answer["warnings"]}
    assert "de l'eau" in by_line[1]["fr"] and "water" in by_line[1]["en"]
    assert "aucune armée en D4" in by_line[2]["fr"] and "no army at D4" in by_line[2]["en"]
    assert "ne bouge qu'au tour suivant" in by_line[3]["fr"] and "moves only next turn" in by_line[3]["en"]


def test_p4_the_json_form_is_warned_too_and_a_city_not_ones_own():
    state = campaign(a={"armies": ["C3"]})
    answer = RULESET.preview(state, "a", {"type": "orders", "moves": [move("C3", "C4", 3)], "create": "Beta"})
    texts = [w["en"] for w in answer["warnings"]]
    assert texts == ["3 armies asked, but only 1 can leave C3: 1 will go.",
                     "No army raised at Beta: that city is not yours."]


def test_p5_a_clean_message_has_no_warning():
    state = campaign(a={"armies": ["C3", "C3"]})
    answer = read(state, "a", "2 x C3 -> C4\nguerre: B")
    assert answer["warnings"] == [] and all("warning" not in line for line in answer["lines"])


def test_p6_an_alliance_line_refused_for_an_offer_already_made_is_flagged_at_preview():
    """« un allié maximum »: an alliance offered and not yet answered counts (issue 45); withdrawn by a peace line
    in the same message, the new one is accepted."""
    state = campaign()
    play_turn(state, {"a": "alliance: B"})
    answer = read(state, "a", "alliance: C")
    assert [w["fr"] for w in answer["warnings"]] == [
        "L'alliance avec C sera refusée : un allié au plus, et l'alliance est déjà proposée à B "
        "(écris « paix : B » pour la retirer)."]
    assert not read(state, "a", "paix: B\nalliance: C")["warnings"]
    events = play_turn(state, {"a": "alliance: C"})  # what the warning announced is what the ruling does
    assert of_type(events, "ally_refused") == [{"kingdom": "a", "towards": "c", "allies": ["b"]}]


# -- issue 59: the form and the text hold the same orders ---------------------------------------------------------
NILE = initial_state(SCENARIOS[DEFAULT_SCENARIO])


def some_order(rng: random.Random, kingdom: str) -> dict:
    """A JSON order of ``kingdom`` on the Nile map using every kind of line, its names in either language."""
    lang = rng.choice(["fr", "en"])
    others = [k for k in NILE.kingdoms if k != kingdom]
    cells = sorted({map_cell_name(army.cell) for army in NILE.armies.values()})
    order = {"moves": [{"from": rng.choice(cells), "to": rng.choice(cells), "count": rng.randint(1, 3)}
                       for _ in range(rng.randint(0, 3))],
             "stay": rng.sample(cells, rng.randint(0, 2))}
    for stance in ("war", "peace", "ally"):
        order[stance] = []
    for other in rng.sample(others, rng.randint(0, 3)):
        order[rng.choice(["war", "peace", "ally"])].append(NILE.scenario.kingdoms[other].names[lang])
    if rng.random() < 0.5:
        order["create"] = rng.choice(sorted(NILE.cities))
    if rng.random() < 0.5:
        order["build"] = ["guild"]
    order["spies"] = [NILE.scenario.kingdoms[k].names[lang] for k in rng.sample(others, rng.randint(0, 2))]
    if rng.random() < 0.5:
        order["conquest"] = rng.choice(["convert", "destroy"])
    if rng.random() < 0.5:
        order["tribute"] = rng.choice(sorted(NILE.scenario.resource_names))
    return order


def comparable(order: dict) -> dict:
    return {**order, "moves": [(m["from"], m["to"], m["count"]) for m in order["moves"]]}


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["fr", "en"]))
def test_an_order_written_as_text_by_the_server_reads_back_as_the_same_order(seed, lang):
    """The page's two tabs hold the same orders: the form's order, written out by the server (the preview's
    ``text``), is read back line for line as the same order, with no line not understood."""
    rng = random.Random(seed)
    kingdom = rng.choice(sorted(NILE.kingdoms))
    answer = RULESET.preview(NILE, kingdom, {"type": "orders", **some_order(rng, kingdom)})
    back = RULESET.preview(NILE, kingdom, {"type": "orders", "text": answer["text"][lang]})
    assert back["order"]["problems"] == []
    assert comparable(back["order"]) == comparable(answer["order"])


def test_an_alliance_line_is_written_as_the_text_form_writes_it():
    text = RULESET.preview(NILE, "koush", {"type": "orders", "ally": ["libye"], "war": ["haute_egypte"],
                                           "build": ["guild"], "tribute": "wheat"})["text"]
    assert text["fr"].splitlines() == ["guerre: Haute-Égypte", "alliance: Libye", "construire: guilde", "tribut: blé"]
    assert text["en"].splitlines() == ["war: Upper Egypt", "ally: Libya", "build: guild", "tribute: wheat"]


def test_p7_the_order_as_carried_out_leaves_out_what_will_not_happen():
    """Issue 59: the page's summary (« Compris ») is the order as carried out, never a move a warning refuses."""
    state = campaign(a={"armies": ["C3"]})
    answer = read(state, "a", "D4 -> D5\n3 x C3 -> C4\nguerre: B")
    assert [(m["from"], m["to"], m["count"]) for m in answer["carried"]["moves"]] == [("C3", "C4", 1)]
    assert [(m["from"], m["count"]) for m in answer["order"]["moves"]] == [("D4", 1), ("C3", 3)]  # as written
    assert answer["carried"]["stances"] == answer["order"]["stances"]
    created = RULESET.preview(state, "a", {"type": "orders", "create": "Beta"})
    assert created["order"]["create"] == "Beta" and created["carried"]["create"] is None
