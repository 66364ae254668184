"""Front scenarios of one's own through the HTTP API and the command line (issue 16): a good one opens a
game, a bad one gets a 422 ``bad_scenario`` naming what is wrong, and nothing is stored."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from kadesh.cli import app
from kadesh.core import tomlcheck
from tests.kadesh_http import game_of, make_client
from tests.test_front_missions import HOLD, battle, unit

runner = CliRunner()
GOOD = battle(unit("blue", "infantry", "A3") + unit("red", "infantry", "H5"), HOLD)
BAD = GOOD.replace('cells = ["H3"]', 'cells = ["Q3"]')


@pytest.fixture
def client(db):
    yield from make_client(db)


def stored_games(db: str) -> int:
    engine = create_engine(db)
    with engine.connect() as conn:
        count = conn.execute(text("SELECT count(*) FROM games")).scalar()
    engine.dispose()
    return count


def test_a_scenario_of_ones_own_opens_a_game_over_http(client):
    created = client.post("/api/games", json={"ruleset": "front", "options": {"scenario_toml": GOOD}})
    assert created.status_code == 201, created.text
    game = created.json()
    view = game_of(client, game["id"], game["seats"]["red"]["token"])["view"]
    assert view["scenario"]["en"] == "Test case" and len(view["map"]) == 5 and len(view["map"][0]) == 8
    assert view["victory"]["objectives"][0]["kind"] == "hold"


def test_a_bad_scenario_gets_a_422_naming_the_key_and_stores_nothing(client, db):
    before = stored_games(db)
    for scenario_text, where in ((BAD, "victory.objectives[1].cells[1]"), ("[map\n", "line 1"), ("", None)):
        refused = client.post("/api/games", json={"ruleset": "front", "options": {"scenario_toml": scenario_text}})
        if where is None:  # empty: the shipped scenario is played, as if the option were not given
            assert refused.status_code == 201
            before += 1
            continue
        assert refused.status_code == 422, refused.text
        problem = refused.json()
        assert problem["code"] == "bad_scenario" and where in problem["en"] and where in problem["fr"]
    assert stored_games(db) == before


# Texts the TOML parser would take seconds or minutes on (a dotted key's cost grows with the square of its
# parts), or recurse on: refused by a linear scan before the parser runs (issue 40, finding 2).
COSTLY = [("k" + ".k" * 28_000 + " = 1", "8"), ('"k"' + '."k"' * 9_000 + " = 1", "8"),
          ("[" + ".".join(["t"] * 9) + "]\n", "8"), ("x = " + "[" * 17 + "]" * 17, "16"),
          ("x = " + "{a = " * 17 + "1" + "}" * 17, "16")]


@pytest.mark.parametrize(("document", "limit"), COSTLY, ids=["dotted", "quoted-dotted", "table", "arrays", "inline"])
def test_a_text_too_costly_to_parse_is_refused_before_the_parser_naming_the_limit(client, db, document, limit):
    before = stored_games(db)
    refused = client.post("/api/games", json={"ruleset": "front", "options": {"scenario_toml": document}})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_scenario"
    assert limit in refused.json()["en"] and limit in refused.json()["fr"]
    assert stored_games(db) == before


def test_strings_and_comments_may_hold_any_number_of_dots():
    assert tomlcheck.Checker("bad", {"fr": "", "en": ""}, {"fr": "", "en": ""}).parse(
        'a = "x.y.z.w.v.u.t.s.r.q"  # a.b.c.d.e.f.g.h.i.j\nb.c.d = 1.5\n', 1000) == {
        "a": "x.y.z.w.v.u.t.s.r.q", "b": {"c": {"d": 1.5}}}


def test_kadesh_new_opens_a_game_from_a_scenario_file_and_refuses_a_bad_one(db, tmp_path):
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text(GOOD, encoding="utf-8")
    bad.write_text(BAD, encoding="utf-8")
    opened = runner.invoke(app, ["new", "front", "--scenario", str(good), "--db", db])
    assert opened.exit_code == 0, opened.output
    assert "blue: http://127.0.0.1:8000/play/" in opened.output and "red: " in opened.output
    assert stored_games(db) == 1
    refused = runner.invoke(app, ["new", "front", "--scenario", str(bad), "--db", db])
    assert refused.exit_code == 1 and "victory.objectives[1].cells[1]" in refused.output
    shipped = runner.invoke(app, ["new", "front", "-o", "scenario=mission_hold", "--db", db])
    assert shipped.exit_code == 0, shipped.output
    unknown = runner.invoke(app, ["new", "front", "-o", "scenario=atlantis", "--db", db])
    assert unknown.exit_code == 1 and "allowed values" in unknown.output
    assert stored_games(db) == 2
