"""kadesh verify: an honest export matches; one altered roll, seed or event does not."""

from __future__ import annotations

import copy
import json

import pytest
from typer.testing import CliRunner

from kadesh.cli import app
from kadesh.store import Store
from kadesh.store.verify import verify_export
from tests.kadesh_http import finished_game_in_store


@pytest.fixture(scope="module")
def export(module_db):
    store = Store(module_db)
    data = store.export(finished_game_in_store(store, seed=5, min_rolls=4))
    store.close()
    return data


def _rolls(data):
    return [(n, i) for n, events in enumerate(data["events"]) for i, e in enumerate(events) if e["type"] == "roll"]


def test_an_honest_export_matches(export):
    verdict = verify_export(export)
    assert verdict.ok, verdict.message
    assert verdict.message.startswith("MATCH")
    assert verdict.rolls == len(_rolls(export)) >= 4 and verdict.actions == len(export["record"]["actions"])


def test_one_altered_roll_value_is_caught(export):
    forged = copy.deepcopy(export)
    n, i = _rolls(forged)[1]
    roll = forged["events"][n][i]
    roll["value"] = roll["value"] % roll["sides"] + 1
    verdict = verify_export(forged)
    assert not verdict.ok
    assert f"action {n + 1}" in verdict.message and f"roll #{roll['index']}" in verdict.message


def test_a_seed_that_does_not_match_the_commitment_is_caught(export):
    forged = copy.deepcopy(export)
    forged["record"]["seed"] = "0" * 64
    assert "commitment" in verify_export(forged).message


def test_an_altered_non_roll_event_is_caught(export):
    forged = copy.deepcopy(export)
    forged["events"][0][0]["cell"] = "l12"
    verdict = verify_export(forged)
    assert not verdict.ok and verdict.message.startswith("action 1: event 0 (deployed): cell")


def test_a_missing_event_or_action_is_caught(export):
    forged = copy.deepcopy(export)
    n, i = _rolls(forged)[0]
    del forged["events"][n][i]
    assert not verify_export(forged).ok
    forged = copy.deepcopy(export)
    forged["events"].pop()
    assert not verify_export(forged).ok


def test_scripted_dice_and_garbage_are_refused(export):
    forged = copy.deepcopy(export)
    forged["record"]["dice"] = {"kind": "scripted", "values": [6] * 100}
    assert not verify_export(forged).ok
    assert not verify_export({}).ok
    assert not verify_export({"record": [], "commitment": 3, "events": None}).ok


def test_cli_verify_says_match_or_mismatch_with_exit_code(export, tmp_path):
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(export), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(honest)])
    assert result.exit_code == 0 and "MATCH" in result.output and "MISMATCH" not in result.output
    forged_data = copy.deepcopy(export)
    n, i = _rolls(forged_data)[0]
    roll = forged_data["events"][n][i]
    roll["value"] = roll["value"] % roll["sides"] + 1
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(forged_data), encoding="utf-8")
    result = CliRunner().invoke(app, ["verify", str(forged)])
    assert result.exit_code == 1 and "MISMATCH" in result.output and "roll" in result.output
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json", encoding="utf-8")
    assert CliRunner().invoke(app, ["verify", str(garbage)]).exit_code == 1
