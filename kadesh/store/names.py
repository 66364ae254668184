"""Players' display names: what a name may hold, and the skeleton that makes look-alikes one name.

A name is shown beside games and on a player's page, so it must read as what it is: no control or invisible
characters, letters of one writing system only, and that one among the scripts Unicode recommends for
identifiers (UAX #31, Table 5: a Cherokee « ᏢᎾᏢᎬ » does not pass as « Pope »), and no name that looks like
another player's. Two names whose skeletons are equal are the same name: accents, case, the width of a
character and every confusable of Unicode's own data (UTS #39's confusables, as the ``confusable-homoglyphs``
package ships them: « rn » and « m », « 0 » and « O », Cyrillic and Greek letters shaped like Latin ones) are
folded, and so are the few folds of Kadesh's own below.
"""

from __future__ import annotations

import unicodedata
from functools import cache

from confusable_homoglyphs import categories
from confusable_homoglyphs.confusables import confusables_data

MIN_LENGTH, MAX_LENGTH = 3, 24  # characters, after normalisation
PUNCTUATION = frozenset(" -_.'")  # allowed between letters and digits

# Folds of Kadesh's own, after Unicode's: the separators a name may hold read as one, and the digits players
# write for letters that Unicode's data does not call confusable (« Pa5er » is « Paser »).
OWN_FOLDS = str.maketrans({"_": " ", "-": " ", ".": " ", "'": " ", "5": "s", "$": "s"})

DIRECTION_MARKS = str.maketrans("", "", "\u200e\u200f")

# UAX #31, Table 5: the scripts recommended for identifiers (Common and Inherited: digits, marks, spaces).
RECOMMENDED_SCRIPTS = frozenset({
    "COMMON", "INHERITED", "ARABIC", "ARMENIAN", "BENGALI", "BOPOMOFO", "CYRILLIC", "DEVANAGARI", "ETHIOPIC",
    "GEORGIAN", "GREEK", "GUJARATI", "GURMUKHI", "HAN", "HANGUL", "HEBREW", "HIRAGANA", "KANNADA", "KATAKANA",
    "KHMER", "LAO", "LATIN", "MALAYALAM", "MYANMAR", "ORIYA", "SINHALA", "TAMIL", "TELUGU", "THAANA", "THAI",
    "TIBETAN"})

# Scripts written together as one: Japanese mixes its kana with Han characters, Korean Hangul with Han.
ONE_WRITING = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HANGUL": "CJK", "BOPOMOFO": "CJK", "HAN": "CJK"}


class BadName(ValueError):
    """A name Kadesh will not show: ``fr`` and ``en`` say why."""

    def __init__(self, fr: str, en: str) -> None:
        super().__init__(en)
        self.fr, self.en = fr, en


def clean_name(raw: str) -> str:
    """``raw`` as it will be shown (NFC, outer spaces trimmed), or BadName."""
    name = unicodedata.normalize("NFC", raw.strip())
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise BadName(f"Un nom a de {MIN_LENGTH} à {MAX_LENGTH} caractères.",
                      f"A name has {MIN_LENGTH} to {MAX_LENGTH} characters.")
    for char in name:
        if not (_letter_or_digit(char) or char in PUNCTUATION):
            raise BadName("Un nom ne contient que des lettres, des chiffres, des espaces et « - _ . ' ».",
                          "A name holds only letters, digits, spaces and « - _ . ' ».")
    if not _letter_or_digit(name[0]) or "  " in name:
        raise BadName("Un nom commence par une lettre ou un chiffre, sans espaces doublés.",
                      "A name begins with a letter or a digit, with no doubled spaces.")
    scripts = {categories.alias(char) for char in name}
    if not scripts <= RECOMMENDED_SCRIPTS:
        raise BadName("Un nom s'écrit dans un alphabet d'usage courant (latin, grec, cyrillique, arabe, hébreu, "
                      "chinois, japonais, coréen…).", "A name is written in a script in common use (Latin, Greek, "
                      "Cyrillic, Arabic, Hebrew, Chinese, Japanese, Korean…).")
    if len({ONE_WRITING.get(script, script) for script in scripts} - {"COMMON", "INHERITED"}) > 1:
        raise BadName("Un nom s'écrit dans un seul alphabet (pas de lettres latines et cyrilliques mêlées).",
                      "A name is written in one script (no Latin and Cyrillic letters mixed).")
    return name


def name_key(name: str) -> str:
    """The skeleton of a clean name: two names with one skeleton look alike, and only one player may have it.
    Unicode's skeleton is taken before case is folded (« Ilona » and « llona » look alike) and after."""
    bare = "".join(char for char in unicodedata.normalize("NFKD", name) if not unicodedata.combining(char))
    folded = _skeleton(_skeleton(bare).casefold())
    return " ".join(_skeleton(folded.translate(OWN_FOLDS)).split())


def _skeleton(text: str) -> str:
    table = _prototypes()
    return "".join(table.get(char, char) for char in text)


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype in Unicode's data: the string every member of its class maps to.

    The package ships the data both ways (each character with its look-alikes); a class is a character and
    every look-alike reached from it, and its prototype the one member every other maps to (UTS #39 maps a
    character to one prototype, a prototype to none): a string of several characters if the class has one
    (« m » is « rn »), else the member linked to all the others, else the smallest."""
    parent: dict[str, str] = {}

    def root(item: str) -> str:
        while parent.setdefault(item, item) != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    for char, alikes in _classes().items():
        for alike in alikes:
            parent[root(alike)] = root(char)
    members: dict[str, list[str]] = {}
    for item in parent:
        members.setdefault(root(item), []).append(item)
    table = {}
    for group in members.values():
        prototype = _prototype(group)
        table.update({member: prototype for member in group if len(member) == 1})
    return table


def _prototype(group: list[str]) -> str:
    longer = sorted(member for member in group if len(member) > 1)
    if longer:
        return longer[0]
    linked = [member for member in group if len(_classes().get(member, ())) == len(group) - 1]
    return min(linked or group)


@cache
def _classes() -> dict[str, frozenset[str]]:
    """The package's data, each string without the direction marks its source's comments wrap around
    right-to-left letters."""
    def bare(text: str) -> str:
        return text.translate(DIRECTION_MARKS)

    linked: dict[str, set[str]] = {}
    for char, alikes in confusables_data.items():
        linked.setdefault(bare(char), set()).update(bare(alike["c"]) for alike in alikes)
    return {char: frozenset(alikes - {char}) for char, alikes in linked.items() if char}


def _letter_or_digit(char: str) -> bool:
    return unicodedata.category(char)[0] in "LN"
