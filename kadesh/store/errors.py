"""What the store refuses, apart from the rules' own RuleError."""

from __future__ import annotations

from kadesh.core.errors import KadeshError


class StoreError(KadeshError):
    code = "store_error"


class GameNotFound(StoreError, LookupError):
    code = "game_not_found"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")
        self.game_id = game_id


class StaleVersion(StoreError):
    """The sender saw an older (or a future) version: nothing was written."""

    code = "stale_version"

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(f"expected version {expected}, the game is at {current}")
        self.expected = expected
        self.current = current


class GameNotOver(StoreError):
    """Exporting needs a finished game: the record holds the dice seed."""

    code = "game_not_over"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"game {game_id!r} is not over")
        self.game_id = game_id


class BadToken(StoreError):
    """No such token (401)."""

    code = "bad_token"


class WrongGame(StoreError):
    """A real token, but for another game (403)."""

    code = "wrong_game"


class TokenRevoked(BadToken):
    """A token that the owner replaced by a new one (401)."""

    code = "token_revoked"


class NotASeat(StoreError):
    """A spectator's or the owner's token, where only a seat may act (403)."""

    code = "not_a_seat"


class NotHeld(StoreError):
    """A signed-in player's account holds no seat of the game, and does not own it (403)."""

    code = "not_held"


class SeatNotOpen(StoreError):
    """A seat that is not open (any more): someone took it first, or it was never left open (409)."""

    code = "seat_not_open"
