"""A game: its creation record, its ordered actions, and the state derived from them."""

from __future__ import annotations

import secrets
from bisect import bisect_right
from collections.abc import Callable, Iterator
from functools import cached_property
from typing import Any

from kadesh.core.dice import Dice, SeededDice, commitment, dice_from_record
from kadesh.core.errors import GAME_OVER, UNKNOWN_SEAT, RuleError, bad_action
from kadesh.core.events import Event
from kadesh.core.registry import get_ruleset
from kadesh.core.ruleset import Action, Ruleset, Seat
from kadesh.core.table import CANCEL, CANCELLED, TABLE_EVENTS, TIME, cancellation, is_table_action, timeout_claim
from kadesh.core.table import narrate as narrate_table

RECORD_FORMAT = "kadesh-record/1"


class LegalActions:
    """Lazy legal actions: iterate to generate them, ``in`` to test one cheaply."""

    def __init__(self, game: Game, seat: Seat) -> None:
        self._game = game
        self._seat = seat

    def __iter__(self) -> Iterator[Action]:
        return self._game.ruleset.legal_actions(self._game.state, self._seat)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, dict):
            return False
        try:
            self._game.ruleset.check(self._game.state, self._seat, action)
        except RuleError:
            return False
        return True

    def count(self) -> int:
        return sum(1 for _ in self)


