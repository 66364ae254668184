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


def narrate(event: Event, seat: str | None, lang: str, names: dict[str, dict[str, str]] | None = None) -> str | None:
    """``names``: on a field, each group's name by language (``group_names``)."""
    lang = "en" if lang == "en" else "fr"
    if names is not None and event.type == "orders":
        return _orders(event.data, lang, names, seat)
    if names is not None and "engaged" in event.data and event.type in _ENGAGED_WRITERS:
        return _ENGAGED_WRITERS[event.type](event.data, lang, names)
    if names is not None and event.type in _FIELD_WRITERS:
        return _FIELD_WRITERS[event.type](event.data, lang, names)
    writer = _WRITERS.get(event.type)
    return writer(event.data, lang) if writer else None


def _side(side: str | None, lang: str, capital: bool = True) -> str:
    name = SIDE[lang].get(side or "", side or "—")
    return name[0].upper() + name[1:] if capital else name


def _ready(d: dict[str, Any], lang: str) -> str:
    return f"{_side(d['side'], lang)} est en position." if lang == "fr" else f"{_side(d['side'], lang)} is in position."


def _turn(d: dict[str, Any], lang: str) -> str:
    if "night" in d:
        return (f"— Tour de bataille {d['turn']} sur {d['night']} —" if lang == "fr"
                else f"— Battle turn {d['turn']} of {d['night']} —")
    return f"— Tour de bataille {d['turn']} —" if lang == "fr" else f"— Battle turn {d['turn']} —"


# A last fire says why it comes (issue 59): the pursued got away, faster, or reached shelter.
LAST_FIRE = {"fr": {"outran": "{pursued}, plus rapide, se met hors de portée : {pursuers} a droit à une dernière "
                              "séquence de tir.",
                    "shelter": "{pursued} se retranche à l'abri : {pursuers} a droit à une dernière séquence de tir."},
             "en": {"outran": "{pursued}, faster, gets out of range: {pursuers} gets one last fire sequence.",
                    "shelter": "{pursued} reaches shelter: {pursuers} gets one last fire sequence."}}
ENGAGED_LAST_FIRE = {
    "fr": {"outran": "{pursued}, plus rapides, se mettent hors de portée : {pursuers} ont droit à une dernière "
                     "séquence de tir.",
           "shelter": "{pursued} se mettent à l'abri : {pursuers} ont droit à une dernière séquence de tir."},
    "en": {"outran": "{pursued}, faster, get out of range: {pursuers} get one last fire sequence.",
           "shelter": "{pursued} reach shelter: {pursuers} get one last fire sequence."}}


def _phase(d: dict[str, Any], lang: str) -> str:
    if d["name"] == "last_fire" and d.get("escape") in LAST_FIRE[lang]:
        pursued = d["side"]
        return LAST_FIRE[lang][d["escape"]].format(pursued=_side(pursued, lang),
                                                   pursuers=_side(OTHER_SIDE[pursued], lang, capital=False))
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
    return f"Ton ordre : {stance}." if lang == "fr" else f"Your order: {stance}."


def _stances(d: dict[str, Any], lang: str) -> str:
    d = {side: d[side] for side in ("north", "south") if side in d}  # on a field, the lane rides along
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


# -- the battle on a field ------------------------------------------------------------------------------
LANE_AT = {"fr": {"west": "à l'ouest", "centre": "au centre", "east": "à l'est"},
           "en": {"west": "in the west", "centre": "in the centre", "east": "in the east"}}
ORDER = {"fr": {"advance": "avancer", "close": "s'approcher à portée de tir", "hold": "tenir", "withdraw": "reculer",
                "west": "se décaler d'un couloir vers l'ouest", "east": "se décaler d'un couloir vers l'est"},
         "en": {"advance": "advance", "close": "close to bow range", "hold": "hold", "withdraw": "draw back",
                "west": "shift one lane west", "east": "shift one lane east"}}
