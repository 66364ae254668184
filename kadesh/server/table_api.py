"""The table around the games (issue 42): claiming a win on time, the leaderboards and a player's ratings.

A game's time per move and whether it is rated are set when it is made (``POST /api/games``) and shown with
the game (``GET /api/games/{id}``: ``table``). Ratings are openskill's (``kadesh.store.ratings``): a page shows
60 × mu, provisional while uncertain.
"""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from kadesh.core import all_rulesets
from kadesh.server.accounts_api import SeatHolder, players_of
from kadesh.server.api import StoreDep, problems, seat_view
from kadesh.server.auth import AuthHeader, GameId, TokenQuery, account_of, bearer
from kadesh.server.models import ActionOut, JsonObject
from kadesh.server.open_games_api import HIDDEN_OPTIONS
from kadesh.server.problems import ApiProblem
from kadesh.store import Store
from kadesh.store.ratings import Rating
from kadesh.store.table import public_games

router = APIRouter()

RulesetName = Annotated[str, Path(max_length=64)]


class RatingOut(BaseModel):
    rating: int = Field(description="60 × mu: 1500 for a newcomer")
    provisional: bool = Field(description="Whether it is still uncertain (a page marks it « ? »)")
    games: int = Field(description="Rated games played in this ruleset")


class StandingOut(RatingOut):
    rank: int
    name: str


class RatingPoint(BaseModel):
    at: str | None = Field(description="When the game that moved it was taken into account, UTC; null for the "
                                       "starting point")
    rating: int
    provisional: bool


class PlayerRatingOut(RatingOut):
    ruleset: str
    history: list[RatingPoint] = Field(description="The rating after each rated game (the latest 200), oldest "
                                                   "first, starting from the newcomer's")


class WatchedGameOut(BaseModel):
    id: str
    ruleset: str
    options: JsonObject = Field(description="The game's options, but a text of the creator's own")
    own_scenario: bool
    players: list[SeatHolder]
    version: int
    to_act: list[str]
    days_per_move: float | None
    rated: bool
    started: str = Field(description="When the game was made, UTC")
    view: JsonObject = Field(description="What a spectator sees, no more: the page draws its board from it")


def rating_out(rating: Rating) -> dict:
    return {"rating": rating.shown, "provisional": rating.provisional, "games": rating.games}


@router.post("/api/games/{game_id}/timeout", response_model=ActionOut, tags=["play"],
             responses=problems(400, 401, 403, 404, 409, 413, 415, 422, 429))
async def claim_on_time(game_id: GameId, request: Request, token: TokenQuery = None,
                        authorization: AuthHeader = None) -> Response:
    """Claim the win: a side to act (not yours) ran out of its time per move. The game ends as its loss, rated
    if the game is. 409 ``not_late`` while it still has time."""
    state = request.app.state
    given = token or bearer(authorization)
    player_id = await run_in_threadpool(account_of, request, state.store, given)
    access, result = await run_in_threadpool(state.store.claim_on_time, game_id, given, player_id)
    state.notifier.publish(game_id, result.version)
    state.workers.ensure()  # the rating's job, and the notices
    with state.store.game(game_id) as game:
        view = seat_view(game, access.seat)
    events = [event.to_dict() for event in result.events if event.visible_to(access.seat)]
    return Response(json.dumps({"version": result.version, "events": events, "view": view}, separators=(",", ":")),
                    media_type="application/json")


@router.get("/api/leaderboards/{ruleset}", response_model=list[StandingOut], tags=["ratings"],
            responses=problems(404, 422, 429))
def leaderboard(ruleset: RulesetName, store: StoreDep) -> list[StandingOut]:
    """The 50 best ratings of a ruleset, highest first (provisional ones included, and marked)."""
    if ruleset not in all_rulesets():
        raise ApiProblem(404, "unknown_ruleset", "Jeu inconnu.", "Unknown game.")
    return [StandingOut(rank=rank, name=standing.name, **rating_out(standing.rating))
            for rank, standing in enumerate(store.ratings.leaderboard(ruleset), start=1)]


@router.get("/api/players/{name}/ratings", response_model=list[PlayerRatingOut], tags=["ratings"],
            responses=problems(404, 422, 429))
def player_ratings(name: Annotated[str, Path(max_length=64)], store: StoreDep) -> list[PlayerRatingOut]:
    """A player's rating in each ruleset they played rated games of, with its history."""
    player = store.accounts.by_name(name)
    if player is None:
        raise ApiProblem(404, "unknown_player", "Joueur inconnu.", "Unknown player.")
    return [PlayerRatingOut(ruleset=ruleset, history=history(store, player.id, ruleset), **rating_out(rating))
            for ruleset, rating in sorted(store.ratings.of(player.id).items())]


def history(store: Store, player_id: str, ruleset: str) -> list[RatingPoint]:
    changes = store.ratings.history(player_id, ruleset)
    if not changes:
        return []
    start = changes[0].before
    return [RatingPoint(at=None, rating=start.shown, provisional=start.provisional)] + [
        RatingPoint(at=change.at, rating=change.after.shown, provisional=change.after.provisional)
        for change in changes]


@router.get("/api/watch", response_model=list[WatchedGameOut], tags=["watch"], responses=problems(429))
def games_to_watch(store: StoreDep) -> list[WatchedGameOut]:
    """The public games in progress (opened to others, or rated; every seat taken), the latest first (30 at most),
    each as a spectator sees it. ``GET /api/games/{id}`` and its socket answer anyone a public game's spectator view."""
    watched = []
    for game_id in public_games(store.engine):
        if store.open_seats.of_game(game_id):
            continue  # still waiting for its players: in « Parties ouvertes », not yet under way
        table = store.tables.of(game_id)
        with store.game(game_id) as game:
            if game.outcome is not None:
                continue
            ruleset, seats, version, to_act = game.ruleset.name, list(game.seats), game.version, game.to_act()
            options, view = dict(game.options), game.view(None)
        watched.append(WatchedGameOut(
            id=game_id, ruleset=ruleset, own_scenario=any(options.get(k) for k in HIDDEN_OPTIONS),
            options={k: v for k, v in options.items() if k not in HIDDEN_OPTIONS},
            players=players_of(store, game_id, seats), version=version, to_act=to_act,
            days_per_move=table.days_per_move, rated=table.rated, started=store.created_at(game_id) or "", view=view))
    return watched
