"""Backups of a whole database, as JSON Lines: ``kadesh export --all`` and ``kadesh import``.

The first line names the format; then one line per game with its row, its actions (with
their stored events) and the rows of every other table that belongs to a game (token
hashes, seats given to bots, its table and its rating's result, ...); then one line per player with their
account, passkeys, webhooks, the seats they keep, their vacations and their ratings with their history (sessions
are not kept: a restored server signs everyone out; nor are the sign-in links and passkey ceremonies of the last
minutes, nor a place in the pairing queue: a player asks again); then one line per map of the shelf, a draft or
published, with its reports (issue 61). Unfinished games' seeds are in it, token hashes, players' addresses and
their drafts: a backup is an operator's secret, unlike a finished game's export.

A backup read while servers write is still consistent: a game's row is read first, then
only the actions up to its version (actions are append-only, and a version and its action
are written in one transaction). A restore replays every game before writing it, and
writes nothing of a game whose replay does not give back its stored events.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, Table, select, text

from kadesh.store import schema
from kadesh.store.store import Store, unplayed_game

BACKUP_FORMAT = "kadesh-backup/1"


def _game_tables() -> list[Table]:
    """Every table, besides games and actions, whose rows belong to one game (and to no player)."""
    return [table for table in schema.metadata.sorted_tables
            if "game_id" in table.c and table.name not in (schema.actions.name, schema.claims.name)]


def _plain_row(table: Table, row: Any) -> dict[str, Any]:
    out = dict(row._mapping)
    for column in table.c:
        if isinstance(column.type, DateTime) and out.get(column.name) is not None:
            out[column.name] = out[column.name].isoformat()
    return out


def _typed_row(table: Table, data: dict[str, Any]) -> dict[str, Any]:
    out = {name: value for name, value in data.items() if name in table.c}
    for column in table.c:
        if isinstance(column.type, DateTime) and isinstance(out.get(column.name), str):
            out[column.name] = datetime.fromisoformat(out[column.name])
    return out


def dump(store: Store) -> Iterator[dict[str, Any]]:
    """The header, then each game as one JSON object."""
    yield {"format": BACKUP_FORMAT}
    with store.engine.connect() as conn:
        ids = conn.execute(select(schema.games.c.id).order_by(schema.games.c.created_at, schema.games.c.id)).scalars()
        ids = list(ids)
    for game_id in ids:
        with store.engine.connect() as conn:
            row = conn.execute(select(schema.games).where(schema.games.c.id == game_id)).first()
            actions = conn.execute(select(schema.actions).where(schema.actions.c.game_id == game_id,
                                                                schema.actions.c.seq <= row.version)
                                   .order_by(schema.actions.c.seq)).all()
            belongings = {table.name: [_plain_row(table, r) for r in
                                       conn.execute(select(table).where(table.c.game_id == game_id)).all()]
                          for table in _game_tables()}
        yield {"game": _plain_row(schema.games, row),
               "actions": [_plain_row(schema.actions, action) for action in actions], **belongings}
    yield from _players(store)
    yield from _maps(store)


def _players(store: Store) -> Iterator[dict[str, Any]]:
    """Each player's account, passkeys, webhooks, kept seats, vacations and ratings (after the games: the seats
    name them)."""
    with store.engine.connect() as conn:
        players = conn.execute(select(schema.players).order_by(schema.players.c.created_at)).all()
        for player in players:
            owned = {table.name: [_plain_row(table, r) for r in
                                  conn.execute(select(table).where(table.c.player_id == player.id)).all()]
                     for table in (schema.passkeys, schema.claims, schema.account_webhooks, schema.ratings,
                                   schema.rating_changes, schema.vacations)}
            yield {"player": _plain_row(schema.players, player), **owned}


def _maps(store: Store) -> Iterator[dict[str, Any]]:
    """Each map of the shelf with its reports (after the players: they are its authors)."""
    with store.engine.connect() as conn:
        for row in conn.execute(select(schema.maps).order_by(schema.maps.c.created_at, schema.maps.c.id)).all():
            reports = conn.execute(select(schema.map_reports).where(schema.map_reports.c.map_id == row.id)).all()
            yield {"map": _plain_row(schema.maps, row),
                   "map_reports": [_plain_row(schema.map_reports, report) for report in reports]}


def write_backup(store: Store, out) -> int:
    """Write the backup to a text stream; returns the number of games."""
    games = 0
    for item in dump(store):
        out.write(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n")
        games += "game" in item
    return games


@dataclass
class RestoreReport:
    restored: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)  # the ids of the players written
    maps: list[str] = field(default_factory=list)  # the ids of the maps written
    already_there: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)  # game id -> why


def read_backup(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The games and players of a backup (ValueError if it is not one)."""
    iterator = iter(lines)
    header = json.loads(next(iterator, "{}") or "{}")
    if header.get("format") != BACKUP_FORMAT:
        raise ValueError(f"not a Kadesh backup (expected format {BACKUP_FORMAT!r})")
    for line in iterator:
        if line.strip():
            yield json.loads(line)


