"""Computer kingdoms for Royaumes: a careless one and a Vizier.

Both read only their own kingdom's view (the public map, their own values, their spies' reports)
and answer with an order message in plain French, the same text a person would type, so that
Imhotep reads it like anyone's. Neither ever takes Imhotep's seat (``Ruleset.game_master_seats``).

The Vizier plays the whole text: it picks the weakest city within reach, declares war on its
owner, seeks an ally far from it, sends a spy to learn the enemy's level, raises an army every turn
it can pay for, keeps garrisons where enemies could strike, gathers its field army next to its
target and attacks only when its total beats the defenders' with the city's bonus, occupies an
enemy's initial city for tribute once it holds its four cities, and builds the Guild when it has
nothing better to buy.
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from kadesh.ai.base import Bot, make_bot, play_turn_of, register_bot
from kadesh.core import new_game
from kadesh.core.grid import Cell, cheapest_steps, king_neighbours, map_cell_name, parse_map_cell, within
from kadesh.core.ruleset import Action
from kadesh.rules.royaumes.adjudicate import step_problem
from kadesh.rules.royaumes.data import WATER

# The Vizier's judgement, in one place.
ATTACK_MARGIN = 1            # attack when its total beats the defenders' by at least this much
GUILD_MIN_ARMIES = 6         # build the Guild once it has this many armies, or holds its four cities
THREAT_RANGE = 2             # a city with a non-allied army this close keeps a garrison
UNKNOWN_LEVEL = 3            # the military level it assumes of a kingdom it has not spied
ASSUMED_GUILD = 1            # Guild levels it assumes of an enemy city (it cannot see them)
OCCUPIERS = 1                # armies left on an enemy's initial city to collect its tribute
STEADFAST = 2                # marching turns it would add to keep the war it already declared rather than start another
RIVAL_WEIGHT = 2             # at four cities: marching turns it would add to strike the rival holding one more

# The careless kingdom's habits.
CARELESS_RAISE = 0.5         # chance of raising an army in a turn it can pay for
CARELESS_STAY = 0.4          # chance that a stack stays where it is
CARELESS_WAR = 0.08          # chance of declaring war on someone, each turn
CARELESS_PEACE = 0.1         # chance of offering peace to one it is at war with, each turn
CARELESS_ACCEPT = 0.5        # chance of answering an offered alliance
CARELESS_GRAB = 0.5          # chance of walking into an adjacent undefended enemy city


class Land:
    """A map's land, read from a kingdom's view. It is the same for every kingdom and every turn of a campaign,
    so the steps from each cell and the marches to each goal are worked out once per map (``land_of``)."""

    def __init__(self, width: int, height: int, rows: tuple[str, ...]) -> None:
        self.width, self.height = width, height
        self.water = {(x, y) for y, row in enumerate(rows) for x, mark in enumerate(row) if mark == WATER}
        self._steps: dict[Cell, tuple[Cell, ...]] = {}
        self._reach: dict[Cell, dict[Cell, int]] = {}

    def is_land(self, cell: Cell) -> bool:
        x, y = cell
        return 0 <= x < self.width and 0 <= y < self.height and cell not in self.water

    def steps(self, cell: Cell) -> tuple[Cell, ...]:
        """The cells an army on ``cell`` may step to, in ``king_neighbours``' order."""
        if cell not in self._steps:
            around = king_neighbours(cell)
            self._steps[cell] = tuple(to for to in around if step_problem(self.is_land, cell, to) is None)
        return self._steps[cell]

    def distances(self, goal: Cell) -> dict[Cell, int]:
        """Turns of marching from every cell to ``goal`` (moves are symmetric). Shared: read it, never change it."""
        if goal not in self._reach:
            self._reach[goal] = cheapest_steps(goal, _one_turn, self.width * self.height, self.steps)
        return self._reach[goal]


def _one_turn(origin: Cell, target: Cell) -> int:
    return 1


@functools.lru_cache(maxsize=16)
def land_of(width: int, height: int, rows: tuple[str, ...]) -> Land:
    return Land(width, height, rows)


