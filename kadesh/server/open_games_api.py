"""Open games (issue 42): a game made with seats left open waits in the lobby's « Parties ouvertes » until they
are taken. Taking a seat gives the taker the seat's link (nobody else ever had one that works: the creator's
answer holds no link of an open seat), and keeps it in the taker's account when they are signed in; a seat open
to accounts only asks for one. Each seat is taken once, whatever the servers (``kadesh.store.open_seats``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from kadesh.core import RuleError
from kadesh.server.account_notices import base_url, follow
from kadesh.server.accounts_api import SeatHolder, players_of
from kadesh.server.api import AccessDep, StoreDep, play_link, problems
from kadesh.server.auth import GameId
from kadesh.server.identity import check_same_site, not_signed_in, signed_in
from kadesh.server.models import JsonObject, Link
from kadesh.server.problems import ApiProblem
from kadesh.store import OWNER, SEAT, Store
from kadesh.store.accounts import SeatClaimed
from kadesh.store.errors import SeatNotOpen
from kadesh.store.open_seats import ACCOUNTS

router = APIRouter()

HIDDEN_OPTIONS = ("scenario_toml",)  # a text of the creator's own: its game tells it to its players


class ShelfMapName(BaseModel):
    id: str
    name: str


def shelf_map_name(found: tuple[str, str] | None) -> ShelfMapName | None:
    """A game's map of the shelf, as its lists name it."""
    return ShelfMapName(id=found[0], name=found[1]) if found else None


class OpenSeatOut(BaseModel):
    seat: str
    open_to: str = Field(description="anyone (a player by link too) or accounts")


class OpenGameOut(BaseModel):
    id: str
    ruleset: str
    options: JsonObject = Field(description="The game's options, but a text of the creator's own")
    own_scenario: bool = Field(description="Whether the game is played on a map or battle of the creator's own")
    map: ShelfMapName | None = Field(None, description="The map of the shelf it is played on (/api/maps), if any")
    open: list[OpenSeatOut]
    players: list[SeatHolder] = Field(description="Every seat: who keeps it in an account, the computer's level")
    opened_at: str = Field(description="UTC")
    days_per_move: float | None = Field(description="Days each side has for its turn; null: no time limit")
    rated: bool = Field(description="Whether the game counts for the players' ratings")


def open_games(store: Store) -> list[OpenGameOut]:
    listed = []
    waiting = store.open_seats.games()
    on_maps = store.maps.of_games([game.game_id for game in waiting])
    for game in waiting:
        with store.game(game.game_id) as played:
            seats = list(played.seats)
        table = store.tables.of(game.game_id)
        listed.append(OpenGameOut(
            id=game.game_id, ruleset=game.ruleset, own_scenario=any(game.options.get(k) for k in HIDDEN_OPTIONS),
            map=shelf_map_name(on_maps.get(game.game_id)),
            options={k: v for k, v in game.options.items() if k not in HIDDEN_OPTIONS},
            open=[OpenSeatOut(seat=s.seat, open_to=s.open_to) for s in game.seats],
            players=players_of(store, game.game_id, seats), opened_at=game.seats[0].opened_at,
            days_per_move=table.days_per_move, rated=table.rated))
    return listed


@router.get("/api/open-games", response_model=list[OpenGameOut], tags=["open games"], responses=problems(429))
def list_open_games(store: StoreDep) -> list[OpenGameOut]:
    """The games waiting for players, the latest first (50 at most): what they are, which seats are open and to
    whom, and who is seated already."""
    return open_games(store)


@router.post("/api/games/{game_id}/seats/{seat}/take", response_model=Link, tags=["open games"],
             responses=problems(401, 403, 404, 409, 422, 429))
