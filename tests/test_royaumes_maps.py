"""Royaumes maps of one's own (issue 22): the TOML format, checked key by key; the second shipped map,
where a diagonal between two water cells is closed (« sans terre entre »); narration in the map's
own names; and the same checks over HTTP (422 ``bad_scenario``, never a 500, nothing stored)."""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kadesh.core import new_game
from kadesh.core.errors import RuleError
from kadesh.rules.royaumes import scenario as maps
from kadesh.server.app import create_app
from tests.asgi_client import TestClient
from tests.kadesh_http import auth
from tests.royaumes_cases import move, of_type
from tests.test_api_front_scenarios import stored_games

OWN_MAP = """
[scenario]
id = "two_shores"
fr = "Les deux rives"
en = "The two shores"
resources = ["gold", "salt"]

[resource_names]
gold = { fr = "or", en = "gold" }
salt = { fr = "sel", en = "salt" }

[map]
rows = [
  ".....",
  "..~..",
  ".~...",
  ".....",
]

[costs]
army = { gold = 100 }
spy = { gold = 50 }
guild = { gold = 150, salt = 10 }

[kingdoms.amont]
fr = "Royaume d'Amont"
en = "Upstream Kingdom"
cities = [{ name = "Source", cell = "A1" }, { name = "Gué", cell = "C1" }]
armies = ["A1", "B2"]
military_level = 2
population = 300
resources = { gold = 300, salt = 40 }

[kingdoms.aval]
fr = "Royaume d'Aval"
en = "Downstream Kingdom"
colour = "#336699"
cities = [{ name = "Estuaire", cell = "E4" }]
armies = ["E4", "C3"]
military_level = 2
population = 300
resources = { gold = 300, salt = 40 }
"""


def test_a_map_of_ones_own_makes_a_campaign_with_its_kingdoms_and_names():
    game = new_game("royaumes", seed=3, options={"scenario_toml": OWN_MAP})
    assert game.seats == ["amont", "aval", "imhotep"]
    view = game.view("amont")
    assert view["scenario"]["names"] == {"fr": "Les deux rives", "en": "The two shores"}
    assert view["resources"]["salt"] == {"fr": "sel", "en": "salt"}
    game.act("amont", {"type": "orders", "text": "guerre: Royaume d'Aval\ncréer armée à Gué"})
    game.act("aval", {"type": "orders"})
    french, english = "\n".join(game.journal("imhotep")), "\n".join(game.journal("imhotep", lang="en"))
    assert "Royaume d'Amont déclare la guerre à Royaume d'Aval" in french
    assert "Upstream Kingdom" in english and "amont" not in french and "aval " not in french


def test_a_diagonal_between_two_water_cells_is_closed_on_a_map_of_ones_own():
    game = new_game("royaumes", seed=3, options={"scenario_toml": OWN_MAP})
    events = game.act("amont", {"type": "orders", "moves": [move("B2", "C3")]})
    events += game.act("aval", {"type": "orders"})
    assert of_type(events, "move_refused")[0]["why"] == "no_land_between"  # B3 and C2 are both water


def test_r2_3b_the_delta_maps_branches_are_walls_crossed_only_at_the_fords():
    """The shipped Delta: E4 and D5 touch by a corner between D4 and E5, both water."""
    game = new_game("royaumes", seed=1, options={"scenario": "delta"})
    state = game.state
    state.armies[1].cell = state.scenario.cell("E4")          # a Bouto army beside the branch
    state.armies[2].cell = state.scenario.cell("C2")          # and one beside the ford C3
    events = game.act("bouto", {"type": "orders", "moves": [move("E4", "D5"), move("C2", "B3")]})
    for kingdom in ("sais", "tanis", "heliopolis"):
        events += game.act(kingdom, {"type": "orders"})
    assert of_type(events, "move_refused") == [{"kingdom": "bouto", "from": "E4", "to": "D5",
                                                "why": "no_land_between", "text": "E4 -> D5"}]
    assert {"kingdom": "bouto", "from": "C2", "to": "B3", "count": 1} in of_type(events, "moved")
    text = "\n".join(game.journal("bouto"))
    assert "une diagonale demande de la terre" in text


