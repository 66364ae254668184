"""The ``kadesh`` command line."""

from __future__ import annotations

import random

import typer
from rich.console import Console

from kadesh.core import all_rulesets, new_game

app = typer.Typer(help="Kadesh: turn-based wargames, every die roll on the record.", no_args_is_help=True)
console = Console()


@app.callback()
def main() -> None:
    """Kadesh: turn-based wargames, every die roll on the record."""


def random_playout(game, rng: random.Random, max_actions: int = 100_000) -> None:
    """Play random legal actions (never resigning) until the game ends."""
    for _ in range(max_actions):
        if game.outcome is not None:
            return
        seat = game.to_act()[0]
        choices = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
        game.act(seat, rng.choice(choices))


@app.command()
def simulate(
    ruleset: str = typer.Argument(..., help="Ruleset name, e.g. manoeuvre"),
    seed: int = typer.Option(0, help="Seed of the dice and of the random players"),
    lang: str = typer.Option("fr", help="Journal language: fr or en"),
) -> None:
    """Play a whole game between two random players and print its narrated journal."""
    if ruleset not in all_rulesets():
        raise typer.BadParameter(f"unknown ruleset {ruleset!r}; known: {', '.join(all_rulesets())}")
    game = new_game(ruleset, seed=seed)
    random_playout(game, random.Random(seed))
    for line in game.journal(None, lang=lang):
        console.print(line, highlight=False, soft_wrap=True)
    console.print(f"[bold]{game.outcome}[/bold]")


if __name__ == "__main__":
    app()
