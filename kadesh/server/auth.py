"""Who is asking: a token from ``?token=`` or ``Authorization: Bearer``, resolved by the store; without one, the
signed-in player's account (``kadesh.server.identity``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Path, Query, Request

from kadesh.server.identity import check_same_site, signed_in
from kadesh.store import LORD, SEAT, SPECTATOR, Access, BadToken, NotASeat, NotHeld, Store

GameId = Annotated[str, Path(max_length=64, description="Game id")]
TokenQuery = Annotated[str | None, Query(max_length=256, description="Access token (or use Authorization)")]
AuthHeader = Annotated[str | None, Header(max_length=300, description="Bearer <token>")]


# The dependencies that only read what they are given are coroutines: FastAPI runs a plain function in its thread
# pool, a hop to another thread and back on every request (a quarter of the app's own time on a refused one).
async def get_store(request: Request) -> Store:
    return request.app.state.store


def bearer(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, value = header.strip().partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def resolve(store: Store, game_id: str, token: str | None, player_id: str | None = None) -> Access:
    """What ``token`` opens in ``game_id``; a token the owner replaced is TokenRevoked, not just unknown.
    Without a token, what the signed-in account ``player_id`` holds there (NotHeld if nothing); and with
    neither, a public game's spectator's view (issue 42: anyone may watch a game opened to others or rated), or a
    finished game's (issue 44: its replay is shared by its address, as a finished game is on Lichess)."""
    try:
        return store.access(game_id, token, player_id)
    except (BadToken, NotHeld):
        if token or not (store.tables.of(game_id).public or store.is_over(game_id)):
            raise
        return Access(game_id, SPECTATOR, None)


def account_of(request: Request, store: Store, token: str | None) -> str | None:
    """The signed-in player who asks, when no token does: a write from another site is refused (403)."""
    if token:
        return None
    player = signed_in(request, store)
    if player is None:
        return None
    check_same_site(request)
    return player.id


def get_access(
    game_id: GameId,
    request: Request,
    store: Annotated[Store, Depends(get_store)],
    token: TokenQuery = None,
    authorization: AuthHeader = None,
) -> Access:
    """Any valid token of this game (a seat, a spectator or the owner), or, without one, the signed-in player's
    seat (or ownership) held from their account."""
    given = token or bearer(authorization)
    return resolve(store, game_id, given, account_of(request, store, given))


async def get_seat_access(access: Annotated[Access, Depends(get_access)]) -> Access:
    """A seat's token: spectators and owners may watch but not play."""
    if not access.may_act:
        raise NotASeat("this token is for watching, not playing")
    return access


async def get_council_access(access: Annotated[Access, Depends(get_access)]) -> Access:
    """A seat's token or its Seigneur's (issue 43): what the seat may ask of the rules without acting (its legal
    actions, a preview of its orders, odds), for the one who drafts its orders too."""
    if access.role not in (SEAT, LORD):
        raise NotASeat("this token is for watching, not playing")
    return access
