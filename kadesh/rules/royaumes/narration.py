"""The turn report, in French and English: one line per event a seat may read."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from kadesh.core.events import Event
from kadesh.rules.royaumes.data import RULES, Scenario
from kadesh.rules.royaumes.scenario import SCENARIOS

STANCE_WORDS = {"fr": {"war": "la guerre", "peace": "la paix", "ally": "l'alliance"},
                "en": {"war": "war", "peace": "peace", "ally": "alliance"}}
MOVE_REFUSALS = {
    "not_adjacent": ("la case d'arrivée n'est pas voisine (une case par tour)",
                     "the destination is not a neighbouring cell (one cell per turn)"),
    "water": ("la case d'arrivée est de l'eau", "the destination is water"),
    "no_land_between": ("une diagonale demande de la terre sur l'une des deux cases qu'elle coupe",
                        "a diagonal needs land on one of the two cells it cuts between"),
    "no_army": ("aucune de tes armées ne peut partir de cette case", "none of your armies can leave that cell"),
}
REFUSALS = {
    "army_raised": ("une armée a été créée ce tour-ci : ni bâtiment ni fête",
                    "an army was raised this turn: no building and no feast"),
    "cost": ("pas assez de ressources", "not enough resources"),
    "not_yours": ("cette cité n'est pas à toi", "that city is not yours"),
    "destroyed": ("cette cité est détruite", "that city is destroyed"),
}


def narrate(event: Event, seat: str | None, lang: str, scenario: Scenario | None = None) -> str | None:
    """``scenario``: the campaign's map, whose kingdoms and resources are named as it names them
    (without it, the shipped maps' names)."""
    writer = _WRITERS.get(event.type)
    if writer is None:
        return None
    fr, en = writer(event.data, _Names("en" if lang == "en" else "fr", scenario))
    return en if lang == "en" else fr


# Names of kingdoms and resources across the shipped scenarios (an unknown id is printed as is).
_KINGDOM_NAMES = {kid: spec.names for scenario in SCENARIOS.values() for kid, spec in scenario.kingdoms.items()}
_RESOURCE_NAMES = {r: names for scenario in SCENARIOS.values() for r, names in scenario.resource_names.items()}


class _Names:
    def __init__(self, lang: str, scenario: Scenario | None = None) -> None:
        self.lang = lang
        self.kingdoms = _KINGDOM_NAMES
        self.resources = _RESOURCE_NAMES
        if scenario is not None:
            self.kingdoms = {**_KINGDOM_NAMES, **{k: spec.names for k, spec in scenario.kingdoms.items()}}
            self.resources = {**_RESOURCE_NAMES, **scenario.resource_names}

    def __call__(self, kingdom: str | None) -> str:
        if kingdom is None:
            return "—"
        return self.kingdoms.get(kingdom, {}).get(self.lang, kingdom)

    def stuff(self, amounts: dict[str, int]) -> str:
        return ", ".join(f"{n} {self.resources.get(r, {}).get(self.lang, r)}" for r, n in amounts.items())


def armies_word(n: int, lang: str) -> str:
    """« 1 armée », « 3 armées »; "1 army", "3 armies"."""
    if lang == "en":
        return f"{n} arm{'y' if n == 1 else 'ies'}"
    return f"{n} armée{'' if n == 1 else 's'}"


def _both_armies(n: int) -> tuple[str, str]:
    return armies_word(n, "fr"), armies_word(n, "en")


def _lost(n: int) -> tuple[str, str]:
    return ("aucune perdue", "none lost") if n == 0 else (f"{n} perdue{'s' if n > 1 else ''}", f"{n} lost")


FIELD_WORDS = {"military_level": ("le niveau militaire", "military level"),
               "population": ("la population", "population"),
               "guild_level": ("le niveau de la Guilde des Constructeurs", "Builders' Guild level"),
               "resources": ("les ressources", "resources")}
MONTHS = {"fr": ("janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre",
                 "novembre", "décembre"),
          "en": ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
                 "November", "December")}
