"""Front: a side may resign (issue 59), as in Manœuvre: at any time while the battle runs, whoever's turn it is; the
other side wins, and the journal says why in both languages. The computer opponents never give up."""

from __future__ import annotations

import pytest

from kadesh import new_game
from kadesh.ai.base import make_bot, play_turn_of
from kadesh.core.errors import GAME_OVER, RuleError

RESIGN = {"type": "resign"}


def test_either_side_may_resign_at_any_time_and_the_other_side_wins():
    game = new_game("front", seed=59, options={"scenario": "test_small"})
    assert game.legal_actions("blue")[-2:] == [{"type": "end_turn"}, RESIGN]  # its turn: its orders, then these
    assert game.legal_actions("red") == [RESIGN]  # not its turn: resigning only
    game.act("red", RESIGN)  # during Blue's turn
    assert game.outcome == {"winner": "blue", "reason": "resignation"}
    assert game.to_act() == [] and game.legal_actions("blue") == game.legal_actions("red") == []
    for reader in ("blue", "red", None):  # the whole table reads it
        assert game.journal(reader)[-2:] == ["Rouge abandonne la bataille.",
                                             "Fin de la bataille : Bleu l'emporte, l'adversaire ayant abandonné."]
        assert game.journal(reader, "en")[-2:] == ["Red resigns the battle.",
                                                   "The battle is over: Blue wins, the enemy having resigned."]
    with pytest.raises(RuleError) as refused:
        game.act("blue", RESIGN)
    assert refused.value.code == GAME_OVER


def test_the_side_to_play_may_resign_in_the_middle_of_its_turn():
    game = new_game("front", seed=59, options={"scenario": "test_small"})
    game.act("blue", {"type": "end_turn"})
    game.act("red", next(a for a in game.legal_actions("red") if a["type"] == "move"))
    game.act("red", RESIGN)
    assert game.outcome == {"winner": "blue", "reason": "resignation"}


@pytest.mark.parametrize("level", ["random", "maladroit", "etat_major"])
def test_the_computer_never_resigns(level):
    """Each level plays some forty orders of both sides: resigning is legal all along, never chosen."""
    game = new_game("front", seed=59, options={"scenario": "test_small"})
    bots = {side: make_bot("front", level, seed=index) for index, side in enumerate(("blue", "red"))}
    for _ in range(40):
        if game.outcome is not None:
            break
        seat = game.to_act()[0]
        assert RESIGN in game.legal_actions(seat)
        play_turn_of(game, seat, bots[seat])
    assert all(entry["action"] != RESIGN for entry in game.actions)
