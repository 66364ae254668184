"""A Bataille field played through the store, for the browser tests and the documentation's screenshots."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def field_battle(store: Any, seed: str, stop: Callable[[Any], bool] = lambda game: False) -> Any:
    """A battle on the plain of Kadesh, both sides played by « Prudent » until ``stop(game)`` holds."""
    from kadesh.ai.base import make_bot

    created = store.create_game("bataille", options={"field": "kadesh"}, seed=seed)
    general, version = make_bot("bataille", "careful"), 0
    for _ in range(400):
        with store.game(created.id) as game:
            if game.outcome is not None or stop(game):
                break
            seat = game.to_act()[0]
            action = general.choose(game.view(seat), seat, game.legal_actions(seat))
        version = store.act(created.id, seat, version, action).version
    return created
