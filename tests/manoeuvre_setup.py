"""Build Manœuvre positions directly, the way the rulebook's diagrams show them."""

from __future__ import annotations

from kadesh import ScriptedDice, new_game
from kadesh.core.game import Game
from kadesh.core.grid import parse_cell
from kadesh.rules.manoeuvre.state import BATTLE


def battle(placement: dict[str, str], active: str = "north", dice: list[int] | None = None,
           options: dict | None = None) -> Game:
    """A game in its battle phase with only the listed elements on the field.

    ``placement`` maps element ids to "cell facing", e.g. {"n5": "e5 S", "s12": "e6 N"}.
    Ids: n1/s1 general, 2-4 chariots, 5-7 blades, 8-10 bows, 11 the choice (bow by default), 12 skirmisher.
    """
    game = new_game("manoeuvre", seed=1, options=options, dice=ScriptedDice(dice or []))
    state = game.state
    for eid, spec in placement.items():
        cell_text, facing = spec.split()
        element = state.elements[eid]
        element.facing = facing
        state.place(element, parse_cell(cell_text, 12, 12))
    state.phase, state.turn, state.active = BATTLE, 1, active
    state.ready = {"north": True, "south": True}
    return game


def _own_view(game: Game, eid: str) -> dict:
    side = "north" if eid.startswith("n") else "south"
    return next(e for e in game.view(side)["elements"] if e["id"] == eid)


def cell_of(game: Game, eid: str) -> str | None:
    return _own_view(game, eid)["cell"]


def facing_of(game: Game, eid: str) -> str | None:
    return _own_view(game, eid)["facing"]


def combat_event(events: list) -> dict:
    return next(e.data for e in events if e.type == "combat")


NORTH_ROWS = [f"{c}{r}" for r in (1, 2) for c in "cdefghij"]
SOUTH_ROWS = [f"{c}{r}" for r in (12, 11) for c in "cdefghij"]


def deploy_all(game: Game, side: str, cells: list[str] | None = None) -> None:
    cells = cells or (NORTH_ROWS if side == "north" else SOUTH_ROWS)
    prefix = side[0]
    for number in range(1, 13):
        game.act(side, {"type": "deploy", "element": f"{prefix}{number}", "cell": cells[number - 1]})