class Game:
    """One game of any ruleset. ``version`` counts the actions applied so far."""

    def __init__(self, ruleset: Ruleset, options: dict[str, Any], seed: str, dice: Dice) -> None:
        self.ruleset = ruleset
        self.options = options
        self.seed = seed
        self.dice = dice
        self.state = ruleset.setup(options)
        self.actions: list[dict[str, Any]] = []
        self.events: list[tuple[int, Event]] = []  # (version the event belongs to, event)
        self.verdict: dict[str, Any] | None = None  # the table's ending (a claim on time), over the rules'
        # The version at which each seat to act began its turn (its clock, when the game has one, runs from it).
        self.turn_began: dict[Seat, int] = dict.fromkeys(ruleset.to_act(self.state), 0)
        self._round = ruleset.round(self.state)  # a new round is a new turn for every seat to act (Royaumes)
        self.written_at: list[Any] = []  # when each version was written, where a store tells (its clocks read it)

    # -- the contract ---------------------------------------------------------
    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def seats(self) -> list[Seat]:
        return self.ruleset.seats(self.options)

    @property
    def outcome(self) -> dict[str, Any] | None:
        return self.verdict or self.ruleset.outcome(self.state)

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    @cached_property
    def narrate(self) -> Callable[[Event, Seat | None, str], str | None]:
        """The ruleset's narration for this game's options, and the table's for its own events."""
        rules, names = self.ruleset.narrator(self.options), self.ruleset.seat_names(self.options)

        def narrate(event: Event, seat: Seat | None, lang: str) -> str | None:
            return narrate_table(event, names, lang) if event.type in TABLE_EVENTS else rules(event, seat, lang)

        return narrate

    def to_act(self) -> list[Seat]:
        return [] if self.verdict else self.ruleset.to_act(self.state)

    def legal_actions(self, seat: Seat) -> list[Action]:
        self._check_seat(seat)
        return [] if self.verdict else list(self.ruleset.legal_actions(self.state, seat))

    def legal(self, seat: Seat) -> LegalActions:
        self._check_seat(seat)
        return LegalActions(self, seat)

    def act(self, seat: Seat, action: Action) -> list[Event]:
        """Apply ``action`` for ``seat``; on RuleError nothing changes, the dice included."""
        self._check_playable(seat, action)
        if is_table_action(action):
            raise bad_action("Cette action est celle de la table, pas d'un joueur.",
                             "That action is the table's, not a player's.")
        dice_index = self.dice.index
        try:
            events = self.ruleset.apply(self.state, seat, action, self.dice)
        except RuleError:
            self.dice.index = dice_index
            raise
        return self._record(seat, action, events)

    def claim_timeout(self, seat: Seat, late: Seat) -> list[Event]:
        """End the game for ``seat``: ``late`` ran out of time (the caller checked the clock)."""
        return self.table_act(seat, {"type": "claim_timeout", "against": late})

    def table_act(self, seat: Seat, action: Action) -> list[Event]:
        """Apply one of the table's actions (``kadesh.core.table``), checked for its form only."""
        self._check_playable(seat, action)
        if action.get("type") == CANCEL:
            event = cancellation(action)
            self.verdict = {"winner": None, "reason": CANCELLED}
            return self._record(seat, action, [event])
        late, event = timeout_claim(seat, action, self.seats, self.to_act())
        self.verdict = {"winner": seat, "reason": TIME, "late": late}
        return self._record(seat, action, [event])

    def replay(self, seat: Seat, action: Action) -> list[Event]:
        """Apply a recorded action: a player's or the table's."""
        return self.table_act(seat, action) if is_table_action(action) else self.act(seat, action)

    def _check_playable(self, seat: Seat, action: Any) -> None:
        self._check_seat(seat)
        if not isinstance(action, dict):
            raise bad_action("Une action est un objet JSON.", "An action is a JSON object.")
        if self.outcome is not None:
            raise RuleError(GAME_OVER, "La partie est terminée.", "The game is over.")

    def _record(self, seat: Seat, action: Action, events: list[Event]) -> list[Event]:
        self.actions.append({"seat": seat, "action": action})
        version = self.version
        self.events.extend((version, event) for event in events)
        round_now = self.ruleset.round(self.state)
        before = self.turn_began if round_now == self._round else {}
        self._round = round_now
        self.turn_began = {acting: before.get(acting, version) for acting in self.to_act()}
        return events

    def view(self, seat: Seat | None, game_over: bool = False) -> dict[str, Any]:
        """What ``seat`` (None: the public) sees now: the ruleset's ``view``, or its ``view_once_over`` once the
        game is over, or when this is a past moment of a game now over (``game_over``: a replay's)."""
        if seat is not None:
            self._check_seat(seat)
        over = game_over or self.outcome is not None
        view = (self.ruleset.view_once_over if over else self.ruleset.view)(self.state, seat)
        view["version"] = self.version
        view["outcome"] = self.outcome
        return view

    def unseen_since(self, seat: Seat, version: int) -> bool:
        """Whether nothing ``seat`` did or may see happened after ``version``: every action since is another
        seat's, and none of their events is ``seat``'s to read (the other side's hidden deployment, say)."""
        if not 0 <= version <= self.version:
            return False
        if any(done["seat"] == seat for done in self.actions[version:]):
            return False
        return not any(event.visible_to(seat) for _, event in self.events[self._first_after(version):])

    def journal(self, seat: Seat | None, lang: str = "fr", since: int = 0) -> list[str]:
        return [line for _, line in self.journal_entries(seat, lang, since)]

    def journal_entries(self, seat: Seat | None, lang: str = "fr", since: int = 0) -> list[tuple[int, str]]:
        """(version, line) for each narrated event ``seat`` may read, after version ``since``."""
        if seat is not None:
            self._check_seat(seat)
        readable = self._reader(seat)
        lines = []
        for version, event in self.events[self._first_after(since):]:
            if not readable(event):
                continue
            line = self.narrate(event, seat, lang)
            if line is not None:
                lines.append((version, line))
        return lines

    def _reader(self, seat: Seat | None) -> Callable[[Event], bool]:
        """Whether ``seat`` reads an event in the journal: its audience while the game runs; once it is over, what
        the rules give to read then (``Ruleset.visible_once_over``: Front's public reads the whole battle)."""
        if self.outcome is None:
            return lambda event: event.visible_to(seat)
        return lambda event: self.ruleset.visible_once_over(event, seat)

    def _first_after(self, since: int) -> int:
        """Where the events after version ``since`` begin: ``events`` is in the order of versions, as recorded."""
        return bisect_right(self.events, since, key=lambda recorded: recorded[0])

    def journal_marked(self, seat: Seat | None, lang: str = "fr",
                       since: int = 0) -> list[tuple[int, str, dict[str, Any] | None]]:
        """(version, line, mark) like ``journal_entries``, with the ruleset's mark of each line's event
        for the board (``Ruleset.marks``, computed over every event ``seat`` may read)."""
        if seat is not None:
            self._check_seat(seat)
        readable = self._reader(seat)
        visible = [(version, event) for version, event in self.events if readable(event)]
        ruled = [event for _, event in visible if event.type not in TABLE_EVENTS]  # the rules mark their own
        ruled_marks = iter(self.ruleset.marks(ruled, seat))
        marks = [None if event.type in TABLE_EVENTS else next(ruled_marks) for _, event in visible]
        lines = []
        for (version, event), mark in zip(visible, marks, strict=True):
            if version <= since:
                continue
            line = self.narrate(event, seat, lang)
            if line is not None:
                lines.append((version, line, mark))
        return lines

    def odds(self, seat: Seat, action: Action) -> dict[str, Any] | None:
        self._check_seat(seat)
        self.ruleset.check(self.state, seat, action)
        return self.ruleset.odds(self.state, seat, action)

    def preview(self, seat: Seat, action: Action) -> dict[str, Any] | None:
        self._check_seat(seat)
        if not isinstance(action, dict):
            raise bad_action("Une action est un objet JSON.", "An action is a JSON object.")
        return self.ruleset.preview(self.state, seat, action)

    # -- records --------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "ruleset": self.ruleset.name,
            "ruleset_version": self.ruleset.version,
            "options": self.options,
            "seed": self.seed,
            "dice": self.dice.describe(),
            "actions": [dict(a) for a in self.actions],
        }

    def _check_seat(self, seat: Seat) -> None:
        if seat not in self.seats:
            raise RuleError(UNKNOWN_SEAT, f"Siège inconnu : {seat}.", f"Unknown seat: {seat}.")


