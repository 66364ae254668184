"""Royaumes: the four-kingdom campaign refereed by Imhotep (seed text 004).

Four kingdoms send secret orders each turn; when the last arrives (or when Imhotep, the game
master's seat, decides), the turn is adjudicated: moves, battles, sieges, tribute.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kadesh.core.dice import Dice
from kadesh.core.errors import RuleError
from kadesh.core.events import Event
from kadesh.core.grid import king_neighbours, map_cell_name
from kadesh.core.ruleset import Ruleset
from kadesh.rules.royaumes import narration, rules
from kadesh.rules.royaumes import scenario as maps
from kadesh.rules.royaumes.adjudicate import move_problem
from kadesh.rules.royaumes.data import GAME_MASTER, RULES, WATER, Scenario
from kadesh.rules.royaumes.orders import to_text as order_text
from kadesh.rules.royaumes.preview import carried_out
from kadesh.rules.royaumes.preview import warnings as order_warnings
from kadesh.rules.royaumes.scenario import DEFAULT_SCENARIO, SCENARIOS
from kadesh.rules.royaumes.state import ALLY, State, initial_state


class Royaumes(Ruleset):
    name = "royaumes"
    bot_modules = ("kadesh.ai.royaumes",)
    version = "1"
    title = {"fr": "Royaumes", "en": "Kingdoms"}
    game_master_seats = (GAME_MASTER,)
    computer_round_pause = RULES.computer_turn_pause
    # « Les décisions de mouvements sont prises avec le Seigneur du Royaume »: a kingdom's two people.
    council_titles = {"seat": {"fr": "Chef militaire", "en": "Military chief"},
                      "lord": {"fr": "Seigneur du Royaume", "en": "Lord of the kingdom"}}
    options_schema = {
        "scenario": {"type": "choice", "values": sorted(SCENARIOS), "default": DEFAULT_SCENARIO,
                     "fr": "Scénario (carte et royaumes)", "en": "Scenario (map and kingdoms)",
                     "labels": {key: scenario.names for key, scenario in SCENARIOS.items()}},
        "scenario_toml": {"type": "text", "default": "", "max_length": maps.MAX_TEXT, "file": ".toml",
                          "fr": "Sa propre carte (texte TOML, remplace le scénario choisi)",
                          "en": "One's own map (TOML text, replaces the chosen scenario)"},
    }

    def normalize_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """A map of one's own is read and checked first, so that a bad one is refused before any
        game exists, every fault of it (its length included, issue 45) as RuleError ``bad_scenario``
        naming the fault."""
        own = options.get("scenario_toml") if isinstance(options, dict) else None
        if isinstance(own, str) and own:
            maps.from_toml(own)
        return super().normalize_options(options)

    def seats(self, options: dict[str, Any]) -> list[str]:
        return [*scenario_of(options).kingdoms, GAME_MASTER]

    def seat_names(self, options: dict[str, Any]) -> dict[str, dict[str, str]]:
        return {kid: dict(spec.names) for kid, spec in scenario_of(options).kingdoms.items()}

    def announcements(self, state: State, seat: str, action: dict[str, Any]) -> list[dict[str, Any]]:
        """A computer kingdom's alliance declared in its orders, told to the other kingdom: an offer, or an
        acceptance when the other has declared one already (alliances are made by agreement)."""
        if seat not in state.kingdoms or action.get("type") != "orders":
            return []
        try:
            order = rules.read_orders(state, seat, action)
        except RuleError:  # a malformed order is refused when it is applied; it announces nothing
            return []
        names = state.scenario.kingdoms
        told = []
        for other, stance in order["stances"].items():
            if stance != ALLY or state.kingdoms[seat].stance.get(other) == ALLY:
                continue
            accepts = state.kingdoms[other].stance.get(seat) == ALLY
            mine, theirs = names[seat].names, names[other].names
            told.append({"to": other, "kind": "alliance", "data": {"with": other, "accepts": accepts},
                         "fr": (f"{mine['fr']} accepte l'alliance de {theirs['fr']}." if accepts
                                else f"{mine['fr']} propose une alliance à {theirs['fr']}."),
                         "en": (f"{mine['en']} accepts the alliance of {theirs['en']}." if accepts
                                else f"{mine['en']} offers an alliance to {theirs['en']}.")})
        return told

    def alliance_line(self, options: dict[str, Any], other: str, lang: str) -> str | None:
        kingdom = scenario_of(options).kingdoms.get(other)
        if kingdom is None:
            return None
        return f"{'ally' if lang == 'en' else 'alliance'}: {kingdom.names['en' if lang == 'en' else 'fr']}"

    def setup(self, options: dict[str, Any]) -> State:
        return initial_state(scenario_of(options))

    def narrator(self, options: dict[str, Any]) -> Any:
        """The turn report in the names of the campaign's own map."""
        scenario = scenario_of(options)
        return lambda event, seat, lang: narration.narrate(event, seat, lang, scenario)

    def clone(self, state: State) -> State:
        return state.copy()

    def to_act(self, state: State) -> list[str]:
        return rules.to_act(state)

    def legal_actions(self, state: State, seat: str) -> Iterator[dict[str, Any]]:
        return rules.legal_actions(state, seat)

    def apply(self, state: State, seat: str, action: dict[str, Any], dice: Dice) -> list[Event]:
        return rules.apply(state, seat, action)  # no dice: Imhotep's rulings are certain

    def outcome(self, state: State) -> dict[str, Any] | None:
        return dict(state.ended) if state.ended is not None else None

    def narrate(self, event: Event, seat: str | None, lang: str) -> str | None:
        return narration.narrate(event, seat, lang)

    def marks(self, events: list[Event], seat: str | None) -> list[dict[str, Any] | None]:
        """Each line's turn and topic, so the page can set each turn's report out by topic;
        ``report`` is true for the lines of an adjudication (between Imhotep's ruling and the
        next turn's opening); ``missed``, on the ruling's own line, when it came without this kingdom's orders."""
        out: list[dict[str, Any] | None] = []
        turn, reporting = 1, False
        for event in events:
            if event.type == "adjudication":
                turn, reporting = event.data["turn"], True
            elif event.type == "turn_began":
                turn, reporting = event.data["turn"], False
            mark = {"turn": turn, "topic": narration.TOPICS.get(event.type, "other"),
                    "report": reporting and event.type != "adjudication"}
            if event.type == "adjudication" and seat in event.data.get("missing", ()):
                mark["missed"] = True  # judged without this kingdom's orders: its report says so
            out.append(mark)
        return out

    def preview(self, state: State, seat: str, action: dict[str, Any]) -> dict[str, Any] | None:
        """An order message as Imhotep will read it: the normalized order, its problems, the warnings of what
        will not be done as written (more armies asked than can leave, …), the order as it will be carried out
        (``carried``: what a page sums up), and the order written as a text message in each language (what the
        page's text tab shows of its form: the syntax stays the server's)."""
        if seat not in state.kingdoms or action.get("type") != "orders":
            return None
        order = rules.read_orders(state, seat, action)
        warned = order_warnings(state, seat, order)
        text = {lang: order_text(state, order, lang) for lang in ("fr", "en")}
        carried = carried_out(state, seat, order)
        if "text" not in action:
            return {"order": order, "carried": carried, "warnings": warned, "text": text}
        problems = {p["line"]: p for p in order["problems"]}
        warnings = {p["line"]: p for p in warned}
        lines = [{"line": n, "text": text.strip(), "understood": n not in problems,
                  **({"fr": problems[n]["fr"], "en": problems[n]["en"]} if n in problems else {}),
                  **({"warning": {"fr": warnings[n]["fr"], "en": warnings[n]["en"]}} if n in warnings else {})}
                 for n, text in enumerate(action["text"].splitlines(), start=1)
                 if text.split("#", 1)[0].strip()]
        return {"order": order, "carried": carried, "lines": lines, "warnings": warned, "text": text}

    def round(self, state: State) -> int | None:
        return state.turn

    def deadline(self, state: State) -> tuple[str, str, dict[str, Any]] | None:
        if state.deadline is None or state.ended is not None:
            return None
        return state.deadline, GAME_MASTER, {"type": "adjudicate", "due": True}

    def view(self, state: State, seat: str | None) -> dict[str, Any]:
        return view(state, seat)


