"""Front as a PettingZoo AEC environment (``front_v0``), its orders chosen in three masked parts.

The environment speaks only the public Kadesh API: ``new_game``, ``to_act``, ``legal_actions``,
``act``, ``view`` and ``outcome`` (and the ruleset's public ``glossary`` for the units' full hit
points, ammunition and fuel). It never reads the hidden state: an agent sees exactly what its side
would see through the server, and is offered only what ``legal_actions`` offers, which is drawn
from what the side knows.

Agents and scenario
    ``"blue"`` and ``"red"``; ``agent_selection`` is the side whose turn it is. The battle is a
    shipped scenario (``scenario=``, default ``"test_small"``: 10 × 6 cells, 5 units, a random game
    ends in about a hundred orders; ``"default"`` is 32 × 24 with about 80 units, and its
    ``legal_actions`` takes some 40 ms, so a step there is slow); ``options`` adds ruleset options,
    such as ``{"scenario_toml": text}`` for one's own battle. The action and observation sizes are
    fixed per environment from the scenario: map width × height and the unit slots.

Seeding
    As ``manoeuvre_v0``: ``reset(seed=s)`` seeds the environment's generator, which draws a 256-bit
    seed text for ``new_game``; a game is deterministic given ``s``; ``reset()`` without a seed draws
    the next game from the same generator. ``reset``'s ``options`` are ignored.

Actions: an order is chosen in three consecutive steps of the same agent, each a ``Discrete(N)``
with ``N = max(slots + 1, len(ORDERS), width * height + 1)`` and its own ``action_mask``:

1. the **unit slot**: 0 is "end the turn", *k* (1..``slots``) is the side's unit ``b<k>`` or
   ``r<k>`` (the scenario numbers each side's units from 1, a drone after its operator);
   ``slots`` is the largest side's unit count at the start (units are never added);
2. the **order variant**, an index into ``ORDERS``;
3. the **target cell**, ``y * width + x`` (row 0 is map row 1, column 0 column A), or
   ``NO_CELL = width * height`` for an order that names no cell.

Each step's mask marks only the choices that some legal action completes, given the parts already
chosen: the agent cannot build an illegal order. Once the three parts are chosen the environment
plays the order. With ``skip_forced=True`` (the default) a step that would leave a single legal
completion plays it at once (the end-turn slot, a unit with a single order, an order without a
cell): an agent then chooses one, two or three parts; the observation says which step it is at.
The first part is always asked, even when ending the turn is the only order left. With
``skip_forced=False`` every order takes exactly three steps.

Each legal Front order is exactly one (slot, variant, cell) triple, and back (``Layout.triple``,
``Layout.action``, a bijection over the legal set, checked in the tests):

    ==========================  ========================  ======================================
    variant                     slot                      cell
    ==========================  ========================  ======================================
    ``end_turn``                0                         ``NO_CELL``
    ``move``                    the unit                  ``to``
    ``shoot``                   the unit                  the target (a unit on the ground)
    ``shoot_air``               the unit                  an aircraft in flight (``at: air``)
    ``shoot_structure``         the unit                  a work or building (``at: structure``)
    ``shoot_weapon`` (+ _air,   the unit                  as above, with the unit's second weapon
    _structure)                                           (``weapon``: the heavy tank's rocket...)
    ``bomb``, ``bomb_air``      the drone                 the target (no bomb hits an aircraft today)
    ``strike``, ``strike_air``  the drone                 the target
    ``board``                   the unit boarding         the carrier's cell
    ``unload``                  the **passenger**         ``to``
    ``resupply``                the supply truck          the cell of the unit resupplied
    ``clear``, ``demine``,      the engineer              ``cell``
    ``lay_mine``
    ``alert``, ``patrol``,      the unit                  ``NO_CELL``
    ``end_patrol``, ``land``,
    ``recover``, ``jam``
    ``launch``                  the **drone**             ``to`` (its operator is the ``unit``)
    ``build_<kind>``            the engineer              ``cell`` (one variant a structure kind)
    ==========================  ========================  ======================================

``resign`` (legal to either side at any time while the battle runs) has no triple: an agent is never offered
to give up, as a computer opponent never does (``UNOFFERED``).

The passenger (unload) and the drone (launch) take the slot because each is aboard one carrier
only: the triple then names the order alone. ``raw_env.legal(agent)`` maps the triples of the
orders legal now to the ruleset's action dicts. ``ORDERS`` has 34 variants today; ``N`` is 61 on
``test_small`` and 769 on ``default``.

Observation: ``{"observation": Box(0, 1, (height, width, C), float32), "action_mask": Box(0, 1,
(N,), int8)}``, built from ``game.view(agent)`` alone (``encode_view``), with ``C = 154 + slots``
today (157 on ``test_small``). Planes ``[row, column, channel]``, sides relative ("own",
"enemy"), in this order (``Layout.channels`` gives the offsets):

    =====================  ====================================================================
    terrain (11)           the ground as the side last saw it, one plane a terrain (glossary order)
    sight, fire, mine      cells seen now; forests seen burning; mines known
    structure (9)          a work or building of each kind (glossary order), as last seen
    structure_side (3)     its owner: own, enemy, none
    structure_state (3)    built (steps done / needed, or 1 if complete), carcass, hit points left
    point (3)              capture point; held by own side; held by the enemy
    counting               own engineer's ends held on a point / ends needed
    objective (2)          cells of own / enemy objectives (hold, escort exit)
    marked                 units an objective marks (its tag or target type)
    own_type, enemy_type   units on the map, one plane a unit type (glossary order, 21 each)
    own_ground (8)         own unit on the ground: hp, ap, ammo, fuel, second weapon's rounds
                           (each / its full value), moved, shots fired / 2, on alert
    own_air (8)            the same for an own aircraft in flight (a drone's battery as fuel)
    own_extra (5)          camouflaged, mines carried / 4, passengers aboard / 2, patrol centre,
                           patrol zone
    enemy_hp (2)           seen enemy's hit points / full, on the ground; in flight
    slot (slots)           own unit *k* (also aboard: on its carrier's cell)
    step (4)               constant: the agent is choosing a slot / variant / cell; it is to act
                           (all 0 for the agent not to act)
    chosen_unit            the cell of the slot chosen (the current order's unit)
    chosen_order (ORDERS)  constant: the variant chosen
    constants              blue (1), hour (5), season (4), own / enemy points / points to win (2),
                           turn / the earliest objective deadline (1), real orders / max_actions (1)
    =====================  ====================================================================

Mask convention: the selected agent's mask marks the choices of its current step; the other agent,
and every agent once the game is over, gets an all-zero mask.

Rewards only change when an order is played (a part of an order gives 0 to both): +1 to the
winner and -1 to the loser once ``game.outcome`` is set (0 to both for no winner), and both
agents are terminated. After ``max_actions`` orders played (``game.version``, default 5000)
without an outcome both are truncated with reward 0. The final ``infos`` hold
``{"outcome": game.outcome}``. An order that ``legal_actions`` offered and ``act`` refuses would be
a ruleset bug: its ``RuleError`` is raised, not hidden.

``render()`` (``render_mode="ansi"``) draws the map as the agent to play sees it (its view: a
debugging aid for a person, never fed to an agent).

``env()`` adds PettingZoo's usual wrappers (``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``,
``OrderEnforcingWrapper``); ``raw_env.step`` itself raises ``ValueError`` on a choice off the mask.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from kadesh import new_game
from kadesh.core import Game, get_ruleset
from kadesh.core.grid import map_cell_name, parse_map_cell
from kadesh.envs.aec import KadeshAEC
from kadesh.rules.front.clock import HOURS, SEASONS

RULESET = "front"
AGENTS = ("blue", "red")
OTHER = {"blue": "red", "red": "blue"}
GLOSSARY = get_ruleset(RULESET).glossary
UNIT_TYPES = tuple(GLOSSARY["units"])
TERRAINS = tuple(GLOSSARY["terrain"])
STRUCTURES = tuple(GLOSSARY["structures"])
HOUR_NAMES = tuple(dict.fromkeys(HOURS))
DEFAULT_MAX_ACTIONS = 5000
MINES_SCALE, SHOTS_SCALE, CARGO_SCALE = 4, 2, 2

FIRE = ("shoot", "bomb", "strike")
NO_CELL_ORDERS = ("alert", "patrol", "end_patrol", "recover", "land", "jam")
CELL_ORDERS = ("clear", "demine", "lay_mine")
ORDERS = ("end_turn", "move",
          "shoot", "shoot_air", "shoot_structure", "shoot_weapon", "shoot_weapon_air", "shoot_weapon_structure",
          "bomb", "bomb_air", "strike", "strike_air", "board", "unload", "resupply", *CELL_ORDERS,
          *NO_CELL_ORDERS, "launch", *(f"build_{kind}" for kind in STRUCTURES))
ORDER_INDEX = {name: i for i, name in enumerate(ORDERS)}
UNOFFERED = ("resign",)  # legal actions an agent is never offered
END_TURN = 0

Triple = tuple[int, int, int]
Units = dict[str, dict[str, Any]]
Tables = tuple[dict[Triple, dict[str, Any]], dict[tuple[int, ...], set[int]]]  # by triple; choices by prefix


def _units(view: dict[str, Any]) -> Units:
    return {unit["id"]: unit for unit in view["units"]}


def _channel_groups(slots: int) -> list[tuple[str, int]]:
    return [("terrain", len(TERRAINS)), ("sight", 1), ("fire", 1), ("mine", 1), ("structure", len(STRUCTURES)),
            ("structure_side", 3), ("structure_state", 3), ("point", 3), ("counting", 1), ("objective", 2),
            ("marked", 1), ("own_type", len(UNIT_TYPES)), ("enemy_type", len(UNIT_TYPES)), ("own_ground", 8),
            ("own_air", 8), ("own_extra", 5), ("enemy_hp", 2), ("slot", slots), ("step", 4), ("chosen_unit", 1),
            ("chosen_order", len(ORDERS)), ("blue", 1), ("hour", len(HOUR_NAMES)), ("season", len(SEASONS)),
            ("score", 2), ("deadline", 1), ("clock", 1)]


@dataclass(frozen=True)
class Layout:
    """The sizes an environment fixes from its scenario, and the (slot, variant, cell) encoding."""

    width: int
    height: int
    slots: int

    @classmethod
    def of(cls, game: Game) -> Layout:
        """Read from a fresh game's views: the map's size, each side's units (all its own are listed)."""
        if list(game.seats) != list(AGENTS):
            raise RuntimeError("the front ruleset's seats no longer match front_v0")
        rows = game.view(None)["map"]
        slots = 0
        for seat in AGENTS:
            for uid in _units(game.view(seat)):
                if uid[0] == seat[0]:
                    if not re.fullmatch(r"[0-9]+", uid[1:]):
                        raise RuntimeError(f"unit id {uid!r} does not fit front_v0's slots")
                    slots = max(slots, int(uid[1:]))
        return cls(len(rows[0]), len(rows), slots)

    @property
    def cells(self) -> int:
        return self.width * self.height

    @property
    def no_cell(self) -> int:
        return self.cells

    @property
    def size(self) -> int:
        """``N``, the size of each step's ``Discrete`` space."""
        return max(self.slots + 1, len(ORDERS), self.cells + 1)

    @property
    def channels(self) -> dict[str, int]:
        """The first channel of each group of planes."""
        offsets, at = {}, 0
        for name, width in _channel_groups(self.slots):
            offsets[name] = at
            at += width
        offsets["count"] = at
        return offsets

    @property
    def observation_shape(self) -> tuple[int, int, int]:
        return (self.height, self.width, self.channels["count"])

    # -- cells and slots ------------------------------------------------------------
    def cell(self, name: str | None) -> int:
        xy = parse_map_cell(name, self.width, self.height)
        if xy is None:
            raise ValueError(f"{name!r} is not a cell of the {self.width} × {self.height} map")
        return xy[1] * self.width + xy[0]

    def cell_name(self, index: int) -> str:
        if not 0 <= index < self.cells:
            raise ValueError(f"cell index {index} is off the map")
        return map_cell_name((index % self.width, index // self.width))

    def slot(self, seat: str, uid: str | None) -> int:
        if not isinstance(uid, str) or uid[:1] != seat[0] or not uid[1:].isdigit() \
                or not 1 <= int(uid[1:]) <= self.slots:
            raise ValueError(f"{uid!r} is not a unit slot of {seat}")
        return int(uid[1:])

    # -- the encoding ----------------------------------------------------------------
    def triple(self, seat: str, action: dict[str, Any], units: Units) -> Triple:
        """The (slot, variant, cell) of a Front action of ``seat``; ``units`` by id from its view."""
        kind = action.get("type")
        if kind == "end_turn":
            return (0, END_TURN, self.no_cell)
        if kind in FIRE:
            variant = kind + ("_weapon" if "weapon" in action else "") + (f"_{action['at']}" if "at" in action else "")
            return (self.slot(seat, action["unit"]), ORDER_INDEX[variant], self.cell(action["target"]))
        if kind == "unload":
            return (self.slot(seat, action["passenger"]), ORDER_INDEX[kind], self.cell(action["to"]))
        if kind == "launch":
            return (self.slot(seat, action["drone"]), ORDER_INDEX[kind], self.cell(action["to"]))
        unit = self.slot(seat, action.get("unit"))
        if kind == "move":
            return (unit, ORDER_INDEX[kind], self.cell(action["to"]))
        if kind in ("board", "resupply"):
            other = units[action["truck" if kind == "board" else "target"]]
            return (unit, ORDER_INDEX[kind], self.cell(other["cell"]))
        if kind in CELL_ORDERS:
            return (unit, ORDER_INDEX[kind], self.cell(action["cell"]))
        if kind == "build":
            return (unit, ORDER_INDEX[f"build_{action['kind']}"], self.cell(action["cell"]))
        if kind in NO_CELL_ORDERS:
            return (unit, ORDER_INDEX[kind], self.no_cell)
        raise ValueError(f"front_v0 has no encoding for {action!r}")

    def action(self, seat: str, triple: Triple, units: Units) -> dict[str, Any]:
        """The Front action a triple stands for, for ``seat`` with ``units`` (by id) from its view."""
        slot, variant, cell = (int(part) for part in triple)
        order = ORDERS[variant]
        if order == "end_turn":
            return {"type": "end_turn"}
        uid = f"{seat[0]}{slot}"
        where = self.cell_name(cell) if cell != self.no_cell else None
        if order in NO_CELL_ORDERS:
            return {"type": order, "unit": uid}
        kind, _, rest = order.partition("_")
        if kind in FIRE:
            action = {"type": kind, "unit": uid, "target": where}
            if rest.startswith("weapon"):
                action["weapon"] = GLOSSARY["units"][units[uid]["type"]]["weapons"][1]["id"]
                rest = rest.removeprefix("weapon").removeprefix("_")
            return action | ({"at": rest} if rest else {})
        if order == "unload":
            return {"type": "unload", "unit": units[uid]["aboard"], "passenger": uid, "to": where}
        if order == "launch":
            return {"type": "launch", "unit": units[uid]["operator"], "drone": uid, "to": where}
        if order == "move":
            return {"type": "move", "unit": uid, "to": where}
        if order in ("board", "resupply"):
            other = next(u["id"] for u in units.values() if u["side"] == seat and u["cell"] == where
                         and u.get("aboard") is None and not u.get("flying") and u["id"] != uid)
            return {"type": order, "unit": uid, ("truck" if order == "board" else "target"): other}
        if order.startswith("build_"):
            return {"type": "build", "unit": uid, "kind": order.removeprefix("build_"), "cell": where}
        return {"type": order, "unit": uid, "cell": where}


# -- the observation ---------------------------------------------------------------
def _fraction(value: Any, full: Any) -> float:
    return min(1.0, max(0.0, value / full)) if isinstance(value, int | float) and full else 0.0


def encode_view(view: dict[str, Any], seat: str, layout: Layout, choice: tuple[int, ...] | None = None,
                max_actions: int = DEFAULT_MAX_ACTIONS) -> np.ndarray:
    """The observation planes of ``seat``, built from its view alone. ``choice`` holds the parts of
    the order chosen so far when ``seat`` is choosing one, None when it is not to act."""
    ch, width = layout.channels, layout.width
    planes = np.zeros(layout.observation_shape, dtype=np.float32)
    other = OTHER[seat]

    def at(name: str | None) -> tuple[int, int] | None:
        xy = parse_map_cell(name, width, layout.height)
        return None if xy is None else (xy[1], xy[0])

    for y, row in enumerate(view["map"]):
        for x, terrain in enumerate(row):
            planes[y, x, ch["terrain"] + TERRAINS.index(terrain)] = 1
    planes[:, :, ch["sight"]] = np.array([[c == "1" for c in row] for row in view["sight"]], dtype=np.float32)
    for key, group in (("fires", "fire"), ("mines", "mine")):
        for name in view[key]:
            planes[(*at(name), ch[group])] = 1
    for s in view["structures"]:
        yx, kind = at(s["cell"]), GLOSSARY["structures"][s["kind"]]
        planes[(*yx, ch["structure"] + STRUCTURES.index(s["kind"]))] = 1
        planes[(*yx, ch["structure_side"] + (0 if s["side"] == seat else 1 if s["side"] == other else 2))] = 1
        built = 1.0 if s["complete"] else _fraction(s.get("steps", 0), kind["steps"])
        planes[(*yx, ch["structure_state"])] = built
        planes[(*yx, ch["structure_state"] + 1)] = bool(s["carcass"])
        planes[(*yx, ch["structure_state"] + 2)] = _fraction(s.get("hp", 0), kind["hp"])
    for name, holder in view["points"].items():
        planes[(*at(name), ch["point"])] = 1
        if holder is not None:
            planes[(*at(name), ch["point"] + (1 if holder == seat else 2))] = 1
    for count in view["counting"]:
        planes[(*at(count["cell"]), ch["counting"])] = _fraction(count["ends"], count["needed"])
    objectives = view["victory"]["objectives"]
    for objective in objectives:
        for name in objective.get("cells", []) + objective.get("exit", []):
            planes[(*at(name), ch["objective"] + (0 if objective["side"] == seat else 1))] = 1
    for unit in view["units"]:
        yx, full = at(unit["cell"]), GLOSSARY["units"][unit["type"]]
        own, aloft, on_map = unit["side"] == seat, bool(unit.get("flying")), unit.get("aboard") is None
        if own:
            planes[(*yx, ch["slot"] + int(unit["id"][1:]) - 1)] = 1
        if not on_map:
            planes[(*yx, ch["own_extra"] + 2)] += 1 / CARGO_SCALE
            continue
        if any((o.get("tag") is not None and unit.get("tag") == o["tag"]) or unit["type"] == o.get("target")
               for o in objectives):
            planes[(*yx, ch["marked"])] = 1
        planes[(*yx, ch["own_type" if own else "enemy_type"] + UNIT_TYPES.index(unit["type"]))] = 1
        if not own:
            planes[(*yx, ch["enemy_hp"] + aloft)] = _fraction(unit["hp"], full["hp"])
            continue
        base = ch["own_air" if aloft else "own_ground"]
        rounds = full["weapons"][1]["ammo"] if len(full["weapons"]) > 1 else 0
        fuel = (unit.get("battery"), full["battery"]) if full["battery"] else (unit.get("fuel"), full["fuel"])
        planes[yx[0], yx[1], base:base + 8] = (
            _fraction(unit["hp"], full["hp"]), _fraction(unit["ap"], full["ap"]), _fraction(unit["ammo"], full["ammo"]),
            _fraction(*fuel), _fraction(unit.get("rockets"), rounds), bool(unit["moved"]),
            _fraction(unit["shots"], SHOTS_SCALE), bool(unit["alert"]))
        planes[(*yx, ch["own_extra"])] = max(planes[(*yx, ch["own_extra"])], bool(unit["camouflaged"]))
        planes[(*yx, ch["own_extra"] + 1)] = max(planes[(*yx, ch["own_extra"] + 1)],
                                                 _fraction(unit.get("mines", 0), MINES_SCALE))
    planes[:, :, ch["own_extra"] + 2] = np.minimum(planes[:, :, ch["own_extra"] + 2], 1)
    for patrol in view["patrols"]:
        y, x = at(patrol["cell"])
        radius = patrol["radius"]
        planes[y, x, ch["own_extra"] + 3] = 1
        planes[max(0, y - radius):y + radius + 1, max(0, x - radius):x + radius + 1, ch["own_extra"] + 4] = 1
    if choice is not None:
        planes[:, :, ch["step"] + len(choice)] = 1
        planes[:, :, ch["step"] + 3] = 1
        if len(choice) >= 1 and choice[0] > 0:
            chosen = next((u for u in view["units"] if u["id"] == f"{seat[0]}{choice[0]}"), None)
            if chosen is not None:
                planes[(*at(chosen["cell"]), ch["chosen_unit"])] = 1
        if len(choice) >= 2:
            planes[:, :, ch["chosen_order"] + choice[1]] = 1
    planes[:, :, ch["blue"]] = seat == "blue"
    planes[:, :, ch["hour"] + HOUR_NAMES.index(view["hour"])] = 1
    planes[:, :, ch["season"] + SEASONS.index(view["season"])] = 1
    to_win = view["victory"]["points_to_win"]
    held = list(view["points"].values())
    planes[:, :, ch["score"]] = _fraction(held.count(seat), to_win)
    planes[:, :, ch["score"] + 1] = _fraction(held.count(other), to_win)
    deadlines = [o.get("until", o.get("by")) for o in objectives if o.get("until", o.get("by")) is not None]
    planes[:, :, ch["deadline"]] = _fraction(view["turn"], min(deadlines)) if deadlines else 0.0
    planes[:, :, ch["clock"]] = _fraction(view["version"], max_actions)
    return planes


GROUND_MARKS = {"road": "=", "bridge": "#", "meadow": ".", "burnt": ",", "forest": "f", "hill": "h", "swamp": "s",
                "crater": "o", "ruins": "v", "wreck": "x", "water": "~"}  # as the shipped scenarios draw them


def render_view(view: dict[str, Any], seat: str) -> str:
    """A text map: a unit's id where it stands (``^`` in flight, ``+`` with an aircraft over it), else the ground."""
    grid = [[f"{GROUND_MARKS.get(terrain, '?'):<4}" for terrain in row] for row in view["map"]]
    here: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for unit in view["units"]:
        xy = parse_map_cell(unit["cell"], len(grid[0]), len(grid))
        if xy is not None and unit.get("aboard") is None:
            here.setdefault(xy, []).append(unit)
    for (x, y), units in here.items():
        units.sort(key=lambda unit: bool(unit.get("flying")))
        text = units[0]["id"] + ("^" if units[0].get("flying") else "+" if len(units) > 1 else "")
        grid[y][x] = f"{text:<4}"
    header = "    " + "".join(f"{map_cell_name((x, 0))[:-1]:<4}" for x in range(len(grid[0])))
    rows = [f"{y + 1:>3} " + "".join(row) for y, row in enumerate(grid)]
    status = f"as {seat} sees it: turn {view['turn']}, {view['hour']}, {view['season']}, active {view['active']}"
    if view.get("outcome"):
        status += f", outcome {view['outcome']}"
    return "\n".join([header, *rows, status])


# -- the environment ---------------------------------------------------------------
def env(render_mode: str | None = None, scenario: str = "test_small", options: dict[str, Any] | None = None,
        max_actions: int = DEFAULT_MAX_ACTIONS, skip_forced: bool = True) -> AECEnv:
    """The environment with PettingZoo's usual wrappers for a masked Discrete game."""
    wrapped: AECEnv = raw_env(render_mode=render_mode, scenario=scenario, options=options,
                              max_actions=max_actions, skip_forced=skip_forced)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(KadeshAEC, EzPickle):  # noqa: N801 - PettingZoo's naming
    """Front, one side choosing one part of an order at a time; see the module docstring."""

    metadata = {"name": "front_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, scenario: str = "test_small",
                 options: dict[str, Any] | None = None, max_actions: int = DEFAULT_MAX_ACTIONS,
                 skip_forced: bool = True) -> None:
        EzPickle.__init__(self, render_mode=render_mode, scenario=scenario, options=options,
                          max_actions=max_actions, skip_forced=skip_forced)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        if max_actions < 1:
            raise ValueError("max_actions must be at least 1")
        self.render_mode = render_mode
        self.game_options = {"scenario": scenario, **(options or {})}
        self.max_actions = int(max_actions)
        self.skip_forced = bool(skip_forced)
        self.layout = Layout.of(new_game(RULESET, seed=0, options=self.game_options))
        self.possible_agents = list(AGENTS)
        self.agents = []
        size = self.layout.size
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, self.layout.observation_shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.game: Game | None = None
        self._np_random: np.random.Generator | None = None
        self._choice: list[int] = []
        self._views: dict[str, tuple[int, dict[str, Any]]] = {}
        self._legal_cache: tuple[str, int, Tables] | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the AEC cycle ---------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.game = new_game(RULESET, seed=self._np_random.bytes(32).hex(), options=self.game_options)
        if Layout.of(self.game) != self.layout:
            raise RuntimeError("the scenario no longer fits the sizes this environment was built with")
        self._choice, self._views, self._legal_cache = [], {}, None
        self._start_episode()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        index = int(action)
        if not 0 <= index < self.layout.size or not self.action_mask(agent)[index]:
            raise ValueError(f"choice {index} is not offered to {agent} at this step")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._choice.append(index)
        chosen = tuple(self._choice)
        if len(chosen) < 3 and self.skip_forced:
            completions = [triple for triple in self.legal(agent) if triple[:len(chosen)] == chosen]
            chosen = completions[0] if len(completions) == 1 else chosen
        if len(chosen) == 3:  # the order is whole: it is played
            self._choice = []
            self._play(agent, self.legal(agent)[chosen])
        self._accumulate_rewards()

    def _play(self, agent: str, order: dict[str, Any]) -> None:
        assert self.game is not None
        self.game.act(agent, order)
        self._after_action()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        choice = tuple(self._choice) if self._live(agent) else None
        planes = encode_view(self.view(agent), agent, self.layout, choice, self.max_actions)
        return {"observation": planes, "action_mask": self.action_mask(agent)}

    def legal(self, agent: str) -> dict[Triple, dict[str, Any]]:
        """``agent``'s legal actions now, by their (slot, variant, cell) triple."""
        return self._tables(agent)[0]

    def action_mask(self, agent: str) -> np.ndarray:
        """1 at each choice of ``agent``'s current step that a legal order completes, if it is to act."""
        mask = np.zeros(self.layout.size, dtype=np.int8)
        if self._live(agent):
            mask[list(self._tables(agent)[1].get(tuple(self._choice), ()))] = 1
        return mask

    def _tables(self, agent: str) -> Tables:
        """The legal actions by triple, and the choices each chosen prefix leaves open; kept while the
        game does not change."""
        assert self.game is not None
        cache = self._legal_cache
        if cache is None or cache[0] != agent or cache[1] != self.game.version:
            units = _units(self.view(agent))
            table: dict[Triple, dict[str, Any]] = {}
            tree: dict[tuple[int, ...], set[int]] = {}
            for order in self.game.legal_actions(agent):
                if order["type"] in UNOFFERED:
                    continue
                triple = self.layout.triple(agent, order, units)
                if triple in table:
                    raise RuntimeError(f"{order!r} and {table[triple]!r} share the encoding {triple}")
                table[triple] = order
                for depth in range(3):
                    tree.setdefault(triple[:depth], set()).add(triple[depth])
            cache = self._legal_cache = (agent, self.game.version, (table, tree))
        return cache[2]

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        assert self.game is not None
        return render_view(self.view(self.agent_selection), self.agent_selection)

    # -- helpers -------------------------------------------------------------------
    def _live(self, agent: str) -> bool:
        return (self.game is not None and agent in self.agents and agent == self.agent_selection
                and not (self.terminations[agent] or self.truncations[agent]))

