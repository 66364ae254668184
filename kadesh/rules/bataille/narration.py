"""The battle journal in French and English: every roll with its target number."""

from __future__ import annotations

from typing import Any

from kadesh.core.events import Event
from kadesh.rules.bataille.data import RULES

SIDE = {"fr": {"north": "le Nord", "south": "le Sud"}, "en": {"north": "North", "south": "South"}}
WHY = {
    "fr": {"after_fire": "après le tir", "after_melee": "après la mêlée", "rally": "pour se ressaisir",
           "hold": "pour tenir sa position", "no_pursuit": "pour ne pas poursuivre",
           "strike_back": "pour riposter", "stop_pursuit": "pour arrêter la poursuite"},
    "en": {"after_fire": "after fire", "after_melee": "after melee", "rally": "to rally",
           "hold": "to hold its ground", "no_pursuit": "not to pursue",
           "strike_back": "to strike back", "stop_pursuit": "to stop the pursuit"},
}
STANCE = {"fr": {"attack": "attaquer", "hold": "tenir", "withdraw": "se replier"},
          "en": {"attack": "attack", "hold": "hold", "withdraw": "withdraw"}}
PHASE = {"fr": {"fire": "Séquence de tir.", "melee": "Séquence de mêlée.", "last_fire": "Dernière séquence de tir.",
                "pursuit": "Séquence de poursuite."},
         "en": {"fire": "Fire sequence.", "melee": "Melee sequence.", "last_fire": "Last fire sequence.",
                "pursuit": "Pursuit sequence."}}
REASON = {
    "fr": {"both_fell_back": "les deux troupes se replient", "enemy_broke": "l'ennemi a rompu et n'est pas poursuivi",
           "fight_over": "les deux camps rompent : le combat est terminé", "destroyed": "un groupe est anéanti",
           "withdrawal": "l'adversaire s'est replié", "both_withdrew": "les deux camps se retirent",
           "pursuit_stopped": "les poursuivants s'arrêtent", "outran": "les poursuivis, plus rapides, s'échappent",
           "shelter": "les poursuivis se retranchent à l'abri", "event": "un événement met fin à la poursuite",
           "nightfall": "la nuit tombe"},
    "en": {"both_fell_back": "both troops fall back", "enemy_broke": "the enemy broke and is not pursued",
           "fight_over": "both sides break: the fight is over", "destroyed": "a group is wiped out",
           "withdrawal": "the enemy withdrew", "both_withdrew": "both sides withdraw",
           "pursuit_stopped": "the pursuers stop", "outran": "the faster pursued get away",
           "shelter": "the pursued reach shelter", "event": "an event ends the pursuit", "nightfall": "night falls"},
}


def narrate(event: Event, seat: str | None, lang: str) -> str | None:
    lang = "en" if lang == "en" else "fr"
    writer = _WRITERS.get(event.type)
    return writer(event.data, lang) if writer else None


def _side(side: str | None, lang: str, capital: bool = True) -> str:
    name = SIDE[lang].get(side or "", side or "—")
    return name[0].upper() + name[1:] if capital else name


def _ready(d: dict[str, Any], lang: str) -> str:
    return f"{_side(d['side'], lang)} est en position." if lang == "fr" else f"{_side(d['side'], lang)} is in position."


def _turn(d: dict[str, Any], lang: str) -> str:
    return f"— Tour de bataille {d['turn']} —" if lang == "fr" else f"— Battle turn {d['turn']} —"


def _phase(d: dict[str, Any], lang: str) -> str:
    return PHASE[lang][d["name"]]


def _under(d: dict[str, Any], lang: str, what: dict[str, str]) -> str:
    side, why, dice = _side(d["side"], lang), WHY[lang][d["why"]], f"1d{RULES.die_sides}"
    if lang == "fr":
        verdict = "réussi" if d["passed"] else "raté"
        return f"{side} : {what[lang]} {why}, {d['roll']} pour {d['target']} ou moins ({dice}) — {verdict}."
    verdict = "passed" if d["passed"] else "failed"
    return f"{side}: {what[lang]} {why}, rolled {d['roll']}, needs {d['target']} or less ({dice}) — {verdict}."


def _men(count: int, lang: str) -> str:
    if lang == "fr":
        return f"{count} homme{'s' if count > 1 else ''}"
    return f"{count} {'man' if count == 1 else 'men'}"


