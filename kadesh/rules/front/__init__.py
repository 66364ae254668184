"""Front: a modern combined-arms tactical game (seed text 003): the war on the ground, fire during
the enemy's turn, missions and scenarios of one's own. Aircraft, the full browser interface and
the computer opponents come with later issues."""

from kadesh.rules.front.ruleset import Front

__all__ = ["Front"]
