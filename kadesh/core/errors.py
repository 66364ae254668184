"""Errors a player can understand, in French and English, with a stable code."""

from __future__ import annotations

from typing import Any

# Codes every ruleset shares; the server maps them to HTTP statuses.
NOT_YOUR_TURN = "not_your_turn"
GAME_OVER = "game_over"
UNKNOWN_ACTION = "unknown_action"
BAD_ACTION = "bad_action"
UNKNOWN_SEAT = "unknown_seat"
NOT_LATE = "not_late"  # a claim on time while the other side still has time (kadesh.core.table)

CONFLICT_CODES = frozenset({NOT_YOUR_TURN, GAME_OVER, NOT_LATE})


class KadeshError(Exception):
    """Base of every error Kadesh raises on purpose."""


class RuleError(KadeshError, ValueError):
    """An action the rules refuse. The game state is left untouched."""

    def __init__(self, code: str, fr: str, en: str, **details: Any) -> None:
        super().__init__(en)
        self.code = code
        self.fr = fr
        self.en = en
        self.details = details

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt whole from a pickle (a refusal raised in a worker process reaches the parent as itself)."""
        return _rebuild_rule_error, (type(self), self.code, self.fr, self.en, self.details)

    def message(self, lang: str = "fr") -> str:
        return self.en if lang == "en" else self.fr

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "fr": self.fr, "en": self.en, **self.details}

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.en!r})"


class UnknownRuleset(KadeshError, LookupError):
    def __init__(self, name: str) -> None:
        super().__init__(f"unknown ruleset: {name!r}")
        self.name = name


class DiceExhausted(KadeshError, RuntimeError):
    """Scripted dice ran out: a test scripted fewer rolls than the game asked for."""


def bad_action(fr: str, en: str, **details: Any) -> RuleError:
    return RuleError(BAD_ACTION, fr, en, **details)


def _rebuild_rule_error(kind: type[RuleError], code: str, fr: str, en: str, details: dict[str, Any]) -> RuleError:
    error = RuleError.__new__(kind)
    RuleError.__init__(error, code, fr, en, **details)
    return error
