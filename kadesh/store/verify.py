"""Check an exported game against its dice seed, with nothing but the export.

1. The seed matches the commitment published at creation: ``sha256(seed) == commitment``.
2. Every roll on the record is the value the documented HMAC derivation gives for its
   index and sides (``kadesh.core.dice.derive_roll``): a check that needs no rules at all.
3. Replaying the record with ``load_game`` (which re-derives every roll from the seed)
   produces, action by action, exactly the events the server stored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from kadesh.core import commitment, derive_roll, load_game
from kadesh.core.events import ROLL


@dataclass(frozen=True, slots=True)
class Verdict:
    ok: bool
    message: str
    actions: int = 0
    rolls: int = 0

    def __bool__(self) -> bool:
        return self.ok


def verify_export(export: dict[str, Any]) -> Verdict:
    """MATCH (``ok``) or the first difference found, for an export dict (see module doc)."""
    try:
        return _verify(export)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        return Verdict(False, f"malformed export: {error!r}")


def _verify(export: dict[str, Any]) -> Verdict:
    record = export["record"]
    seed = str(record["seed"])
    if commitment(seed) != export["commitment"]:
        return Verdict(False, "the seed does not match the commitment: sha256(seed) != commitment")
    if record.get("dice", {}).get("kind", "seeded") != "seeded":
        return Verdict(False, "the dice of this record are not derived from the seed")
    stored = export["events"]
    if len(stored) != len(record["actions"]):
        return Verdict(False, f"{len(record['actions'])} actions but events for {len(stored)}")
    rolls = 0
    for number, events in enumerate(stored, start=1):
        for event in events:
            if event.get("type") != ROLL:
                continue
            rolls += 1
            expected = derive_roll(seed, int(event["index"]), int(event["sides"]))
            if event["value"] != expected:
                return Verdict(False, f"action {number}: roll #{event['index']} (d{event['sides']}) is recorded "
                                      f"as {event['value']}, the seed gives {expected}")
    try:
        game = load_game(record)
    except Exception as error:  # a refused action on replay is a mismatch, whatever the ruleset raises
        return Verdict(False, f"the record does not replay: {error}")
    produced: list[list[dict[str, Any]]] = [[] for _ in record["actions"]]
    for version, event in game.events:
        produced[version - 1].append(_plain(event.to_dict()))
    for number, (mine, theirs) in enumerate(zip(produced, stored, strict=True), start=1):
        difference = _first_difference(mine, [_plain(e) for e in theirs])
        if difference:
            return Verdict(False, f"action {number}: {difference}")
    return Verdict(True, f"MATCH: {len(stored)} actions, {rolls} rolls re-derived from the seed",
                   len(stored), rolls)


def _first_difference(replayed: list[dict[str, Any]], stored: list[dict[str, Any]]) -> str | None:
    for index, (mine, theirs) in enumerate(zip(replayed, stored, strict=False)):
        if mine == theirs:
            continue
        if mine.get("type") == ROLL and theirs.get("type") == ROLL:
            for key in ("index", "sides", "value"):
                if mine.get(key) != theirs.get(key):
                    return (f"event {index} (roll): {key} is {theirs.get(key)!r} on the record, "
                            f"replay gives {mine.get(key)!r}")
        keys = sorted(set(mine) | set(theirs))
        key = next(k for k in keys if mine.get(k) != theirs.get(k))
        return (f"event {index} ({theirs.get('type')}): {key} is {theirs.get(key)!r} on the record, "
                f"replay gives {mine.get(key)!r}")
    if len(replayed) != len(stored):
        return f"replay gives {len(replayed)} events, the record has {len(stored)}"
    return None


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))
