"""kadesh export, replay and verify from the command line, on a database file."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from kadesh.cli import address_to_open, app
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


def _games_for_backup(db: str) -> tuple[list[str], str]:
    """A finished game, an unfinished one with a bot seat, and a campaign; returns the ids and a seat token."""
    store = Store(db)
    finished = finished_game_in_store(store)
    open_game = store.create_game("manoeuvre", {"choice": "bow"})
    store.set_bot(open_game.id, "south", "maladroit")
    campaign = store.create_game("royaumes")
    player = store.accounts.create_player("Tiyi", "fr", email="tiyi@example.org")
    store.accounts.add_passkey(player.id, "credential-of-tiyi", "public-key", 3, "iPhone")
    store.accounts.claim(open_game.id, "seat", "south", player.id)
    store.accounts.open_session(player.id)
    store.close()
    return [finished, open_game.id, campaign.id], open_game.seat_tokens["north"]


def test_a_backup_of_every_game_restores_into_an_empty_database(db, tmp_path):
    ids, north_token = _games_for_backup(db)
    backup = tmp_path / "backup.jsonl"
    result = runner.invoke(app, ["export", "--all", "--db", db, "-o", str(backup)])
    assert result.exit_code == 0, result.output
    restored_db = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    result = runner.invoke(app, ["import", str(backup), "--db", restored_db])
    assert result.exit_code == 0, result.output
    assert "Restored 3 games" in result.output and "Restored 1 player." in result.output
    source, restored = Store(db), Store(restored_db)
    try:
        for game_id in ids:
            assert restored.rebuild(game_id).to_record() == source.rebuild(game_id).to_record()
            assert restored.stored_events(game_id) == source.stored_events(game_id)
        assert restored.access(ids[1], north_token).seat == "north"  # players keep their links
        assert restored.bots(ids[1]) == {"south": "maladroit"}
        tiyi = restored.accounts.by_email("tiyi@example.org")  # players keep their accounts and seats
        assert tiyi.name == "Tiyi" and restored.accounts.passkey("credential-of-tiyi").sign_count == 3
        assert restored.access(ids[1], None, tiyi.id).seat == "south"
        assert restored.accounts.session_count(tiyi.id) == 0  # but sign in again
    finally:
        source.close()
        restored.close()
    again = runner.invoke(app, ["import", str(backup), "--db", restored_db])
    assert again.exit_code == 0 and "3 were already there" in again.output


def test_a_damaged_backup_is_refused_game_by_game(db, tmp_path):
    _games_for_backup(db)
    backup = tmp_path / "backup.jsonl"
    assert runner.invoke(app, ["export", "--all", "--db", db, "-o", str(backup)]).exit_code == 0
    lines = backup.read_text(encoding="utf-8").splitlines()
    damaged = json.loads(lines[1])
    damaged["actions"][0]["events"] = []  # a stored event erased
    lines[1] = json.dumps(damaged)
    backup.write_text("\n".join(lines) + "\n", encoding="utf-8")
    restored_db = f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    result = runner.invoke(app, ["import", str(backup), "--db", restored_db])
    assert result.exit_code == 1
    assert f"Refused {damaged['game']['id']}: action 1 does not replay to its stored events" in result.output
    assert "Restored 2 games" in result.output
    store = Store(restored_db)
    assert not store.exists(damaged["game"]["id"])
    store.close()
    not_a_backup = tmp_path / "other.json"
    not_a_backup.write_text('{"format": "kadesh-export/1"}\n', encoding="utf-8")
    result = runner.invoke(app, ["import", str(not_a_backup), "--db", restored_db])
    assert result.exit_code == 1 and "not a Kadesh backup" in result.output


def test_export_wants_a_game_or_all(db):
    result = runner.invoke(app, ["export", "--db", db])
    assert result.exit_code == 1 and "--all" in result.output


def test_serve_names_the_address_where_passkeys_work():
    """A browser makes passkeys for a name, never for 127.0.0.1: serve names localhost, or the public URL."""
    assert address_to_open("127.0.0.1", 8000, None) == "http://localhost:8000/"
    assert address_to_open("0.0.0.0", 8001, None) == "http://localhost:8001/"
    assert address_to_open("::", 8001, None) == "http://localhost:8001/"
    assert address_to_open("192.168.1.20", 8000, None) == "http://192.168.1.20:8000/"
    assert address_to_open("fd00::20", 8000, None) == "http://[fd00::20]:8000/"
    assert address_to_open("127.0.0.1", 8000, "http://localhost:8000") == "http://localhost:8000/"
    assert address_to_open("127.0.0.1", 8000, "https://kadesh.example.org/") == "https://kadesh.example.org/"
