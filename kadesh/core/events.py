"""Events: what happened, as JSON-able data, with who may read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from kadesh.core.dice import Roll

ROLL = "roll"


@dataclass(frozen=True, slots=True)
class Event:
    """One fact of a game. ``audience`` is None for a public event, else the seats that may read it."""

    type: str
    data: dict[str, Any] = field(default_factory=dict)
    audience: tuple[str, ...] | None = None

    def visible_to(self, seat: str | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, **self.data}
        if self.audience is not None:
            out["audience"] = list(self.audience)
        return out

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> Event:
        data = dict(raw)
        kind = data.pop("type")
        audience = data.pop("audience", None)
        return cls(kind, data, tuple(audience) if audience is not None else None)


def roll_event(roll: Roll, seat: str | None, purpose: str, audience: tuple[str, ...] | None = None) -> Event:
    """The record of one die roll: its index in the game's sequence, its faces and its value."""
    return Event(
        ROLL,
        {"index": roll.index, "sides": roll.sides, "value": roll.value, "seat": seat, "purpose": purpose},
        audience,
    )
