"""A TOML document a person wrote (a battle scenario, a campaign map), read and checked key by key.

Every refusal is a ``RuleError`` whose message names the key at fault (``units[3].cell``), in French and
English, so that the API answers it as a 422 and the writer knows where to look.
"""

from __future__ import annotations

import re
import sys
import tomllib
import unicodedata
from typing import Any

from kadesh.core.errors import RuleError

# Unicode categories a name may not hold: controls (line breaks, tabs, escapes), formats (the direction
# overrides that reorder what is shown), line and paragraph separators, surrogates and private use.
UNPRINTABLE = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co"})


# What a document may hold before the parser reads it. Python's TOML parser takes time that grows with the
# square of a dotted key's parts (58 KB of ``k.k.k…`` = 1: half a minute), and recurses on nesting; every key,
# key part, value and table costs it one to three microseconds, so 60,000 characters of ``[t1]\na.b.c.d.e.f.g.h=1``
# took 60 ms however few of them it kept (docs/performance.md, « Parsers at their worst »).
MAX_KEY_PARTS = 8    # parts of one dotted key or table name (``kingdoms.amont.resources`` has 3)
MAX_NESTING = 16     # arrays and inline tables within each other
MAX_ITEMS = 12_000   # keys, key parts, values and tables: the « = , . [ { » outside strings and comments
MAX_SHOWN = 100      # characters of a key named in a refusal (a key may be as long as the document)
# Strings and comments set aside in one pass from left to right, as TOML reads them: a quote in a comment opens
# no string, a « # » in a string opens no comment, and a one-line string never goes on past its line.
_SET_ASIDE = re.compile(r'"""(?:[^\\]|\\.)*?"{3,5}|\'\'\'.*?\'{3,5}|"(?:[^"\\\n]|\\[^\n])*"|\'[^\'\n]*\'|#[^\n]*',
                        re.S)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_DOTS = re.compile(r"\.(?:\s*+[A-Za-z0-9_-]*+\s*+\.)+")  # possessive: no backtracking over long spaces


def items(bare: str) -> int:
    """How many keys, key parts, values and tables the parser can read in ``bare`` (``set_aside``) at most: each
    needs one of these characters (a float's or a date's point counts too)."""
    return sum(bare.count(char) for char in "=,.[{")


def set_aside(text: str) -> str:
    """``text`` without its strings and comments: what ``MAX_ITEMS`` and the other limits are counted in."""
    return _SET_ASIDE.sub("", text)


def _shape_problem(text: str) -> tuple[str, str] | None:
    """What makes ``text`` too costly to parse, read without the parser (strings and comments set aside)."""
    bare = set_aside(text)
    dots = max((match.group().count(".") for match in _DOTS.finditer(bare)), default=0)
    if dots + 1 > MAX_KEY_PARTS:
        return (f"une clé de plus de {MAX_KEY_PARTS} parties séparées par des points.",
                f"a key of more than {MAX_KEY_PARTS} dot-separated parts.")
    if items(bare) > MAX_ITEMS:
        return (f"plus de {MAX_ITEMS} éléments (clés, parties de clés, valeurs et tables).",
                f"more than {MAX_ITEMS} items (keys, key parts, values and tables).")
    depth = deepest = 0
    for char in _NOT_BRACKETS.sub("", bare):
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    if deepest > MAX_NESTING:
        return (f"des tableaux ou des tables imbriqués trop profondément (plus de {MAX_NESTING} niveaux).",
                f"arrays or tables nested too deep (more than {MAX_NESTING} levels).")
    return None


def read(text: str, max_text: int) -> dict[str, Any] | None:
    """The document's keys and values, or None where ``Checker.parse`` refuses the text (too long, too costly to
    parse, not TOML): what a page shows of a text being written, beside the refusal itself."""
    if len(text) > max_text or _shape_problem(text) is not None:
        return None
    try:
        return tomllib.loads(text)
    except (RecursionError, ValueError):  # TOMLDecodeError is a ValueError, as is a too long integer
        return None