def test_both_shipped_maps_read_through_the_same_checks():
    assert set(maps.SCENARIOS) == {"nil", "delta"}
    delta = maps.SCENARIOS["delta"]
    assert [delta.kingdoms[k].names["fr"] for k in delta.kingdoms] == ["Bouto", "Saïs", "Tanis", "Héliopolis"]


def _with(path: str, value: object) -> dict:
    raw = tomllib.loads(OWN_MAP)
    *parents, last = path.split(".")
    table = raw
    for key in parents:
        table = table[int(key)] if key.isdigit() else table[key]
    if value is DELETE:
        del table[last]
    elif last.isdigit():
        table[int(last)] = value
    else:
        table[last] = value
    return raw


DELETE = object()
BAD = [
    ("scenario.resources", [], "scenario.resources"),
    ("map.rows", [".....", "...."], "map.rows[2]"),
    ("map.rows", [".....", "..x..", ".....", "....."], "map.rows[2]"),
    ("kingdoms.amont.cities", [], "kingdoms.amont.cities"),
    ("kingdoms.amont.cities.1", {"name": "Gué", "cell": "B3"}, "kingdoms.amont.cities[2].cell"),
    ("kingdoms.amont.cities.1", {"name": "Gué", "cell": "Z9"}, "kingdoms.amont.cities[2].cell"),
    ("kingdoms.amont.cities.1", {"name": "Source", "cell": "D1"}, "kingdoms.amont.cities[2].name"),
    ("kingdoms.amont.cities.1", {"name": "Gué", "cell": "A1"}, "kingdoms.amont.cities[2].cell"),
    ("kingdoms.amont.armies", ["C2"], "kingdoms.amont.armies[1]"),
    ("kingdoms.amont.military_level", "high", "kingdoms.amont.military_level"),
    ("kingdoms.amont.resources", {"iron": 3}, "kingdoms.amont.resources.iron"),
    ("kingdoms.amont.colour", "red", "kingdoms.amont.colour"),
    ("kingdoms.amont.fr", DELETE, "kingdoms.amont.fr"),
    ("kingdoms.amont.army", ["A1"], "kingdoms.amont.army"),
    ("kingdoms.imhotep", {}, "kingdoms.imhotep"),
    ("costs.spy", DELETE, "costs.spy"),
    ("costs.army", {"gold": -1}, "costs.army.gold"),
    ("map.features", [{"kind": "volcano"}], "map.features[1].kind"),
    # A name goes into pages and into a mail's Subject: one line of visible text (issue 40, finding 7).
    ("kingdoms.amont.en", "Upstream\nBcc: someone@example.org", "kingdoms.amont.en"),
    ("kingdoms.amont.fr", "Amont\r", "kingdoms.amont.fr"),
    ("kingdoms.amont.fr", "Am\u202eont", "kingdoms.amont.fr"),
    ("kingdoms.amont.fr", "Amont\u2028", "kingdoms.amont.fr"),
    ("kingdoms.amont.cities.0.name", "Source\tvive", "kingdoms.amont.cities[1].name"),
    ("scenario.en", "The \x1b[31mvalley", "scenario.en"),
]


@pytest.mark.parametrize(("path", "value", "where"), BAD)
def test_a_bad_map_is_refused_naming_the_key_at_fault(path, value, where):
    with pytest.raises(RuleError) as refused:
        maps.from_dict(_with(path, value))
    assert refused.value.code == "bad_scenario"
    assert f"{where} :" in refused.value.fr and f"{where}:" in refused.value.en


def test_a_map_that_is_not_toml_or_too_long_is_refused():
    for text in ("[scenario", "x = [[[[[[", "", "#" * (maps.MAX_TEXT + 1)):
        with pytest.raises(RuleError) as refused:
            maps.from_toml(text)
        assert refused.value.code == "bad_scenario"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(OWN_MAP) - 1), st.text(max_size=8))
