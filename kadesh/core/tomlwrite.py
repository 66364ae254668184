"""A TOML document written out from its keys and values: the inverse of ``tomllib.loads`` for what maps hold.

A map's document (a Front battle, a Royaumes map) is its TOML as JSON; the server alone turns one into the other,
``tomllib`` one way and ``write`` the other, so that ``tomllib.loads(write(document)) == document``. What it writes
is the subset those formats use: tables and tables within tables (``[kingdoms.koush.resources]``), arrays of tables
(``[[units]]``, ``[[kingdoms.koush.cities]]``), strings, integers, booleans and arrays of them; a float, and a table
inside an array of values, are written inline too. A value TOML has no word for (``null``, a date given as JSON
text is only text) is refused with ``NotWritable`` naming its key.

A table's header repeats the keys of the tables around it, so a small document can make a long text (3,000 tables
under a key of 30,000 characters: 90 MB from 86 KB of JSON): ``most`` stops the writing past so many characters
(``TooLong``).
"""

from __future__ import annotations

import math
import re
from typing import Any

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f]')
ONE_LINE = 80  # characters: an array of values longer than this is written one value a line (a map's rows)


class TooLong(ValueError):
    """The document's text would be longer than asked."""

    def __init__(self, most: int) -> None:
        super().__init__(f"more than {most} characters of TOML")
        self.most = most


class _Lines(list):
    """The text's lines as they are written, counted against ``most`` characters."""

    def __init__(self, most: int | None) -> None:
        super().__init__()
        self.most, self.size = most, 0

    def append(self, line: str) -> None:
        self.size += len(line) + 1
        if self.most is not None and self.size > self.most:
            raise TooLong(self.most)
        super().append(line)


class NotWritable(ValueError):
    """A value TOML cannot hold (``where``: its key, ``units[3].cell``)."""

    def __init__(self, where: str, kind: str) -> None:
        super().__init__(f"{where or 'the document'}: TOML has no {kind} value")
        self.where, self.kind = where, kind


def write(document: dict[str, Any], most: int | None = None) -> str:
    """The TOML text of ``document`` (a table: string keys, TOML's values), of at most ``most`` characters
    (``TooLong`` beyond)."""
    if not isinstance(document, dict):
        raise NotWritable("", type(document).__name__)
    lines = _Lines(most)
    _table_body(document, [], lines, "")
    return "\n".join(lines).strip("\n") + "\n"


def key(name: str) -> str:
    """A key as TOML writes it: bare where it can be, else quoted (a legend's ``"."``)."""
    return name if _BARE_KEY.fullmatch(name) else string(name)


def string(text: str) -> str:
    return '"' + _NEEDS_ESCAPE.sub(_escape, text) + '"'


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return _ESCAPES.get(char) or f"\\u{ord(char):04X}"


def _is_table_array(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def _is_nested(value: object) -> bool:
    return isinstance(value, dict) or _is_table_array(value)


def _table_body(table: dict[str, Any], path: list[str], lines: _Lines, where: str) -> None:
    """The table's own values under its header, then its tables and arrays of tables, each under its own."""
    nested = []
    for name, value in table.items():
        if not isinstance(name, str):
            raise NotWritable(where, "non-text key")
        inner = f"{where}.{name}" if where else name
        if _is_nested(value):
            nested.append((name, value, inner))
        else:
            lines.append(f"{key(name)} = {value_text(value, inner)}")
    for name, value, inner in nested:
        header = ".".join(key(part) for part in [*path, name])
        if isinstance(value, dict):
            if not value or any(not _is_nested(inner) for inner in value.values()):
                lines.append("")
                lines.append(f"[{header}]")  # a table of tables alone needs no header of its own
            _table_body(value, [*path, name], lines, inner)
            continue
        for index, item in enumerate(value, start=1):
            lines.append("")
            lines.append(f"[[{header}]]")
            _table_body(item, [*path, name], lines, f"{inner}[{index}]")


def value_text(value: object, where: str, one_line: bool = False) -> str:
    """One value as TOML writes it after ``key =`` (on one line inside an inline table, as TOML wants)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, list):
        items = [value_text(item, f"{where}[{index}]", one_line) for index, item in enumerate(value, start=1)]
        joined = f"[{', '.join(items)}]"
        if one_line or len(joined) <= ONE_LINE:
            return joined
        return "[\n" + "".join(f"  {item},\n" for item in items) + "]"
    if isinstance(value, dict):
        pairs = []
        for name, inner in value.items():
            if not isinstance(name, str):
                raise NotWritable(where, "non-text key")
            pairs.append(f"{key(name)} = {value_text(inner, f'{where}.{name}', one_line=True)}")
        return "{" + ", ".join(pairs) + "}" if pairs else "{}"
    raise NotWritable(where, "null" if value is None else type(value).__name__)
