"""The contract every ruleset meets.

A ruleset is a declarative definition in the spirit of boardgame.io and OpenSpiel:
setup from options, who must act, lazy legal actions, a pure ``apply`` that returns
events, the single ``view`` filter, the outcome, and narration. ``apply`` validates the
whole action before it changes anything, so a refused action leaves the state as it was.

Simultaneous turns (several seats giving secret orders before the turn resolves) need
nothing more: ``to_act`` lists every seat that still owes an action, each order is an
event whose audience is its own seat, and the resolving action is just another action.
Where an action is a free message (Royaumes' orders), ``legal_actions`` yields its simplest
form and ``check`` judges any other; a turn's deadline is ``deadline``.
"""

from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

from kadesh.core.dice import Dice
from kadesh.core.events import Event

Action = dict[str, Any]
Seat = str


class Ruleset(ABC):
    """Subclass, fill the class attributes, and name the class in the entry-point group ``kadesh.rulesets``
    (docs/writing-a-ruleset.md); ``kadesh.core.register`` adds one by hand."""

    name: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[dict[str, str]]  # {"fr": ..., "en": ...}
    # Each option: {"type": "choice", "values": [...], "default": ..., "fr": ..., "en": ...};
    # {"type": "int", "min": ..., "max": ...}; or {"type": "text", "max_length": ...}
    options_schema: ClassVar[dict[str, dict[str, Any]]] = {}
    # The names a page shows for the ruleset's own words (unit types, terrain…), by kind, id and language, so
    # that no client keeps a copy of the data: {"units": {"infantry": {"fr": ..., "en": ...}}, ...}.
    glossary: ClassVar[dict[str, dict[str, Any]]] = {}
    # Seats that referee rather than play (Royaumes' Imhotep): no computer opponent is offered for them.
    game_master_seats: ClassVar[tuple[str, ...]] = ()
    # Seconds the computer waits before each new round (``round``) of a game where it plays every playing seat,
    # so that a game master or a watcher follows the rounds as they come; 0: no pause (a game that ends soon).
    computer_round_pause: ClassVar[float] = 0.0
    # Where each playing seat may be held by two people who confer (Royaumes' kingdoms, issue 43): the words for
    # the seat's own holder ("seat": who sends the orders) and for the second ("lord": confers, drafts, never
    # acts). {}: one person a seat.
    council_titles: ClassVar[dict[str, dict[str, str]]] = {}
    # The seat of whoever opens a game between people, where the rules name one (Manœuvre: « qui ouvre une
    # manœuvre commande le camp du Nord »): never left open to others, and the first of a pair to have waited
    # gets it. None: the opener keeps any seat.
    opener_seat: ClassVar[str | None] = None
    # Modules that register this ruleset's computer players and simulator when imported (kadesh.ai.base's
    # register_bot and register_simulator); imported the first time bots are asked for.
    bot_modules: ClassVar[tuple[str, ...]] = ()

    def normalize_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Fill defaults and refuse unknown or out-of-range options (RuleError ``bad_options``)."""
        from kadesh.core.options import normalize

        return normalize(self.options_schema, options or {})

    @abstractmethod
    def seats(self, options: dict[str, Any]) -> list[Seat]: ...

    def bot_seats(self, options: dict[str, Any]) -> list[Seat]:
        """The seats a computer opponent may take: all but the game master's."""
        return [seat for seat in self.seats(options) if seat not in self.game_master_seats]

    def seat_names(self, options: dict[str, Any]) -> dict[Seat, dict[str, str]]:
        """Seats whose names come with the options (a map's kingdoms), by language; others: {}."""
        return {}

    def announcements(self, state: Any, seat: Seat, action: dict[str, Any]) -> list[dict[str, Any]]:
        """What a computer player says at the table of an action it chose before it is applied, as messages to
        other seats: ``[{"to": seat, "kind": "alliance", "data": {...}, "fr": ..., "en": ...}]`` (Royaumes: its
        alliance offers and acceptances). It reads the state and the action, never a message. Default: nothing."""
        return []

    def alliance_line(self, options: dict[str, Any], other: Seat, lang: str) -> str | None:
        """The line of an order message that declares an alliance with ``other``, in ``lang``, where the rules
        have alliances by agreement (an offer made in a message becomes it); None elsewhere."""
        return None

    @abstractmethod
    def setup(self, options: dict[str, Any]) -> Any:
        """The initial state for normalized options."""

    @abstractmethod
    def clone(self, state: Any) -> Any:
        """An independent copy of a state (for search and what-if odds)."""

    @abstractmethod
    def to_act(self, state: Any) -> list[Seat]:
        """Seats that must act now; empty once the game is over."""

    @abstractmethod
    def legal_actions(self, state: Any, seat: Seat) -> Iterator[Action]:
        """Generate the legal actions of ``seat``, lazily."""

    def check(self, state: Any, seat: Seat, action: Action) -> None:
        """Raise RuleError if ``action`` is not legal for ``seat``. Default: validate on a copy."""
        from kadesh.core.dice import ScriptedDice

        self.apply(self.clone(state), seat, action, ScriptedDice([1] * 64))

    @abstractmethod
    def apply(self, state: Any, seat: Seat, action: Action, dice: Dice) -> list[Event]:
        """Apply a legal action in place and return its events; raise RuleError, unchanged, if illegal."""

    @abstractmethod
    def view(self, state: Any, seat: Seat | None) -> dict[str, Any]:
        """All that ``seat`` may see (``None``: the public, spectators' view), JSON-able."""

    def view_once_over(self, state: Any, seat: Seat | None) -> dict[str, Any]:
        """``view`` for a moment of a game that is over: its last position, or a past one in its replay. Nothing is
        left to hide by then: a ruleset with hidden information may show the public (``None``) the whole game, as
        Advance Wars By Web's replays do (Front lifts its fog), each seat's own view staying as it was. Never asked
        while the game runs. Default: ``view``."""
        return self.view(state, seat)

    def visible_once_over(self, event: Event, seat: Seat | None) -> bool:
        """Whether ``seat`` (None: the public) reads ``event`` in the journal of a game that is over, as
        ``view_once_over`` for the board: a ruleset that tells each side its own account of the same fact (what it
        saw of the other side's move) may give the public the whole game once it is over, each fact told once,
        each seat's journal staying as it read it. Never asked while the game runs, where ``event.visible_to``
        alone decides. Default: ``event.visible_to(seat)``."""
        return event.visible_to(seat)

    @abstractmethod
    def outcome(self, state: Any) -> dict[str, Any] | None:
        """None while the game runs, else at least ``{"winner": seat or None, "reason": str}``."""

    @abstractmethod
    def narrate(self, event: Event, seat: Seat | None, lang: str) -> str | None:
        """One journal line for ``event`` as ``seat`` reads it, or None for a silent event."""

    def narrator(self, options: dict[str, Any]) -> Callable[[Event, Seat | None, str], str | None]:
        """``narrate`` for one game's options: a ruleset whose options bring their own names (a
        map of one's own) tells its events in those names. Default: ``narrate``."""
        return self.narrate

    def marks(self, events: list[Event], seat: Seat | None) -> list[dict[str, Any] | None]:
        """For the board, one small JSON mark per event (what moved where, a fight's cell and
        result, what was destroyed), or None; ``events`` are all those ``seat`` may read, in
        order from the start, so a ruleset may follow positions along them. Default: no marks."""
        return [None] * len(events)

    def state_from_view(self, view: dict[str, Any], seat: Seat | None) -> Any:
        """A state consistent with ``view`` alone, for search by bots that must not see hidden state.

        What the view hides is left out or assumed; it is never read from the real state."""
        raise NotImplementedError(f"{self.name} cannot rebuild a state from a view")

    def web_folder(self) -> Path | None:
        """The folder of this ruleset's browser view: ``<name>.js`` (the view module the game page imports),
        and if it has them ``<name>.css``, ``<name>-guide.js`` (the rules for players) and other modules, all
        served at ``/static/rules/``. By default the ``web`` folder beside the ruleset's module; None if none."""
        module = sys.modules.get(type(self).__module__)
        folder = Path(module.__file__).parent / "web" if module is not None and module.__file__ else None
        return folder if folder is not None and folder.is_dir() else None

    def round(self, state: Any) -> int | None:
        """The number of the round, where seats act together in rounds (Royaumes' turns); None otherwise.

        A seat still to act after a new round began has a new turn (it is told so, as one whose turn
        has just come)."""
        return None

    def deadline(self, state: Any) -> tuple[str, Seat, Action] | None:
        """A time (ISO 8601, with its zone) when the game acts by itself, as ``seat`` doing
        ``action`` (Royaumes: Imhotep adjudicates when the turn's deadline passes); None if none.

        Rules never read a clock: the server watches this time and sends the action when it passes."""
        return None

    def preview(self, state: Any, seat: Seat, action: Action) -> dict[str, Any] | None:
        """How the rules understand an action, without playing it (Royaumes: an order message,
        line by line); None where there is nothing to say. Raise RuleError for a malformed one."""
        return None

    def odds(self, state: Any, seat: Seat, action: Action) -> dict[str, Any] | None:
        """Exact chances of an action's outcomes, where the ruleset can tell; None otherwise."""
        return None
