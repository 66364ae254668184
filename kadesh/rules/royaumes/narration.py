"""The turn report, in French and English: one line per event a seat may read."""

from __future__ import annotations

from typing import Any

from kadesh.core.events import Event
from kadesh.rules.royaumes.data import RULES, SCENARIOS

STANCE_WORDS = {"fr": {"war": "la guerre", "peace": "la paix", "ally": "l'alliance"},
                "en": {"war": "war", "peace": "peace", "ally": "alliance"}}
MOVE_REFUSALS = {
    "not_adjacent": ("la case d'arrivée n'est pas voisine (une case par tour)",
                     "the destination is not a neighbouring cell (one cell per turn)"),
    "water": ("la case d'arrivée est de l'eau", "the destination is water"),
    "no_land_between": ("une diagonale demande de la terre sur l'une des deux cases qu'elle coupe",
                        "a diagonal needs land on one of the two cells it cuts between"),
    "no_army": ("aucune de vos armées ne peut partir de cette case", "none of your armies can leave that cell"),
}
REFUSALS = {
    "army_raised": ("une armée a été créée ce tour-ci : ni bâtiment ni fête",
                    "an army was raised this turn: no building and no feast"),
    "cost": ("pas assez de ressources", "not enough resources"),
    "not_yours": ("cette cité n'est pas à vous", "that city is not yours"),
    "destroyed": ("cette cité est détruite", "that city is destroyed"),
}


def narrate(event: Event, seat: str | None, lang: str) -> str | None:
    writer = _WRITERS.get(event.type)
    if writer is None:
        return None
    fr, en = writer(event.data, _Names("en" if lang == "en" else "fr"))
    return en if lang == "en" else fr


# Names of kingdoms and resources across the shipped scenarios (an unknown id is printed as is).
_KINGDOM_NAMES = {kid: spec.names for scenario in SCENARIOS.values() for kid, spec in scenario.kingdoms.items()}
_RESOURCE_NAMES = {r: names for scenario in SCENARIOS.values() for r, names in scenario.resource_names.items()}


class _Names:
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __call__(self, kingdom: str | None) -> str:
        if kingdom is None:
            return "—"
        return _KINGDOM_NAMES.get(kingdom, {}).get(self.lang, kingdom)

    def stuff(self, amounts: dict[str, int]) -> str:
        return ", ".join(f"{n} {_RESOURCE_NAMES.get(r, {}).get(self.lang, r)}" for r, n in amounts.items())


