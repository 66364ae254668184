"""Who is asking: a token from ``?token=`` or ``Authorization: Bearer``, resolved by the store."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Path, Query, Request

from kadesh.store import Access, NotASeat, Store

GameId = Annotated[str, Path(max_length=64, description="Game id")]
TokenQuery = Annotated[str | None, Query(max_length=256, description="Access token (or use Authorization)")]
AuthHeader = Annotated[str | None, Header(max_length=300, description="Bearer <token>")]


def get_store(request: Request) -> Store:
    return request.app.state.store


def bearer(header: str | None) -> str | None:
    if header is None:
        return None
    scheme, _, value = header.strip().partition(" ")
    return value.strip() or None if scheme.lower() == "bearer" else None


def resolve(store: Store, game_id: str, token: str | None) -> Access:
    """What ``token`` opens in ``game_id``; a token the owner replaced is TokenRevoked, not just unknown."""
    return store.access(game_id, token)


def get_access(
    game_id: GameId,
    store: Annotated[Store, Depends(get_store)],
    token: TokenQuery = None,
    authorization: AuthHeader = None,
) -> Access:
    """Any valid token of this game: a seat, a spectator or the owner."""
    return resolve(store, game_id, token or bearer(authorization))


def get_seat_access(access: Annotated[Access, Depends(get_access)]) -> Access:
    """A seat's token: spectators and owners may watch but not play."""
    if not access.may_act:
        raise NotASeat("this token is for watching, not playing")
    return access
