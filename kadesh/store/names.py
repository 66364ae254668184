"""Players' display names (issue 41): what a name may hold, and the skeleton that makes look-alikes one name.

A name is shown beside games and on a player's page, so it must read as what it is: no control or invisible
characters, no mix of scripts within a word (a Cyrillic « а » in a Latin name), and no name that looks like
another player's. Two names whose skeletons are equal are the same name: case, accents, the width of a
character and the usual confusables (0/O, 1/l/I, Cyrillic and Greek letters shaped like Latin ones) are folded.
"""

from __future__ import annotations

import unicodedata

MIN_LENGTH, MAX_LENGTH = 3, 24  # characters, after normalisation
PUNCTUATION = frozenset(" -_.'")  # allowed between letters and digits

# Characters drawn like others: each folds to the Latin letter it imitates (after case folding).
CONFUSABLES = str.maketrans({
    "0": "o", "1": "l", "i": "l", "|": "l", "5": "s", "$": "s",
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "l", "ї": "l", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "l", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ω": "w", "ζ": "z",
    # punctuation that separates words the same way
    "_": " ", "-": " ", ".": " ", "'": " ",
})


# Scripts written together as one: Japanese mixes its kana with Han characters.
ONE_WRITING = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HANGUL": "CJK"}


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
    if len(_scripts(name)) > 1:
        raise BadName("Un nom s'écrit dans un seul alphabet (pas de lettres latines et cyrilliques mêlées).",
                      "A name is written in one script (no Latin and Cyrillic letters mixed).")
    return name


def name_key(name: str) -> str:
    """The skeleton of a clean name: two names with one skeleton look alike, and only one player may have it."""
    folded = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(char for char in folded if not unicodedata.combining(char))
    return " ".join(bare.translate(CONFUSABLES).split())


def _letter_or_digit(char: str) -> bool:
    return unicodedata.category(char)[0] in "LN"


def _scripts(name: str) -> set[str]:
    """The scripts of the name's letters, from their Unicode names (« LATIN SMALL LETTER A » is Latin)."""
    scripts = set()
    for char in name:
        if unicodedata.category(char)[0] == "L":
            script = unicodedata.name(char, "UNKNOWN").split(" ")[0]
            scripts.add(ONE_WRITING.get(script, script))
    return scripts
