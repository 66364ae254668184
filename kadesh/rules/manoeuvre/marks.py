"""Marks for the board: what each battle event did, where, so the page can show the last turn.

The journal says it in words; a mark says it in cells (``Ruleset.marks``). Cells are followed
along the events from the public ``battle_started`` placement, so a mark never tells more than
the events it comes from: every battle event is public, and deployment events get no mark.
"""

from __future__ import annotations

from typing import Any

from kadesh.core.events import Event


def marks(events: list[Event]) -> list[dict[str, Any] | None]:
    """One mark per event (None for those with nothing to draw), following positions in order."""
    where: dict[str, str] = {}
    out: list[dict[str, Any] | None] = []
    for event in events:
        d = event.data
        mark: dict[str, Any] | None = None
        if event.type == "battle_started":
            where = {eid: cell for eid, (cell, _) in d["placement"].items()}
        elif event.type == "moved":
            element = d["element"]
            mark = {"kind": "move", "side": element["side"], "element": element["id"], "from": d["from"],
                    "to": d["to"], "facing": d["facing"], "charge": bool(d.get("charge"))}
            where[element["id"]] = d["to"]
        elif event.type == "turned":
            element = d["element"]
            mark = {"kind": "turn", "side": element["side"], "element": element["id"], "cell": d["cell"],
                    "facing": d["facing"]}
        elif event.type == "combat":
            mark = _combat(d, where)
        elif event.type == "turn_ended":
            mark = {"kind": "end_turn", "side": d["side"]}
        out.append(mark)
    return out


def _combat(d: dict[str, Any], where: dict[str, str]) -> dict[str, Any]:
    """The fight at the defender's cell, its result, and who recoiled or was destroyed."""
    attacker, defender = d["attacker"]["id"], d["defender"]["id"]
    mark: dict[str, Any] = {"kind": "combat", "side": d["attacker"]["side"], "mode": d["mode"],
                            "attacker": attacker, "defender": defender, "from": where.get(attacker),
                            "cell": where.get(defender), "result": d["result"]}
    loser = d[d["loser"]]["id"] if d.get("loser") else None
    if loser is None:
        return mark
    mark["loser"] = loser
    pushed = d.get("pushed")
    if pushed:
        friend = pushed["element"]["id"]
        mark["pushed"] = {"element": friend, "from": where.get(friend), "to": pushed["to"]}
        where[friend] = pushed["to"]
    if d["result"] == "recoil":
        mark["recoil"] = {"element": loser, "from": where.get(loser), "to": d["recoil_to"]}
        where[loser] = d["recoil_to"]
    elif d["result"] == "destroyed":
        mark["destroyed"] = loser
        where.pop(loser, None)
    return mark