def take_seat(game_id: GameId, seat: Annotated[str, Path(max_length=64)], request: Request,
              store: StoreDep) -> Link:
    """Take an open seat: its link, the only one that works; signed in, the seat is also kept in your account
    (in the same transaction: a take refused leaves the seat open). 409 ``seat_not_open`` if it is not open (any
    more), 401 ``not_signed_in`` for a seat open to accounts only, 409 ``seat_claimed`` if your account holds
    another seat of the game."""
    open_seat = next((s for s in store.open_seats.of_game(game_id) if s.seat == seat), None)
    if open_seat is None:
        raise _not_open(store, game_id, seat)
    player = signed_in(request, store)
    if player is not None:
        check_same_site(request)
    elif open_seat.open_to == ACCOUNTS:
        raise not_signed_in()
    try:  # the seat marked taken, kept in the account and its link replaced at once, or nothing done
        token = store.take_seat(game_id, seat, player.id if player is not None else None)
    except SeatNotOpen:
        raise _not_open(store, game_id, seat) from None
    except SeatClaimed:
        raise ApiProblem(409, "seat_claimed", "Ton compte tient déjà un siège de cette partie.",
                         "Your account holds a seat of this game already.") from None
    if player is not None:
        follow(store, player, base_url(request), [(game_id, seat)])
    request.app.state.workers.ensure()  # the seat's clock starts now: a worker looks at the game then
    return play_link(game_id, token)


def _not_open(store: Store, game_id: str, seat: str) -> ApiProblem:
    """404 for no such game; else 409 ``seat_not_open``, saying whether someone took the seat or its game left
    the open games (its creator withdrew it, or it is over)."""
    if not store.exists(game_id):
        return ApiProblem(404, "game_not_found", "Partie inconnue.", "Unknown game.")
    if store.open_seats.seated(game_id).get(seat) is not None:
        return ApiProblem(409, "seat_not_open", "Ce siège n'est plus libre : quelqu'un l'a pris.",
                          "This seat is not free any more: someone took it.")
    return ApiProblem(409, "seat_not_open", "Ce siège n'est pas ouvert : la partie n'attend personne à cette place "
                      "(son créateur l'a retirée des parties ouvertes, ou elle est finie).",
                      "This seat is not open: the game waits for nobody there (its creator withdrew it from the "
                      "open games, or it is over).")


@router.delete("/api/games/{game_id}/open", status_code=204, tags=["open games"],
               responses=problems(401, 403, 404, 409, 422))
def cancel_open_game(game_id: str, access: AccessDep, request: Request, store: StoreDep) -> Response:
    """The owner, or the creator on a seat of their own (never one that was open), withdraws a game that waits
    for its players: it leaves « Parties ouvertes » and is cancelled (over, nobody wins, not rated), as a
    cancelled seek leaves no game. 409 ``seat_not_open`` once every open seat is taken: the game is on."""
    seated = store.open_seats.seated(game_id)
    if access.role not in (OWNER, SEAT) or access.seat in seated:
        raise ApiProblem(403, "not_the_owner", "Seuls le propriétaire de la partie et son créateur la retirent des "
                         "parties ouvertes.", "Only the game's owner and its creator can withdraw it from the open "
                         "games.")
    if None not in seated.values():  # never open, or every open seat taken: the game is not waiting
        raise _not_open(store, game_id, next(iter(seated), ""))
    try:
        result = store.cancel_open_game(game_id, access.seat or _creators_seat(store, game_id, seated))
    except (SeatNotOpen, RuleError):  # taken meanwhile, or over
        raise _not_open(store, game_id, next(iter(seated))) from None
    request.app.state.notifier.publish(game_id, result.version)
    request.app.state.workers.ensure()  # a rated game's settlement (not counted), the notices
    return Response(status_code=204)


def _creators_seat(store: Store, game_id: str, seated: dict) -> str:
    """The seat in whose name the owner cancels: the first that was never open nor the computer's."""
    with store.game(game_id) as game:
        seats = list(game.seats)
    bots = store.bots(game_id)
    return next(seat for seat in seats if seat not in seated and seat not in bots)
