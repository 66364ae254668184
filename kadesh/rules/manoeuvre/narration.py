"""The journal in the text's voice, in French and English, as one seat reads it."""

from __future__ import annotations

from typing import Any

from kadesh.core.events import Event

SIDE_NAME = {"fr": {"north": "Nord", "south": "Sud"}, "en": {"north": "North", "south": "South"}}
KIND_FR = {  # noun, feminine?
    "general": ("général", False), "chariot": ("char léger", False), "blade": ("lame", True),
    "bow": ("archer", False), "skirmisher": ("tirailleur", False),
}
KIND_EN = {"general": "general", "chariot": "light chariot", "blade": "blade", "bow": "archer",
           "skirmisher": "skirmisher"}
FACING_FR = {"N": "au nord", "E": "à l'est", "S": "au sud", "W": "à l'ouest"}
FACING_EN = {"N": "north", "E": "east", "S": "south", "W": "west"}
ASPECT = {"fr": {"front": "de face", "flank": "de flanc", "rear": "de dos"},
          "en": {"front": "from the front", "flank": "in the flank", "rear": "from the rear"}}
MODIFIER = {
    "fr": {"general": "général", "support": "soutien", "flank_threat": "flanc menacé",
           "attacked_flank": "pris de flanc", "attacked_rear": "pris de dos"},
    "en": {"general": "general", "support": "support", "flank_threat": "threatened flank",
           "attacked_flank": "taken in the flank", "attacked_rear": "taken from the rear"},
}
BLOCKED = {
    "fr": {"edge": "le bord du terrain", "enemy": "un ennemi derrière",
           "friend": "un ami derrière qui ne peut céder"},
    "en": {"edge": "the edge of the field", "enemy": "an enemy behind",
           "friend": "a friend behind that cannot give way"},
}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def name(ref: dict[str, str], seat: str | None, lang: str) -> str:
    """An element as the reader knows it: "ta lame", "le tirailleur", "la lame du Nord"."""
    side = ref["side"]
    if lang == "en":
        noun = KIND_EN[ref["kind"]]
        if seat == side:
            return f"your {noun}"
        return f"the {noun}" if seat is not None else f"the {SIDE_NAME['en'][side]} {noun}"
    noun, feminine = KIND_FR[ref["kind"]]
    if seat == side:
        return f"{'ta' if feminine and noun[0] not in 'aeiouéh' else 'ton'} {noun}"
    article = "l'" if noun[0] in "aeiouéh" else ("la " if feminine else "le ")
    return f"{article}{noun}" + ("" if seat is not None else f" du {SIDE_NAME['fr'][side]}")


def _agree(ref: dict[str, str], word: str, lang: str) -> str:
    return word + "e" if lang == "fr" and KIND_FR[ref["kind"]][1] else word


def _side(side: str, lang: str, capital: bool = True) -> str:
    if lang == "en":
        return SIDE_NAME["en"][side]
    return ("Le " if capital else "le ") + SIDE_NAME["fr"][side]


def _sum(roll: int, factor: int, mods: list[list[Any]], score: int, lang: str) -> str:
    parts = [f"{roll} + {factor}"]
    for label, value in mods:
        sign = "+" if value >= 0 else "−"
        parts.append(f" {sign} {abs(value)} ({MODIFIER[lang][label]})")
    return "".join(parts) + f" = {score}"


def narrate(event: Event, seat: str | None, lang: str) -> str | None:
    handler = _HANDLERS.get(event.type)
    return handler(event.data, seat, lang) if handler else None


def _deployed(d: dict[str, Any], seat: str | None, lang: str) -> str:
    el = name(d["element"], seat, lang)
    return f"You place {el} on {d['cell']}." if lang == "en" else f"Tu places {el} en {d['cell']}."


def _undeployed(d: dict[str, Any], seat: str | None, lang: str) -> str:
    el = name(d["element"], seat, lang)
    return f"You take {el} back." if lang == "en" else f"Tu retires {el} du terrain."


def _ready(d: dict[str, Any], seat: str | None, lang: str) -> str:
    return f"{_side(d['side'], lang)} is ready." if lang == "en" else f"{_side(d['side'], lang)} est prêt."


def _battle_started(d: dict[str, Any], seat: str | None, lang: str) -> str:
    if lang == "en":
        return f"Both sides are ready: the manoeuvre begins, {_side(d['first'], lang)} has the initiative."
    return f"Les deux camps sont prêts : la manœuvre commence, au {SIDE_NAME['fr'][d['first']]} l'initiative."


def _moved(d: dict[str, Any], seat: str | None, lang: str) -> str:
    el = _capital(name(d["element"], seat, lang))
    if lang == "en":
        verb = "charges to" if d.get("charge") else "moves to"
        return f"{el} {verb} {d['to']}, facing {FACING_EN[d['facing']]}."
    verb = "charge jusqu'en" if d.get("charge") else "se porte en"
    return f"{el} {verb} {d['to']}, face {FACING_FR[d['facing']]}."


def _turned(d: dict[str, Any], seat: str | None, lang: str) -> str:
    el = _capital(name(d["element"], seat, lang))
    if lang == "en":
        return f"{el} on {d['cell']} turns to face {FACING_EN[d['facing']]}."
    return f"{el} en {d['cell']} fait face {FACING_FR[d['facing']]}."


