"""The Manœuvre state: elements on a 12×12 field, and what each threatens."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kadesh.core.grid import Cell, on_board, parse_cell, step
from kadesh.rules.manoeuvre.data import OTHER_SIDE, RULES, SIDES, Kind

DEPLOYMENT, BATTLE, OVER = "deployment", "battle", "over"
# The neighbours of a cell (north, east, south, west) and the facing with which each threatens that cell:
# what ``threatened_cell() == cell`` says, without building the cell, on the search's hottest path.
FACING_IN = ((0, -1, "S"), (1, 0, "W"), (0, 1, "N"), (-1, 0, "E"))


@dataclass(slots=True)
class Element:
    id: str
    side: str
    kind: Kind
    facing: str
    cell: Cell | None = None
    alive: bool = True
    acted: bool = False

    @property
    def on_field(self) -> bool:
        return self.alive and self.cell is not None

    def threatened_cell(self) -> Cell | None:
        """The cell directly in front of the element, if it is on the field."""
        if self.cell is None or not self.alive:
            return None
        front = step(self.cell, self.facing)
        return front if on_board(front, RULES.width, RULES.height) else None

    def copy(self) -> Element:
        return Element(self.id, self.side, self.kind, self.facing, self.cell, self.alive, self.acted)


@dataclass(slots=True)
class State:
    elements: dict[str, Element]
    board: dict[Cell, Element] = field(default_factory=dict)
    phase: str = DEPLOYMENT
    turn: int = 0
    active: str | None = None
    ready: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(SIDES, False))
    losses: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    winner: str | None = None
    end_reason: str | None = None

    def copy(self) -> State:
        elements = {eid: el.copy() for eid, el in self.elements.items()}
        board = {cell: elements[el.id] for cell, el in self.board.items()}
        return State(elements, board, self.phase, self.turn, self.active, dict(self.ready),
                     dict(self.losses), self.winner, self.end_reason)

    # -- questions the rules ask ---------------------------------------------
    def side_elements(self, side: str) -> list[Element]:
        return [el for el in self.elements.values() if el.side == side]

    def threats_against(self, element: Element) -> list[Element]:
        """Enemy elements whose threatened cell is this element's cell: it is engaged by them."""
        if element.cell is None:
            return []
        x, y = element.cell
        board, side = self.board, element.side
        found = []
        for dx, dy, facing in FACING_IN:
            other = board.get((x + dx, y + dy))
            if other is not None and other.side != side and other.facing == facing:
                found.append(other)
        return found

    def is_threatened_by(self, cell: Cell, side: str) -> bool:
        """Whether an element of ``side`` threatens ``cell``."""
        x, y = cell
        board = self.board
        for dx, dy, facing in FACING_IN:
            other = board.get((x + dx, y + dy))
            if other is not None and other.side == side and other.facing == facing:
                return True
        return False

    def place(self, element: Element, cell: Cell | None) -> None:
        if element.cell is not None and self.board.get(element.cell) is element:
            del self.board[element.cell]
        element.cell = cell
        if cell is not None:
            self.board[cell] = element

    def remove(self, element: Element) -> None:
        self.place(element, None)
        element.alive = False

    def end(self, winner: str, reason: str) -> None:
        self.phase = OVER
        self.winner = winner
        self.end_reason = reason
        self.active = None


def army_kinds(choice: str) -> list[str]:
    return [choice if name == "choice" else name for name in RULES.army]


def initial_state(choices: dict[str, str]) -> State:
    elements: dict[str, Element] = {}
    for side in SIDES:
        prefix = side[0]
        for number, kind_name in enumerate(army_kinds(choices[side]), start=1):
            eid = f"{prefix}{number}"
            elements[eid] = Element(eid, side, RULES.kinds[kind_name], RULES.start_facing[side])
    return State(elements)


def opponent(side: str) -> str:
    return OTHER_SIDE[side]


def state_from_view(view: dict[str, Any]) -> State:
    """Rebuild a state from a view: elements the view hides stay off the field (for search)."""
    elements: dict[str, Element] = {}
    state = State(elements, phase=view["phase"], turn=view["turn"], active=view["active"],
                  ready=dict(view["ready"]), losses=dict(view["losses"]))
    for shown in view["elements"]:
        element = Element(shown["id"], shown["side"], RULES.kinds[shown["kind"]],
                          shown["facing"] or RULES.start_facing[shown["side"]], alive=shown["alive"],
                          acted=shown.get("acted", False))
        elements[element.id] = element
        if shown["cell"] is not None:
            state.place(element, parse_cell(shown["cell"], RULES.width, RULES.height))
    outcome = view.get("outcome")
    if outcome:
        state.winner, state.end_reason = outcome["winner"], outcome["reason"]
    return state
