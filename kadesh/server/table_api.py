"""The table around the games (issue 42): claiming a win on time, the leaderboards and a player's ratings.

A game's time per move and whether it is rated are set when it is made (``POST /api/games``) and shown with
the game (``GET /api/games/{id}``: ``table``). Ratings are openskill's (``kadesh.store.ratings``): a page shows
60 × mu, provisional while uncertain.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from kadesh.core import Ruleset, all_rulesets, get_ruleset
from kadesh.server.account_notices import base_url, follow
from kadesh.server.accounts_api import SeatHolder, players_of
from kadesh.server.api import StoreDep, problems, seat_view
from kadesh.server.auth import AuthHeader, GameId, TokenQuery, account_of, bearer
from kadesh.server.identity import check_same_site, not_signed_in, signed_in
from kadesh.server.models import ActionOut, JsonObject
from kadesh.server.open_games_api import HIDDEN_OPTIONS, ShelfMapName, shelf_map_name
from kadesh.server.problems import ApiProblem
from kadesh.store import SEAT, Store
from kadesh.store.accounts import Player
from kadesh.store.pairing import Place
from kadesh.store.ratings import NEW, Rating
from kadesh.store.table import DAY, TableSettings, public_games

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
    map: ShelfMapName | None = Field(None, description="The map of the shelf it is played on (/api/maps), if any")
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
    public = public_games(store.engine)
    on_maps = store.maps.of_games(list(public))
    for game_id in public:
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
            map=shelf_map_name(on_maps.get(game_id)),
            options={k: v for k, v in options.items() if k not in HIDDEN_OPTIONS},
            players=players_of(store, game_id, seats), version=version, to_act=to_act,
            days_per_move=table.days_per_move, rated=table.rated, started=store.created_at(game_id) or "", view=view))
    return watched


# -- pairing: « Trouver un adversaire » -------------------------------------------------------------------------

class PairingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(max_length=64, examples=["manoeuvre"])
    days_per_move: Literal[1, 2, 3, 7, 14] = Field(1, description="The time per move of the game to play")


class PairingOut(BaseModel):
    status: Literal["idle", "waiting", "paired"]
    ruleset: str | None = None
    days_per_move: float | None = None
    since: str | None = Field(None, description="When the player began to wait, UTC")
    game: str | None = Field(None, description="Once paired: the game, kept in the account (GET /api/games/{id})")


def _signed_in(request: Request, store: Store) -> Player:
    player = signed_in(request, store)
    if player is None:
        raise not_signed_in()
    return player


def _out(place: Place | None) -> PairingOut:
    if place is None:
        return PairingOut(status="idle")
    return PairingOut(status="paired" if place.game_id else "waiting", ruleset=place.ruleset,
                      days_per_move=place.seconds_per_move / DAY, since=place.queued_at, game=place.game_id)


def _pair(store: Store, request: Request, seeker: Player, partner_id: str, place: Place) -> str:
    """The rated game of a pair: the longer waiting player has the first seat; both keep theirs."""
    created = store.create_game(place.ruleset, table=TableSettings(seconds_per_move=place.seconds_per_move,
                                                                    rated=True, public=True))
    with store.game(created.id) as game:
        seats = [seat for seat in game.seats if seat not in game.ruleset.game_master_seats]
    partner = store.accounts.player(partner_id)
    for seat, player in zip(seats, (partner, seeker), strict=False):
        if player is not None:
            store.accounts.claim(created.id, SEAT, seat, player.id)
            follow(store, player, base_url(request), [(created.id, seat)])
    store.pairing.paired(seeker.id, partner_id, created.id)
    return created.id


@router.post("/api/pairing", response_model=PairingOut, tags=["pairing"],
             responses=problems(400, 401, 403, 413, 415, 422, 429))
def find_an_opponent(body: PairingIn, request: Request, store: StoreDep) -> PairingOut:
    """Wait for an opponent in a game and a time per move, or be paired at once with the nearest rating waiting:
    a rated game, kept in both accounts. An account waits in one place at a time: asking again while waiting
    looks again (the page asks every few seconds), and once paired answers the game, once."""
    player = _signed_in(request, store)
    check_same_site(request)
    if body.ruleset not in all_rulesets() or type(get_ruleset(body.ruleset)).deadline is not Ruleset.deadline:
        raise ApiProblem(422, "no_pairing", "Ce jeu ne se joue pas avec un temps par coup : pas d'appariement.",
                         "This game is not played with a time per move: no pairing.")
    place = store.pairing.place(player.id)
    if place is not None and place.game_id:
        store.pairing.told(player.id)
        return _out(place)
    if place is not None:
        partner = store.pairing.retry(player.id) if place.matched_with is None else None
    else:
        mu = store.ratings.of(player.id).get(body.ruleset, NEW).mu
        place, partner = store.pairing.seek(player.id, body.ruleset, body.days_per_move * DAY, mu)
    if partner is None:
        return _out(place)
    game_id = _pair(store, request, player, partner, place)
    request.app.state.workers.ensure()
    return PairingOut(status="paired", ruleset=place.ruleset, days_per_move=place.seconds_per_move / DAY, game=game_id)


class WaitingOut(BaseModel):
    ruleset: str
    days_per_move: float
    players: int = Field(description="How many accounts wait there (not the asker)")


@router.get("/api/pairing/waiting", response_model=list[WaitingOut], tags=["pairing"], responses=problems(429))
def who_waits(request: Request, store: StoreDep) -> list[WaitingOut]:
    """Where accounts wait for an opponent: each game and time per move with someone waiting, and how many (the
    signed-in asker's own place left out). Who they are is not said."""
    player = signed_in(request, store)
    return [WaitingOut(ruleset=ruleset, days_per_move=seconds / DAY, players=count)
            for ruleset, seconds, count in store.pairing.waiting(but=player.id if player else None)]


@router.get("/api/pairing", response_model=PairingOut, tags=["pairing"], responses=problems(401))
def where_am_i(request: Request, store: StoreDep) -> PairingOut:
    """Whether the account waits for an opponent, and since when, or the game it was paired in."""
    return _out(store.pairing.place(_signed_in(request, store).id))


@router.delete("/api/pairing", status_code=204, tags=["pairing"], responses=problems(401, 403, 409))
def stop_waiting(request: Request, store: StoreDep) -> Response:
    """Stop waiting for an opponent; 409 ``already_paired`` if a game was made meanwhile (GET tells which)."""
    player = _signed_in(request, store)
    check_same_site(request)
    if not store.pairing.leave(player.id) and store.pairing.place(player.id) is not None:
        raise ApiProblem(409, "already_paired", "Un adversaire a été trouvé entre-temps : la partie t'attend.",
                         "An opponent was found meanwhile: the game is waiting for you.")
    return Response(status_code=204)
