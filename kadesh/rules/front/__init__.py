"""Front: a modern combined-arms tactical game (seed text 003), on the ground (issue 9).
Aircraft, overwatch and patrol fire, missions, the full browser interface and the computer
opponent come with later issues."""

from kadesh.core.registry import register
from kadesh.rules.front.ruleset import Front

register(Front)

__all__ = ["Front"]
