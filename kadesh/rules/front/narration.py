"""Front's journal in French and English.

Units are named as a player reads them, by their side and number (``b12`` is « Bleu 12 », "Blue 12");
works, buildings and seasons by their names in the reader's language, never by their data ids.
"""

from __future__ import annotations

import re
from typing import Any

from kadesh.core.events import Event
from kadesh.rules.front.data import TABLES, weapon_names

SIDE = {"fr": {"blue": "Bleu", "red": "Rouge"}, "en": {"blue": "Blue", "red": "Red"}}
FR: dict[str, str] = {
    "moved": "{unit} va de {from} à {to} ({ap} PA{fuel_fr}).",
    "mine": "{unit} saute sur une mine en {cell} : {damage_fr}.",
    "shot": "{unit} tire{weapon_fr}{reaction_fr} sur {target} en {cell} : {damage_fr}{blast_fr} (reste {hp} PV).",
    "hit": "{unit} est touché{by_fr} : {damage_fr} (reste {hp} PV).",
    "destroyed": "{unit} est détruit en {cell}.",
    "destroyed_unseen": "Une unité {side_fr} est détruite, hors de vue.",
    "contact": "{unit} se heurte à une unité ennemie en {cell} et s'arrête juste avant.",
    "found": "{unit} est découvert par {by}, arrivé en {cell}.",
    "shot_stopped": "Le tir de {unit} sur {target} est arrêté par quelque chose sur le trajet.",
    "crater": "Un obus creuse un cratère en {cell}.",
    "wreck": "Une épave reste en {cell}.",
    "fire_started": "La forêt brûle en {cell}.",
    "burnt": "{unit} souffre du feu : {damage_fr}.",
    "structure_hit": "{unit} tire sur l'ouvrage en {cell} : {damage_fr}.",
    "structure_fell": "L'ouvrage en {cell} tombe{left_fr}.",
    "built": "{unit} construit {kind_fr} en {cell} ({steps_fr}{complete_fr}).",
    "cleared": "{unit} déblaie la carcasse en {cell}.",
    "demined": "{unit} retire une mine en {cell}.",
    "boarded": "{unit} monte dans {truck}.",
    "unloaded": "{unit} descend de {truck} en {cell}.",
    "resupplied": "{by} ravitaille {unit}.",
    "healed": "{unit} regagne {hp} PV.",
    "point": "Point {cell} : {change_fr}.",
    "turn_ended": "Fin du tour {turn} de {side}.",
    "season": "La saison change : {season_fr}.",
    "mine_laid": "{unit} pose une mine en {cell}.",
    "blocked": "{unit} trouve le passage fermé en {cell} et s'arrête avant.",
    "alert": "{unit} se met en alerte en {cell}.",
    "patrol": "{unit} patrouille à {radius} cases autour de {cell}.",
    "patrol_ended": "{unit} cesse sa patrouille.",
    "escaped": "{unit} quitte la carte en {cell}{with_fr}.",
    "victory": "Fin de la bataille : {result_fr}.",
    "resigned": "{side} abandonne la bataille.",
    "crashed": "{unit} s'écrase en {at}{why_fr}{with_fr}.",
    "crash_hit": "{unit} est touché par la chute de {by} en {cell} : {damage_fr} (reste {hp} PV).",
    "launched": "{by} fait décoller {unit} au-dessus de {cell}.",
    "recovered": "{unit} se pose près de son droniste, {by}.",
    "landed": "{unit} se pose en {cell}.",
    "took_off": "{unit} décolle de {cell}.",
    "jammed": "{unit} brouille les drones ennemis à {radius} cases autour de {cell}.",
    "expended": "{unit} s'abîme dans sa frappe en {cell}.",
}
EN: dict[str, str] = {
    "moved": "{unit} moves from {from} to {to} ({ap} AP{fuel_en}).",
    "mine": "{unit} hits a mine at {cell}: {damage} damage.",
    "shot": "{unit} fires{weapon_en}{reaction_en} at {target} at {cell}: {damage} damage{blast_en} ({hp} HP left).",
    "hit": "{unit} is hit{by_en}: {damage} damage ({hp} HP left).",
    "destroyed": "{unit} is destroyed at {cell}.",
    "destroyed_unseen": "A {side_en} unit is destroyed, out of sight.",
    "contact": "{unit} runs into an enemy unit at {cell} and stops just short of it.",
    "found": "{unit} is found by {by}, now at {cell}.",
    "shot_stopped": "{unit}'s shot at {target} is stopped by something in the way.",
    "crater": "A shell digs a crater at {cell}.",
    "wreck": "A wreck is left at {cell}.",
    "fire_started": "The forest is burning at {cell}.",
    "burnt": "{unit} suffers from the fire: {damage} damage.",
    "structure_hit": "{unit} fires at the structure at {cell}: {damage} damage.",
    "structure_fell": "The structure at {cell} falls{left_en}.",
    "built": "{unit} builds {kind_en} at {cell} ({steps_en}{complete_en}).",
    "cleared": "{unit} clears the carcass at {cell}.",
    "demined": "{unit} removes a mine at {cell}.",
    "boarded": "{unit} boards {truck}.",
    "unloaded": "{unit} gets off {truck} at {cell}.",
    "resupplied": "{by} resupplies {unit}.",
    "healed": "{unit} regains {hp} HP.",
    "point": "Point {cell}: {change_en}.",
    "turn_ended": "End of {side}'s turn {turn}.",
    "season": "The season changes: {season_en}.",
    "mine_laid": "{unit} lays a mine at {cell}.",
    "blocked": "{unit} finds the way shut at {cell} and stops short of it.",
    "alert": "{unit} goes on alert at {cell}.",
    "patrol": "{unit} patrols {radius} cells around {cell}.",
    "patrol_ended": "{unit} ends its patrol.",
    "escaped": "{unit} leaves the map at {cell}{with_en}.",
    "victory": "The battle is over: {result_en}.",
    "resigned": "{side} resigns the battle.",
    "crashed": "{unit} crashes at {at}{why_en}{with_en}.",
    "crash_hit": "{unit} is hit by {by} falling at {cell}: {damage} damage ({hp} HP left).",
    "launched": "{by} sends {unit} up over {cell}.",
    "recovered": "{unit} lands by its operator, {by}.",
    "landed": "{unit} lands at {cell}.",
    "took_off": "{unit} takes off from {cell}.",
    "jammed": "{unit} jams enemy drones within {radius} cells of {cell}.",
    "expended": "{unit} is spent in its strike at {cell}.",
}