def test_any_edit_of_a_map_is_read_or_refused_never_anything_else(at, inserted):
    text = OWN_MAP[:at] + inserted + OWN_MAP[at + 1:]
    try:
        maps.from_toml(text)
    except RuleError as refused:
        assert refused.code == "bad_scenario"


HTTP_BAD = [
    (OWN_MAP.replace('cell = "C1"', 'cell = "B3"'), "kingdoms.amont.cities[2].cell"),
    (OWN_MAP.replace('armies = ["A1", "B2"]', 'armies = ["A1", "C2"]'), "kingdoms.amont.armies[2]"),
    (OWN_MAP.replace('"..~..",', '"..x..",'), "map.rows[2]"),
    (OWN_MAP.replace("spy = { gold = 50 }\n", ""), "costs.spy"),
    ("[scenario", "TOML"),
]


def test_over_http_a_map_of_ones_own_opens_a_campaign_and_a_bad_one_gets_a_422(db):
    app = create_app(db)
    with TestClient(app) as client:
        seats = client.post("/api/rulesets/royaumes/seats", json={"options": {"scenario_toml": OWN_MAP}})
        assert seats.status_code == 200, seats.text
        assert seats.json() == {"seats": ["amont", "aval", "imhotep"], "bot_seats": ["amont", "aval"],
                                "names": {"amont": {"fr": "Royaume d'Amont", "en": "Upstream Kingdom"},
                                          "aval": {"fr": "Royaume d'Aval", "en": "Downstream Kingdom"}}}
        created = client.post("/api/games", json={"ruleset": "royaumes", "options": {"scenario_toml": OWN_MAP},
                                                  "bots": {"aval": "vizir"}})
        assert created.status_code == 201, created.text
        body = created.json()
        assert set(body["seats"]) == {"amont", "aval", "imhotep"}
        game = client.get(f"/api/games/{body['id']}", headers=auth(body["seats"]["amont"]["token"])).json()
        assert game["view"]["scenario"]["id"] == "two_shores"
        before = stored_games(db)
        for text, where in HTTP_BAD:
            for url, payload in (("/api/games", {"ruleset": "royaumes", "options": {"scenario_toml": text}}),
                                 ("/api/rulesets/royaumes/seats", {"options": {"scenario_toml": text}})):
                refused = client.post(url, json=payload)
                assert refused.status_code == 422, refused.text
                problem = refused.json()
                assert problem["code"] == "bad_scenario" and where in problem["en"] and where in problem["fr"]
        assert stored_games(db) == before
    app.state.store.close()


def test_the_command_line_opens_a_campaign_on_a_map_file_and_simulates_one(db, tmp_path):
    from typer.testing import CliRunner

    from kadesh.cli import app

    runner = CliRunner()
    good, bad = tmp_path / "rives.toml", tmp_path / "bad.toml"
    good.write_text(OWN_MAP, encoding="utf-8")
    bad.write_text(OWN_MAP.replace('cell = "C1"', 'cell = "B3"'), encoding="utf-8")
    opened = runner.invoke(app, ["new", "royaumes", "--scenario", str(good), "--db", db])
    assert opened.exit_code == 0, opened.output
    assert "amont: http" in opened.output and "aval: http" in opened.output and "imhotep: http" in opened.output
    refused = runner.invoke(app, ["new", "royaumes", "--scenario", str(bad), "--db", db])
    assert refused.exit_code == 1 and "kingdoms.amont.cities[2].cell" in refused.output
    played = runner.invoke(app, ["simulate", "royaumes", "--scenario", str(good), "--bot", "amont=vizir",
                                 "--bot", "*=maladroit", "--turns", "5", "--lang", "en"])
    assert played.exit_code == 0, played.output
    assert "Upstream Kingdom" in played.output and "Cities after 5 turns" in played.output
    summary = runner.invoke(app, ["simulate", "royaumes", "--scenario", "delta", "--bot", "*=vizir", "--summary"])
    assert summary.exit_code == 0 and summary.output.startswith("Cités après 30 tours : Bouto")
    wrong = runner.invoke(app, ["simulate", "royaumes", "--bot", "imhotep=vizir"])
    assert wrong.exit_code == 1 and "unknown kingdom 'imhotep'" in wrong.output
