"""What the table decides beside the rules (issue 42): a side whose time per move ran out loses on a claim.

The rules never read a clock. A game made with a time per move ends when the other side claims the win after
the late side's time ran out: the server checks the time, then writes the claim as an action of the claimer,
``{"type": "claim_timeout", "against": <late seat>}``, through the same versioned write as any action. The
game's record keeps it, so a replay ends the same way; a player can never send it as an ordinary action.

A game made with seats left open that its creator withdraws from the open games before they are all taken ends
as cancelled (``{"type": "cancel"}``, written by a seat of the creator's): no winner, no rating, as Lichess'
cancelled seek leaves no game to play (docs/api.md, « Open games »).
"""

from __future__ import annotations

from typing import Any

from kadesh.core.errors import RuleError, bad_action
from kadesh.core.events import Event

CLAIM_TIMEOUT = "claim_timeout"  # the claimer's action
TIMED_OUT = "timed_out"  # its event, public
CANCEL = "cancel"  # the creator's action, withdrawing a game that waits for its players
CANCELLED = "cancelled"  # its event, public, and the outcome's reason
TABLE_ACTIONS = frozenset({CLAIM_TIMEOUT, CANCEL})
TABLE_EVENTS = frozenset({TIMED_OUT, CANCELLED})
TIME = "time"  # the outcome's reason

NOT_A_TABLE_CLAIM = "not_claimable"

SEAT_NAMES = {  # seats whose name the ruleset does not give with its options
    "north": {"fr": "Nord", "en": "North"}, "south": {"fr": "Sud", "en": "South"},
    "blue": {"fr": "Bleu", "en": "Blue"}, "red": {"fr": "Rouge", "en": "Red"},
    "imhotep": {"fr": "Imhotep", "en": "Imhotep"},
}

WORDS = {
    "fr": "{late} n'a pas joué à temps : {winner} gagne la partie.",
    "en": "{late} ran out of time: {winner} wins the game.",
}
CANCELLED_WORDS = {
    "fr": "Partie annulée : son créateur l'a retirée des parties ouvertes avant l'arrivée de tous ses joueurs.",
    "en": "Game cancelled: its creator withdrew it from the open games before all its players had come.",
}


def is_table_action(action: Any) -> bool:
    kind = action.get("type") if isinstance(action, dict) else None
    return isinstance(kind, str) and kind in TABLE_ACTIONS


def seat_title(names: dict[str, dict[str, str]], seat: str, lang: str) -> str:
    """A seat's name for a page: the ruleset's for these options (``Ruleset.seat_names``), else the usual one."""
    words = names.get(seat) or SEAT_NAMES.get(seat) or {}
    return words.get(lang) or seat.replace("_", " ").capitalize()


def timeout_claim(seat: str, action: dict[str, Any], seats: list[str], to_act: list[str]) -> tuple[str, Event]:
    """The late seat of a well-formed claim by ``seat``, and the claim's event; RuleError otherwise."""
    late = action.get("against")
    if set(action) != {"type", "against"} or late not in seats:
        raise bad_action("Une réclamation au temps nomme le camp en retard.",
                         "A claim on time names the late side.")
    if late == seat or late not in to_act:
        raise RuleError(NOT_A_TABLE_CLAIM, "Ce camp n'est pas celui dont on attend le coup.",
                        "That side is not the one whose move is awaited.")
    return late, Event(TIMED_OUT, {"seat": late, "winner": seat})


def cancellation(action: dict[str, Any]) -> Event:
    """The event of a well-formed cancellation; RuleError otherwise (the caller checked who may cancel)."""
    if set(action) != {"type"}:
        raise bad_action("Une annulation ne dit rien d'autre.", "A cancellation says nothing else.")
    return Event(CANCELLED, {})


def narrate(event: Event, names: dict[str, dict[str, str]], lang: str) -> str | None:
    if event.type == CANCELLED:
        return CANCELLED_WORDS["en" if lang == "en" else "fr"]
    if event.type != TIMED_OUT:
        return None
    words = WORDS["en" if lang == "en" else "fr"]
    return words.format(late=seat_title(names, event.data["seat"], lang),
                        winner=seat_title(names, event.data["winner"], lang))