REASONS = {
    "annihilation": ("{side} a détruit toutes les unités adverses", "{side} has destroyed every enemy unit"),
    "points": ("{side} tient les points de victoire", "{side} holds the victory points"),
    "held": ("{side} a tenu jusqu'au bout", "{side} has held to the end"),
    "hold_broken": ("{side} a percé la position à tenir", "{side} has broken into the position to hold"),
    "escorted": ("{side} a fait passer son convoi", "{side} has brought its convoy through"),
    "convoy_lost": ("{side} a arrêté le convoi", "{side} has stopped the convoy"),
    "escort_late": ("{side} a retenu le convoi jusqu'au terme", "{side} has held the convoy back past its time"),
    "target_destroyed": ("{side} a abattu sa cible", "{side} has brought down its target"),
    "target_survived": ("{side} a sauvé sa cible jusqu'au terme", "{side} has kept its target alive to the end"),
    "mutual_destruction": ("plus aucune unité de part et d'autre", "no unit is left on either side"),
    "resignation": ("{side} l'emporte, l'adversaire ayant abandonné", "{side} wins, the enemy having resigned"),
}
REACTION = {"alert": (" en alerte", " on alert"), "patrol": (" en patrouille", " on patrol")}
SEASON = {"spring": ("printemps", "spring"), "summer": ("été", "summer"), "autumn": ("automne", "autumn"),
          "winter": ("hiver", "winter")}
# A work or building built: its name with the article a sentence needs (the data names have none).
BUILT = {"trench": ("une tranchée", "a trench"), "bunker": ("un bunker", "a bunker"),
         "dragons_teeth": ("des dents de dragon", "dragon's teeth"), "bridge": ("un pont", "a bridge"),
         "watchtower": ("une tour de garde", "a watchtower"), "hospital": ("un hôpital", "a hospital"),
         "workshop": ("un atelier", "a workshop"), "storage": ("un stockage", "a storage depot")}