FIELD_REASON = {
    "fr": {**REASON["fr"], "standoff": "les deux groupes tiennent leurs positions",
           "melee_goes_on": "les deux tiennent bon : la mêlée reprend au tour suivant",
           "volley": "chacun tient sous les traits",
           "field_cleared": "un camp n'a plus personne sur le terrain"},
    "en": {**REASON["en"], "standoff": "both groups hold their ground",
           "melee_goes_on": "both stand firm: the melee goes on next turn",
           "volley": "both stand under the missiles",
           "field_cleared": "one side has nobody left on the field"},
}
EVENT = {"fr": {"night": "La tombée de la nuit", "storm": "La tempête", "reinforcements": "L'arrivée de renforts"},
         "en": {"night": "Nightfall", "storm": "The storm", "reinforcements": "The arrival of reinforcements"}}
GROUP_OUT = {"fr": {"sheltered": "se mettent à l'abri", "left": "quittent le champ de bataille",
                    "destroyed": "sont anéantis"},
             "en": {"sheltered": "reach shelter", "left": "leave the field", "destroyed": "are wiped out"}}
CUSTOM = {"fr": "Guerriers", "en": "Warriors"}


def group_names(groups: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    """« les Archers du Nord », "the North's Archers"; a second group of the same troop gets its number."""
    names, seen = {}, {}
    for g in groups:
        troop = RULES.troops.get(g["troop"])
        label = troop.names if troop else CUSTOM
        key = (g["side"], g["troop"])
        seen[key] = seen.get(key, 0) + 1
        count = sum(1 for other in groups if (other["side"], other["troop"]) == key)
        number = f" ({seen[key]})" if count > 1 else ""
        of = {"north": "du Nord", "south": "du Sud"}[g["side"]]
        names[g["id"]] = {"fr": f"les {label['fr']} {of}{number}",
                          "en": f"the {SIDE['en'][g['side']]}'s {label['en']}{number}"}
    return names


def _cap(text: str) -> str:
    return text[0].upper() + text[1:]


def _order_words(order: str, lane: str | None, lang: str) -> str:
    """An order as the page's button names it: a shift names the lane it leads to (« passer au centre »)."""
    if lane is None:  # told before shifts named their lane
        return ORDER[lang][order]
    return f"passer {LANE_AT['fr'][lane]}" if lang == "fr" else f"move {LANE_AT['en'][lane].replace('in ', 'to ')}"


def _order_given(d: dict[str, Any], lang: str, names: dict) -> str:
    name, order = names[d["group"]][lang], _order_words(d["order"], d.get("to"), lang)
    return f"Ton ordre pour {name} : {order}." if lang == "fr" else f"Your order to {name}: {order}."


def _orders(d: dict[str, Any], lang: str, names: dict, seat: str | None = None) -> str:
    """The orders revealed, side by side, the reader's own first."""
    colon, semicolon = (" : ", "\u00a0; ") if lang == "fr" else (": ", "; ")
    sides = [seat, OTHER_SIDE[seat]] if seat in OTHER_SIDE else ["north", "south"]
    parts = []
    for side in sides:
        given = [f"{names[gid][lang]}{colon}{_order_words(order, d.get('shifts', {}).get(gid), lang)}"
                 for gid, order in d["orders"].items() if gid[0] == side[0]]
        if given:
            head = f"ordres {ORDERS_OF[side]}" if lang == "fr" else f"the {SIDE['en'][side]}'s orders"
            parts.append(f"{head} — {semicolon.join(given)}")
    text = ". ".join(_cap(part) for part in parts)
    return f"{text}."


def _move(d: dict[str, Any], lang: str, names: dict) -> str:
    name, (lane, pos) = _cap(names[d["group"]][lang]), d["from"]
    paces = abs(d["pos"] - pos)
    if d["lane"] != lane:
        return f"{name} passent {LANE_AT[lang][d['lane']]}." if lang == "fr" else \
            f"{name} move {LANE_AT[lang][d['lane']].replace('in ', 'to ')}."
    ahead = (d["pos"] - pos > 0) == d["group"].startswith("n")
    if lang == "fr":
        return f"{name} {'avancent' if ahead else 'reculent'} de {paces} pas {LANE_AT[lang][lane]}."
    return f"{name} {'advance' if ahead else 'draw back'} {paces} paces {LANE_AT[lang][lane]}."


def _engagement(d: dict[str, Any], lang: str, names: dict) -> str:
    north, south, lane = names[d["north"]][lang], names[d["south"]][lang], LANE_AT[lang][d["lane"]]
    if d.get("over_friends"):  # a group behind its front shoots over it (issue 45)
        shooter, target = (north, south) if d.get("shooter", "north") == "north" else (south, north)
        return f"Engagement {lane} : {shooter} tirent par-dessus leurs rangs sur {target}, à {d['distance']} pas." \
            if lang == "fr" else f"Engagement {lane}: {shooter} shoot over their own ranks at {target}, " \
            f"{d['distance']} paces away."
    if d.get("melee"):  # a melee both held, going on from the last turn (issue 45)
        return f"Engagement {lane} : la mêlée reprend entre {north} et {south}." if lang == "fr" else \
            f"Engagement {lane}: the melee between {north} and {south} goes on."
    if lang == "fr":
        at = "au contact" if d["distance"] == 0 else f"à {d['distance']} pas"
        return f"Engagement {lane} : {north} et {south} s'affrontent {at}."
    at = "in contact" if d["distance"] == 0 else f"{d['distance']} paces apart"
    return f"Engagement {lane}: {north} and {south} meet, {at}."


THROUGH_LINES = {  # a group shooting over its own ranks broke the enemy: why nobody pursues (issue 59)
    "fr": "{loser} ont rompu ; {winner} tiraient par-dessus leurs propres rangs et ne les poursuivent pas à travers "
          "leurs lignes",
    "en": "{loser} broke; {winner} were shooting over their own ranks and do not pursue them through their own lines",
}
LOSER_REASON = {  # an engagement's end that one group suffered, told with its name
    "fr": {"enemy_broke": "{loser} ont rompu et ne sont pas poursuivis", "withdrawal": "{loser} se sont repliés",
           "outran": "{loser}, plus rapides, s'échappent", "shelter": "{loser} se mettent à l'abri",
           "pursuit_stopped": "{winner} arrêtent la poursuite", "event": "la poursuite est interrompue"},
    "en": {"enemy_broke": "{loser} broke and are not pursued", "withdrawal": "{loser} withdrew",
           "outran": "{loser}, faster, get away", "shelter": "{loser} reach shelter",
           "pursuit_stopped": "{winner} stop the pursuit", "event": "the pursuit is cut short"},
}


def _engagement_over(d: dict[str, Any], lang: str, names: dict) -> str:
    reason = FIELD_REASON[lang][d["reason"]]
    if d["reason"] in LOSER_REASON[lang] and d.get("winner") and "engaged" in d:
        winner, loser = d["winner"], OTHER_SIDE[d["winner"]]
        told = THROUGH_LINES[lang] if d.get("over_friends") else LOSER_REASON[lang][d["reason"]]
        reason = told.format(winner=names[d["engaged"][winner]][lang], loser=names[d["engaged"][loser]][lang])
    return f"Fin de l'engagement {LANE_AT[lang][d['lane']]} : {reason}." if lang == "fr" else \
        f"End of the engagement {LANE_AT[lang][d['lane']]}: {reason}."


def _fall_back(d: dict[str, Any], lang: str, names: dict) -> str:
    name = _cap(names[d["group"]][lang])
    return f"{name} se replient de {d['paces']} pas." if lang == "fr" else f"{name} fall back {d['paces']} paces."


def _group_out(d: dict[str, Any], lang: str, names: dict) -> str:
    return f"{_cap(names[d['group']][lang])} {GROUP_OUT[lang][d['how']]}."


def _arrival(d: dict[str, Any], lang: str, names: dict) -> str:
    name = names[d["group"]][lang]
    return (f"Des renforts arrivent : {name} entrent sur le terrain {LANE_AT[lang][d['lane']]}." if lang == "fr"
            else f"Reinforcements arrive: {name} enter the field {LANE_AT[lang][d['lane']]}.")


def _storm(d: dict[str, Any], lang: str, names: dict) -> str:
    return ("Une tempête se lève : aucun arc ne porte de tout le tour, et elle mettra fin à toute poursuite."
            if lang == "fr" else "A storm rises: no bow carries this whole turn, and it will end any pursuit.")


def _field_event(d: dict[str, Any], lang: str, names: dict) -> str:
    if "kind" not in d:
        return _event(d, lang)
    return (f"{EVENT[lang][d['kind']]} met fin à la poursuite." if lang == "fr"
            else f"{EVENT[lang][d['kind']]} ends the pursuit.")


def _field_decide(d: dict[str, Any], lang: str, names: dict) -> str:
    return ("Aux généraux de donner, en secret, un ordre à chacun de leurs groupes." if lang == "fr"
            else "The generals give each of their groups an order, in secret.")


# -- an engagement's events, told with its groups' names -------------------------------------------------------
OTHER_SIDE = {"north": "south", "south": "north"}
ORDERS_OF = {"north": "du Nord", "south": "du Sud"}
PLURAL = {"fr": {"missile": "tirent", "melee": "frappent"}, "en": {"missile": "shoot", "melee": "strike"}}


def _who(d: dict[str, Any], lang: str, names: dict, side: str | None = None) -> str:
    return _cap(names[d["engaged"][side or d["side"]]][lang])


def _engaged_attack(d: dict[str, Any], lang: str, names: dict) -> str:
    text = _attack(d, lang)  # "Le Nord tire : jet …": the subject and its verb become the group's
    rest = text.split(":", 1)[1]
    return f"{_who(d, lang, names)} {PLURAL[lang][d['weapon']]}{' :' if lang == 'fr' else ':'}{rest}"


def _engaged_losses(d: dict[str, Any], lang: str, names: dict) -> str:
    if lang == "fr":
        left = f"il en reste {d['strength']}" if d["strength"] else "il n'en reste aucun"
        return f"{_who(d, lang, names)} perdent {_men(d['lost'], lang)} ; {left}."
    return f"{_who(d, lang, names)} lose {_men(d['lost'], lang)}; {d['strength']} left."


def _engaged_roll(what: dict[str, str]):
    def write(d: dict[str, Any], lang: str, names: dict) -> str:
        text = _under(d, lang, what)
        return f"{_who(d, lang, names)}{text[text.index(':') - (1 if lang == 'fr' else 0):]}"
    return write


def _engaged_unbidden(kind: str):
    def write(d: dict[str, Any], lang: str, names: dict) -> str:
        text = {"attack": ("attaquent sans en avoir reçu l'ordre", "attack without orders"),
                "pursuit": ("poursuivent malgré l'ordre", "pursue against orders")}[kind]
        return f"{_who(d, lang, names)} {text[0]} !" if lang == "fr" else f"{_who(d, lang, names)} {text[1]}!"
    return write


def _engaged_pursue(d: dict[str, Any], lang: str, names: dict) -> str:
    return f"{_who(d, lang, names)} {'poursuivent' if lang == 'fr' else 'pursue'}."


def _engaged_phase(d: dict[str, Any], lang: str, names: dict) -> str:
    if d["name"] == "last_fire" and d.get("escape") in ENGAGED_LAST_FIRE[lang]:
        pursued = d["side"]
        return ENGAGED_LAST_FIRE[lang][d["escape"]].format(pursued=_who(d, lang, names, pursued),
                                                           pursuers=names[d["engaged"][OTHER_SIDE[pursued]]][lang])
    return _phase(d, lang)


def _engaged_decide(d: dict[str, Any], lang: str, names: dict) -> str:
    at = _cap(LANE_AT[lang][d["lane"]])
    deciders = d["sides"]
    if lang == "fr":
        to = " et ".join(TO_SIDE[s] for s in deciders)
        if d["phase"] == "pursue":
            broken = names[d["engaged"][d["broken"]]]["fr"]
            return f"{at}, {broken} rompent ; {to} de décider s'il les poursuit."
        if d["phase"] == "continue":
            return f"{at}, {to} de décider : poursuivre encore ou s'arrêter."
        return f"{at}, {to} de décider : attaquer, tenir ou se replier."
    who = " and ".join(_side(s, lang) for s in deciders)
    if d["phase"] == "pursue":
        broken = names[d["engaged"][d["broken"]]]["en"]
        return f"{at}, {broken} break: {who} to decide whether to pursue them."
    if d["phase"] == "continue":
        return f"{at}, {who} to decide: keep pursuing or stop."
    return f"{at}, {who} to decide: attack, hold or withdraw."


_ENGAGED_WRITERS = {
    "attack": _engaged_attack, "losses": _engaged_losses, "pursue": _engaged_pursue, "decide": _engaged_decide,
    "phase": _engaged_phase,
    "discipline": _engaged_roll({"fr": "jet de discipline", "en": "discipline roll"}),
    "morale": _engaged_roll({"fr": "jet de moral", "en": "morale roll"}),
    "unbidden_attack": _engaged_unbidden("attack"), "unbidden_pursuit": _engaged_unbidden("pursuit"),
}


def _round(d: dict[str, Any], lang: str, names: dict) -> str:
    return f"{_cap(LANE_AT[lang][d['lane']])}, la mêlée continue." if lang == "fr" else \
        f"{_cap(LANE_AT[lang][d['lane']])}, the melee goes on."


def _field_over(d: dict[str, Any], lang: str, names: dict) -> str:
    reason = FIELD_REASON[lang][d["reason"]]
    men = d["strength"]
    if d["winner"] is None:
        return (f"Fin de la bataille : {reason} ; personne ne tient le terrain ({_men(men['north'], lang)} au Nord, "
                f"{_men(men['south'], lang)} au Sud)." if lang == "fr" else
                f"End of the battle: {reason}; nobody holds the field ({_men(men['north'], lang)} for the North, "
                f"{_men(men['south'], lang)} for the South).")
    winner, loser = d["winner"], "south" if d["winner"] == "north" else "north"
    if lang == "fr":
        return (f"Fin de la bataille : {reason} ; {_side(winner, lang, capital=False)} tient le terrain avec "
                f"{_men(men[winner], lang)} contre {men[loser]}.")
    return f"End of the battle: {reason}; {_side(winner, lang)} holds the field with {_men(men[winner], lang)} " \
        f"against {men[loser]}."


_FIELD_WRITERS = {
    "order_given": _order_given, "orders": _orders, "move": _move, "engagement": _engagement,
    "engagement_over": _engagement_over, "fall_back": _fall_back, "group_out": _group_out, "arrival": _arrival,
    "storm": _storm, "event": _field_event, "decide": _field_decide, "round": _round, "battle_over": _field_over,
}


# -- how a battle ended, for the odds (issue 59: raw codes, and « sans issue » beside a side holding the field) -----
HOLDS = {"fr": {"north": "le Nord tient le terrain", "south": "le Sud tient le terrain",
                "nobody": "personne ne tient le terrain"},
         "en": {"north": "the North holds the field", "south": "the South holds the field",
                "nobody": "nobody holds the field"}}
FIELD_NIGHT = {  # on a field, night gives the field to the side with more men on it (``field._over``)
    "fr": {"north": "la nuit tombe ; le Nord, plus nombreux sur le terrain, le tient",
           "south": "la nuit tombe ; le Sud, plus nombreux sur le terrain, le tient",
           "nobody": "la nuit tombe sur autant d'hommes de chaque côté : personne ne tient le terrain"},
    "en": {"north": "night falls; the North, with more men on the field, holds it",
           "south": "night falls; the South, with more men on the field, holds it",
           "nobody": "night falls on as many men on each side: nobody holds the field"},
}


def ending(reason: str, holds: str, lang: str, on_field: bool) -> str:
    """One way a battle ends, with who holds the field then: « les deux troupes se replient ; personne ne tient le
    terrain ». The odds count battles by these: each battle has exactly one, so their shares add up to 100 %."""
    lang = "en" if lang == "en" else "fr"
    if on_field and reason == "nightfall":
        return FIELD_NIGHT[lang][holds]
    words = (FIELD_REASON if on_field else REASON)[lang].get(reason, reason)
    return f"{words}{' ; ' if lang == 'fr' else '; '}{HOLDS[lang][holds]}"
