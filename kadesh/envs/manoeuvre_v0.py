"""Manœuvre as a PettingZoo AEC environment (``manoeuvre_v0``).

The environment speaks only the public Kadesh API: ``new_game``, ``to_act``, ``legal_actions``,
``act``, ``view`` and ``outcome``. It never reads the hidden state, so an agent sees exactly what
its seat would see through the server.

Agents
    ``"north"`` and ``"south"``. ``agent_selection`` is the first seat of ``game.to_act()``:
    during deployment both sides may act, so north deploys until it declares itself ready, then
    south; in battle it is the active side.

Seeding
    ``reset(seed=s)`` seeds the environment's generator, which draws a 256-bit seed text for
    ``new_game("manoeuvre", seed=...)``: the dice live inside the environment and a game is
    deterministic given ``s``. ``reset()`` without a seed draws the next game from the same
    generator (fresh entropy if the environment was never seeded). The ruleset options
    (``{"choice": "bow" | "blade"}``) are given at construction; ``reset``'s ``options`` are
    accepted for API compatibility and ignored.

Actions: ``Discrete(ACTION_COUNT)`` with ``ACTION_COUNT == 9567``, the same table shape for both
seats, built once at import. Slot *k* (1..12) is the seat's own element ``n<k>`` or ``s<k>``, and
the enemy's ``s<k>`` or ``n<k>`` as a target. In index order:

    ======  =========================================  =====
    0       ``ready``                                  1
    1       ``end_turn``                               1
    2       ``resign``                                 1
    3       ``undeploy`` (element)                     12
    15      ``turn`` (element, facing N/E/S/W)         48
    63      ``deploy`` (element, cell a1..l12)         1728
    1791    ``move`` (element, to, facing)             6912
    8703    ``attack`` (element, target)               144
    8847    ``attack`` with ``from`` (element, target,  576
            side of the target the charge ends on)
    9423    ``shoot`` (element, target)                144
    ======  =========================================  =====

Cells run column-major inside each group (``a1, a2, .., a12, b1, ..``). An attack's ``from`` is
stored as the side of the target (N: the cell north of it, and so on), so its index depends on
where the target stands: ``action_to_index`` and ``index_to_action`` take the seat's view for
it. Other actions map both ways through a table keyed by the sorted items of the action dict.

``resign`` is always legal, so it is in the mask by default; trainers that do not want agents to
learn resigning (random play resigns within a few hundred actions) may zero ``mask[RESIGN]`` or
build the environment with ``allow_resign=False``, which leaves it out of the mask and refuses it
in ``step``. The seat always keeps another legal action: a deployment action or ``end_turn``.

Observation: ``{"observation": Box(0, 1, (12, 12, 51), float32), "action_mask": Box(0, 1, (9567,), int8)}``.
The planes are indexed ``[row, column, channel]`` with row 0 the board's row 1 (north's edge) and
column 0 column ``a``; coordinates are absolute (not flipped for south), sides are relative:

    ======  ==========================================================================
    0-4     own elements by kind: general, chariot, blade, bow, skirmisher
    5-9     enemy elements by kind (enemies are hidden during deployment: no planes)
    10-13   facing of the element on the cell: N, E, S, W
    14, 15  cells threatened by own / enemy elements (battle only)
    16      elements engaged (some enemy threatens their cell; battle only)
    17      elements that already acted this turn (battle only)
    18-29   own element slot 1..12 (``n1``..``n12`` for north): which element stands where
    30-41   enemy element slot 1..12
    42      constant: 1 if the agent is north
    43, 44  constant: phase is deployment / battle
    45      constant: the agent may act now (not ready in deployment, active in battle)
    46, 47  constant: own / enemy side declared ready
    48, 49  constant: own / enemy losses divided by the break threshold (clipped to 1)
    50      constant: actions played divided by ``max_actions`` (the truncation horizon)
    ======  ==========================================================================

Mask convention: the ``action_mask`` of ``agent_selection`` marks exactly
``game.legal_actions(agent)`` (without ``resign`` if ``allow_resign=False``); every other agent,
and every agent once the game is over, gets an all-zero mask (in AEC only ``agent_selection`` may
step, and during deployment that is north until it is ready).

Rewards: +1 to the winner and -1 to the loser when ``game.outcome`` is set (0 to both for a
winner of ``None``), 0 otherwise; both agents are then terminated. After ``max_actions``
actions (default 5000) without an outcome both agents are truncated with reward 0. The final
``infos`` hold ``{"outcome": game.outcome}``.

``render()`` (``render_mode="ansi"``) returns a text board of the spectators' view
(``game.view(None)``), so it shows no element until both sides are ready.

``env()`` wraps ``raw_env`` the way PettingZoo's classic games do: an illegal action ends the
game with -1 for its author and 0 for the other (``TerminateIllegalWrapper``), an action outside the space raises
(``AssertOutOfBoundsWrapper``), and calls out of order raise (``OrderEnforcingWrapper``).
``raw_env.step`` itself raises ``ValueError`` on an illegal action.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle, seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from kadesh import new_game
from kadesh.core.grid import FACINGS, cell_name, parse_cell, step
from kadesh.envs.aec import KadeshAEC

RULESET = "manoeuvre"
AGENTS = ("north", "south")
OTHER = {"north": "south", "south": "north"}
WIDTH = HEIGHT = 12
ELEMENTS = 12
KINDS = ("general", "chariot", "blade", "bow", "skirmisher")
CELLS = tuple(cell_name((x, y)) for x in range(WIDTH) for y in range(HEIGHT))
DEFAULT_MAX_ACTIONS = 5000

Key = frozenset[tuple[str, str]]


def _element_id(seat: str, slot: int) -> str:
    return f"{seat[0]}{slot}"


def action_key(action: dict[str, Any]) -> Key:
    """The canonical, hashable form of an action dict: its items, as a set (no sort: the mask looks up every
    legal action of every step)."""
    return frozenset(action.items())


# -- the action table, built once ------------------------------------------------
def _build_table(seat: str) -> list[dict[str, str]]:
    own = [_element_id(seat, k) for k in range(1, ELEMENTS + 1)]
    enemy = [_element_id(OTHER[seat], k) for k in range(1, ELEMENTS + 1)]
    table: list[dict[str, str]] = [{"type": "ready"}, {"type": "end_turn"}, {"type": "resign"}]
    table += [{"type": "undeploy", "element": e} for e in own]
    table += [{"type": "turn", "element": e, "facing": f} for e in own for f in FACINGS]
    table += [{"type": "deploy", "element": e, "cell": c} for e in own for c in CELLS]
    table += [{"type": "move", "element": e, "to": c, "facing": f} for e in own for c in CELLS for f in FACINGS]
    table += [{"type": "attack", "element": e, "target": t} for e in own for t in enemy]
    # "side" is not a key of the ruleset's action: it stands for the "from" cell next to the target.
    table += [{"type": "attack", "element": e, "target": t, "side": s} for e in own for t in enemy for s in FACINGS]
    table += [{"type": "shoot", "element": e, "target": t} for e in own for t in enemy]
    return table


_TABLES = {seat: _build_table(seat) for seat in AGENTS}
_INDEX: dict[str, dict[Key, int]] = {seat: {action_key(a): i for i, a in enumerate(table)}
                                     for seat, table in _TABLES.items()}
ACTION_COUNT = len(_TABLES["north"])
READY, END_TURN, RESIGN = 0, 1, 2
assert all(len(table) == ACTION_COUNT for table in _TABLES.values())
assert all(len(index) == ACTION_COUNT for index in _INDEX.values())


def _cells_by_id(view: dict[str, Any] | None) -> dict[str, str | None]:
    if view is None:
        return {}
    return {el["id"]: el.get("cell") for el in view["elements"]}


def action_to_index(seat: str, action: dict[str, Any], view: dict[str, Any] | None = None) -> int:
    """The index of ``action`` for ``seat``; an attack with ``from`` needs the seat's view."""
    if action.get("type") == "attack" and action.get("from") is not None:
        target_cell = _cells_by_id(view).get(action.get("target"))
        target = parse_cell(target_cell, WIDTH, HEIGHT)
        origin = parse_cell(action["from"], WIDTH, HEIGHT)
        if target is None or origin is None:
            raise ValueError(f"cannot place the charge of {action!r} without the target's cell")
        side = next((f for f in FACINGS if step(target, f) == origin), None)
        if side is None:
            raise ValueError(f"{action['from']} is not next to the target of {action!r}")
        action = {key: value for key, value in action.items() if key != "from"} | {"side": side}
    try:
        return _INDEX[seat][action_key(action)]
    except (KeyError, TypeError):
        raise ValueError(f"{action!r} is not in the action table of {seat}") from None


