"""What Kadesh's PettingZoo environments share: an episode's bookkeeping around one ``Game``, the end of a game
(+1 / −1, or a truncation after ``max_actions``), and whose turn it is."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from kadesh.core import Game


class KadeshAEC(AECEnv):
    """An AEC environment over one game of a ruleset: the subclass makes ``self.game`` and plays actions."""

    game: Game | None
    max_actions: int
    _views: dict[str, tuple[int, dict[str, Any]]]  # agent → (version, its view), emptied with each new game

    def view(self, agent: str) -> dict[str, Any]:
        """``game.view(agent)``, kept while the game does not change (observed, masked, then stepped)."""
        assert self.game is not None
        cached = self._views.get(agent)
        if cached is None or cached[0] != self.game.version:
            cached = self._views[agent] = (self.game.version, self.game.view(agent))
        return cached[1]

    def _start_episode(self) -> None:
        """Fresh rewards, ends and infos for every agent, once ``self.game`` is a new game."""
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._next_agent()

    def _after_action(self) -> None:
        """Once an action is played: the end of the game (+1 to the winner, −1 to the others, 0 for all if nobody
        wins), a truncation after ``max_actions``, or the next agent."""
        assert self.game is not None
        outcome = self.game.outcome
        if outcome is not None:
            winner = outcome.get("winner")
            for seat in self.agents:
                self.rewards[seat] = 0.0 if winner is None else (1.0 if seat == winner else -1.0)
                self.terminations[seat] = True
                self.infos[seat] = {"outcome": outcome}
        elif self.game.version >= self.max_actions:
            for seat in self.agents:
                self.truncations[seat] = True
                self.infos[seat] = {"outcome": None}
        else:
            self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        assert self.game is not None
        to_act = self.game.to_act()
        if not to_act:
            raise RuntimeError(f"no seat may act but the game has no outcome (version {self.game.version})")
        return to_act[0]

    def close(self) -> None:
        pass