def scenario_of(options: dict[str, Any]) -> Scenario:
    """The campaign's map: one's own (``scenario_toml``), else a shipped one by name."""
    if options.get("scenario_toml"):
        return maps.from_toml(options["scenario_toml"])
    return SCENARIOS[options.get("scenario", DEFAULT_SCENARIO)]


def view(state: State, seat: str | None) -> dict[str, Any]:
    """Everyone sees the map, the cities, every army and the relations; a kingdom also sees its
    own values, spy reports and this turn's orders; Imhotep sees everything."""
    scenario = state.scenario
    armies: dict[tuple[str, str], dict[str, Any]] = {}
    for army in state.armies.values():
        key = (army.kingdom, map_cell_name(army.cell))
        entry = armies.setdefault(key, {"kingdom": army.kingdom, "cell": key[1], "count": 0, "new": 0})
        entry["count"] += 1
        entry["new"] += army.created == state.turn
    pairs = [(a, b) for a in state.kingdoms for b in state.kingdoms if a < b]
    out: dict[str, Any] = {
        "ruleset": "royaumes",
        "scenario": {"id": scenario.id, "names": scenario.names},
        "map": {"width": scenario.width, "height": scenario.height, "rows": _rows(state),
                "features": list(scenario.features)},
        "turn": state.turn,
        "over": state.ended is not None,
        "deadline": state.deadline,
        "max_cities": RULES.max_cities,
        "resources": {r: scenario.resource_names[r] for r in scenario.resources},
        "costs": scenario.costs,
        "kingdoms": [{"id": kid, "names": spec.names, "colour": spec.colour, "capital": spec.cities[0].name,
                      "orders_in": kid in state.orders, "stances": dict(state.kingdoms[kid].stance)}
                     for kid, spec in scenario.kingdoms.items()],
        "wars": [[a, b] for a, b in pairs if state.at_war(a, b)],
        "alliances": [[a, b] for a, b in pairs if state.allied(a, b)],
        "suspended": sorted(sorted(pair) for pair in state.suspended),
        "cities": [{"name": c.name, "cell": map_cell_name(c.cell), "owner": c.owner, "initial_of": c.initial_of,
                    "destroyed": c.destroyed} for c in state.cities.values()],
        "armies": sorted(armies.values(), key=lambda a: (a["kingdom"], a["cell"])),
        "history": state.history,  # each past turn's map before moves, after moves, after battles
    }
    if seat in state.kingdoms:
        out["you"] = _private(state, seat)
    elif seat == GAME_MASTER:
        out["secrets"] = {kid: _private(state, kid) for kid in state.kingdoms}
        out["arrival"] = list(state.arrival)
    return out


def _private(state: State, kingdom: str) -> dict[str, Any]:
    own = state.kingdoms[kingdom]
    counts: dict[Any, list[int]] = {}
    for army in state.armies.values():
        if army.kingdom == kingdom:
            count = counts.setdefault(army.cell, [0, 0])
            count[0] += 1
            count[1] += army.created < state.turn
    return {
        "armies": [{"cell": map_cell_name(cell), "count": n, "mobile": mobile,
                    "destinations": [map_cell_name(to) for to in king_neighbours(cell)
                                     if move_problem(state, cell, to) is None]}
                   for cell, (n, mobile) in counts.items()],
        "kingdom": kingdom, "military_level": own.military_level, "population": own.population,
        "guild_level": own.guild_level, "city_defence": own.city_defence(), "resources": dict(own.resources),
        "conquest": own.conquest, "tribute_resource": own.tribute_resource,
        "intelligence": {t: {"level": level, "turn": turn} for t, (level, turn) in own.intelligence.items()},
        "orders": state.orders.get(kingdom),
    }


def _rows(state: State) -> list[str]:
    scenario = state.scenario
    return ["".join(WATER if (x, y) in scenario.water else "." for x in range(scenario.width))
            for y in range(scenario.height)]
