"""The store's tables: a game's creation record, its append-only actions, and hashed access tokens.

The tables are written for SQLAlchemy Core and kept portable (SQLite and PostgreSQL): no
dialect-specific types or SQL. Migrations under ``migrations/`` create them; this module
is what the code reads and writes through.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    text,
)

metadata = MetaData()

# PostgreSQL: each committed action is announced there as "<game id> <version>", each message as "<game id> m<seq>".
NOTIFY_CHANNEL = "kadesh_games"

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
    # How many messages the game's table has (issue 43): the last one's ``messages.seq``. Not its version: a
    # message is no action.
    Column("messages", Integer, nullable=False, server_default="0"),
    # How often the game's table changed outside its actions (a seat taken, open seats closed, a holder's
    # vacation, the rating settled): open pages hear it and ask for the table again (kadesh.store.table_changes).
    Column("table_changes", Integer, nullable=False, server_default="0"),
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

# Work to be done off the request path, taken by worker processes (``kadesh worker``): one row a job, claimed
# for a while by one worker, deleted when done. A bot's job is one action of one game at one version; its row
# is written in the transaction that brings the game to that version, so no job is lost or doubled.
jobs = Table(
    "jobs",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),  # the queue's order: oldest first
    Column("kind", String(16), nullable=False),  # "bot", or a notice: "turn", "ready", "over", "remind", "test"
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
    Column("version", Integer, nullable=False),  # the game's version the job is for
    Column("run_after", String(32), nullable=False),  # UTC text, as due_at: not before then (a retry's pause)
    Column("claimed_by", String(64), nullable=True),  # the worker doing it
    Column("claimed_until", String(32), nullable=True),  # after this its worker is taken for dead
    Column("attempts", Integer, nullable=False, default=0),
    Column("target", String(32), nullable=False, default=""),  # a notice's subscription; "" for a bot's job
    # A bot's job: 0 when a person holds a seat of the game, 1 when the computer holds them all (claimed after
    # every 0); a notice's: 0. The server default lets a server of the previous release queue jobs too.
    Column("priority", Integer, nullable=False, server_default="0"),
    UniqueConstraint("kind", "game_id", "version", "target", name="uq_jobs_kind_game_version_target"),
)

# Where a seat wants to hear that it is its turn (kadesh.notify): an e-mail address or a webhook URL. The row
# keeps the seat's link, which the notice carries: a reissue of the seat's token deletes its subscriptions.
subscriptions = Table(
    "subscriptions",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("seat", String(64), nullable=False),
    Column("channel", String(16), nullable=False),  # "email" or "webhook"
    Column("address", String(512), nullable=False),  # the e-mail address or the webhook's URL
    Column("style", String(16), nullable=False),  # a webhook's body: "kadesh", "discord" or "slack"; "" for e-mail
    Column("lang", String(2), nullable=False),  # "fr" or "en"
    Column("link", String(600), nullable=False),  # the seat's link, absolute: the seat's secret
    Column("unsubscribe_key", String(64), nullable=False, unique=True),  # the e-mails' unsubscribe link
    Column("remind_before", Integer, nullable=True),  # minutes before a deadline to remind the seat, if at all
    Column("reminded_for", String(32), nullable=True),  # the deadline (due_at) last reminded: once per deadline
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("last_sent_at", String(32), nullable=True),  # UTC text, as due_at
    Column("last_error", String(300), nullable=True),  # why the last delivery failed (cleared by a success)
    Column("last_error_at", String(32), nullable=True),
    # An e-mail subscription gets nothing but its confirmation message until its address's owner opens the
    # link with ``confirm_key`` (issue 40); a webhook is confirmed when it is made.
    Column("confirmed_at", String(32), nullable=True),  # UTC text; None: waiting for confirmation
    Column("confirm_key", String(64), nullable=True, unique=True),
)

# The e-mails sent (notices) or promised (a confirmation, counted when it is asked for): what the sending limits
# count, per address and per server. The address is kept as a hash: this table outlives the subscriptions.
watches = Table(
    "watches",
    metadata,
    # A server with a page or WebSocket open on the game, until ``until`` (UTC text) unless it renews: the
    # workers play a game where the computer holds every seat only while one such row is current.
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("server", String(32), primary_key=True),
    Column("until", String(32), nullable=False),
    Index("ix_watches_server", "server"),
)

emails = Table(
    "emails",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("address", String(64), nullable=False),  # sha256 of the address, folded to lower case
    Column("kind", String(16), nullable=False),  # "confirm", or a notice's kind
    Column("at", String(32), nullable=False),  # UTC text
    Index("ix_emails_address_at", "address", "at"),
    Index("ix_emails_at", "at"),
)

# -- players (issue 41): accounts are optional; a game is played by its links whether or not anyone signs in --

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False, unique=True),  # as the player wrote it (NFC)
    Column("name_key", String(64), nullable=False, unique=True),  # its look-alike skeleton: one player per skeleton
    Column("lang", String(2), nullable=False),  # "fr" or "en"
    Column("email", String(320), nullable=True),  # confirmed: set only by a sign-in link that reached it
    Column("email_key", String(64), nullable=True, unique=True),  # sha256 of the address folded to lower case
    Column("created_at", String(32), nullable=False),  # UTC text
)

passkeys = Table(
    "passkeys",
    metadata,
    Column("id", String(32), primary_key=True),  # the player's handle on it (to remove it)
    Column("credential_id", String(1400), nullable=False, unique=True),  # WebAuthn's, base64url
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False, index=True),
    Column("public_key", String(2000), nullable=False),  # COSE key, base64url
    Column("sign_count", Integer, nullable=False),
    Column("label", String(64), nullable=False),
    Column("created_at", String(32), nullable=False),
    Column("used_at", String(32), nullable=True),
)

sessions = Table(
    "sessions",
    metadata,
    Column("hash", String(64), primary_key=True),  # SHA-256 of the cookie's secret: the secret is never stored
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False, index=True),
    Column("created_at", String(32), nullable=False),
    Column("seen_at", String(32), nullable=False),  # its last use, to the hour
    Column("expires_at", String(32), nullable=False),
)

# A WebAuthn ceremony in progress (any server of the database may end it): single-use, short-lived.
ceremonies = Table(
    "ceremonies",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("kind", String(16), nullable=False),  # "register" or "sign_in"
    Column("challenge", String(128), nullable=False),  # base64url
    Column("player_id", String(32), nullable=True),  # a signed-in player adding a passkey
    Column("user_handle", String(128), nullable=True),  # a new player's WebAuthn user id, base64url
    Column("name", String(64), nullable=True),  # a new player's name and language
    Column("lang", String(2), nullable=True),
    Column("expires_at", String(32), nullable=False),
)

# A single-use sign-in link sent by e-mail. The link (its key) is kept in clear only until a worker has sent it.
sign_in_links = Table(
    "sign_in_links",
    metadata,
    Column("hash", String(64), primary_key=True),  # SHA-256 of the link's key
    Column("address", String(320), nullable=False),
    Column("lang", String(2), nullable=False),
    Column("link", String(600), nullable=True),  # the whole link, until the e-mail is sent
    Column("expires_at", String(32), nullable=False),
    Column("used_at", String(32), nullable=True),
    Column("created_at", String(32), nullable=False),
    # The account that asked, signed in, to add this address: the link confirms the address for that account
    # alone. None: a sign-in link, which opens the address's own account (or makes one), never another's.
    Column("player_id", String(32), nullable=True),
)

# Who holds what of a game from an account: a seat ("seat", its name) or the game ("owner", ""). One account a
# seat: a second claim of a held seat is refused by the key.
claims = Table(
    "claims",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("role", String(16), primary_key=True),
    Column("seat", String(64), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False, index=True),
    Column("claimed_at", String(32), nullable=False),
    # One seat (or Seigneur's place) an account in a game, whatever the races: the owner's claim aside.
    Index("ux_claims_one_seat", "game_id", "player_id", unique=True, sqlite_where=text("role != 'owner'"),
          postgresql_where=text("role != 'owner'")),
)

# An account's webhooks: like its confirmed address, each hears the turns of every seat the account keeps.
account_webhooks = Table(
    "account_webhooks",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False, index=True),
    Column("address", String(512), nullable=False),  # the webhook's URL
    Column("style", String(16), nullable=False),  # "kadesh", "discord" or "slack"
    Column("lang", String(2), nullable=False),
    Column("created_at", String(32), nullable=False),
)

# A seat left open when its game was made (issue 42): anyone, or anyone signed in, may take it, once; the game
# waits in the lobby's « Parties ouvertes » while one of its seats is open.
open_seats = Table(
    "open_seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", String(64), primary_key=True),
    Column("open_to", String(16), nullable=False),  # "anyone" (a link player too) or "accounts"
    Column("opened_at", String(32), nullable=False, index=True),  # UTC text
    Column("taken_at", String(32), nullable=True),  # UTC text: when it was taken (its clock starts then); None: open
)

# The table around a game (issue 42), set when it is made: a time per move (each seat's turn, from when it began)
# and what happens when it runs out, and whether the game counts for the players' ratings.
table_settings = Table(
    "table_settings",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seconds_per_move", Integer, nullable=True),  # None: no clock
    Column("on_timeout", String(16), nullable=False),  # "claim": the other side may claim the win
    Column("rated", Boolean, nullable=False),
    Column("public", Boolean, nullable=False, server_default=false()),  # anyone may watch it (GET /api/watch)
    Column("referee", Boolean, nullable=False, server_default=false()),  # no person holds the game master's seat
    # Who may write to whom (issue 43): "full" (the table and private channels), "public" (the table only),
    # "none" (only to the game master); a kingdom's council (its Seigneur beside its Chef militaire); whether the
    # game master reads the channels between kingdoms and their councils.
    Column("press", String(8), nullable=False, server_default="full"),
    Column("councils", Boolean, nullable=False, server_default=false()),
    Column("master_reads", Boolean, nullable=False, server_default=false()),
)

# An account's rating in one ruleset (openskill's Plackett-Luce: mu and sigma).
ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("ruleset", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", String(32), nullable=False),
    Index("ix_ratings_ruleset_mu", "ruleset", "mu"),
)

# Each rated game's end, once (its game is the key), in the order ratings took it: the seats' accounts as they
# were then, and whether it counted (every playing seat held by an account of its own). Recomputing every rating
# replays these games in this order.
rating_results = Table(
    "rating_results",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, unique=True),
    Column("ruleset", String(64), nullable=False),
    Column("players", JSON, nullable=False),  # {seat: player id}
    Column("counted", Boolean, nullable=False),
    Column("at", String(32), nullable=False),
    Column("reason", String(16), nullable=True),  # why it did not count (kadesh.store.ratings); None: it counted
)

# What one result did to one player's rating: the history a player's chart draws.
rating_changes = Table(
    "rating_changes",
    metadata,
    Column("result_id", Integer, ForeignKey("rating_results.id"), primary_key=True),
    Column("player_id", String(32), primary_key=True),  # no key to players: a deleted account's rows go with it
    Column("ruleset", String(64), nullable=False),
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("at", String(32), nullable=False),
    Index("ix_rating_changes_player", "player_id", "ruleset"),
)

# Accounts waiting for an opponent (issue 42): one place each. A seeker takes the nearest rating waiting for
# the same game and time per move, both rows marked in one transaction; the game made for them is then written
# on both, and each row goes once its player has been told.
pairing_queue = Table(
    "pairing_queue",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("seconds_per_move", Integer, nullable=False),
    Column("mu", Float, nullable=False),  # the rating when the player asked
    Column("queued_at", String(32), nullable=False),  # UTC text
    Column("matched_with", String(32), nullable=True),
    Column("game_id", String(32), nullable=True),
    Index("ix_pairing_queue_waiting", "ruleset", "seconds_per_move", "matched_with"),
)

# An account's vacations (issue 42): while one lasts, the clocks of the seats it keeps are paused.
vacations = Table(
    "vacations",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("starts_at", String(32), primary_key=True),  # UTC text
    Column("ends_at", String(32), nullable=False),  # UTC text; moved to the moment the player comes back early
)

# Messages between the people at a game's table (issue 43), beside the game and not in its record: they never
# change its version and the rules never read them. ``seq`` numbers a game's messages from 1, taken from
# ``games.messages`` under the game row's lock, so that one read "after n" never misses a message committed late.
# Each message has one channel, and its readers are that channel's (``kadesh.store.messages``).
messages = Table(
    "messages",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("channel", String(140), nullable=False),  # "table", "spectators", "pair:a,b", "council:a", "draft:a", ...
    Column("kind", String(16), nullable=False),  # "text", "draft", "alliance", "hidden" (a moderation), "report"
    Column("role", String(16), nullable=False),  # the writer's: "seat", "lord", "spectator", "owner", "computer"
    Column("seat", String(64), nullable=True),  # the writer's seat (a kingdom for its Seigneur too)
    Column("author", String(64), nullable=True),  # the writer's account name, when one wrote signed in
    Column("author_id", String(32), nullable=True),  # that account (its name is wiped with it)
    Column("body", Text, nullable=False),
    Column("data", JSON, nullable=True),  # an alliance's kingdom, a moderation's or a report's message
    Column("created_at", String(32), nullable=False),  # UTC text
    Column("hidden", Boolean, nullable=False, server_default=false()),  # hidden for everyone by the moderator
)

# A seat that no longer wants to read another's messages (for itself only).
message_mutes = Table(
    "message_mutes",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", String(64), primary_key=True),
    Column("muted", String(64), primary_key=True),
)

# Who reported which message (once each) to the game's moderator.
message_reports = Table(
    "message_reports",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("reporter", String(80), primary_key=True),  # "<role>:<seat>", or the account's id for a spectator
)

# The last message each subscription was told of by a notice (e-mail, webhook): its next groups what came after.
message_notices = Table(
    "message_notices",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("subscription", String(32), primary_key=True),
    Column("seen", Integer, nullable=False),  # the last seq told
)

# Maps of the players' own (issue 61): a Front battle's or a Royaumes map's TOML, a draft of its author's until it is
# published on the shelf (read-only then, anyone's to play). What the last check of its text found is kept beside it
# (``playable``, ``faults``, its size and players), so that a list reads no map's text. ``revision`` counts the
# text's changes: a publication is of the text it checked. An author's account deleted, their published maps stay,
# by nobody (``author_id`` null, ``author_deleted``); their drafts go with it.
maps = Table(
    "maps",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("name", String(80), nullable=False),
    Column("description", Text, nullable=False),
    Column("toml", Text, nullable=False),
    Column("author_id", String(32), ForeignKey("players.id"), nullable=True, index=True),
    Column("author_deleted", Boolean, nullable=False, server_default=false()),
    Column("status", String(16), nullable=False),  # "draft" or "published"
    Column("revision", Integer, nullable=False, server_default="0"),
    Column("playable", Boolean, nullable=False),
    Column("faults", JSON, nullable=False),  # the last check's, as POST /api/maps/check answers them
    Column("columns", Integer, nullable=True),
    Column("rows", Integer, nullable=True),
    Column("players", Integer, nullable=True),
    Column("played", Integer, nullable=False, server_default="0"),  # games opened on it
    Column("created_at", String(32), nullable=False),  # UTC text
    Column("updated_at", String(32), nullable=False),
    Column("published_at", String(32), nullable=True),
    Index("ix_maps_shelf", "status", "ruleset", "published_at"),
)

# The map of the shelf a game was opened on, and its name then (the game's record holds its text): the lists of games
# name it. It stays when the map is deleted or withdrawn.
map_games = Table(
    "map_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("map_id", String(32), nullable=False, index=True),
    Column("name", String(80), nullable=False),
)

# A published map shown to the installation's moderators (its operators: ``kadesh maps reports``), once per
# reporter.
map_reports = Table(
    "map_reports",
    metadata,
    Column("map_id", String(32), ForeignKey("maps.id"), primary_key=True),
    Column("reporter_id", String(32), primary_key=True),  # the reporting account's id
    Column("reason", Text, nullable=False),
    Column("created_at", String(32), nullable=False),
)