def _turn_ended(d: dict[str, Any], seat: str | None, lang: str) -> str:
    return (f"{_side(d['side'], lang)} ends its turn." if lang == "en"
            else f"{_side(d['side'], lang)} termine son tour.")


def _resigned(d: dict[str, Any], seat: str | None, lang: str) -> str:
    if lang == "en":
        return f"{_side(d['side'], lang)} resigns: {_side(d['winner'], lang)} wins."
    return f"{_side(d['side'], lang)} abandonne : {_side(d['winner'], lang, False)} l'emporte."


def _broken(d: dict[str, Any], seat: str | None, lang: str) -> str:
    if lang == "en":
        return (f"{_side(d['side'], lang)} has lost {d['losses']} elements and breaks: "
                f"{_side(d['winner'], lang)} wins.")
    return (f"{_side(d['side'], lang)} a perdu {d['losses']} éléments et plie : "
            f"{_side(d['winner'], lang, False)} l'emporte.")


def _combat(d: dict[str, Any], seat: str | None, lang: str) -> str:
    attacker, defender = d["attacker"], d["defender"]
    fa, fd = d["factors"]
    a_name = _capital(name(attacker, seat, lang))
    d_name = name(defender, seat, lang)
    aspect = ASPECT[lang][d["aspect"]]
    if d["mode"] == "shot":
        opening = (f"{a_name} ({fa}) shoots {d_name} ({fd}) {aspect}" if lang == "en"
                   else f"{a_name} ({fa}) tire {aspect} sur {d_name} ({fd})")
    else:
        support = {("en", True): ", with support", ("en", False): ", without support",
                   ("fr", True): ", avec soutien", ("fr", False): ", sans soutien"}[(lang, d["support"])]
        opening = (f"{a_name} ({fa}) attacks {d_name} ({fd}) {aspect}{support}" if lang == "en"
                   else f"{a_name} ({fa}) attaque {aspect} {d_name} ({fd}){support}")
    (ra, rd), (sa, sd), (ma, md) = d["rolls"], d["scores"], d["modifiers"]
    against = "against" if lang == "en" else "contre"
    sums = f"{_sum(ra, fa, ma, sa, lang)} {against} {_sum(rd, fd, md, sd, lang)}"
    colon = ":" if lang == "en" else " :"
    return f"{opening}{colon} {sums}. {_result(d, seat, lang)}"


def _result(d: dict[str, Any], seat: str | None, lang: str) -> str:
    en = lang == "en"
    if d["result"] == "tie":
        return "A tie: nothing happens." if en else "Égalité : rien ne se passe."
    loser_ref = d[d["loser"]]
    # Two fighters of one kind: the loser named by its side unless it is the reader's own (« le char léger du Sud
    # est détruit », not a bare « le char léger » that could be either: issue 44).
    alike = d["attacker"]["kind"] == d["defender"]["kind"] and seat != loser_ref["side"]
    loser = name(loser_ref, None if alike else seat, lang)
    high, low = sorted(d["scores"], reverse=True)
    colon = ":" if en else " :"
    if d["cause"] == "doubled":
        verdict = f"{high} is at least double {low}" if en else f"{high} atteint le double de {low}"
        return f"{verdict}{colon} {loser} {'is destroyed' if en else 'est ' + _agree(loser_ref, 'détruit', lang)}."
    verdict = f"{high} is not double {low}" if en else f"{high} n'atteint pas le double de {low}"
    destroyed = "is destroyed" if en else "est " + _agree(loser_ref, "détruit", lang)
    if d["result"] == "recoil":
        pushed = d.get("pushed")
        if en:
            tail = f" and pushes {name(pushed['element'], seat, lang)} back to {pushed['to']}" if pushed else ""
            return f"{verdict}: {loser} recoils to {d['recoil_to']}{tail}."
        tail = f" et repousse {name(pushed['element'], seat, lang)} en {pushed['to']}" if pushed else ""
        return f"{verdict} : {loser} recule en {d['recoil_to']}{tail}."
    cause = d["cause"]
    if cause == "rear":
        return (f"{verdict}, but taken from the rear, {loser} {destroyed}." if en
                else f"{verdict}, mais {_agree(loser_ref, 'pris', lang)} de dos, {loser} {destroyed}.")
    if cause == "bow_vs_mounted":
        return (f"{verdict}, but beaten in close combat by a mounted element, {loser} {destroyed}." if en
                else f"{verdict}, mais {_agree(loser_ref, 'battu', lang)} au contact par un monté, "
                     f"{loser} {destroyed}.")
    blocked = BLOCKED[lang][cause]
    return (f"{verdict}: {loser} cannot recoil ({blocked}) and {destroyed}." if en
            else f"{verdict} : {loser} ne peut reculer ({blocked}) et {destroyed}.")


_HANDLERS = {
    "deployed": _deployed, "undeployed": _undeployed, "ready": _ready, "battle_started": _battle_started,
    "moved": _moved, "turned": _turned, "turn_ended": _turn_ended, "resigned": _resigned,
    "broken": _broken, "combat": _combat,
}
