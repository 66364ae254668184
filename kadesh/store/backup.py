"""Backups of a whole database, as JSON Lines: ``kadesh export --all`` and ``kadesh import``.

The first line names the format; then one line per game with its row, its actions (with
their stored events) and the rows of every other table that belongs to a game (token
hashes, seats given to bots, ...). Unfinished games' seeds are in it, and token hashes:
a backup is an operator's secret, unlike a finished game's export.

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

from sqlalchemy import DateTime, Table, select

from kadesh.store import schema
from kadesh.store.store import Store, unplayed_game

BACKUP_FORMAT = "kadesh-backup/1"


def _game_tables() -> list[Table]:
    """Every table, besides games and actions, whose rows belong to one game."""
    return [table for table in schema.metadata.sorted_tables
            if "game_id" in table.c and table.name != schema.actions.name]


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


def write_backup(store: Store, out) -> int:
    """Write the backup to a text stream; returns the number of games."""
    games = -1
    for item in dump(store):
        out.write(json.dumps(item, ensure_ascii=False, separators=(",", ":")) + "\n")
        games += 1
    return games


@dataclass
class RestoreReport:
    restored: list[str] = field(default_factory=list)
    already_there: list[str] = field(default_factory=list)
    refused: dict[str, str] = field(default_factory=dict)  # game id -> why


def read_backup(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """The games of a backup (ValueError if it is not one)."""
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
    return report


def _replay_problem(row: dict[str, Any], actions: list[dict[str, Any]]) -> str | None:
    """Why this game cannot be restored as it is, or None."""
    try:
        game = unplayed_game(row["ruleset"], row["options"], row["seed"], row["dice"])
        if game.commitment != row["commitment"]:
            return "the seed does not match its commitment"
        for number, action in enumerate(actions, start=1):
            if action["seq"] != number:
                return f"action {number} is missing"
            events = [event.to_dict() for event in game.act(action["seat"], action["action"])]
            if json.loads(json.dumps(events)) != action["events"]:
                return f"action {number} does not replay to its stored events"
    except Exception as error:  # a damaged record of any kind is refused, never half-written
        return f"the record does not replay: {error}"
    if game.version != row["version"]:
        return f"version {row['version']} but {game.version} actions"
    return None