def new_game(
    ruleset: str,
    seed: int | str | None = None,
    options: dict[str, Any] | None = None,
    dice: Dice | None = None,
) -> Game:
    """Start a game. Without a seed, a fresh 256-bit secret one is drawn."""
    rules = get_ruleset(ruleset)
    seed_text = secrets.token_hex(32) if seed is None else str(seed)
    return Game(rules, rules.normalize_options(options), seed_text, dice or SeededDice(seed_text))


def load_game(record: dict[str, Any]) -> Game:
    """Rebuild a game by replaying its record; the state comes out exactly as it was."""
    game = _unplayed(record)
    for entry in record.get("actions", []):
        game.replay(entry["seat"], entry["action"])
    return game


def _unplayed(record: dict[str, Any]) -> Game:
    """The record's game before its first action."""
    rules = get_ruleset(record["ruleset"])
    seed = str(record["seed"])
    return Game(rules, rules.normalize_options(record.get("options")), seed,
                dice_from_record(record.get("dice", {}), seed))


def replay_views(record: dict[str, Any], first: int, last: int) -> Iterator[tuple[int, Game]]:
    """The game as it was after each version from ``first`` to ``last`` (each yielded once, then moved on: read
    what is needed before asking for the next), replayed once from its record. What a seat saw at a past version
    is ``view(seat)`` then: the rules' one filter, applied to the state of that moment (``view(seat, game_over=True)``
    once the game is over: what the rules show of it then)."""
    game = _unplayed(record)
    actions = record.get("actions", [])
    for version in range(last + 1):
        if version:
            entry = actions[version - 1]
            game.replay(entry["seat"], entry["action"])
        if version >= first:
            yield version, game
