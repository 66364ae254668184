"""Request and response bodies of the HTTP API (their schemas are in /openapi.json)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

JsonObject = dict[str, Any]


class BotInfo(BaseModel):
    level: str
    title: dict[str, str]
    hint: dict[str, str] | None = Field(None, description="How strong it is and how it plays, by language")


class RulesetInfo(BaseModel):
    name: str
    version: str
    title: dict[str, str] = Field(description="Title by language: fr, en")
    options_schema: dict[str, JsonObject]
    seats: list[str] = Field(description="Seats with the default options")
    bots: list[BotInfo] = Field(default_factory=list, description="Computer opponents that can take a seat")
    bot_seats: list[str] = Field(default_factory=list,
                                 description="Seats the computer may take (not a game master's, such as Imhotep)")
    deadlines: bool = Field(False, description="Whether its games may have deadlines (a turn played by itself "
                                               "at a set time), so that a seat may be reminded before them")
    clocks: bool = Field(False, description="Whether its games may be made with a time per move (``clock``)")
    councils: bool = Field(False, description="Whether its seats may each be held by two people who confer "
                                              "(``councils``: Royaumes' Seigneur beside its Chef militaire)")
    game_master: bool = Field(False, description="Whether it has a game master's seat (messages to it are always "
                                                 "allowed; it may read the others' with ``master_reads``)")
    glossary: dict[str, JsonObject] = Field(
        default_factory=dict,
        description="Names of the ruleset's words (unit types, terrain…) by kind, id and language")


class ClockIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    days_per_move: Literal[1, 2, 3, 7, 14] = Field(description="Days each side has for its turn")
    on_timeout: Literal["claim", "computer"] = Field(
        "claim", description="When a side's time runs out: the other may claim the win (POST "
                             "/api/games/{id}/timeout), or the computer plays that turn for it")


class GameCreate(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(max_length=64, examples=["manoeuvre"])
    options: JsonObject = Field(default_factory=dict, examples=[{"choice": "bow"}])
    bots: dict[str, str] = Field(default_factory=dict, max_length=16, examples=[{"south": "maladroit"}],
                                 description="Seats the computer plays, with its level")
    open: dict[str, Literal["anyone", "accounts"]] = Field(
        default_factory=dict, max_length=16, examples=[{"south": "anyone"}],
        description="Seats left open for others to take (GET /api/open-games): to anyone, or to accounts only")
    clock: ClockIn | None = Field(None, description="A time per move (not for a ruleset with its own deadlines)")
    rated: bool = Field(False, description="Whether the game counts for the players' ratings: the creator signed "
                                           "in, keeping one seat; every other seat open to accounts; no computer")
    referee: Literal["person", "kadesh"] = Field(
        "person", description="Who holds the game master's seat (Royaumes' Imhotep): a person by its link, or Kadesh "
                              "alone: each turn is adjudicated once every order is in, and with a time per turn "
                              "the computer sends a late side's orders")
    press: Literal["full", "public", "none"] = Field(
        "full", description="Who may write to whom: full (the whole table and private channels), public (the whole "
                            "table only) or none (only to the game master, where there is one)")
    councils: bool = Field(False, description="Each kingdom gets a second link, its Seigneur's, beside its Chef "
                                              "militaire's (Royaumes): they share a council and a draft of orders")
    master_reads: bool = Field(False, description="The game master reads the private channels between kingdoms and "
                                                  "their councils (Royaumes; off by default)")


class TableOut(BaseModel):
    days_per_move: float | None = Field(description="Days each side has for its turn; null: no clock")
    on_timeout: str
    rated: bool
    deadlines: dict[str, str] = Field(description="When each seat to act runs out of time (ISO 8601, UTC)")
    late: list[str] = Field(description="The seats to act whose time has run out")
    claimable: list[str] = Field(default_factory=list, description="The late seats the asking seat may claim the "
                                 "win against now (not when its own time ran out first, or with them)")
    counted: bool | None = Field(description="Once a rated game is over and its ratings updated: whether it "
                                             "counted")
    uncounted: str | None = Field(None, description="Why it did not count: seats (a seat not held by an account "
                                  "of its own), computer, too_short (a side made no move of its own), same_players "
                                  "(the same accounts' counted games of the day were spent)")
    open: list[str] = Field(default_factory=list, description="Its seats still open to others (the open games)")
    holders: dict[str, str] = Field(default_factory=dict, description="The name of the account holding each seat "
                                    "that one holds (a page names the player beside the side)")
    vacation: list[str] = Field(default_factory=list, description="The seats whose deadline a holder's vacation "
                                "lengthened")


class Link(BaseModel):
    token: str = Field(description="Secret: whoever has it plays (or watches) this game")
    link: str = Field(description="Relative link to the game page, token included")


class GameCreated(BaseModel):
    id: str
    ruleset: str
    commitment: str = Field(description="SHA-256 of the dice seed, hex: the seed is revealed when the game is over")
    seats: dict[str, Link]
    spectator: Link
    owner: Link
    lords: dict[str, Link] = Field(default_factory=dict, description="Each kingdom's Seigneur's link, where the "
                                                                     "game keeps councils")


class GameOut(BaseModel):
    id: str
    ruleset: str
    ruleset_version: str
    role: str = Field(description="seat, spectator or owner")
    seat: str | None = Field(description="The token's seat; null for a spectator or the owner")
    seats: list[str]
    view: JsonObject = Field(description="All that this seat may see")
    to_act: list[str]
    outcome: JsonObject | None
    commitment: str
    seed: str | None = Field(description="The dice seed, once the game is over; null before")
    version: int
    bots: dict[str, str] = Field(default_factory=dict, description="Seats the computer plays, with its level")
    table: TableOut | None = Field(None, description="Its time per move and whether it is rated; null: neither")
    table_changes: int = Field(0, description="How often its table changed outside its actions (a seat taken, open "
                                              "seats closed, a vacation, the rating settled): the socket's ``table`` "
                                              "frame says when it moves on")


class ReplayOut(BaseModel):
    seat: str | None = Field(description="Whose view: the token's seat, or null for the public's")
    version: int = Field(description="The game's version now")
    versions: list[JsonObject] = Field(description="[{version, view, to_act, outcome}] from ``from`` to ``to``")


class LegalOut(BaseModel):
    seat: str
    version: int
    actions: list[JsonObject]


class OddsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: JsonObject


class SeatsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    options: JsonObject = Field(default_factory=dict, examples=[{"scenario": "nil"}])


class SeatsOut(BaseModel):
    seats: list[str] = Field(description="The seats of a game with these options")
    bot_seats: list[str] = Field(description="Those the computer may take")
    names: dict[str, dict[str, str]] = Field(description="Each seat's name by language, where the options name it")


class SimulateRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    options: JsonObject = Field(default_factory=dict)
    seats: dict[str, str] = Field(description="Each seat's bot level")
    games: int = Field(1000, ge=1, le=2000, description="Games to simulate in this call (ask again for more)")
    seed: int = Field(0, ge=0, le=2**32)


class PreviewOut(BaseModel):
    seat: str
    version: int
    preview: JsonObject | None = Field(description="How the rules understand the action, or null")


class OddsOut(BaseModel):
    seat: str
    version: int
    odds: JsonObject | None = Field(description="Exact chances of the action's outcomes, or null")


class ActionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    expected_version: int = Field(ge=0, strict=True,
                                  description="The version the sender saw, a JSON integer; a stale one gets 409")
    action: JsonObject = Field(examples=[{"type": "ready"}])


class ActionOut(BaseModel):
    version: int
    events: list[JsonObject] = Field(description="The action's events this seat may see")
    view: JsonObject


class JournalLine(BaseModel):
    version: int
    line: str
    mark: JsonObject | None = Field(None, description="What the line's event did on the board, for the page "
                                    "to draw (Manœuvre: move, turn, combat, end_turn); absent when nothing")


class ExportOut(BaseModel):
    format: str
    id: str
    created_at: str | None
    commitment: str
    outcome: JsonObject | None
    record: JsonObject = Field(description="kadesh.core record, seed included: load_game(record) replays it")
    events: list[list[JsonObject]] = Field(description="Per action, the events as stored when it was played")
    messages: list[JsonObject] = Field(default_factory=list, description="The messages at the table that this "
                                                                         "token (or account) reads, oldest first")


class VerifyOut(BaseModel):
    ok: bool
    message: str = Field(description="MATCH: ..., or the first difference found")
    actions: int
    rolls: int


class BotSeat(BaseModel):
    model_config = ConfigDict(extra="forbid")
    level: str | None = Field(max_length=32, description="A bot level of the ruleset, or null to give the seat back")


class SubscriptionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    channel: Literal["email", "webhook"]
    address: str = Field(min_length=3, max_length=512, examples=["sud@example.org"],
                         description="An e-mail address, or a webhook's http(s) URL")
    style: Literal["auto", "kadesh", "discord", "slack"] = Field(
        "auto", description="A webhook's body: Kadesh's JSON, or Discord's or Slack's incoming-webhook shape "
                            "(auto: from the URL)")
    lang: Literal["fr", "en"] = "fr"
    remind_before: int | None = Field(None, ge=5, le=10080, strict=True,
                                      description="Minutes before a deadline to remind the seat if it has not acted")


class SubscriptionOut(BaseModel):
    id: str
    channel: str
    address: str
    style: str
    lang: str
    remind_before: int | None
    last_sent_at: str | None = Field(description="When a notice last went through, UTC")
    last_error: str | None = Field(description="Why the last one failed (code[:detail]), until one goes through")
    last_error_at: str | None
    confirmed: bool = Field(description="False for an e-mail address whose owner has not opened the confirmation "
                                        "link yet: it receives nothing else until then")


class SubscriptionsOut(BaseModel):
    email: bool = Field(description="Whether this server sends e-mail (it has SMTP settings)")
    subscriptions: list[SubscriptionOut]