def index_to_action(seat: str, index: int, view: dict[str, Any] | None = None) -> dict[str, Any]:
    """The action dict at ``index`` for ``seat``; an attack with ``from`` needs the seat's view."""
    entry = dict(_TABLES[seat][int(index)])
    side = entry.pop("side", None)
    if side is not None:
        target = parse_cell(_cells_by_id(view).get(entry["target"]), WIDTH, HEIGHT)
        if target is None:
            raise ValueError(f"the target of action {index} is not on the field")
        entry["from"] = cell_name(step(target, side))
    return entry


# -- the observation ---------------------------------------------------------------
OWN_KIND, ENEMY_KIND, FACING, OWN_THREAT, ENEMY_THREAT, ENGAGED, ACTED = 0, 5, 10, 14, 15, 16, 17
OWN_SLOT, ENEMY_SLOT = 18, 30
IS_NORTH, PHASE_DEPLOYMENT, PHASE_BATTLE, MAY_ACT, OWN_READY, ENEMY_READY = 42, 43, 44, 45, 46, 47
OWN_LOSSES, ENEMY_LOSSES, CLOCK = 48, 49, 50
CHANNELS = 51
OBSERVATION_SHAPE = (HEIGHT, WIDTH, CHANNELS)


def _xy(name: str | None) -> tuple[int, int] | None:
    return parse_cell(name, WIDTH, HEIGHT)


