"""Bataille's simple generals, and the odds of a set-up by simulating it many times.

« Téméraire » always attacks, pursues and goes on pursuing; on a field, every group advances.
« Prudent » attacks only when its melee is the stronger, pursues only an enemy that cannot outrun
it, and stops a pursuit once it has lost a third of its men; on a field, its bows close to their
range and shoot, its foot advance only on a weaker enemy, look for one in the next lane when their
own is empty, and a group that has lost half its men draws back. Both read only their seat's view
and command a whole side.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from kadesh.ai.base import Bot, make_bot, register_bot, register_simulator
from kadesh.core.dice import SeededDice
from kadesh.core.registry import get_ruleset
from kadesh.core.ruleset import Action
from kadesh.rules.bataille.field import EXPECTED, FieldState

SIDES = ("north", "south")


def _other(seat: str) -> str:
    return "south" if seat == "north" else "north"


@register_bot("bataille", "bold")
class Bold(Bot):
    level = "bold"
    title = {"fr": "Téméraire", "en": "Bold"}
    hint = {"fr": "le plus simple : il attaque toujours et poursuit toujours, quoi qu'il en coûte",
            "en": "the simpler: it always attacks and always pursues, whatever it costs"}

    def choose(self, view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
        for wanted in ({"type": "stance", "stance": "attack"}, {"type": "pursue"}, {"type": "ready"}):
            if wanted in legal:
                return wanted
        return next((a for a in legal if a.get("order") == "advance"), legal[0])


@register_bot("bataille", "careful")
class Careful(Bot):
    level = "careful"
    title = {"fr": "Prudent", "en": "Careful"}
    hint = {"fr": "le plus réfléchi : il n'attaque qu'en étant le plus fort, ne poursuit que plus rapide",
            "en": "the more thoughtful: it attacks only when stronger, pursues only when faster"}

    def choose(self, view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
        if view["phase"] == "orders":
            group = view["groups"][legal[0]["group"]]
            return {"type": "order", "group": group["id"], "order": field_order(view, group)}
        own, enemy = engaged(view, seat)
        if view["phase"] == "stance":
            stronger = own["strength"] * own["melee"] >= enemy["strength"] * enemy["melee"]
            return {"type": "stance", "stance": "attack" if stronger else "hold"}
        if view["phase"] == "pursue":
            return {"type": "pursue"} if own["speed"] >= enemy["speed"] else {"type": "let_go"}
        if view["phase"] == "continue":
            return {"type": "pursue"} if own["strength"] * 3 > own["initial"] * 2 else {"type": "stop"}
        return legal[0]


def engaged(view: dict[str, Any], seat: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The seat's group and the enemy's in the fight being decided (on a field, the engagement's)."""
    if view.get("mode") == "field":
        engagement = view["engagement"]
        return view["groups"][engagement[seat]], view["groups"][engagement[_other(seat)]]
    return view["groups"][seat], view["groups"][_other(seat)]


def _enemy_ahead(view: dict[str, Any], group: dict[str, Any], lane: str) -> tuple[dict[str, Any] | None, int]:
    """The nearest enemy group on the field in a lane, and how far it is."""
    enemies = [g for g in view["groups"].values() if g["side"] != group["side"] and g["where"] == "field"
               and g["lane"] == lane]
    if not enemies:
        return None, 0
    nearest = min(enemies, key=lambda g: abs(g["pos"] - group["pos"]))
    return nearest, abs(nearest["pos"] - group["pos"])


def field_order(view: dict[str, Any], group: dict[str, Any]) -> str:
    """Prudent's order to one group on a field."""
    if len(group["orders"]) == 1:  # locked in a melee that goes on (issue 45): nothing to choose
        return group["orders"][0]
    if group["strength"] * 2 < group["initial"]:
        return "withdraw"
    enemy, gap = _enemy_ahead(view, group, group["lane"])
    if enemy is None:
        for shift in ("west", "east"):
            lanes = view["field"]["lanes"]
            index = lanes.index(group["lane"]) + (-1 if shift == "west" else 1)
            if shift in group["orders"] and _enemy_ahead(view, group, lanes[index])[0] is not None:
                return shift
        return "hold"
    if group["reach"] > 0 and group["melee"] * group["strength"] < enemy["melee"] * enemy["strength"]:
        return "close" if gap > group["range"] else "hold"
    stronger = group["strength"] * group["melee"] >= enemy["strength"] * enemy["melee"]
    if "close" in group["orders"] and gap > group["range"]:
        return "close"
    return "advance" if stronger else "hold"