def _adjudication(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    missing_fr = f" Sans ordres : {', '.join(map(k, d['missing']))}." if d["missing"] else ""
    missing_en = f" Without orders: {', '.join(map(k, d['missing']))}." if d["missing"] else ""
    return (f"— Imhotep juge le tour {d['turn']}.{missing_fr}", f"— Imhotep adjudicates turn {d['turn']}.{missing_en}")


def _orders_in(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"Les ordres de {k(d['kingdom'])} sont arrivés (n° {d['place']}).",
            f"{k(d['kingdom'])}'s orders arrived (no. {d['place']}).")


def _orders_received(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    order = d["order"]
    fr = [f"Ordres de {k(d['kingdom'])} reçus : {len(order['moves'])} mouvement(s)."]
    en = [f"{k(d['kingdom'])}'s orders received: {len(order['moves'])} move(s)."]
    for item in order["problems"]:
        where_fr = f"ligne {item['line']}" if item["line"] else "ordre"
        where_en = f"line {item['line']}" if item["line"] else "order"
        fr.append(f"  {where_fr} « {item['text']} » : {item['fr']}")
        en.append(f"  {where_en} '{item['text']}': {item['en']}")
    return "\n".join(fr), "\n".join(en)


def _stance(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    fr = f"{k(d['kingdom'])} déclare {STANCE_WORDS['fr'][d['stance']]} à {k(d['towards'])}."
    en = f"{k(d['kingdom'])} declares {STANCE_WORDS['en'][d['stance']]} towards {k(d['towards'])}."
    if d["allied"]:
        fr, en = fr + " L'alliance est conclue.", en + " The alliance is sealed."
    elif d["at_war"]:
        fr, en = fr + " Les deux royaumes sont en guerre.", en + " The two kingdoms are at war."
    return fr, en


def _ally_refused(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"Alliance avec {k(d['towards'])} refusée : un seul allié (déjà {', '.join(map(k, d['allies']))}).",
            f"Alliance with {k(d['towards'])} refused: one ally at most (already {', '.join(map(k, d['allies']))}).")


def _army_raised(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"{k(d['kingdom'])} lève une armée à {d['city']} ({d['cell']}).",
            f"{k(d['kingdom'])} raises an army at {d['city']} ({d['cell']}).")


def _refused(what_fr: str, what_en: str):
    def write(d: dict[str, Any], k: _Names) -> tuple[str, str]:
        fr, en = REFUSALS.get(d.get("why", "cost"), REFUSALS["cost"])
        return f"{what_fr} refusé(e) : {fr}.", f"{what_en} refused: {en}."
    return write


def _built(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"{k(d['kingdom'])} agrandit sa Guilde des Constructeurs (niveau {d['level']}).",
            f"{k(d['kingdom'])} enlarges its Builders' Guild (level {d['level']}).")


def _spy_report(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"Rapport d'espion : le niveau militaire de {k(d['target'])} est {d['level']} (tour {d['turn']}).",
            f"Spy report: {k(d['target'])}'s military level is {d['level']} (turn {d['turn']}).")


def _spy_refused(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"Pas d'espion chez {k(d['target'])} : il coûte {k.stuff(d['cost'])}.",
            f"No spy in {k(d['target'])}: it costs {k.stuff(d['cost'])}.")


def _moved(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    n = d["count"]
    return (f"{k(d['kingdom'])} : {n} armée{'s' if n > 1 else ''} de {d['from']} à {d['to']}.",
            f"{k(d['kingdom'])}: {n} arm{'ies' if n > 1 else 'y'} from {d['from']} to {d['to']}.")


def _move_refused(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    fr, en = MOVE_REFUSALS[d["why"]]
    return (f"« {d['text']} » non exécuté : {fr}.", f"'{d['text']}' not carried out: {en}.")


def _move_short(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"{d['from']} → {d['to']} : {d['asked']} armées demandées, {d['found']} présentes ; elles seules partent.",
            f"{d['from']} → {d['to']}: {d['asked']} armies asked, {d['found']} there; only they go.")


def _unordered(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    cells = ", ".join(d["cells"])
    return (f"{k(d['kingdom'])} : sans ordre clair, ces armées restent en place : {cells}.",
            f"{k(d['kingdom'])}: without a clear order, these armies stay where they are: {cells}.")


def _battle(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    place_fr = f"{d['city']} ({d['cell']})" if d["city"] else d["cell"]
    a, b = d["sides"]
    sides_fr = " contre ".join(f"{k(s['kingdom'])} ({s['armies']} armée(s), {s['lost']} perdue(s))" for s in (a, b))
    sides_en = " against ".join(f"{k(s['kingdom'])} ({s['armies']} arm(ies), {s['lost']} lost)" for s in (a, b))
    sortie = (" Sortie de la cité occupée :", " Sortie from the occupied city:") if d["sortie"] else ("", "")
    if d["winner"] is None:
        return (f"Bataille à {place_fr} :{sortie[0]} {sides_fr}. Totaux égaux : toutes les armées périssent.",
                f"Battle at {place_fr}:{sortie[1]} {sides_en}. Equal totals: every army perishes.")
    return (f"Bataille à {place_fr} :{sortie[0]} {sides_fr}. {k(d['winner'])} l'emporte.",
            f"Battle at {place_fr}:{sortie[1]} {sides_en}. {k(d['winner'])} wins.")


def _battle_totals(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    parts = [(f"{k(s['kingdom'])} {s['level']} × {s['armies']} + {s['bonus']} = {s['total']}", s) for s in d["sides"]]
    text = " ; ".join(p for p, _ in parts)
    row = ""
    if d["winner"] is not None:
        g = next(s for s in d["sides"] if s["kingdom"] == d["winner"])
        p = next(s for s in d["sides"] if s["kingdom"] != d["winner"])
        keep = g["armies"] - RULES.keep_at_least
        row = f" — G perd ⌊{g['armies']} × {p['total']} / {g['total']}⌋ (max {keep}) = {g['lost']}"
    return f"  Totaux à {d['cell']} : {text}{row}.", f"  Totals at {d['cell']}: {text}{row.replace('perd', 'loses')}."


def _own_total(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"  Votre total : niveau {d['level']} × {d['armies']} armée(s) + bonus {d['bonus']} = {d['total']}.",
            f"  Your total: level {d['level']} × {d['armies']} arm(ies) + bonus {d['bonus']} = {d['total']}.")


def _city_conquered(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    extra = (f" pour le compte de son allié {k(d['for'])}", f" on behalf of its ally {k(d['for'])}") \
        if d.get("for") else ("", "")
    return (f"{d['city']} est prise par {k(d['kingdom'])}{extra[0]} (elle était à {k(d['from'])}).",
            f"{d['city']} is taken by {k(d['kingdom'])}{extra[1]} (it was {k(d['from'])}'s).")


def _city_destroyed(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    most = RULES.max_cities
    why = (f"elle a déjà {most} cités", f"it already holds {most} cities") if d["why"] == "max_cities" else \
        ("par choix", "by choice")
    return (f"{d['city']} est détruite par {k(d['kingdom'])} ({why[0]}).",
            f"{d['city']} is destroyed by {k(d['kingdom'])} ({why[1]}).")


def _city_occupied(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"{d['city']}, cité initiale de {k(d['owner'])}, est occupée par {d['armies']} armée(s) de "
            f"{k(d['kingdom'])} : elle ne peut être détruite.",
            f"{d['city']}, {k(d['owner'])}'s initial city, is occupied by {d['armies']} arm(ies) of "
            f"{k(d['kingdom'])}: it cannot be destroyed.")


def _tribute(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    short = (f" ; il manque {d['short']}", f"; {d['short']} short") if d["short"] else ("", "")
    return (f"Tribut de {k(d['payer'])} à {k(d['kingdom'])} pour {d['armies']} armée(s) à {d['city']} : "
            f"{d['owed']} dû, payé {k.stuff(d['paid']) or 'rien'}{short[0]}.",
            f"Tribute from {k(d['payer'])} to {k(d['kingdom'])} for {d['armies']} arm(ies) at {d['city']}: "
            f"{d['owed']} owed, paid {k.stuff(d['paid']) or 'nothing'}{short[1]}.")


def _turn_began(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return f"Tour {d['turn']} : les ordres sont attendus.", f"Turn {d['turn']}: orders are awaited."


def _gm(fr: str, en: str):
    def write(d: dict[str, Any], k: _Names) -> tuple[str, str]:
        reason = f" — « {d['reason']} »" if d.get("reason") else ""
        return f"Imhotep {fr.format(**d, k=k)}{reason}.", f"Imhotep {en.format(**d, k=k)}{reason}."
    return write


def _gm_alliance(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    a, b = map(k, d["kingdoms"])
    verb = ("suspend", "suspends") if d["suspended"] else ("rétablit", "restores")
    reason = f" — « {d['reason']} »" if d.get("reason") else ""
    return (f"Imhotep {verb[0]} l'alliance entre {a} et {b}{reason}.",
            f"Imhotep {verb[1]} the alliance between {a} and {b}{reason}.")


def _gm_edit(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    reason = f" — « {d['reason']} »" if d.get("reason") else ""
    return (f"Imhotep modifie {', '.join(d['fields'])} de {k(d['kingdom'])}{reason}.",
            f"Imhotep edits {k(d['kingdom'])}'s {', '.join(d['fields'])}{reason}.")


def _gm_edit_values(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return f"  Nouvelles valeurs : {d['values']}.", f"  New values: {d['values']}."


def _gm_deadline(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    if d["deadline"] is None:
        return f"Imhotep retire l'échéance du tour {d['turn']}.", f"Imhotep removes turn {d['turn']}'s deadline."
    return (f"Imhotep fixe l'échéance du tour {d['turn']} : {d['deadline']}.",
            f"Imhotep sets turn {d['turn']}'s deadline: {d['deadline']}.")


def _gm_override(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    parts = [f"{k(a['kingdom'])} {a['cell']} = {a['count']}" for a in d["armies"]]
    parts += [f"{c['city']}: {'détruite' if c['destroyed'] else k(c['owner'])}" for c in d["cities"]]
    parts_en = [f"{k(a['kingdom'])} {a['cell']} = {a['count']}" for a in d["armies"]]
    parts_en += [f"{c['city']}: {'destroyed' if c['destroyed'] else k(c['owner'])}" for c in d["cities"]]
    return (f"Imhotep tranche : {'; '.join(parts)} — « {d['reason']} ».",
            f"Imhotep overrules: {'; '.join(parts_en)} — '{d['reason']}'.")


def _campaign_ended(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    who = (f" Vainqueur : {k(d['winner'])}.", f" Winner: {k(d['winner'])}.") if d["winner"] else ("", "")
    reason = f" « {d['reason']} »" if d.get("reason") else ""
    return (f"Imhotep clôt la campagne au tour {d['turn']}.{who[0]}{reason}",
            f"Imhotep ends the campaign on turn {d['turn']}.{who[1]}{reason}")


_WRITERS = {
    "adjudication": _adjudication, "orders_in": _orders_in, "orders_received": _orders_received,
    "stance": _stance, "ally_refused": _ally_refused, "army_raised": _army_raised,
    "raise_refused": _refused("Levée d'armée", "Raising an army"), "built": _built,
    "build_refused": _refused("Construction", "Building"), "spy_report": _spy_report, "spy_refused": _spy_refused,
    "moved": _moved, "move_refused": _move_refused, "move_short": _move_short, "unordered": _unordered,
    "battle": _battle, "battle_totals": _battle_totals, "battle_own_total": _own_total,
    "city_conquered": _city_conquered, "city_destroyed": _city_destroyed, "city_occupied": _city_occupied,
    "tribute": _tribute, "turn_began": _turn_began,
    "gm_adjudicate": _gm("juge le tour {turn} sans attendre", "adjudicates turn {turn} without waiting"),
    "gm_alliance": _gm_alliance, "gm_edit": _gm_edit, "gm_edit_values": _gm_edit_values,
    "gm_deadline": _gm_deadline, "gm_override": _gm_override, "campaign_ended": _campaign_ended,
}
