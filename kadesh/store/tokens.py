"""Access tokens: secret, random, stored only as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass

SEAT, SPECTATOR, OWNER = "seat", "spectator", "owner"
# A kingdom's Seigneur (issue 43): sees and talks as the seat, drafts its orders, never sends them (its Chef
# militaire, the seat's own token, does).
LORD = "lord"


def new_token() -> str:
    """A fresh token: 32 random bytes (256 bits), URL-safe."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Access:
    """What a token opens: one game, as one seat (or its Seigneur), a spectator or the owner."""

    game_id: str
    role: str
    seat: str | None = None

    @property
    def may_act(self) -> bool:
        return self.role == SEAT