def restore(store: Store, games: Iterable[dict[str, Any]]) -> RestoreReport:
    """Write each game that is not in the database yet, once its replay checks out."""
    report = RestoreReport()
    for item in games:
        if "player" in item:
            if _restore_player(store, item):
                report.players.append(item["player"]["id"])
            continue
        if "map" in item:
            if _restore_map(store, item):
                report.maps.append(item["map"]["id"])
            continue
        game_row = item["game"]
        game_id = game_row["id"]
        if store.exists(game_id):
            report.already_there.append(game_id)
            continue
        problem = _replay_problem(game_row, item["actions"])
        if problem:
            report.refused[game_id] = problem
            continue
        with store.engine.begin() as conn:
            conn.execute(schema.games.insert().values(**_typed_row(schema.games, game_row)))
            if item["actions"]:
                conn.execute(schema.actions.insert(), [_typed_row(schema.actions, a) for a in item["actions"]])
            for table in _game_tables():
                if item.get(table.name):
                    conn.execute(table.insert(), [_typed_row(table, r) for r in item[table.name]])
        report.restored.append(game_id)
    _follow_sequences(store)
    return report


def _follow_sequences(store: Store) -> None:
    """PostgreSQL: the counters of the tables whose rows came back with their ids (queued jobs, the ratings'
    results) start after them, so that the next row written gets a free id."""
    if store.engine.dialect.name != "postgresql":
        return  # SQLite takes the next id after the largest
    with store.engine.begin() as conn:
        for table in (schema.jobs, schema.rating_results):
            conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                              f"COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM {table.name}"))


def _restore_player(store: Store, item: dict[str, Any]) -> bool:
    """Write a player who is not in the database yet (nor another with the name or address), with their
    passkeys and the seats they keep in the games that are there; whether they were written."""
    row = item["player"]
    with store.engine.begin() as conn:
        same = (schema.players.c.id == row["id"]) | (schema.players.c.name_key == row["name_key"])
        if row.get("email_key") is not None:  # two players without an address are not the same one
            same = same | (schema.players.c.email_key == row["email_key"])
        taken = conn.execute(select(schema.players.c.id).where(same)).first()
        if taken is not None:
            return False
        conn.execute(schema.players.insert().values(**_typed_row(schema.players, row)))
        for key in item.get("passkeys", []):
            if conn.execute(select(schema.passkeys.c.id).where(
                    schema.passkeys.c.credential_id == key["credential_id"])).first() is None:
                conn.execute(schema.passkeys.insert().values(**_typed_row(schema.passkeys, key)))
        for stay in item.get("vacations", []):
            conn.execute(schema.vacations.insert().values(**_typed_row(schema.vacations, stay)))
        for hook in item.get("account_webhooks", []):
            conn.execute(schema.account_webhooks.insert().values(**_typed_row(schema.account_webhooks, hook)))
        for rating in item.get("ratings", []):
            conn.execute(schema.ratings.insert().values(**_typed_row(schema.ratings, rating)))
        for change in item.get("rating_changes", []):  # a change of a game that was not restored goes with it
            if conn.execute(select(schema.rating_results.c.id).where(
                    schema.rating_results.c.id == change["result_id"])).first() is not None:
                conn.execute(schema.rating_changes.insert().values(**_typed_row(schema.rating_changes, change)))
        for claim in item.get("claims", []):
            game_there = conn.execute(select(schema.games.c.id).where(schema.games.c.id == claim["game_id"])).first()
            held = conn.execute(select(schema.claims.c.player_id).where(
                schema.claims.c.game_id == claim["game_id"], schema.claims.c.role == claim["role"],
                schema.claims.c.seat == claim["seat"])).first()
            if game_there is not None and held is None:
                conn.execute(schema.claims.insert().values(**_typed_row(schema.claims, claim)))
    return True


def _restore_map(store: Store, item: dict[str, Any]) -> bool:
    """Write a map that is not in the database yet, with its reports; whether it was written. A map whose author is
    not in the database (another player took the name meanwhile) is kept by nobody if published, as a deleted
    account's, and left out if a draft."""
    row = _typed_row(schema.maps, item["map"])
    with store.engine.begin() as conn:
        if conn.execute(select(schema.maps.c.id).where(schema.maps.c.id == row["id"])).first() is not None:
            return False
        author = row.get("author_id")
        if author is not None and conn.execute(select(schema.players.c.id).where(
                schema.players.c.id == author)).first() is None:
            if row["status"] != "published":
                return False  # a draft is its author's alone: nobody's, it would be nobody's to open
            row.update(author_id=None, author_deleted=True)
        conn.execute(schema.maps.insert().values(**row))
        for report in item.get("map_reports", []):
            conn.execute(schema.map_reports.insert().values(**_typed_row(schema.map_reports, report)))
    return True


def _replay_problem(row: dict[str, Any], actions: list[dict[str, Any]]) -> str | None:
    """Why this game cannot be restored as it is, or None."""
    try:
        game = unplayed_game(row["ruleset"], row["options"], row["seed"], row["dice"])
        if game.commitment != row["commitment"]:
            return "the seed does not match its commitment"
        for number, action in enumerate(actions, start=1):
            if action["seq"] != number:
                return f"action {number} is missing"
            events = [event.to_dict() for event in game.replay(action["seat"], action["action"])]
            if json.loads(json.dumps(events)) != action["events"]:
                return f"action {number} does not replay to its stored events"
    except Exception as error:  # a damaged record of any kind is refused, never half-written
        return f"the record does not replay: {error}"
    if game.version != row["version"]:
        return f"version {row['version']} but {game.version} actions"
    return None