@dataclass
class Kingdom:
    """One kingdom's view, read as cells."""

    me: str
    view: dict[str, Any]

    def __post_init__(self) -> None:
        view, me = self.view, self.me
        grid = view["map"]
        self.width, self.height = grid["width"], grid["height"]
        self.land = land_of(self.width, self.height, tuple(grid["rows"]))
        self.you = view["you"]
        self.level = self.you["military_level"]
        self.names = {k["id"]: k["names"]["fr"] for k in view["kingdoms"]}
        self.others = [k for k in self.names if k != me]
        self.stance_of = {k["id"]: k["stances"] for k in view["kingdoms"]}  # each kingdom's declarations
        self.wars = {frozenset(pair) for pair in view["wars"]}
        self.alliances = {frozenset(pair) for pair in view["alliances"]}
        self.cities = [dict(c, at=self.cell(c["cell"])) for c in view["cities"] if not c["destroyed"]]
        self.armies: dict[Cell, dict[str, int]] = {}
        for entry in view["armies"]:
            self.armies.setdefault(self.cell(entry["cell"]), {})[entry["kingdom"]] = entry["count"]
        self.mine = {self.cell(a["cell"]): a for a in self.you["armies"]}

    def cell(self, name: str) -> Cell:
        found = parse_map_cell(name, self.width, self.height)
        assert found is not None
        return found

    def steps(self, cell: Cell) -> tuple[Cell, ...]:
        return self.land.steps(cell)

    def distances(self, goal: Cell) -> dict[Cell, int]:
        return self.land.distances(goal)

    # -- relations -------------------------------------------------------------------------------
    def at_war(self, other: str) -> bool:
        return frozenset((self.me, other)) in self.wars

    def allied(self, other: str) -> bool:
        return frozenset((self.me, other)) in self.alliances

    def ally(self) -> str | None:
        return next((k for k in self.others if self.allied(k)), None)

    def declared(self, other: str) -> str:
        return self.stance_of[self.me][other]

    def level_of(self, other: str) -> int:
        spied = self.you["intelligence"].get(other)
        return spied["level"] if spied else UNKNOWN_LEVEL

    # -- the map ---------------------------------------------------------------------------------
    def my_cities(self) -> list[dict[str, Any]]:
        return [c for c in self.cities if c["owner"] == self.me]

    def foreign_armies(self, cell: Cell) -> dict[str, int]:
        return {k: n for k, n in self.armies.get(cell, {}).items() if k != self.me}

    def near(self, cell: Cell, radius: int) -> Iterator[Cell]:
        return within(cell, radius, self.width, self.height)

    def can_pay(self, cost: dict[str, int], spent: dict[str, int]) -> bool:
        stock = self.you["resources"]
        return all(stock.get(r, 0) - spent.get(r, 0) >= amount for r, amount in cost.items())


class Orders:
    """An order message being written, line by line, in French."""

    def __init__(self, kingdom: Kingdom) -> None:
        self.kingdom = kingdom
        self.lines: list[str] = []
        self.spent: dict[str, int] = {}
        self.leaving: dict[Cell, int] = {}
        self.said: set[str] = set()  # the kingdoms this message already names a stance towards

    def buy(self, what: str) -> bool:
        cost = self.kingdom.view["costs"][what]
        if not self.kingdom.can_pay(cost, self.spent):
            return False
        for resource, amount in cost.items():
            self.spent[resource] = self.spent.get(resource, 0) + amount
        return True

    def stance(self, word: str, other: str) -> None:
        self.lines.append(f"{word}: {self.kingdom.names[other]}")
        self.said.add(other)

    def offer_alliance(self, other: str) -> None:
        """« un allié maximum », and an offer not yet answered counts: the other offers this kingdom made are
        withdrawn (peace) in the same message, so that the rules accept the line (issue 45: they refused it)."""
        for pending in self.kingdom.others:
            if pending != other and pending not in self.said and self.kingdom.declared(pending) == "ally":
                self.stance("paix", pending)
        self.stance("alliance", other)

    def move(self, origin: Cell, target: Cell, count: int) -> None:
        if count > 0 and origin != target:
            self.leaving[origin] = self.leaving.get(origin, 0) + count
            prefix = f"{count} x " if count > 1 else ""
            self.lines.append(f"{prefix}{map_cell_name(origin)} -> {map_cell_name(target)}")

    def free(self, cell: Cell) -> int:
        army = self.kingdom.mine.get(cell)
        return (army["mobile"] if army else 0) - self.leaving.get(cell, 0)

    def action(self) -> Action:
        stays = [map_cell_name(c) for c in self.kingdom.mine if self.free(c) > 0]
        if stays:
            self.lines.append("reste: " + ", ".join(stays))
        return {"type": "orders", "text": "\n".join(self.lines)}