@dataclass
class Odds:
    """What many runs of one set-up gave: who held the field, why it ended, the losses."""

    games: int = 0
    holds: Counter = field(default_factory=Counter)     # "north", "south" or "nobody"
    reasons: Counter = field(default_factory=Counter)
    endings: Counter = field(default_factory=Counter)   # (reason, who holds the field): exclusive, they add up
    losses: dict[str, list[int]] = field(default_factory=lambda: {s: [] for s in SIDES})

    def share(self, key: str) -> float:
        return self.holds[key] / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"games": self.games, "holds_field": {k: self.holds[k] for k in ("north", "south", "nobody")},
                "reasons": dict(self.reasons.most_common()),
                "endings": [{"reason": reason, "holds": holds, "games": count}
                            for (reason, holds), count in self.endings.most_common()],
                "mean_losses": {s: sum(v) / len(v) if v else 0.0 for s, v in self.losses.items()},
                "losses": {s: list(v) for s, v in self.losses.items()},
                "histogram": {s: _histogram(v) for s, v in self.losses.items()}}


def _histogram(values: list[int], bins: int = 10) -> list[list[int]]:
    """[[low, high, count], …] over 0 … max, for the page's chart."""
    top = max(values, default=0) + 1
    width = max(1, -(-top // bins))
    counts = Counter(v // width for v in values)
    return [[b * width, (b + 1) * width - 1, counts[b]] for b in range(-(-top // width))]


def battle_odds(options: dict[str, Any], generals: dict[str, str], games: int = 10_000, seed: int = 0,
                progress: Callable[[int], None] | None = None) -> Odds:
    """Fight the set-up ``games`` times with these bot levels, each game on its own seeded dice."""
    rules = get_ruleset("bataille")
    normalized = rules.normalize_options(options)
    rng = random.Random(seed)
    bots = {side: make_bot("bataille", generals[side], seed=rng.randrange(2**32)) for side in SIDES}
    odds = Odds()
    for number in range(games):
        state = rules.setup(normalized)
        dice = SeededDice(f"{seed}:{number}")
        while (result := rules.outcome(state)) is None:
            seat = rules.to_act(state)[0]
            legal = list(rules.legal_actions(state, seat))
            rules.apply(state, seat, bots[seat].choose(rules.view(state, seat), seat, legal), dice)
        odds.games += 1
        holds = result["winner"] or "nobody"
        odds.holds[holds] += 1
        odds.reasons[result["reason"]] += 1
        odds.endings[result["reason"], holds] += 1
        for side in SIDES:
            odds.losses[side].append(men_lost(state, side))
        if progress and (number + 1) % 100 == 0:
            progress(number + 1)
    return odds


def men_lost(state: Any, side: str) -> int:
    """Men a side lost: its group's in a duel; on a field, those of every group that fought."""
    if isinstance(state, FieldState):
        return sum(g.initial - g.strength for g in state.groups.values()
                   if g.side == side and state.where[g.id] != EXPECTED)
    return state.groups[side].initial - state.groups[side].strength


@register_simulator("bataille")
def simulate(options: dict[str, Any], seats: dict[str, str], games: int, seed: int) -> dict[str, Any]:
    """The odds of a set-up, for the API: each seat played by the named bot level."""
    return battle_odds(options, seats, games, seed).to_dict()


def odds_chart(odds: Odds, names: dict[str, str], path: str) -> None:
    """The outcome and losses as a PNG (matplotlib, no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (held, lost) = plt.subplots(1, 2, figsize=(10, 4))
    keys = ["north", "south", "nobody"]
    held.bar([names.get(k, k) for k in keys], [100 * odds.share(k) for k in keys], color=["#2f5d8a", "#9a3b2e", "#999"])
    held.set_ylabel("%")
    held.set_title(names.get("held", "Holds the field"))
    for side, colour in (("north", "#2f5d8a"), ("south", "#9a3b2e")):
        lost.hist(odds.losses[side], bins=20, alpha=0.6, color=colour, label=names.get(side, side))
    lost.set_title(names.get("lost", "Men lost"))
    lost.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