def encode_view(view: dict[str, Any], seat: str, max_actions: int = DEFAULT_MAX_ACTIONS) -> np.ndarray:
    """The observation planes of ``seat``, built from its view alone."""
    planes = np.zeros(OBSERVATION_SHAPE, dtype=np.float32)
    for el in view["elements"]:
        own = el["side"] == seat
        cell = _xy(el.get("cell"))
        if cell is not None and el.get("alive", True):
            x, y = cell
            planes[y, x, (OWN_KIND if own else ENEMY_KIND) + KINDS.index(el["kind"])] = 1
            if el.get("facing") in FACINGS:
                planes[y, x, FACING + FACINGS.index(el["facing"])] = 1
            planes[y, x, (OWN_SLOT if own else ENEMY_SLOT) + int(el["id"][1:]) - 1] = 1
            if el.get("engaged_by"):
                planes[y, x, ENGAGED] = 1
            if el.get("acted"):
                planes[y, x, ACTED] = 1
        threatened = _xy(el.get("threatens"))
        if threatened is not None:
            tx, ty = threatened
            planes[ty, tx, OWN_THREAT if own else ENEMY_THREAT] = 1
    other = OTHER[seat]
    phase = view["phase"]
    may_act = (phase == "deployment" and not view["ready"][seat]) or (phase == "battle" and view["active"] == seat)
    breaking = max(1, int(view["break_losses"]))
    planes[:, :, IS_NORTH] = seat == "north"
    planes[:, :, PHASE_DEPLOYMENT] = phase == "deployment"
    planes[:, :, PHASE_BATTLE] = phase == "battle"
    planes[:, :, MAY_ACT] = may_act
    planes[:, :, OWN_READY] = bool(view["ready"][seat])
    planes[:, :, ENEMY_READY] = bool(view["ready"][other])
    planes[:, :, OWN_LOSSES] = min(1.0, view["losses"][seat] / breaking)
    planes[:, :, ENEMY_LOSSES] = min(1.0, view["losses"][other] / breaking)
    planes[:, :, CLOCK] = min(1.0, view["version"] / max(1, max_actions))
    return planes


# -- rendering ---------------------------------------------------------------------
KIND_LETTERS = {"general": "G", "chariot": "C", "blade": "B", "bow": "A", "skirmisher": "S"}
ARROWS = {"N": "^", "E": ">", "S": "v", "W": "<"}


def render_view(view: dict[str, Any]) -> str:
    """A text board: kind letter (upper case north, lower case south) and a facing arrow."""
    grid = [[" . " for _ in range(WIDTH)] for _ in range(HEIGHT)]
    for el in view["elements"]:
        cell = _xy(el.get("cell"))
        if cell is None or not el.get("alive", True):
            continue
        letter = KIND_LETTERS.get(el["kind"], "?")
        letter = letter.upper() if el["side"] == "north" else letter.lower()
        grid[cell[1]][cell[0]] = f"{letter}{ARROWS.get(el.get('facing') or '', ' ')} "
    header = "    " + "".join(f" {chr(ord('a') + x)} " for x in range(WIDTH))
    rows = [f"{y + 1:>3} " + "".join(grid[y]) for y in range(HEIGHT)]
    status = f"phase {view['phase']}, turn {view['turn']}, active {view['active']}, losses {view['losses']}"
    if view["phase"] == "deployment":
        status += " (the public view hides every element until both sides are ready)"
    if view.get("outcome"):
        status += f", outcome {view['outcome']}"
    legend = "G general, C chariot, B blade, A bow, S skirmisher; NORTH upper case, south lower case"
    return "\n".join([header, *rows, status, legend])