def _attack(d: dict[str, Any], lang: str) -> str:
    weapon = {"fr": {"missile": "tire", "melee": "frappe"}, "en": {"missile": "shoots", "melee": "strikes"}}[lang]
    dealt = d.get("dealt", d["losses"])
    formula = f"{d['strength']} × {d['value']} × {d['roll']} / {RULES.loss_divisor} = {dealt}"
    if dealt > d["losses"]:
        capped = (f", soit les {_men(d['losses'], lang)} qui restent" if lang == "fr" else
                  f", that is the {_men(d['losses'], lang)} left")
    else:
        capped = " perte" + ("s" if dealt > 1 else "") if lang == "fr" else (" loss" if dealt == 1 else " losses")
    if lang == "fr":
        return f"{_side(d['side'], lang)} {weapon[d['weapon']]} : jet {d['roll']}, {formula}{capped}."
    return f"{_side(d['side'], lang)} {weapon[d['weapon']]}: roll {d['roll']}, {formula}{capped}."


def _losses(d: dict[str, Any], lang: str) -> str:
    if lang == "fr":
        left = f"il en reste {d['strength']}" if d["strength"] else "il n'en reste aucun"
        return f"{_side(d['side'], lang)} perd {_men(d['lost'], lang)} ; {left}."
    return f"{_side(d['side'], lang)} loses {_men(d['lost'], lang)}; {d['strength']} left."


TO_SIDE = {"north": "au Nord", "south": "au Sud"}


def _decide(d: dict[str, Any], lang: str) -> str:
    who = " and ".join(_side(s, lang, capital=False) for s in d["sides"])
    to = " et ".join(TO_SIDE[s] for s in d["sides"])
    text = {"fr": {"stance": f"{to[0].upper()}{to[1:]} de décider : attaquer, tenir ou se replier.",
                   "pursue": f"{_side(d.get('broken'), lang)} rompt : {to} de décider s'il poursuit.",
                   "continue": f"{to[0].upper()}{to[1:]} de décider : poursuivre encore ou s'arrêter."},
            "en": {"stance": f"{who} to decide: attack, hold or withdraw.",
                   "pursue": f"{_side(d.get('broken'), lang)} breaks: {who} to decide whether to pursue.",
                   "continue": f"{who} to decide: keep pursuing or stop."}}
    return text[lang][d["phase"]]


def _stance_given(d: dict[str, Any], lang: str) -> str:
    stance = STANCE[lang][d["stance"]]
    return f"Votre ordre : {stance}." if lang == "fr" else f"Your order: {stance}."


def _stances(d: dict[str, Any], lang: str) -> str:
    if lang == "fr":
        parts = [f"{_side(s, lang, capital=i == 0)} : {STANCE[lang][st]}" for i, (s, st) in enumerate(d.items())]
        return "Ordres des généraux — " + " ; ".join(parts) + "."
    return "The generals' orders — " + "; ".join(f"{_side(s, lang)}: {STANCE[lang][st]}" for s, st in d.items()) + "."


def _unbidden(kind: str):
    def write(d: dict[str, Any], lang: str) -> str:
        text = {"attack": ("attaque sans en avoir reçu l'ordre", "attacks without orders"),
                "pursuit": ("poursuit malgré l'ordre", "pursues against orders")}[kind]
        return f"{_side(d['side'], lang)} {text[0] if lang == 'fr' else text[1]} !"
    return write


def _pursue(d: dict[str, Any], lang: str) -> str:
    return f"{_side(d['side'], lang)} poursuit." if lang == "fr" else f"{_side(d['side'], lang)} pursues."


def _event(d: dict[str, Any], lang: str) -> str:
    dice = f"1d{RULES.die_sides}"
    if lang == "fr":
        head = "Un événement survient" if d["happened"] else "Pas d'événement"
        return f"{head} : {d['roll']} sur {dice}, il fallait {d['target']} ou moins."
    head = "An event happens" if d["happened"] else "No event"
    return f"{head}: {d['roll']} on {dice}, needed {d['target']} or less."


def _over(d: dict[str, Any], lang: str) -> str:
    reason = REASON[lang][d["reason"]]
    if d["winner"] is None:
        return f"Fin de la bataille : {reason} ; personne ne tient le terrain." if lang == "fr" else \
            f"End of the battle: {reason}; nobody holds the field."
    return (f"Fin de la bataille : {reason} ; {_side(d['winner'], lang, capital=False)} tient le terrain."
            if lang == "fr" else f"End of the battle: {reason}; {_side(d['winner'], lang)} holds the field.")


_WRITERS = {
    "ready": _ready, "turn": _turn, "phase": _phase,
    "discipline": lambda d, lang: _under(d, lang, {"fr": "jet de discipline", "en": "discipline roll"}),
    "morale": lambda d, lang: _under(d, lang, {"fr": "jet de moral", "en": "morale roll"}),
    "attack": _attack, "losses": _losses, "decide": _decide, "stance_given": _stance_given, "stances": _stances,
    "unbidden_attack": _unbidden("attack"), "unbidden_pursuit": _unbidden("pursuit"), "pursue": _pursue,
    "event": _event, "battle_over": _over,
}
