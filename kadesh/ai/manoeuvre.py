"""Manœuvre opponents: « Général Maladroit » (greedy, with mistakes) and « Stratège » (search).

Both see only their seat's view: the state they reason on is rebuilt from that view
(``Manoeuvre.state_from_view``), so the enemy's hidden deployment is out of their reach.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from typing import Any

from kadesh.ai.base import Bot, register_bot
from kadesh.ai.mcts import MCTS, Knowledge
from kadesh.ai.turn_clock import TurnClock
from kadesh.core.dice import ScriptedDice
from kadesh.core.grid import (
    DIRECTION,
    LEFT_OF,
    OPPOSITE,
    RIGHT_OF,
    cell_index,
    cell_name,
    chebyshev,
    distance_rows,
    facing_nearest,
    parse_cell,
)
from kadesh.core.ruleset import Action
from kadesh.rules.manoeuvre import combat, rules
from kadesh.rules.manoeuvre.data import OTHER_SIDE, RULES
from kadesh.rules.manoeuvre.state import BATTLE, DEPLOYMENT, OVER, Element, State

# Deployment: the front row from west to east, then the back row; kinds are taken in order.
FRONT_ROW = ["chariot", "bow", "blade", "blade", "blade", "bow", "bow", "chariot"]
BACK_ROW = {"e": "bow", "f": "general", "g": "skirmisher", "d": "blade", "h": "chariot", "i": "bow"}

WIN_VALUE = 100.0
LOSS_WEIGHT = 10.0
# Evaluation points squashed to [-1, 1] for the search: one loss ~0.38, two ~0.66, three ~0.83. At the former 10
# (one loss ~0.76, two ~0.96) a side two losses up or down saw every move alike, and played its last turns blind.
VALUE_SCALE = 25.0
# Stratège's budget is its whole turn, what a player waits for (issue 44): TURN_BUDGET seconds of wall time
# from its turn's first decision, shared among the decisions left (``TurnClock``). Each decision searches
# DEFAULT_ITERATIONS iterations, the same play however busy the machine, unless its share of the turn runs out
# first; on a quiet machine a whole turn of those takes about 1.5-2.5 s, so the share only binds under load.
TURN_BUDGET = 3.0
TURN_RESERVE = 0.2  # of the turn's seconds, kept for what is not search: views, legal actions, the end of turn
DECISION_FLOOR = 0.02  # the least a decision searches (a few iterations), even when the turn's time is spent
DEFAULT_ITERATIONS = 300
ROLLOUT_TURNS = 2  # turns played on from a leaf, attacks only: the other side's reply, then the answer
EXPLORATION = 0.1  # UCT's constant for values squashed at VALUE_SCALE (0.25 at the former 10: the same balance)
DEEP_MOVES = 4  # below the root, the moves or turns searched after the good fights and ending the turn
EXPOSURE_WEIGHT = 3.0  # a flank or rear open to a charge costs about a third of a loss
# A friend behind, facing the same way: +1 in every close combat of the element, attacking or defending, the
# edge that decides most fights (a third of a loss). At 0.3 the search let its line thin out before Maladroit's
# charges. Against Maladroit (150 iterations, the games of seeds 3 and 4): 0.3 won 137 of 160, 1.5 won 145, 3 won
# 154 (and 77 of 80 on seed 5); 5 held the line too long (66 of 80 on seed 3).
SUPPORT_WEIGHT = 3.0


def deployment_plan(view: dict[str, Any], seat: str, mirror: bool) -> dict[str, str]:
    """Element id → cell: blades in the centre of the front row with bows behind, chariots on the wings."""
    front_row, back_row = (RULES.deploy_rows[seat][1], RULES.deploy_rows[seat][0]) if seat == "north" else \
        (RULES.deploy_rows[seat][0], RULES.deploy_rows[seat][1])
    columns = [chr(ord("a") + c) for c in RULES.deploy_columns]
    if mirror:
        columns = columns[::-1]
    wanted = [(kind, f"{col}{front_row + 1}") for kind, col in zip(FRONT_ROW, columns, strict=True)]
    wanted += [(kind, f"{col}{back_row + 1}") for col, kind in BACK_ROW.items()]
    free_back = [f"{col}{back_row + 1}" for col in columns if col not in BACK_ROW]
    mine = [e for e in view["elements"] if e["side"] == seat]
    plan: dict[str, str] = {}
    for kind, cell in wanted:
        match = next((e for e in mine if e["kind"] == kind and e["id"] not in plan), None)
        if match:
            plan[match["id"]] = cell
    for element in mine:
        if element["id"] not in plan:
            plan[element["id"]] = free_back.pop(0)
    return plan


def deployment_action(view: dict[str, Any], seat: str, legal: list[Action], mirror: bool) -> Action:
    plan = deployment_plan(view, seat, mirror)
    placed = {e["id"]: e["cell"] for e in view["elements"] if e["side"] == seat}
    for eid, cell in plan.items():
        action = {"type": "deploy", "element": eid, "cell": cell}
        if placed.get(eid) != cell and action in legal:
            return action
    if {"type": "ready"} in legal:
        return {"type": "ready"}
    return next(a for a in legal if a["type"] == "deploy")


# -- evaluation ---------------------------------------------------------------------------------
def evaluate(state: State, side: str, careful: bool = True) -> float:
    """How good the position is for ``side``: losses first, then threats, support and reach.

    A careless evaluation (Maladroit's) sees only the losses and the way to the enemy."""
    if state.phase == OVER:
        return WIN_VALUE if state.winner == side else -WIN_VALUE
    enemy = OTHER_SIDE[side]
    score = LOSS_WEIGHT * (state.losses[enemy] - state.losses[side])
    on_field = [e for e in state.elements.values() if e.cell is not None and e.alive]
    rows = distance_rows(RULES.width, RULES.height, chebyshev)
    places = {s: [cell_index(e.cell, RULES.height) for e in on_field if e.side == s] for s in (side, enemy)}
    for element in on_field:
        sign = 1.0 if element.side == enemy else -1.0
        score -= sign * _reach_penalty(element, rows[element.cell], places[OTHER_SIDE[element.side]])
        if not careful:
            continue
        danger = _danger(state, element)
        if danger:
            tempo = 1.5 if state.active != element.side else 1.0
            score += sign * danger * tempo * element.kind.loss_value
        if combat.has_rear_support(state, element):
            score -= sign * SUPPORT_WEIGHT
    if not careful:
        return score
    for element in on_field:
        if element.side != state.active:  # the side to move may charge the other's elements
            sign = 1.0 if element.side == enemy else -1.0
            score += sign * EXPOSURE_WEIGHT * _exposure(state, element) * element.kind.loss_value
    return score


def _exposure(state: State, element: Element) -> float:
    """How badly the side to move could charge this element: 1 for a free flank or rear cell
    some enemy can reach, 0.3 for its front; the worst one counts."""
    assert element.cell is not None
    x, y = element.cell
    worst = 0.0
    for enemy in state.elements.values():
        if enemy.side == element.side or enemy.cell is None or not enemy.alive or enemy.acted:
            continue
        ex, ey = enemy.cell
        reach = enemy.kind.move
        if abs(ex - x) + abs(ey - y) > reach + 1:
            continue
        for facing, weight in ((element.facing, 0.3), (LEFT_OF[element.facing], 1.0),
                               (RIGHT_OF[element.facing], 1.0), (OPPOSITE[element.facing], 1.0)):
            if weight <= worst:
                continue
            dx, dy = DIRECTION[facing]
            cx, cy = x + dx, y + dy
            if (cx, cy) == enemy.cell or (abs(ex - cx) + abs(ey - cy) <= reach and (cx, cy) not in state.board
                                          and 0 <= cx < RULES.width and 0 <= cy < RULES.height):
                worst = weight
    return worst


def _danger(state: State, element: Element) -> float:
    """How exposed an element is to the enemies that threaten it (front 1, flank or rear 4)."""
    total = 0.0
    for threat in state.threats_against(element):
        assert threat.cell is not None
        total += 1.0 if combat.aspect(threat.cell, element) == combat.FRONT else 4.0
    return total


def _reach_penalty(element: Element, distances: tuple[int, ...], enemy_places: list[int]) -> float:
    """A little pull towards the enemy, stronger for the mounted who strike from afar. ``distances``: the
    element's ``distance_rows`` row; ``enemy_places``: the enemies' ``cell_index``."""
    # A list rather than a generator: this runs for every element of every evaluated position.
    nearest = min([distances[place] for place in enemy_places]) if enemy_places else 0
    return (0.08 if element.kind.mounted else 0.04) * nearest


def _fight(state: State, action: Action) -> tuple[State, Element, dict[str, int], float]:
    """An attack or shot on a copy, up to the dice: (copy, target, effect counts, summed gain in losses
    and recoils from the attacker's side, to divide by the number of dice pairs)."""
    trial = state.copy()
    attacker, target, close, _ = rules.engage(trial, trial.elements[action["element"]], action)
    _, effects = combat.distribution(trial, attacker, target, close)
    return trial, target, effects, _summed_gain(attacker, target, effects)


def _summed_gain(attacker: Element, target: Element, effects: dict[str, int]) -> float:
    gain = LOSS_WEIGHT * (effects["enemy_destroyed"] * target.kind.loss_value
                          - effects["own_destroyed"] * attacker.kind.loss_value)
    return gain + effects["enemy_recoils"] - effects["own_recoils"]


def fight_value(state: State, side: str, action: Action, careful: bool = True) -> float:
    """The expected evaluation after an attack or shot, over the exact dice distribution."""
    trial, target, effects, gain = _fight(state, action)
    if effects["enemy_destroyed"] and state.losses[target.side] + target.kind.loss_value >= RULES.break_losses:
        gain += WIN_VALUE * effects["enemy_destroyed"] / 2
    return evaluate(trial, side, careful) + gain / sum(effects.values())


def action_value(state: State, side: str, action: Action, careful: bool = True) -> float:
    kind = action["type"]
    if kind in ("attack", "shoot"):
        return fight_value(state, side, action, careful)
    if kind == "end_turn":
        return evaluate(state, side, careful) - 0.05
    trial = state.copy()
    rules.apply(trial, side, action, ScriptedDice([]))
    return evaluate(trial, side, careful)


def plausible(state: State, side: str, legal: list[Action]) -> list[Action]:
    """The actions worth weighing: every fight and end of turn, and moves or turns that end
    facing the nearest enemy (a commander rarely turns his back on the foe)."""
    return list(plausible_among(state, side, legal)) or [a for a in legal if a["type"] != "resign"]


def plausible_among(state: State, side: str, legal: Iterable[Action]) -> Iterator[Action]:
    """``plausible``'s actions one by one, reading ``legal`` no further than asked."""
    enemies = [e.cell for e in state.elements.values() if e.side != side and e.on_field and e.cell is not None]
    rows = distance_rows(RULES.width, RULES.height, chebyshev)
    enemy_places = [cell_index(cell, RULES.height) for cell in enemies]
    facing_for: dict[str, str | None] = {}

    def towards(cell_text: str) -> str | None:
        if cell_text not in facing_for:
            cell = parse_cell(cell_text, RULES.width, RULES.height)
            assert cell is not None
            row = rows[cell]
            distances = [row[place] for place in enemy_places]
            nearest = enemies[distances.index(min(distances))] if enemies else None
            facing_for[cell_text] = facing_nearest(cell, nearest) if nearest else None
        return facing_for[cell_text]

    for action in legal:
        kind = action["type"]
        if kind == "resign":
            continue
        if kind == "move" and action["facing"] != towards(action["to"]):
            continue
        if kind == "turn":
            element = state.elements[action["element"]]
            assert element.cell is not None
            if action["facing"] != towards(cell_name(element.cell)) and not state.threats_against(element):
                continue
        yield action


def ranked_actions(state: State, side: str, legal: list[Action], careful: bool = True) -> list[tuple[float, Action]]:
    scored = [(action_value(state, side, a, careful), a) for a in plausible(state, side, legal)]
    scored.sort(key=lambda pair: pair[0], reverse=True)
    return scored


# -- bots ---------------------------------------------------------------------------------------
class ManoeuvreBot(Bot):
    """Deploys in formation; in battle, ``decide`` picks among the actions that are not resigning."""

    def __init__(self, ruleset: str, seed: int | None = None, budget: float | None = None) -> None:
        super().__init__(ruleset, seed, budget)
        self.mirror = self.rng.random() < 0.5

    def choose(self, view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
        if view["phase"] == DEPLOYMENT:
            return deployment_action(view, seat, legal, self.mirror)
        playable = [a for a in legal if a["type"] != "resign"]
        if len(playable) <= 1:
            return playable[0] if playable else legal[0]
        return self.decide(view, seat, playable)

    def decide(self, view: dict[str, Any], seat: str, playable: list[Action]) -> Action:
        raise NotImplementedError


@register_bot("manoeuvre", "maladroit")
class Maladroit(ManoeuvreBot):
    """« Général Maladroit »: the best-looking single action, but a mistake now and then."""

    level = "maladroit"
    title = {"fr": "Général Maladroit", "en": "General Clumsy"}
    hint = {"fr": "facile : il prend le coup qui paraît le meilleur, sans voir plus loin, et se trompe parfois",
            "en": "easy: it takes the move that looks best, without looking further, and blunders now and then"}

    def __init__(self, ruleset: str, seed: int | None = None, budget: float | None = None,
                 blunder: float = 0.15) -> None:
        super().__init__(ruleset, seed, budget)
        self.blunder = blunder

    def decide(self, view: dict[str, Any], seat: str, playable: list[Action]) -> Action:
        if self.rng.random() < self.blunder:
            return self.rng.choice([a for a in playable if a["type"] != "end_turn"] or playable)
        state = self.rules.state_from_view(view, seat)
        ranked = ranked_actions(state, seat, playable, careful=False)
        best = ranked[0][0]
        return self.rng.choice([a for value, a in ranked if value >= best - 1e-9])


def fight_gain(state: State, action: Action) -> float:
    """The expected change in losses (and recoils) of a legal attack or shot, from the attacker's side.

    The search's hottest path: worked out on ``state`` itself, which is put back as it was, without the checks
    of ``rules.engage`` (the search's actions are legal ones) or a copy of the whole state."""
    attacker, target = state.elements[action["element"]], state.elements[action["target"]]
    cell, facing, acted = attacker.cell, attacker.facing, attacker.acted
    origin = None if action["type"] == "shoot" else \
        parse_cell(action["from"], RULES.width, RULES.height) if "from" in action else cell
    try:
        _, _, close, _ = rules.close_in(state, attacker, target, origin)
        _, effects = combat.distribution(state, attacker, target, close)
    finally:
        state.place(attacker, cell)
        attacker.facing, attacker.acted = facing, acted
    return _summed_gain(attacker, target, effects) / sum(effects.values())


class ManoeuvreKnowledge(Knowledge):
    """What Stratège's search knows of Manœuvre: the evaluation and which actions to try first."""

    def __init__(self, width: int = 12) -> None:
        self.width = width

    def value(self, state: State, seat: str) -> float:
        return math.tanh(evaluate(state, seat) / VALUE_SCALE)

    def values(self, state: State, seats: set[str]) -> dict[str, float]:
        """The evaluation is zero-sum (every term counts for one side what it costs the other)."""
        first = next(iter(seats))
        worth = self.value(state, first)
        return {seat: worth if seat == first else -worth for seat in seats}

    def candidates(self, state: State, seat: str, legal: Iterable[Action], root: bool = False) -> list[Action]:
        if root:
            ranked = [a for _, a in ranked_actions(state, seat, list(legal))[: self.width]]
        else:  # deeper down, a cheap order: good fights, then ending the turn, then the first few moves
            # The fights are the legal ones in the legal order (``fight_actions``), and the moves are read from
            # ``legal`` only until there are enough: the search expands a node at nearly every iteration.
            gains = [(fight_gain(state, a), a) for a in rules.fight_actions(state, seat)]
            gains.sort(key=lambda pair: pair[0], reverse=True)  # stable: equal gains keep the legal order
            moves = (a for a in plausible_among(state, seat, legal) if a["type"] in ("move", "turn"))
            ranked = [a for gain, a in gains if gain > 0] + [{"type": "end_turn"}] + list(islice(moves, DEEP_MOVES))
        if not any(a["type"] == "end_turn" for a in ranked):
            ranked.append({"type": "end_turn"})
        return ranked

    def outcome_key(self, events: list) -> str:
        return repr([(e.type, e.data.get("result"), e.data.get("loser"), e.data.get("cause"),
                      e.data.get("recoil_to"), e.data.get("to")) for e in events if e.type != "roll"])

    def rollout(self, rules_: Any, state: State, seat: str, dice: Any) -> None:
        """Finish the current turn; the other side makes its good attacks, once each; then the
        side that was moving answers with its own. The answer is what values the initiative:
        a position that will charge next turn is worth more than one that only waits."""
        if state.phase != BATTLE:
            return
        side = state.active
        assert side is not None
        for _ in range(ROLLOUT_TURNS):
            rules.apply(state, side, {"type": "end_turn"}, dice)
            side = OTHER_SIDE[side]
            good_attacks(state, side, dice)
            if state.phase != BATTLE:
                return


def good_attacks(state: State, side: str, dice: Any, most: int = 4) -> None:
    """Play ``side``'s best attack or shot by expected gain while one gains anything, ``most`` times."""
    for _ in range(most):
        if state.phase != BATTLE:
            return
        best = max(((fight_gain(state, a), a) for a in rules.fight_actions(state, side)),
                   key=lambda pair: pair[0], default=None)
        if best is None or best[0] <= 0:
            return
        rules.apply(state, side, best[1], dice)


@register_bot("manoeuvre", "stratege")
class Stratege(ManoeuvreBot):
    """« Stratège »: Monte Carlo tree search with chance nodes for the dice. By default ``iterations`` per
    decision within a budget per turn (``turn_budget`` seconds shared among the turn's decisions). ``budget``
    (a time per action, as ``kadesh serve --bot-budget`` gives) searches that long at every decision instead,
    with no turn budget; ``iterations`` with ``budget``: that many within it."""

    level = "stratege"
    title = {"fr": "Stratège", "en": "Strategist"}
    hint = {"fr": "fort : il pèse les chances de chaque combat et de la suite ; il bat Maladroit neuf fois sur dix",
            "en": "strong: it weighs the odds of every fight and what follows; it beats Clumsy nine times in ten"}

    def __init__(self, ruleset: str, seed: int | None = None, budget: float | None = None,
                 iterations: int | None = None, turn_budget: float = TURN_BUDGET,
                 clock: Callable[[], float] | None = None) -> None:
        super().__init__(ruleset, seed, budget)
        if budget is None:
            self.turn: TurnClock | None = TurnClock(turn_budget - TURN_RESERVE, DECISION_FLOOR, clock)
            iterations = DEFAULT_ITERATIONS if iterations is None else iterations
        else:
            self.turn = None
        self.search = MCTS(self.rules, ManoeuvreKnowledge(), budget=budget or turn_budget, iterations=iterations,
                           rng=self.rng, clock=clock, exploration=EXPLORATION)
        self._told_start: float | None = None

    def searches(self) -> tuple[int, int]:
        return self.search.searches, self.search.cut_short

    def turn_started(self, seconds_ago: float) -> None:
        if self.turn is not None:
            self._told_start = self.turn.now() - max(0.0, seconds_ago)

    def decide(self, view: dict[str, Any], seat: str, playable: list[Action]) -> Action:
        started = self.search.now()
        budget = None
        if self.turn is not None:
            self.turn.begin((seat, view["turn"]), self._told_start)
            self._told_start = None
            budget = self.turn.share(decisions_left(view, seat))
        return self.search.best_action(self.rules.state_from_view(view, seat), seat, playable, started, budget)


def decisions_left(view: dict[str, Any], seat: str) -> int:
    """At most how many more decisions this turn holds, this one included: one for each element of ``seat`` on
    the field that has not acted (ending the turn is one of them, or comes when no choice is left)."""
    return sum(1 for e in view["elements"] if e["side"] == seat and e["cell"] is not None and e["alive"]
               and not e.get("acted"))