# -- the environment ---------------------------------------------------------------
def env(render_mode: str | None = None, options: dict[str, Any] | None = None,
        max_actions: int = DEFAULT_MAX_ACTIONS, allow_resign: bool = True) -> AECEnv:
    """The environment with PettingZoo's usual wrappers for a masked Discrete game."""
    wrapped: AECEnv = raw_env(render_mode=render_mode, options=options, max_actions=max_actions,
                              allow_resign=allow_resign)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(KadeshAEC, EzPickle):  # noqa: N801 - PettingZoo's naming
    """Manœuvre, one seat acting at a time; see the module docstring."""

    metadata = {"name": "manoeuvre_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, render_mode: str | None = None, options: dict[str, Any] | None = None,
                 max_actions: int = DEFAULT_MAX_ACTIONS, allow_resign: bool = True) -> None:
        EzPickle.__init__(self, render_mode=render_mode, options=options, max_actions=max_actions,
                          allow_resign=allow_resign)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None")
        if max_actions < 1:
            raise ValueError("max_actions must be at least 1")
        self.render_mode = render_mode
        self.game_options = dict(options or {})
        self.max_actions = int(max_actions)
        self.allow_resign = bool(allow_resign)
        self.possible_agents = list(AGENTS)
        self.agents = []
        self.action_spaces = {agent: spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, OBSERVATION_SHAPE, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (ACTION_COUNT,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }
        self.game = None
        self._np_random: np.random.Generator | None = None
        self._mask_cache: tuple[str, int, np.ndarray] | None = None
        self._views: dict[str, tuple[int, dict[str, Any]]] = {}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the AEC cycle ---------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = self._np_random.bytes(32).hex()
        self.game = new_game(RULESET, seed=game_seed, options=self.game_options)
        self._check_view()
        self._mask_cache, self._views = None, {}
        self._start_episode()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.game is not None
        index = int(action)
        if not 0 <= index < ACTION_COUNT or not self.action_mask(agent)[index]:
            raise ValueError(f"action {index} is not legal for {agent} now")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.game.act(agent, index_to_action(agent, index, self.view(agent)))
        self._after_action()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.game is not None
        view = self.view(agent)
        return {"observation": encode_view(view, agent, self.max_actions), "action_mask": self.action_mask(agent)}

    def action_mask(self, agent: str) -> np.ndarray:
        """1 at each legal action of ``agent`` if it is ``agent_selection`` (resign unless allowed), else 0."""
        assert self.game is not None
        live = (agent in self.agents and agent == self.agent_selection
                and not (self.terminations[agent] or self.truncations[agent]))
        if not live:
            return np.zeros(ACTION_COUNT, dtype=np.int8)
        cache = self._mask_cache
        if cache is None or cache[0] != agent or cache[1] != self.game.version:
            mask = np.zeros(ACTION_COUNT, dtype=np.int8)
            view = self.view(agent)
            for legal in self.game.legal_actions(agent):
                mask[action_to_index(agent, legal, view)] = 1
            if not self.allow_resign:
                mask[RESIGN] = 0
            cache = self._mask_cache = (agent, self.game.version, mask)
        return cache[2].copy()

    def action_of(self, agent: str, index: int) -> dict[str, Any]:
        """The Kadesh action dict that ``index`` stands for, for ``agent`` now."""
        assert self.game is not None
        return index_to_action(agent, index, self.view(agent))

    def index_of(self, agent: str, action: dict[str, Any]) -> int:
        """The index of a Kadesh action dict, for ``agent`` now."""
        assert self.game is not None
        return action_to_index(agent, action, self.view(agent))

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        assert self.game is not None
        return render_view(self.game.view(None))

    # -- helpers -------------------------------------------------------------------

    def _check_view(self) -> None:
        """Refuse a ruleset whose board or armies no longer fit the action table."""
        assert self.game is not None
        view = self.game.view(None)
        expected = {_element_id(seat, k) for seat in AGENTS for k in range(1, ELEMENTS + 1)}
        if (view["board"] != {"width": WIDTH, "height": HEIGHT}
                or {el["id"] for el in view["elements"]} != expected
                or any(el["kind"] not in KINDS for el in view["elements"])
                or list(self.game.seats) != self.possible_agents):
            raise RuntimeError("the manoeuvre ruleset no longer matches manoeuvre_v0's tables")