DAYS = {"fr": ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
        "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")}


def _and(items: list[str], lang: str) -> str:
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} {'and' if lang == 'en' else 'et'} {items[-1]}"


def moment(iso: str, lang: str) -> str:
    """An ISO 8601 time as a reader writes it, in its own zone: « mardi 15 janvier 2030 à 18 h 00 (UTC+1) »."""
    at = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    offset = at.utcoffset() or timedelta(0)
    minutes = int(offset.total_seconds()) // 60
    zone = "UTC" if minutes == 0 else \
        f"UTC{'+' if minutes > 0 else '−'}{abs(minutes) // 60}{f':{abs(minutes) % 60:02d}' if minutes % 60 else ''}"
    day, month = DAYS[lang][at.weekday()], MONTHS[lang][at.month - 1]
    if lang == "en":
        return f"{day} {at.day} {month} {at.year} at {at.hour:02d}:{at.minute:02d} ({zone})"
    return f"{day} {at.day} {month} {at.year} à {at.hour} h {at.minute:02d} ({zone})"


def _adjudication(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    missing_fr = f" Sans ordres : {', '.join(map(k, d['missing']))}." if d["missing"] else ""
    missing_en = f" Without orders: {', '.join(map(k, d['missing']))}." if d["missing"] else ""
    return (f"— Imhotep juge le tour {d['turn']}.{missing_fr}", f"— Imhotep adjudicates turn {d['turn']}.{missing_en}")


def _orders_in(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"Les ordres de {k(d['kingdom'])} sont arrivés (n° {d['place']}).",
            f"{k(d['kingdom'])}'s orders arrived (no. {d['place']}).")


def _orders_received(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    order = d["order"]
    n = len(order["moves"])
    fr = [f"Ordres de {k(d['kingdom'])} reçus : {n} mouvement{'s' if n > 1 else ''}."]
    en = [f"{k(d['kingdom'])}'s orders received: {n} move{'s' if n != 1 else ''}."]
    for item in order["problems"]:
        where_fr = f"ligne {item['line']}" if item["line"] else "ordre"
        where_en = f"line {item['line']}" if item["line"] else "order"
        fr.append(f"  {where_fr} « {item['text']} » : {item['fr']}")
        en.append(f"  {where_en} '{item['text']}': {item['en']}")
    return "\n".join(fr), "\n".join(en)


def _stance(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    """As the rules say it: war is declared on a kingdom; peace is made by both; an alliance is
    proposed, and sealed when the other proposes it too."""
    a, b = k(d["kingdom"]), k(d["towards"])
    if d["stance"] == "war":
        return f"{a} déclare la guerre à {b}.", f"{a} declares war on {b}."
    if d["stance"] == "ally":
        if d["allied"]:
            return f"{a} s'allie à {b} : l'alliance est conclue.", f"{a} allies with {b}: the alliance is sealed."
        if d["at_war"]:
            return (f"{a} propose une alliance à {b}, qui reste en guerre contre {a}.",
                    f"{a} proposes an alliance to {b}, which is still at war with {a}.")
        return (f"{a} propose une alliance à {b} ; elle sera conclue si {b} la propose aussi.",
                f"{a} proposes an alliance to {b}; it is sealed if {b} proposes it too.")
    if d.get("was") == "ally":
        return f"{a} rompt son alliance avec {b} : les deux royaumes sont en paix.", \
            f"{a} breaks its alliance with {b}: the two kingdoms are at peace."
    if d["at_war"]:
        return (f"{a} offre la paix à {b}, mais {b} maintient la guerre.",
                f"{a} offers peace to {b}, but {b} keeps the war going.")
    return f"{a} fait la paix avec {b}.", f"{a} makes peace with {b}."


def _ally_refused(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"Alliance avec {k(d['towards'])} refusée : un seul allié (déjà {', '.join(map(k, d['allies']))}).",
            f"Alliance with {k(d['towards'])} refused: one ally at most (already {', '.join(map(k, d['allies']))}).")


def _army_raised(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return (f"{k(d['kingdom'])} lève une armée à {d['city']} ({d['cell']}).",
            f"{k(d['kingdom'])} raises an army at {d['city']} ({d['cell']}).")


def _refused(what_fr: str, what_en: str):
    def write(d: dict[str, Any], k: _Names) -> tuple[str, str]:
        fr, en = REFUSALS.get(d.get("why", "cost"), REFUSALS["cost"])
        return f"{what_fr} refusée : {fr}.", f"{what_en} refused: {en}."
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
    fr, en = _both_armies(d["count"])
    return (f"{k(d['kingdom'])} : {fr} de {d['from']} à {d['to']}.",
            f"{k(d['kingdom'])}: {en} from {d['from']} to {d['to']}.")


def _move_refused(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    fr, en = MOVE_REFUSALS[d["why"]]
    return (f"« {d['text']} » non exécuté : {fr}.", f"'{d['text']}' not carried out: {en}.")


def _move_short(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    asked, found = _both_armies(d["asked"]), d["found"]
    return (f"{d['from']} → {d['to']} : {asked[0]} demandées, {found} seulement pouvai{'en' if found > 1 else ''}t "
            f"partir ; {'elles seules partent' if found > 1 else 'elle seule part'}.",
            f"{d['from']} → {d['to']}: {asked[1]} asked, only {found} could leave; "
            f"only {'they go' if found > 1 else 'it goes'}.")


def _unordered(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    cells = ", ".join(d["cells"])
    return (f"{k(d['kingdom'])} : sans ordre clair, ces armées restent en place : {cells}.",
            f"{k(d['kingdom'])}: without a clear order, these armies stay where they are: {cells}.")


def _battle(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    place_fr = f"{d['city']} ({d['cell']})" if d["city"] else d["cell"]
    a, b = d["sides"]
    sides_fr = " contre ".join(f"{k(s['kingdom'])} ({armies_word(s['armies'], 'fr')}, {_lost(s['lost'])[0]})"
                               for s in (a, b))
    sides_en = " against ".join(f"{k(s['kingdom'])} ({armies_word(s['armies'], 'en')}, {_lost(s['lost'])[1]})"
                                for s in (a, b))
    sortie = (" Sortie de la cité occupée :", " Sortie from the occupied city:") if d["sortie"] else ("", "")
    if d["winner"] is None:
        return (f"Bataille à {place_fr} :{sortie[0]} {sides_fr}. Totaux égaux : toutes les armées périssent.",
                f"Battle at {place_fr}:{sortie[1]} {sides_en}. Equal totals: every army perishes.")
    return (f"Bataille à {place_fr} :{sortie[0]} {sides_fr}. {k(d['winner'])} l'emporte.",
            f"Battle at {place_fr}:{sortie[1]} {sides_en}. {k(d['winner'])} wins.")


def _total(side: dict[str, Any], lang: str) -> str:
    bonus = f" + {side['bonus']} ({'défense' if lang == 'fr' else 'defence'})" if side["bonus"] else ""
    word = "niveau" if lang == "fr" else "level"
    return f"{word} {side['level']} × {armies_word(side['armies'], lang)}{bonus} = {side['total']}"


def _battle_totals(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    """Imhotep's view of a battle: both totals, and the winner's losses said in words."""
    fr = " ; ".join(f"{k(s['kingdom'])} {_total(s, 'fr')}" for s in d["sides"])
    en = "; ".join(f"{k(s['kingdom'])} {_total(s, 'en')}" for s in d["sides"])
    row_fr = row_en = ""
    if d["winner"] is not None:
        g = next(s for s in d["sides"] if s["kingdom"] == d["winner"])
        p = next(s for s in d["sides"] if s["kingdom"] != d["winner"])
        lost_fr = "ne perd aucune armée" if g["lost"] == 0 else f"perd {g['lost']} armée{'s' if g['lost'] > 1 else ''}"
        lost_en = "loses no army" if g["lost"] == 0 else f"loses {armies_word(g['lost'], 'en')}"
        row_fr = (f" Le vainqueur {lost_fr} sur {g['armies']} : ses pertes suivent le rapport des forces "
                  f"({p['total']} contre {g['total']}), arrondies en dessous")
        row_en = (f" The winner {lost_en} of {g['armies']}: its losses follow the balance of forces "
                  f"({p['total']} against {g['total']}), rounded down")
    return f"  Totaux à {d['cell']} : {fr}.{row_fr}.", f"  Totals at {d['cell']}: {en}.{row_en}."


def _own_total(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return f"  Ton total : {_total(d, 'fr')}.", f"  Your total: {_total(d, 'en')}."


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
    fr, en = _both_armies(d["armies"])
    return (f"{d['city']}, cité initiale de {k(d['owner'])}, est occupée par {fr} de {k(d['kingdom'])} : "
            "elle ne peut être détruite.",
            f"{d['city']}, {k(d['owner'])}'s initial city, is occupied by {en} of {k(d['kingdom'])}: "
            "it cannot be destroyed.")


def _tribute(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    fr, en = _both_armies(d["armies"])
    short = (f" ; il manque {d['short']}", f"; {d['short']} short") if d["short"] else ("", "")
    return (f"Tribut de {k(d['payer'])} à {k(d['kingdom'])} pour {fr} à {d['city']} : "
            f"{d['owed']} dus, payé {k.stuff(d['paid']) or 'rien'}{short[0]}.",
            f"Tribute from {k(d['payer'])} to {k(d['kingdom'])} for {en} at {d['city']}: "
            f"{d['owed']} owed, paid {k.stuff(d['paid']) or 'nothing'}{short[1]}.")


def _turn_began(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    return f"Tour {d['turn']} : les ordres sont attendus.", f"Turn {d['turn']}: orders are awaited."


def _gm(fr: str, en: str):
    def write(d: dict[str, Any], k: _Names) -> tuple[str, str]:
        reason = f" — « {d['reason']} »" if d.get("reason") else ""
        return f"Imhotep {fr.format(**d, k=k)}{reason}.", f"Imhotep {en.format(**d, k=k)}{reason}."
    return write


def _gm_adjudicate(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    """At the deadline he waited for it (issue 45); before it, he judges without waiting."""
    if d.get("due"):
        turn = d["turn"]
        return f"Imhotep juge le tour {turn} à son échéance.", f"Imhotep adjudicates turn {turn} at its deadline."
    return _gm("juge le tour {turn} sans attendre", "adjudicates turn {turn} without waiting")(d, k)


def _gm_alliance(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    a, b = map(k, d["kingdoms"])
    verb = ("suspend", "suspends") if d["suspended"] else ("rétablit", "restores")
    reason = f" — « {d['reason']} »" if d.get("reason") else ""
    return (f"Imhotep {verb[0]} l'alliance entre {a} et {b}{reason}.",
            f"Imhotep {verb[1]} the alliance between {a} and {b}{reason}.")


def _gm_edit(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    reason = f" — « {d['reason']} »" if d.get("reason") else ""
    fields = [FIELD_WORDS.get(f, (f, f)) for f in d["fields"]]
    return (f"Imhotep modifie {_and([f[0] for f in fields], 'fr')} de {k(d['kingdom'])}{reason}.",
            f"Imhotep edits {k(d['kingdom'])}'s {_and([f[1] for f in fields], 'en')}{reason}.")


def _gm_edit_values(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    fr: list[str] = []
    en: list[str] = []
    for key, value in d["values"].items():
        if key == "resources":
            fr += [f"{_RESOURCE_NAMES.get(r, {}).get('fr', r)} {n}" for r, n in value.items()]
            en += [f"{_RESOURCE_NAMES.get(r, {}).get('en', r)} {n}" for r, n in value.items()]
        else:
            words = FIELD_WORDS.get(key, (key, key))
            fr.append(f"{words[0].split(' ', 1)[1]} {value}")
            en.append(f"{words[1]} {value}")
    return f"  Désormais : {', '.join(fr)}.", f"  Now: {', '.join(en)}."


def _gm_deadline(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    if d["deadline"] is None:
        return (f"Imhotep retire l'échéance du tour {d['turn']} : il jugera quand tous auront envoyé.",
                f"Imhotep removes turn {d['turn']}'s deadline: he will adjudicate when all have sent.")
    return (f"Imhotep fixe l'échéance du tour {d['turn']} : {moment(d['deadline'], 'fr')}.",
            f"Imhotep sets turn {d['turn']}'s deadline: {moment(d['deadline'], 'en')}.")


def _gm_override(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    fr = [f"{k(a['kingdom'])} a désormais {armies_word(a['count'], 'fr')} en {a['cell']}" for a in d["armies"]]
    en = [f"{k(a['kingdom'])} now has {armies_word(a['count'], 'en')} at {a['cell']}" for a in d["armies"]]
    for c in d["cities"]:
        fr.append(f"{c['city']} est détruite" if c["destroyed"] else f"{c['city']} revient à {k(c['owner'])}")
        en.append(f"{c['city']} is destroyed" if c["destroyed"] else f"{c['city']} goes to {k(c['owner'])}")
    return (f"Imhotep tranche : {' ; '.join(fr)} — « {d['reason']} ».",
            f"Imhotep overrules: {'; '.join(en)} — '{d['reason']}'.")


def _campaign_ended(d: dict[str, Any], k: _Names) -> tuple[str, str]:
    who = (f" Vainqueur : {k(d['winner'])}.", f" Winner: {k(d['winner'])}.") if d["winner"] else ("", "")
    reason = f" « {d['reason']} »" if d.get("reason") else ""
    return (f"Imhotep clôt la campagne au tour {d['turn']}.{who[0]}{reason}",
            f"Imhotep ends the campaign on turn {d['turn']}.{who[1]}{reason}")


# What each event is about, for the page's report (``Royaumes.marks``).
TOPICS = {
    "adjudication": "adjudication", "orders_in": "orders", "orders_received": "orders",
    "stance": "relations", "ally_refused": "relations",
    "army_raised": "economy", "raise_refused": "economy", "built": "economy", "build_refused": "economy",
    "spy_report": "economy", "spy_refused": "economy",
    "moved": "moves", "move_refused": "moves", "move_short": "moves", "unordered": "moves",
    "battle": "battles", "battle_totals": "battles", "battle_own_total": "battles",
    "city_conquered": "cities", "city_destroyed": "cities", "city_occupied": "cities", "tribute": "tribute",
    "turn_began": "turn", "gm_adjudicate": "imhotep", "gm_alliance": "imhotep", "gm_edit": "imhotep",
    "gm_edit_values": "imhotep", "gm_deadline": "imhotep", "gm_override": "imhotep", "campaign_ended": "imhotep",
}

_WRITERS = {
    "adjudication": _adjudication, "orders_in": _orders_in, "orders_received": _orders_received,
    "stance": _stance, "ally_refused": _ally_refused, "army_raised": _army_raised,
    "raise_refused": _refused("Levée d'armée", "Raising an army"), "built": _built,
    "build_refused": _refused("Construction", "Building"), "spy_report": _spy_report, "spy_refused": _spy_refused,
    "moved": _moved, "move_refused": _move_refused, "move_short": _move_short, "unordered": _unordered,
    "battle": _battle, "battle_totals": _battle_totals, "battle_own_total": _own_total,
    "city_conquered": _city_conquered, "city_destroyed": _city_destroyed, "city_occupied": _city_occupied,
    "tribute": _tribute, "turn_began": _turn_began,
    "gm_adjudicate": _gm_adjudicate,
    "gm_alliance": _gm_alliance, "gm_edit": _gm_edit, "gm_edit_values": _gm_edit_values,
    "gm_deadline": _gm_deadline, "gm_override": _gm_override, "campaign_ended": _campaign_ended,
}
