"""Dudo's rules, pure: the state, who acts, the legal actions, and what an action does.

Each player hides dice under a cup. The round's first player shakes (every die rolled, each player seeing
only their own); then players take turns to bid « there are at least Q dice showing F among all the cups »,
each bid higher than the last (more dice, or as many of a higher face), until one calls « Dudo! »: the cups
are lifted and the dice counted (1s count as any face). If the bid holds, the caller loses a die; if not, the
bidder does. The loser starts the next round. Whoever has no die left has lost.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kadesh.core import Dice, Event, RuleError, roll_event
from kadesh.core.errors import GAME_OVER, NOT_YOUR_TURN, bad_action

DATA = tomllib.loads((Path(__file__).parent / "rules.toml").read_text(encoding="utf-8"))
SEATS = ("north", "south")
ROLL, BID = "roll", "bid"  # the phases: shake the cups, then bid until someone calls


@dataclass
class State:
    counts: dict[str, int]  # dice left in each cup
    starter: str = "north"  # who shakes and bids first this round
    phase: str = ROLL
    to_act: str = "north"
    cups: dict[str, list[int]] = field(default_factory=dict)  # the dice under each cup: secret
    bid: tuple[int, int] | None = None  # (quantity, face)
    bidder: str | None = None
    bids: list[dict[str, Any]] = field(default_factory=list)  # this round's, in order: public
    round: int = 1
    winner: str | None = None

    def copy(self) -> State:
        return State(dict(self.counts), self.starter, self.phase, self.to_act,
                     {seat: list(dice) for seat, dice in self.cups.items()}, self.bid, self.bidder,
                     [dict(b) for b in self.bids], self.round, self.winner)


def initial_state() -> State:
    return State(counts={seat: DATA["dice_per_player"] for seat in SEATS})


def other(seat: str) -> str:
    return SEATS[1 - SEATS.index(seat)]


def bid_faces() -> range:
    return range(2 if DATA["ones_wild"] else 1, DATA["faces"] + 1)


def higher(bid: tuple[int, int], than: tuple[int, int] | None) -> bool:
    """More dice, or as many dice of a higher face."""
    return than is None or bid[0] > than[0] or (bid[0] == than[0] and bid[1] > than[1])


def legal_actions(state: State, seat: str) -> Iterator[dict[str, Any]]:
    if state.winner is not None or seat != state.to_act:
        return
    if state.phase == ROLL:
        yield {"type": "roll"}
        return
    total = sum(state.counts.values())
    for quantity in range(1, total + 1):
        for face in bid_faces():
            if higher((quantity, face), state.bid):
                yield {"type": "bid", "quantity": quantity, "face": face}
    if state.bid is not None:
        yield {"type": "dudo"}


def apply(state: State, seat: str, action: dict[str, Any], dice: Dice) -> list[Event]:
    """Check the whole action, then play it; a refused action changes nothing."""
    if state.winner is not None:
        raise RuleError(GAME_OVER, "La partie est finie.", "The game is over.")
    if seat != state.to_act:
        raise RuleError(NOT_YOUR_TURN, "Ce n'est pas ton tour.", "It is not your turn.")
    kind = action.get("type")
    if state.phase == ROLL:
        if kind != "roll":
            raise bad_action("Il faut d'abord secouer les gobelets.", "The cups must be shaken first.")
        return _shake(state, dice)
    if kind == "bid":
        return _bid(state, seat, action)
    if kind == "dudo":
        return _call(state, seat)
    raise bad_action(f"Action inconnue : {kind!r} (bid, dudo).", f"Unknown action: {kind!r} (bid, dudo).")


def _shake(state: State, dice: Dice) -> list[Event]:
    events = []
    for seat in SEATS:  # every die is rolled on the record; its owner alone may read it
        rolls = [dice.roll(DATA["faces"]) for _ in range(state.counts[seat])]
        state.cups[seat] = sorted(roll.value for roll in rolls)
        events += [roll_event(roll, seat, "cup", audience=(seat,)) for roll in rolls]
        events.append(Event("shaken", {"seat": seat, "dice": state.cups[seat]}, audience=(seat,)))
    state.phase = BID
    return [Event("round", {"round": state.round, "starter": state.starter, "counts": dict(state.counts)}),
            *events]


def _bid(state: State, seat: str, action: dict[str, Any]) -> list[Event]:
    quantity, face = action.get("quantity"), action.get("face")
    if type(quantity) is not int or type(face) is not int or set(action) != {"type", "quantity", "face"}:
        raise bad_action("Une annonce : {type: bid, quantity, face}, deux entiers.",
                         "A bid: {type: bid, quantity, face}, two integers.")
    if face not in bid_faces() or not 1 <= quantity <= sum(state.counts.values()):
        raise bad_action("Annonce impossible : une face de 2 à 6, au plus autant de dés qu'il y en a en jeu.",
                         "Impossible bid: a face from 2 to 6, at most as many dice as are in play.")
    if not higher((quantity, face), state.bid):
        raise bad_action("Il faut annoncer plus haut : plus de dés, ou autant d'une face plus forte.",
                         "The bid must be higher: more dice, or as many of a higher face.")
    state.bid, state.bidder = (quantity, face), seat
    state.bids.append({"seat": seat, "quantity": quantity, "face": face})
    state.to_act = other(seat)
    return [Event("bid", {"seat": seat, "quantity": quantity, "face": face})]


def count(cups: dict[str, list[int]], face: int) -> int:
    """The dice showing ``face`` under all the cups, 1s counting as any face when they are wild."""
    return sum(1 for dice in cups.values() for value in dice if value == face or (DATA["ones_wild"] and value == 1))


def _call(state: State, seat: str) -> list[Event]:
    if state.bid is None or state.bidder is None:
        raise bad_action("Il n'y a pas encore d'annonce à contester.", "There is no bid to call yet.")
    quantity, face = state.bid
    found = count(state.cups, face)
    loser = seat if found >= quantity else state.bidder
    state.counts[loser] -= 1
    events = [Event("dudo", {"seat": seat, "bidder": state.bidder, "quantity": quantity, "face": face}),
              Event("reveal", {"cups": {s: list(d) for s, d in state.cups.items()}, "face": face, "found": found}),
              Event("lost_die", {"seat": loser, "left": state.counts[loser], "held": found >= quantity})]
    if state.counts[loser] == 0:
        state.winner = other(loser)
        state.phase, state.to_act = "over", ""
        return [*events, Event("won", {"seat": state.winner})]
    state.round += 1
    state.starter = state.to_act = loser
    state.phase, state.cups, state.bid, state.bidder, state.bids = ROLL, {}, None, None, []
    return events


def view(state: State, seat: str | None) -> dict[str, Any]:
    """What ``seat`` sees: its own cup, never the other's (a spectator sees none) until they are lifted."""
    return {"phase": state.phase, "round": state.round, "to_act": state.to_act, "starter": state.starter,
            "counts": dict(state.counts), "bid": list(state.bid) if state.bid else None, "bidder": state.bidder,
            "bids": [dict(b) for b in state.bids], "winner": state.winner,
            "my_dice": list(state.cups.get(seat, [])) if seat in SEATS else [],
            "ones_wild": DATA["ones_wild"], "faces": DATA["faces"]}
