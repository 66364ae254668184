"""The store's tables: a game's creation record, its append-only actions, and hashed access tokens.

The tables are written for SQLAlchemy Core and kept portable (SQLite and PostgreSQL): no
dialect-specific types or SQL. Migrations under ``migrations/`` create them; this module
is what the code reads and writes through.
"""

from __future__ import annotations

from sqlalchemy import JSON, Column, DateTime, ForeignKey, Integer, MetaData, String, Table, UniqueConstraint

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("ruleset_version", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", String(128), nullable=False),  # secret until the game is over
    Column("commitment", String(64), nullable=False),
    Column("dice", JSON, nullable=False),
    Column("version", Integer, nullable=False, default=0),  # number of actions written
    Column("outcome", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    # When the game next acts by itself (Ruleset.deadline), UTC "YYYY-MM-DDTHH:MM:SS.ffffffZ": sorts as text.
    Column("due_at", String(32), nullable=True, index=True),
)

actions = Table(
    "actions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("seq", Integer, nullable=False),  # 1, 2, 3...: the version the action brings the game to
    Column("seat", String(64), nullable=False),
    Column("action", JSON, nullable=False),
    Column("events", JSON, nullable=False),  # list of Event.to_dict(), as the action produced them
    Column("created_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("game_id", "seq", name="uq_actions_game_seq"),
)

tokens = Table(
    "tokens",
    metadata,
    Column("hash", String(64), primary_key=True),  # SHA-256 of the token, hex; the token itself is never stored
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("role", String(16), nullable=False),  # "seat", "spectator" or "owner"
    Column("seat", String(64), nullable=True),
)

seat_bots = Table(
    "seat_bots",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", String(64), primary_key=True),
    Column("level", String(32), nullable=False),  # a bot level of kadesh.ai for the game's ruleset
)

revoked_tokens = Table(
    "revoked_tokens",
    metadata,
    Column("hash", String(64), primary_key=True),  # SHA-256 of a token that a reissue replaced
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("role", String(16), nullable=False),
    Column("seat", String(64), nullable=True),
    Column("revoked_at", DateTime(timezone=True), nullable=False),
)
