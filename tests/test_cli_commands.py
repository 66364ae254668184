"""kadesh export, replay and verify from the command line, on a database file."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kadesh.cli import app
from kadesh.store import Store
from tests.kadesh_http import finished_game_in_store

runner = CliRunner()


def test_export_refuses_an_unfinished_game_unless_forced(db, tmp_path):
    store = Store(db)
    created = store.create_game("manoeuvre")
    store.close()
    refused = runner.invoke(app, ["export", created.id, "--db", db])
    assert refused.exit_code == 1 and "not over" in refused.output
    out = tmp_path / "forced.json"
    forced = runner.invoke(app, ["export", created.id, "--db", db, "--force", "-o", str(out)])
    assert forced.exit_code == 0, forced.output
    assert json.loads(out.read_text())["record"]["actions"] == []


def test_export_then_verify_a_finished_game(db, tmp_path):
    store = Store(db)
    game_id = finished_game_in_store(store, seed=2, min_rolls=2)
    store.close()
    out = tmp_path / "game.json"
    result = runner.invoke(app, ["export", game_id, "--db", db, "-o", str(out)])
    assert result.exit_code == 0, result.output
    to_stdout = runner.invoke(app, ["export", game_id, "--db", db])
    assert json.loads(to_stdout.stdout) == json.loads(out.read_text())
    verified = runner.invoke(app, ["verify", str(out)])
    assert verified.exit_code == 0 and "MATCH" in verified.output


def test_export_of_an_unknown_game_fails_clearly(db):
    result = runner.invoke(app, ["export", "nothing", "--db", db])
    assert result.exit_code == 1 and "No game" in result.output


def test_replay_prints_the_public_journal_from_the_database_or_a_file(db, tmp_path):
    store = Store(db)
    game_id = finished_game_in_store(store, seed=4, min_rolls=1)
    with store.game(game_id) as game:
        public_en = game.journal(None, "en")
    export = store.export(game_id)
    store.close()
    by_id = runner.invoke(app, ["replay", game_id, "--db", db, "--lang", "en"])
    assert by_id.exit_code == 0, by_id.output
    assert all(line in by_id.output for line in public_en[-3:])
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    by_file = runner.invoke(app, ["replay", str(path), "--lang", "en"])
    assert by_file.exit_code == 0 and by_file.output == by_id.output
    assert runner.invoke(app, ["replay", "nothing", "--db", db]).exit_code == 1


def test_simulate_still_works():
    result = runner.invoke(app, ["simulate", "manoeuvre", "--seed", "1"])
    assert result.exit_code == 0 and "winner" in result.output
