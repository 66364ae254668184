"""The baseline: a uniformly random legal action (never resigning while it has another).

``kadesh.ai.base`` gives it to every ruleset that has no random bot of its own (Front has one:
kadesh/ai/front.py)."""

from __future__ import annotations

from typing import Any

from kadesh.ai.bot import Bot
from kadesh.core.ruleset import Action


class RandomBot(Bot):
    level = "random"
    title = {"fr": "Hasard", "en": "Random"}
    hint = {"fr": "le plus faible : il joue au hasard, pour découvrir les règles sans pression",
            "en": "the weakest: it plays at random, to learn the rules without pressure"}

    def choose(self, view: dict[str, Any], seat: str, legal: list[Action]) -> Action:
        choices = [a for a in legal if a.get("type") != "resign"] or legal
        return self.rng.choice(choices)