FALLEN = {"carcass": (" et laisse une carcasse", ", leaving a carcass"), "gone": ("", "")}
WHY_FALLEN = {"shot_down": (" (abattu)", " (shot down)"),
              "leash": (" (trop loin de son droniste)", " (too far from its operator)"),
              "battery": (" (batterie vide)", " (battery spent)"), "fuel": (" (à sec)", " (out of fuel)"),
              "jammed": (" (brouillé)", " (jammed)")}
# A shot names its weapon when the unit has another, or drops a bomb.
WEAPON = {wid: (names["fr"], names["en"]) for wid, names in weapon_names().items()}
UNIT_ID = re.compile(r"([br])(\d+)")
# An enemy move as the side saw it (``seen_moving``), by whether it saw the unit leave and arrive.
SEEN_MOVING = {
    (True, True): ("{unit} va de {first} à {last}.", "{unit} moves from {first} to {last}."),
    (True, False): ("{unit} quitte {first} et disparaît vers {last}.",
                    "{unit} leaves {first} and vanishes past {last}."),
    (False, True): ("{unit} sort du brouillard en {first} et va jusqu'en {last}.",
                    "{unit} comes out of the fog at {first} and goes on to {last}."),
    (False, False): ("{unit} passe en vue de {first} à {last}, puis disparaît.",
                     "{unit} passes in sight from {first} to {last}, then vanishes."),
}
SEEN_ONCE = {  # seen on one cell only
    (True, False): ("{unit} quitte {first} et sort de vue.", "{unit} leaves {first} and goes out of sight."),
    (False, True): ("{unit} surgit en {first}.", "{unit} appears at {first}."),
    (False, False): ("{unit} passe en vue en {first}, puis disparaît.",
                     "{unit} passes in sight at {first}, then vanishes."),
}
BEARING = {"N": ("du nord", "the north"), "NE": ("du nord-est", "the north-east"), "E": ("de l'est", "the east"),
           "SE": ("du sud-est", "the south-east"), "S": ("du sud", "the south"),
           "SW": ("du sud-ouest", "the south-west"), "W": ("de l'ouest", "the west"),
           "NW": ("du nord-ouest", "the north-west")}


def unit_name(unit_id: Any, lang: str, kind: str | None = None) -> str:
    """« Bleu 12 » for ``b12``, « Bleu 12 (char lourd) » when its type is known: a unit as the journal names it."""
    match = UNIT_ID.fullmatch(str(unit_id))
    if not match:
        return str(unit_id)
    side = "blue" if match[1] == "b" else "red"
    named = f"{SIDE[lang][side]} {match[2]}"
    return f"{named} ({TABLES.units[kind].names[lang]})" if kind in TABLES.units else named


def _damage_fr(count: Any) -> str:
    return f"{count} dégât{'s' if isinstance(count, int) and count > 1 else ''}"


def _kind_names(kind: str) -> tuple[str, str]:
    if kind in BUILT:
        return BUILT[kind]
    found = TABLES.structures.get(kind)
    return (found.names["fr"], found.names["en"]) if found else ("un ouvrage", "a structure")


