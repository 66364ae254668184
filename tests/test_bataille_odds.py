"""Bataille's simple generals, and the odds of a set-up: `kadesh odds bataille`."""

from __future__ import annotations

from typer.testing import CliRunner

from kadesh import new_game
from kadesh.ai.base import levels, make_bot, play_turn_of
from kadesh.ai.bataille import battle_odds
from kadesh.cli import app

SETUP = {"north": {"troop": "nubian_bowmen"}, "south": {"troop": "chariots"}}


def test_the_generals_always_choose_a_legal_decision_and_battles_end():
    assert {"bold", "careful", "random"} <= set(levels("bataille"))
    for seed in range(30):
        game = new_game("bataille", seed=seed, options=SETUP)
        generals = {"north": make_bot("bataille", "careful", seed=seed), "south": make_bot("bataille", "bold")}
        while game.outcome is None:
            seat = game.to_act()[0]
            view, legal = game.view(seat), game.legal_actions(seat)
            assert generals[seat].choose(view, seat, legal) in legal
            play_turn_of(game, seat, generals[seat])
        assert game.outcome["reason"]


def test_odds_count_every_battle_and_repeat_with_the_same_seed():
    first = battle_odds(SETUP, {"north": "careful", "south": "bold"}, games=300, seed=4)
    again = battle_odds(SETUP, {"north": "careful", "south": "bold"}, games=300, seed=4)
    assert first.games == 300 and sum(first.holds.values()) == 300 == sum(first.reasons.values())
    assert first.to_dict() == again.to_dict()
    endings = first.to_dict()["endings"]  # exclusive: each battle one way, and who holds the field then
    assert sum(e["games"] for e in endings) == 300
    for side in ("north", "south", "nobody"):
        assert sum(e["games"] for e in endings if e["holds"] == side) == first.holds[side]
    histogram = first.to_dict()["histogram"]["south"]
    assert sum(count for _, _, count in histogram) == 300


def test_kadesh_odds_prints_the_distribution_and_draws_a_png(tmp_path):
    chart = tmp_path / "odds.png"
    result = CliRunner().invoke(app, ["odds", "bataille", "--north", "archers", "--south", "spearmen", "--games", "300",
                                      "--png", str(chart), "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "Holds the field" in result.output and "mean losses" in result.output
    assert chart.read_bytes().startswith(b"\x89PNG")
    refused = CliRunner().invoke(app, ["odds", "bataille", "--north", "elephants", "--games", "10"])
    assert refused.exit_code == 1 and "elephants" in refused.output


def test_kadesh_odds_on_a_field_speaks_words_not_codes_and_its_endings_add_up():
    """Issue 59: « Fin nightfall », « field_cleared », and a night « sans issue » beside a side holding the field."""
    result = CliRunner().invoke(app, ["odds", "bataille", "--field", "kadesh", "--games", "40"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "40 batailles : La plaine de Kadesh\n" in out and "Comment elles finissent" in out  # one line
    for code in ("nightfall", "field_cleared", "Fin ", "kadesh ", "sans issue"):
        assert code not in out
    shares = [float(line.split("%")[0].replace(",", ".")) for line in out.splitlines()
              if line.startswith("  ") and " % : " in line]
    assert shares and abs(sum(shares) - 100) < 0.5
    assert "la nuit tombe ; le Nord, plus nombreux sur le terrain, le tient" in out
