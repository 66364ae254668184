"""The journal: each event told in French or English, as the seat reading it may know it."""

from __future__ import annotations

from kadesh.core import Event

NAMES = {"north": {"fr": "le Nord", "en": "North"}, "south": {"fr": "le Sud", "en": "South"}}
NUMBERS_FR = ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix"]
NUMBERS_EN = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def name(seat: str, lang: str, capital: bool = False) -> str:
    text = NAMES[seat][lang]
    return text[0].upper() + text[1:] if capital else text


def dice_of(quantity: int, face: int, lang: str) -> str:
    """« trois 5 », « three 5s »."""
    if lang == "fr":
        return f"{NUMBERS_FR[quantity] if quantity < len(NUMBERS_FR) else quantity} {face}"
    return f"{NUMBERS_EN[quantity] if quantity < len(NUMBERS_EN) else quantity} {face}{'' if quantity == 1 else 's'}"


def narrate(event: Event, seat: str | None, lang: str) -> str | None:
    d, fr = event.data, lang == "fr"
    if event.type == "round":
        return (f"Manche {d['round']} : {name(d['starter'], lang)} secoue les gobelets." if fr
                else f"Round {d['round']}: {name(d['starter'], lang)} shakes the cups.")
    if event.type == "shaken":  # only its owner reads it
        faces = ", ".join(str(v) for v in d["dice"])
        return f"Sous ton gobelet : {faces}." if fr else f"Under your cup: {faces}."
    if event.type == "bid":
        said = dice_of(d["quantity"], d["face"], lang)
        return (f"{name(d['seat'], lang, True)} annonce : au moins {said}." if fr
                else f"{name(d['seat'], lang, True)} bids: at least {said}.")
    if event.type == "dudo":
        caller = name(d["seat"], lang, True)
        return f"{caller} crie « Dudo ! »" if fr else f"{caller} calls « Dudo! »"
    if event.type == "reveal":
        cups = " ; ".join(f"{name(s, lang)} {' '.join(str(v) for v in dice)}" for s, dice in d["cups"].items())
        counted = dice_of(d["found"], d["face"], lang)
        return (f"On lève les gobelets : {cups}. Il y a {counted} (les 1 comptent pour tout)." if fr
                else f"The cups are lifted: {cups}. There are {counted} (1s count as anything).")
    if event.type == "lost_die":
        verdict = ("L'annonce tient" if d["held"] else "L'annonce ne tient pas") if fr else \
            ("The bid holds" if d["held"] else "The bid fails")
        return (f"{verdict} : {name(d['seat'], lang)} perd un dé (il lui en reste {d['left']})." if fr
                else f"{verdict}: {name(d['seat'], lang)} loses a die ({d['left']} left).")
    if event.type == "won":
        return f"{name(d['seat'], lang, True)} l'emporte." if fr else f"{name(d['seat'], lang, True)} wins."
    return None  # each die's roll: on the record, told by « shaken »