class Checker:
    """The checks of one kind of document: ``refused`` starts every message (« Scénario refusé »), ``of``
    names the document in « il faut le texte TOML du scénario » / "the scenario's TOML text is needed"."""

    def __init__(self, code: str, refused: dict[str, str], of: dict[str, str]) -> None:
        self.code, self.refused, self.of = code, refused, of

    def whole(self, fr: str, en: str) -> RuleError:
        """The document refused as a whole."""
        return RuleError(self.code, f"{self.refused['fr']} : {fr}", f"{self.refused['en']}: {en}")

    def bad(self, where: str, fr: str, en: str, cell: str | None = None) -> RuleError:
        """The document refused, naming the key at fault; the error also carries it whole (``where``), and the
        map's cell where the key alone does not name it (``cell``: a character of ``map.rows[5]``), for a page
        that marks the fault on the map."""
        if not where:
            return self.whole(fr, en)
        shown = where if len(where) <= MAX_SHOWN else where[: MAX_SHOWN - 1] + "…"
        return RuleError(self.code, f"{self.refused['fr']}, {shown} : {fr}", f"{self.refused['en']}, {shown}: {en}",
                         where=where, cell=cell)

    def parse(self, text: object, max_text: int) -> dict[str, Any]:
        """The document's keys and values, as ``tomllib`` reads them, once its size and shape allow it."""
        if not isinstance(text, str) or not text.strip():
            raise self.whole(f"il faut le texte TOML {self.of['fr']}.", f"the {self.of['en']} TOML text is needed.")
        if len(text) > max_text:
            raise self.whole(f"plus de {max_text} caractères.", f"more than {max_text} characters.")
        problem = _shape_problem(text)
        if problem is not None:
            raise self.whole(*problem)
        try:
            return tomllib.loads(text)
        except RecursionError:
            raise self.whole("des tableaux ou des tables imbriqués trop profondément.",
                             "arrays or tables nested too deep.") from None
        except tomllib.TOMLDecodeError as error:
            raise self.whole(f"ce n'est pas du TOML valide ({error}).", f"this is not valid TOML ({error}).") from None
        except ValueError:  # the parser's only other refusal: an integer longer than Python reads
            most = sys.get_int_max_str_digits()
            raise self.whole(f"un entier de plus de {most} chiffres.",
                             f"an integer of more than {most} digits.") from None

    def keys(self, raw: object, where: str, required: set[str], optional: set[str]) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise self.bad(where, "une table est attendue.", "a table is expected.")
        unknown = sorted(set(raw) - required - optional)
        if unknown:
            raise self.bad(f"{where}.{unknown[0]}" if where else unknown[0], "clé inconnue.", "unknown key.")
        missing = sorted(required - set(raw))
        if missing:
            raise self.bad(f"{where}.{missing[0]}" if where else missing[0], "clé manquante.", "missing key.")
        return raw

    def text(self, raw: object, where: str, most: int = 200) -> str:
        """A name shown on pages and in notices (a mail's Subject too): one line of printable text."""
        if not isinstance(raw, str) or not raw.strip() or len(raw) > most:
            raise self.bad(where, f"un texte non vide ({most} caractères au plus) est attendu.",
                           f"a non-empty text (at most {most} characters) is expected.")
        unseen = next((char for char in raw if unicodedata.category(char) in UNPRINTABLE), None)
        if unseen is not None:
            code = f"U+{ord(unseen):04X}"
            raise self.bad(where, f"une seule ligne de texte visible est attendue (caractère de contrôle {code}).",
                           f"one line of visible text is expected (control character {code}).")
        return raw

    def integer(self, raw: object, where: str, low: int, high: int) -> int:
        if not isinstance(raw, int) or isinstance(raw, bool) or not low <= raw <= high:
            raise self.bad(where, f"un entier de {low} à {high} est attendu.",
                           f"an integer from {low} to {high} is expected.")
        return raw

    def boolean(self, raw: object, where: str) -> bool:
        if not isinstance(raw, bool):
            raise self.bad(where, "true ou false est attendu.", "true or false is expected.")
        return raw

    def one_of(self, raw: object, where: str, allowed: tuple[str, ...] | list[str]) -> str:
        if raw not in allowed:
            listed = ", ".join(allowed)
            raise self.bad(where, f"valeurs permises : {listed}.", f"allowed values: {listed}.")
        return raw  # type: ignore[return-value]

    def items(self, raw: object, where: str, most: int) -> list[Any]:
        if not isinstance(raw, list) or len(raw) > most:
            raise self.bad(where, f"une liste de {most} éléments au plus est attendue.",
                           f"a list of at most {most} items is expected.")
        return raw
