"""Kadesh store: games as a creation record plus an append-only log of actions."""

from kadesh.store.errors import (
    BadToken,
    GameNotFound,
    GameNotOver,
    NotASeat,
    NotHeld,
    StaleVersion,
    StoreError,
    TokenRevoked,
    WrongGame,
)
from kadesh.store.store import ActResult, CreatedGame, GameCache, Store, json_value
from kadesh.store.tokens import LORD, OWNER, SEAT, SPECTATOR, Access, token_hash

__all__ = [
    "LORD", "OWNER", "SEAT", "SPECTATOR", "Access", "ActResult", "BadToken", "CreatedGame", "GameCache",
    "GameNotFound", "GameNotOver", "NotASeat", "NotHeld", "StaleVersion", "Store", "StoreError", "TokenRevoked",
    "WrongGame",
    "json_value", "token_hash",
]
