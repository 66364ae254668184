"""A computer player that counts: it knows its own cup, and how likely the other's is to hold the rest.

It reads only its seat's view (its own dice, how many the other hides) and the legal actions, as every
Kadesh bot does: what it cannot see, it does not use.
"""

from __future__ import annotations

from math import comb
from typing import Any

from kadesh.ai.base import Bot, register_bot

BELIEVE = 0.5  # a bid less likely than this to hold is called


def at_least(needed: int, hidden: int, chance: float) -> float:
    """The chance that at least ``needed`` of ``hidden`` dice show the face (each with ``chance``)."""
    if needed <= 0:
        return 1.0
    return sum(comb(hidden, k) * chance ** k * (1 - chance) ** (hidden - k) for k in range(needed, hidden + 1))


def holds(view: dict[str, Any], seat: str, quantity: int, face: int) -> float:
    """How likely « at least ``quantity`` dice show ``face`` » is, seen from ``seat``'s cup."""
    mine = sum(1 for v in view["my_dice"] if v == face or (view["ones_wild"] and v == 1))
    hidden = sum(count for other, count in view["counts"].items() if other != seat)
    chance = (2 if view["ones_wild"] else 1) / view["faces"]
    return at_least(quantity - mine, hidden, chance)


@register_bot("dudo", "compteur")
class Counter(Bot):
    level = "compteur"
    title = {"fr": "Le Compteur", "en": "The Counter"}

    def choose(self, view: dict[str, Any], seat: str, legal: list[dict[str, Any]]) -> dict[str, Any]:
        kinds = {action["type"] for action in legal}
        if kinds == {"roll"}:
            return {"type": "roll"}
        bid = view["bid"]
        if bid is not None and holds(view, seat, bid[0], bid[1]) < BELIEVE:
            return {"type": "dudo"}
        bids = [a for a in legal if a["type"] == "bid"]
        if not bids:
            return {"type": "dudo"}
        mine = {face: sum(1 for v in view["my_dice"] if v == face) for face in range(1, view["faces"] + 1)}
        # The lowest believable bid on the face it holds most of (a bluff would be another bot's style).
        best = max(bids, key=lambda a: (holds(view, seat, a["quantity"], a["face"]) >= BELIEVE, mine[a["face"]],
                                        -a["quantity"], self.rng.random()))
        if bid is not None and holds(view, seat, best["quantity"], best["face"]) < BELIEVE:
            return {"type": "dudo"}  # nothing higher is believable either
        return best