def narrate(event: Event, seat: str | None, lang: str) -> str | None:
    lang = "en" if lang == "en" else "fr"
    if event.type == "seen_moving":
        return _seen_moving(event.data, lang)
    kind = "destroyed_unseen" if event.type == "destroyed" and "cell" not in event.data else event.type
    template = (EN if lang == "en" else FR).get(kind)
    if template is None:
        return None
    data: dict[str, Any] = {key: "" for key in ("fuel_fr", "fuel_en", "blast_fr", "blast_en", "complete_fr",
                                                "complete_en", "change_fr", "change_en", "by_fr", "by_en",
                                                "reaction_fr", "reaction_en", "with_fr", "with_en", "weapon_fr",
                                                "weapon_en", "why_fr", "why_en")}
    data.update(event.data)
    for key in ("unit", "by", "truck", "target", "passenger", "drone"):  # ``target``: a unit, or a cell
        if key in data and UNIT_ID.fullmatch(str(data[key])):
            data[key] = unit_name(data[key], lang, event.data.get(f"{key}_type"))
    if "damage" in event.data:
        data["damage_fr"] = _damage_fr(event.data["damage"])
    if "kind" in event.data:
        data["kind_fr"], data["kind_en"] = _kind_names(event.data["kind"])
    if "steps" in event.data:
        steps = event.data["steps"]
        data["steps_fr"] = f"{steps} étape{'s' if steps > 1 else ''}"
        data["steps_en"] = f"{steps} step{'s' if steps != 1 else ''}"
    if "season" in event.data:
        data["season_fr"], data["season_en"] = SEASON.get(event.data["season"], (event.data["season"],) * 2)
    if "left" in event.data:
        data["left_fr"], data["left_en"] = FALLEN.get(event.data["left"], ("", ""))
    if event.data.get("fuel"):
        data["fuel_fr"], data["fuel_en"] = f", {event.data['fuel']} carburant", f", {event.data['fuel']} fuel"
    if event.data.get("blast"):
        data["blast_fr"], data["blast_en"] = " (souffle)", " (blast)"
    if event.data.get("complete"):
        data["complete_fr"], data["complete_en"] = ", achevé", ", complete"
    if event.data.get("with"):
        data["with_fr"] = " avec " + ", ".join(unit_name(u, "fr") for u in event.data["with"])
        data["with_en"] = " with " + ", ".join(unit_name(u, "en") for u in event.data["with"])
    if event.data.get("weapon") in WEAPON:
        fr, en = WEAPON[event.data["weapon"]]
        data["weapon_fr"], data["weapon_en"] = f" ({fr})", f" ({en})"
    if event.data.get("why") in WHY_FALLEN:
        data["why_fr"], data["why_en"] = WHY_FALLEN[event.data["why"]]
    if event.data.get("reaction") in REACTION:
        data["reaction_fr"], data["reaction_en"] = REACTION[event.data["reaction"]]
    if "by" in event.data and "from" in event.data:
        by, kind = event.data["by"], event.data.get("by_type")
        data["by_fr"] = f" par {unit_name(by, 'fr', kind)} depuis {event.data['from']}"
        data["by_en"] = f" by {unit_name(by, 'en', kind)} from {event.data['from']}"
    if event.data.get("bearing") in BEARING:
        fr, en = BEARING[event.data["bearing"]]
        data["by_fr"] = f" par un tireur hors de vue, tir venu {fr}"
        data["by_en"] = f" by an unseen shooter, fire from {en}"
    if "change" in event.data:
        data.update(_change(event.data, lang))
    if kind == "victory":
        fr, en = REASONS.get(event.data["reason"], ("{side} l'emporte", "{side} wins"))
        winner = event.data.get("winner") or ""
        data["result_fr"] = fr.format(side=SIDE["fr"].get(winner, ""))
        data["result_en"] = en.format(side=SIDE["en"].get(winner, ""))
    if kind == "destroyed_unseen":  # only the side of the unit lost, neither its id nor its cell
        data["side_fr"] = {"blue": "bleue", "red": "rouge"}.get(event.data["side"], "")
        data["side_en"] = SIDE["en"].get(event.data["side"], "").lower()
    if "side" in event.data and event.type in ("turn_ended", "resigned"):
        data["side"] = SIDE[lang][event.data["side"]]
    return template.format(**data)


def _seen_moving(data: dict[str, Any], lang: str) -> str:
    cells = data["cells"]
    ends = (bool(data.get("seen_leaving")), bool(data.get("seen_arriving")))
    once = len(cells) == 1 and ends in SEEN_ONCE
    fr, en = SEEN_ONCE[ends] if once else SEEN_MOVING[ends]
    unit = unit_name(data["unit"], lang, data.get("unit_type"))
    return (en if lang == "en" else fr).format(unit=unit, first=cells[0], last=cells[-1])


def _change(data: dict[str, Any], lang: str) -> dict[str, str]:
    holder = SIDE[lang].get(data.get("side") or "", "—")
    change = data["change"]
    if change == "taken":
        return {"change_fr": f"pris par {holder}", "change_en": f"taken by {holder}"}
    if change == "interrupted":
        return {"change_fr": "la prise reprend à zéro", "change_en": "the capture starts over"}
    # « Un point pris redevient neutre dès qu'un ennemi arrive à 4 cases »: the line says why (issue 44).
    return {"change_fr": f"redevenu neutre : une unité ennemie du {holder} est arrivée à 4 cases ou moins",
            "change_en": f"neutral again: a unit hostile to {holder} came within 4 cells"}