class KingdomBot(Bot):
    def choose(self, view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
        if "you" not in view or not any(a.get("type") == "orders" for a in legal):
            return self.rng.choice(legal)  # never asked: computer kingdoms do not sit in Imhotep's chair
        return self.orders(Kingdom(seat, view))

    def orders(self, kingdom: Kingdom) -> Action:
        raise NotImplementedError


@register_bot("royaumes", "maladroit")
class Careless(KingdomBot):
    """Raises armies now and then, wanders, declares war on a whim, grabs what lies open."""

    level = "maladroit"
    title = {"fr": "Maladroit", "en": "Clumsy"}
    hint = {"fr": "facile : il lève des armées au petit bonheur, erre et déclare la guerre sur un coup de tête",
            "en": "easy: it raises armies now and then, wanders and declares war on a whim"}

    def orders(self, kingdom: Kingdom) -> Action:
        rng, out = self.rng, Orders(kingdom)
        if rng.random() < CARELESS_WAR:
            out.stance("guerre", rng.choice(kingdom.others))
        at_war = [k for k in kingdom.others if kingdom.declared(k) == "war"]
        if at_war and rng.random() < CARELESS_PEACE:
            out.stance("paix", rng.choice(at_war))
        offers = [k for k in kingdom.others if kingdom.stance_of[k][kingdom.me] == "ally" and not kingdom.allied(k)]
        if offers and kingdom.ally() is None and rng.random() < CARELESS_ACCEPT:
            out.offer_alliance(rng.choice(offers))
        cities = kingdom.my_cities()
        if cities and rng.random() < CARELESS_RAISE and out.buy("army"):
            out.lines.append(f"créer armée à {rng.choice(cities)['name']}")
        for cell in list(kingdom.mine):
            self._wander(kingdom, out, cell)
        return out.action()

    def _wander(self, kingdom: Kingdom, out: Orders, cell: Cell) -> None:
        rng, free = self.rng, out.free(cell)
        if free <= 0:
            return
        open_cities = [c["at"] for c in kingdom.cities if c["owner"] not in (None, kingdom.me)
                       and c["at"] in set(kingdom.steps(cell)) and kingdom.at_war(c["owner"])
                       and not kingdom.armies.get(c["at"])]
        if open_cities and rng.random() < CARELESS_GRAB:
            out.move(cell, rng.choice(open_cities), 1)
            free -= 1
        if free > 0 and rng.random() >= CARELESS_STAY:
            out.move(cell, rng.choice(list(kingdom.steps(cell))), rng.randint(1, free))


@register_bot("royaumes", "vizir")
class Vizier(KingdomBot):
    """Picks the weakest city within reach and takes it with a gathered army; see the module."""

    level = "vizir"
    title = {"fr": "Vizir", "en": "Vizier"}
    hint = {"fr": "fort : il rassemble ses armées, choisit la cité la plus faible à sa portée et cherche un allié",
            "en": "strong: it gathers its armies, picks the weakest city in reach and seeks an ally"}

    def orders(self, kingdom: Kingdom) -> Action:
        out = Orders(kingdom)
        target = self._target(kingdom)
        enemy = target["owner"] if target else None
        self._relations(kingdom, out, enemy, target)
        if enemy is not None and enemy not in kingdom.you["intelligence"] and out.buy("spy"):
            out.lines.append(f"espion: {kingdom.names[enemy]}")
        garrisons = self._garrisons(kingdom)
        self._economy(kingdom, out, target, garrisons)
        self._tribute_choice(kingdom, out)
        self._march(kingdom, out, target, garrisons)
        return out.action()

    # -- what to take ----------------------------------------------------------------------------
    def _target(self, kingdom: Kingdom) -> dict[str, Any] | None:
        """The enemy city cheapest to reach and take: marching turns plus the armies it needs.
        Below four cities it takes one to keep; at four, taking one destroys it, so it aims at
        the rival holding the most. With no such city left, an initial city to occupy for tribute."""
        full = len(kingdom.my_cities()) >= kingdom.view["max_cities"]
        ally = kingdom.ally()
        held = {k: sum(1 for c in kingdom.cities if c["owner"] == k) for k in kingdom.others}
        home = [c for c in kingdom.mine] or [c["at"] for c in kingdom.my_cities()]
        best, best_cost = None, (math.inf, math.inf)
        for city in kingdom.cities:
            owner = city["owner"]
            if owner in (None, kingdom.me, ally):
                continue
            reach = kingdom.distances(city["at"])
            turns = min((reach.get(c, math.inf) for c in home), default=math.inf)
            cost = (city["initial_of"] is not None,
                    turns + self._needed(kingdom, city) - (RIVAL_WEIGHT * held[owner] if full else 0)
                    - (STEADFAST if kingdom.declared(owner) == "war" else 0))
            if cost < best_cost:
                best, best_cost = city, cost
        return best

    def _defence(self, kingdom: Kingdom, city: dict[str, Any]) -> int:
        total = 0
        for other, count in kingdom.foreign_armies(city["at"]).items():
            total += count * kingdom.level_of(other)
        return total + (2 + ASSUMED_GUILD if total else 0)

    def _needed(self, kingdom: Kingdom, city: dict[str, Any]) -> int:
        """Armies of its own that beat the city's defenders with the margin (one if undefended)."""
        return max(1, math.ceil((self._defence(kingdom, city) + ATTACK_MARGIN) / kingdom.level))

    # -- war, peace and allies -----------------------------------------------------------------------
    def _relations(self, kingdom: Kingdom, out: Orders, enemy: str | None, target: dict[str, Any] | None) -> None:
        if enemy is not None and kingdom.declared(enemy) != "war":
            out.stance("guerre", enemy)
        for other in kingdom.others:
            if other != enemy and kingdom.declared(other) == "war":
                out.stance("paix", other)
        if kingdom.ally() is None and target is not None:
            pending = [k for k in kingdom.others if k != enemy and kingdom.declared(k) == "ally"]
            far = [k for k in kingdom.others if k != enemy and k not in pending]
            offers = [k for k in far if kingdom.stance_of[k][kingdom.me] == "ally"]
            # an offer made and not yet answered is kept, unless another kingdom offers one: then it is taken
            choice = offers[0] if offers else None if pending else self._farthest(kingdom, far, target["at"])
            if choice is not None:
                out.offer_alliance(choice)

    def _farthest(self, kingdom: Kingdom, others: list[str], where: Cell) -> str | None:
        reach = kingdom.distances(where)

        def distance(other: str) -> int:
            capitals = [c["at"] for c in kingdom.cities if c["initial_of"] == other]
            return min((reach.get(c, 10**6) for c in capitals), default=0)

        return max(others, key=distance, default=None)

    # -- armies, Guild and tribute -----------------------------------------------------------------------
    def _garrisons(self, kingdom: Kingdom) -> dict[Cell, int]:
        """Armies each of its cities keeps: enough to beat what non-allied armies close by could
        bring, counting the city's defence; none where nobody could come."""
        ally = kingdom.ally()
        need: dict[Cell, int] = {}
        defence = kingdom.you["city_defence"]
        for city in kingdom.my_cities():
            threat = 0
            for cell in kingdom.near(city["at"], THREAT_RANGE):
                for other, count in kingdom.foreign_armies(cell).items():
                    if other != ally:
                        threat += count * kingdom.level_of(other)
            if threat:
                need[city["at"]] = max(1, math.ceil((threat - defence + 1) / kingdom.level))
        return need

    def _economy(self, kingdom: Kingdom, out: Orders, target: dict[str, Any] | None,
                 garrisons: dict[Cell, int]) -> None:
        cities = kingdom.my_cities()
        if not cities:
            return
        armies = sum(a["count"] for a in kingdom.you["armies"])
        settled = armies >= GUILD_MIN_ARMIES or len(cities) >= kingdom.view["max_cities"]
        if kingdom.you["guild_level"] == 0 and settled and out.buy("guild"):
            out.lines.append("construire: guilde")
            return  # no army the turn the Guild grows
        if not out.buy("army"):
            return
        short = [c for c in cities if garrisons.get(c["at"], 0) > kingdom.mine.get(c["at"], {}).get("count", 0)]
        if short:
            where = short[0]
        elif target is not None:
            reach = kingdom.distances(target["at"])
            where = min(cities, key=lambda c: reach.get(c["at"], 10**6))
        else:
            where = cities[0]
        out.lines.append(f"créer armée à {where['name']}")

    def _tribute_choice(self, kingdom: Kingdom, out: Orders) -> None:
        """Should it pay tribute, let it be in what it needs least: a resource nothing costs."""
        costly = {r for cost in kingdom.view["costs"].values() for r in cost}
        spare = [r for r in kingdom.view["resources"] if r not in costly]
        if not spare:
            return
        stock = kingdom.you["resources"]
        choice = max(spare, key=lambda r: stock.get(r, 0))
        if kingdom.you["tribute_resource"] != choice:
            out.lines.append(f"tribut: {kingdom.view['resources'][choice]['fr']}")

    # -- the march --------------------------------------------------------------------------------
    def _march(self, kingdom: Kingdom, out: Orders, target: dict[str, Any] | None,
               garrisons: dict[Cell, int]) -> None:
        if target is None:
            return
        goal = target["at"]
        reach = kingdom.distances(goal)
        spare = {cell: max(0, out.free(cell) - self._keep(kingdom, cell, garrisons)) for cell in kingdom.mine}
        beside = [c for c in spare if reach.get(c) == 1 and spare[c]]
        striking = sum(spare[c] for c in beside) + (kingdom.mine[goal]["count"] if goal in kingdom.mine else 0)
        if beside and striking * kingdom.level >= self._defence(kingdom, target) + ATTACK_MARGIN:
            for cell in beside:
                out.move(cell, goal, spare[cell])
                spare[cell] = 0
        for cell, count in spare.items():
            if count and cell != goal and reach.get(cell, 0) > 1:
                ahead = min(kingdom.steps(cell), key=lambda c: (reach.get(c, 10**6), c))
                out.move(cell, ahead, count)

    def _keep(self, kingdom: Kingdom, cell: Cell, garrisons: dict[Cell, int]) -> int:
        """Armies that stay on ``cell``: its garrison, or those occupying an enemy's initial city."""
        occupying = any(c["at"] == cell and c["initial_of"] not in (None, kingdom.me) for c in kingdom.cities)
        return OCCUPIERS if occupying else garrisons.get(cell, 0)


def play_campaign(levels: dict[str, str], turns: int, seed: int = 0,
                  options: dict[str, Any] | None = None) -> Any:
    """A campaign of computer kingdoms (``levels``: kingdom → bot level; the others send empty
    orders) for ``turns`` adjudicated turns. Each turn the orders arrive in a seeded random order,
    as they would from people. Returns the game."""
    game = new_game("royaumes", seed=seed, options=options)
    rng = random.Random(seed)
    bots = {seat: make_bot("royaumes", level, seed=rng.getrandbits(64)) for seat, level in levels.items()}
    while game.state.turn <= turns and game.outcome is None:
        waiting = game.to_act()
        rng.shuffle(waiting)
        for seat in waiting:
            if seat in bots:
                play_turn_of(game, seat, bots[seat])
            else:
                game.act(seat, {"type": "orders"})
    return game


def cities_held(game: Any) -> dict[str, int]:
    """Standing cities by kingdom at the end (the campaign's measure of success)."""
    state = game.state
    return {kingdom: len(state.cities_of(kingdom)) for kingdom in state.kingdoms}
