"""The baseline: a uniformly random legal action (never resigning while it has another)."""

from __future__ import annotations

from typing import Any

from kadesh.ai.base import Bot, has_bot, register_bot
from kadesh.core.registry import all_rulesets
from kadesh.core.ruleset import Action


class RandomBot(Bot):
    level = "random"
    title = {"fr": "Hasard", "en": "Random"}

    def choose(self, view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
        choices = [a for a in legal if a.get("type") != "resign"] or legal
        return self.rng.choice(choices)


for _name in all_rulesets():
    if not has_bot(_name, "random"):  # Front has its own (kadesh/ai/front.py)
        register_bot(_name, "random")(RandomBot)
