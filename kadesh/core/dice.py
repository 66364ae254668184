"""Dice: a seeded, re-checkable generator, and scripted dice for tests.

Roll number ``i`` (counting from 0 over the whole game) with ``n`` sides is derived
from the seed alone, so that anyone can re-check a finished game in any language:

    for attempt k = 0, 1, 2, ...:
        h = HMAC-SHA256(key = UTF-8(seed), message = ASCII("{i}:{k}"))
        x = first 8 bytes of h, read as a big-endian unsigned integer
        if x < 2**64 - (2**64 mod n): return 1 + (x mod n)

The rejection step removes the modulo bias. The seed itself is never in any view;
a game publishes ``commitment(seed)`` (SHA-256 of its UTF-8 bytes, hex) at creation.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kadesh.core.errors import DiceExhausted

_SPAN = 1 << 64


@dataclass(frozen=True, slots=True)
class Roll:
    index: int
    sides: int
    value: int


def derive_roll(seed: str, index: int, sides: int) -> int:
    """The value of roll ``index`` with ``sides`` faces for ``seed`` (see module doc)."""
    if sides < 1:
        raise ValueError("a die needs at least one side")
    inner_start, outer_start = _keyed(seed)
    limit = _SPAN - (_SPAN % sides)
    attempt = 0
    while True:
        inner, outer = inner_start.copy(), outer_start.copy()
        inner.update(f"{index}:{attempt}".encode("ascii"))
        outer.update(inner.digest())
        x = int.from_bytes(outer.digest()[:8], "big")
        if x < limit:
            return 1 + x % sides
        attempt += 1


_BLOCK = 64  # SHA-256's block, in bytes
_INNER_PAD, _OUTER_PAD = bytes(b ^ 0x36 for b in range(256)), bytes(b ^ 0x5C for b in range(256))


@lru_cache(maxsize=256)
def _keyed(seed: str) -> tuple[Any, Any]:
    """HMAC-SHA256 (RFC 2104, as ``hmac.new``) keyed with the seed: its inner and outer hashes with the padded key
    already hashed in. A game rolls thousands of dice on one seed (a simulation, ten thousand battles), and
    ``hmac.new`` would hash the key again for each roll, twice the work of the roll itself."""
    key = seed.encode("utf-8")
    if len(key) > _BLOCK:
        key = hashlib.sha256(key).digest()
    key = key.ljust(_BLOCK, b"\0")
    return hashlib.sha256(key.translate(_INNER_PAD)), hashlib.sha256(key.translate(_OUTER_PAD))


def commitment(seed: str) -> str:
    """The public SHA-256 commitment to a dice seed, in hex."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


class Dice:
    """Base class: counts the rolls it gives so that each can be put on the record."""

    def __init__(self) -> None:
        self.index = 0

    def roll(self, sides: int = 6) -> Roll:
        value = self._value(self.index, sides)
        roll = Roll(self.index, sides, value)
        self.index += 1
        return roll

    def _value(self, index: int, sides: int) -> int:
        raise NotImplementedError

    def describe(self) -> dict:
        """How to rebuild these dice from a record (seeded dice are rebuilt from the seed)."""
        raise NotImplementedError

    def clone(self) -> Dice:
        raise NotImplementedError


class SeededDice(Dice):
    def __init__(self, seed: str, index: int = 0) -> None:
        super().__init__()
        self.seed = str(seed)
        self.index = index

    def _value(self, index: int, sides: int) -> int:
        return derive_roll(self.seed, index, sides)

    def describe(self) -> dict:
        return {"kind": "seeded"}

    def clone(self) -> SeededDice:
        return SeededDice(self.seed, self.index)


class ScriptedDice(Dice):
    """Dice that give the listed values in order; for tests and worked examples."""

    def __init__(self, values: Iterable[int], index: int = 0) -> None:
        super().__init__()
        self.values = list(values)
        self.index = index

    def _value(self, index: int, sides: int) -> int:
        if index >= len(self.values):
            raise DiceExhausted(f"scripted dice ran out after {len(self.values)} rolls")
        value = self.values[index]
        if not 1 <= value <= sides:
            raise ValueError(f"scripted roll {value} does not fit a {sides}-sided die")
        return value

    def describe(self) -> dict:
        return {"kind": "scripted", "values": list(self.values)}

    def clone(self) -> ScriptedDice:
        return ScriptedDice(self.values, self.index)


def dice_from_record(description: dict, seed: str) -> Dice:
    if description.get("kind") == "scripted":
        return ScriptedDice(description["values"])
    return SeededDice(seed)
