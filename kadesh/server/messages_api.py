"""Messages at the table (issue 43): the channels a seat reads, writing, a kingdom's draft of orders, alliance
offers, hiding, reporting and muting. Who reads and writes what is ``kadesh.store.messages.Shape``'s alone; the
WebSocket pushes new messages as they come (``kadesh.server.ws``).

Messages are not actions: writing one never changes the game's version, and the rules never read them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from kadesh.core import Game
from kadesh.server.api import AccessDep, StoreDep, problems
from kadesh.server.auth import AuthHeader, TokenQuery, bearer
from kadesh.server.identity import signed_in
from kadesh.server.talk import channel_title, sender_words
from kadesh.store import LORD, SEAT, SPECTATOR, Access, Store
from kadesh.store.messages import (
    ALLIANCE,
    DRAFT,
    DRAFTED,
    MAX_DRAFT,
    MAX_TEXT,
    PAIR,
    REPORT,
    TEXT,
    Message,
    MessageRefused,
    Shape,
    clean_text,
    pair_members,
)

router = APIRouter(prefix="/api")

Seq = Annotated[int, Path(ge=1, le=2**31 - 1, description="The message's number in its game")]
SeatName = Annotated[str, Path(max_length=64)]
WRITES = problems(400, 401, 403, 404, 409, 413, 415, 422, 429)


class MessageIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    channel: str = Field(max_length=140, examples=["table"], description="One of the channels the seat writes")
    text: str = Field(max_length=MAX_TEXT * 4, description=f"Plain text, {MAX_TEXT} characters at most")
    alliance: bool = Field(False, description="An alliance offer (or acceptance) to the other kingdom of a private "
                                              "channel, where the rules make alliances by agreement: it becomes a "
                                              "line of the next orders, never sent on its own")


class DraftIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=MAX_DRAFT * 2, description=f"The orders as drafted, {MAX_DRAFT} characters at most")


class Words(BaseModel):
    fr: str
    en: str


class ChannelOut(BaseModel):
    id: str = Field(description="table, spectators, pair:a,b, council:k, draft:k or moderation")
    title: Words
    writable: bool = Field(description="Whether this reader may write there now (press, role)")
    alliance: bool = Field(False, description="Whether an alliance may be offered there (to the other kingdom)")


class MessageOut(BaseModel):
    seq: int
    channel: str
    kind: str = Field(description="text, draft, alliance, hidden (a moderation: data.target was hidden) or report")
    seat: str | None
    role: str
    sender: Words = Field(description="Who wrote it, in words")
    mine: bool = Field(description="Whether this reader's seat (or account) wrote it")
    at: str = Field(description="When, UTC")
    body: str = Field(description="Empty once hidden")
    hidden: bool
    data: dict[str, Any] | None = None
    line: Words | None = Field(None, description="An alliance's line for this reader's next orders, if it is theirs")
    about: Words | None = Field(None, description="A report's: who wrote the message reported, in words")


class MessagesOut(BaseModel):
    channels: list[ChannelOut]
    messages: list[MessageOut]
    last: int = Field(description="The game's last message number: ask again with after=last")
    muted: list[str] = Field(description="The seats whose messages this seat does not read")
    press: str
    moderator: bool = Field(description="Whether this reader may hide messages (and receives reports)")
    max_length: int = Field(MAX_TEXT, description="The characters a message may have at most")
    draft: MessageOut | None = Field(None, description="The kingdom's latest draft of orders of this turn, where it "
                                                       "has a council: a draft of a turn already judged is no longer "
                                                       "offered")


def message_out(game: Game, shape: Shape, access: Access, message: Message, account: str | None = None,
                holders: dict[str, str] | None = None) -> MessageOut:
    """One message as this reader gets it; ``holders``: the accounts' names at the seats (its writer named so)."""
    seen = message.seen_as()
    mine = (message.seat is not None and message.seat == access.seat and message.role == access.role
            and access.role in (SEAT, LORD)) or (message.role == access.role == SPECTATOR and account is not None
                                                 and message.author == account)
    line = None
    if message.kind == ALLIANCE and not message.hidden and message.data:
        other = message.data["with"] if access.seat == message.seat else (
            message.seat if access.seat == message.data["with"] else None)
        if other is not None and access.role in (SEAT, LORD):
            fr, en = (game.ruleset.alliance_line(game.options, other, lang) for lang in ("fr", "en"))
            line = Words(fr=fr, en=en) if fr and en else None
    about = None
    if message.kind == REPORT and message.data:
        reported = replace(message, role=message.data["role"], seat=message.data["seat"],
                           author=message.data.get("author"))
        about = Words(**sender_words(game, shape, reported, holders))
    sender = Words(**sender_words(game, shape, message, holders))
    return MessageOut(seq=seen["seq"], channel=seen["channel"], kind=seen["kind"], seat=seen["seat"],
                      role=seen["role"], sender=sender, mine=mine, at=seen["at"],
                      body=seen["body"], hidden=seen["hidden"], data=seen.get("data"), line=line, about=about)


# -- reading -----------------------------------------------------------------------------------------
def listing(store: Store, game_id: str, access: Access, after: int = 0, writer: bool = False,
            account: str | None = None) -> MessagesOut:
    """Everything a page needs of the table's talk for this reader: its channels, the messages after ``after``."""
    shape = store.shape(game_id)
    last = store.messages.last(game_id)
    found = store.messages.read(game_id, access, shape, after)
    holders = store.accounts.seat_names(game_id)
    with store.game(game_id) as game:
        channels = [ChannelOut(id=c, title=Words(**channel_title(game, access, c)),
                               writable=(writable := shape.write_problem(access, c, writer) is None),
                               alliance=writable and _allies(game, shape, access, c))
                    for c in shape.readable(access) if not c.startswith(DRAFT)]
        drafted = (store.messages.draft(game_id, access.seat)
                   if shape.councils and access.role in (SEAT, LORD) and access.seat in shape.kingdoms else None)
        if drafted is not None and not _of_this_turn(game, drafted):
            drafted = None
        return MessagesOut(
            channels=channels, messages=[message_out(game, shape, access, m, account, holders) for m in found
                                         if not m.channel.startswith(DRAFT)],
            last=last, muted=store.messages.muted_by(game_id, access.seat) if access.role in (SEAT, LORD) else [],
            press=shape.press, moderator=shape.moderates(access),
            draft=message_out(game, shape, access, drafted, account, holders) if drafted else None)


def pushed(store: Store, game_id: str, access: Access, after: int, account: str | None = None) -> dict[str, Any]:
    """The socket's frame of the messages after ``after`` (this turn's drafts included: a Chef sees his
    Seigneur's)."""
    shape = store.shape(game_id)
    last = store.messages.last(game_id)
    found = store.messages.read(game_id, access, shape, after)
    holders = store.accounts.seat_names(game_id) if found else {}
    with store.game(game_id) as game:
        return {"type": "messages", "last": max([last, *(m.seq for m in found)]),
                "messages": [message_out(game, shape, access, m, account, holders).model_dump(exclude_none=True)
                             for m in found if not m.channel.startswith(DRAFT) or _of_this_turn(game, m)]}


def _of_this_turn(game: Game, draft: Message) -> bool:
    """Whether a draft of orders was written in the game's present turn: a council's draft belongs to its turn,
    and once that turn is judged it is no longer offered (a draft without its turn, from before, neither)."""
    return (draft.data or {}).get("turn") == game.ruleset.round(game.state)


def _speaker(request: Request, store: Store, token: str | None, authorization: str | None) -> str | None:
    """The account name of who writes, when signed in (a spectator's name); "" when a link alone speaks; None when
    neither does (a public game's anonymous spectator, who only reads)."""
    player = signed_in(request, store)
    if player is not None:
        return player.name
    return "" if token or bearer(authorization) else None


@router.get("/games/{game_id}/messages", response_model=MessagesOut, response_model_exclude_none=True,
            tags=["messages"], responses=problems(401, 403, 404, 422))
def read_messages(game_id: str, access: AccessDep, store: StoreDep, request: Request,
                  after: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0, token: TokenQuery = None,
                  authorization: AuthHeader = None) -> MessagesOut:
    """The channels this token (or account) reads, with the latest messages after ``after`` (300 at most)."""
    speaker = _speaker(request, store, token, authorization)
    return listing(store, game_id, access, after, speaker is not None, speaker or None)


# -- writing -----------------------------------------------------------------------------------------
def _write(store: Store, game_id: str, access: Access, body: MessageIn, speaker: str | None) -> MessageOut:
    shape = store.shape(game_id)
    problem = shape.write_problem(access, body.channel, speaker is not None)
    if problem is not None:
        raise problem
    text = clean_text(body.text, MAX_TEXT)
    data = None
    if body.alliance:
        data = _alliance(store, game_id, shape, access, body.channel)
    author = (speaker or None) if access.role == SPECTATOR else None  # a seat is named by its seat, not an account
    writer = store.accounts.by_name(author) if author else None
    message = store.messages.post(game_id, shape, body.channel, ALLIANCE if data else TEXT, access, text, author, data,
                                  author_id=writer.id if writer else None)
    with store.game(game_id) as game:
        return message_out(game, shape, access, message, speaker or None, store.accounts.seat_names(game_id))


def _allies(game: Game, shape: Shape, access: Access, channel: str) -> bool:
    """Whether ``access`` may offer an alliance on ``channel``: a kingdom's, to the other kingdom of its private
    channel, where the rules make alliances by agreement."""
    others = [seat for seat in pair_members(channel) if seat != access.seat] if channel.startswith(PAIR) else []
    return (access.role in (SEAT, LORD) and access.seat in shape.kingdoms and len(others) == 1
            and others[0] in shape.kingdoms and game.ruleset.alliance_line(game.options, others[0], "fr") is not None)


def _alliance(store: Store, game_id: str, shape: Shape, access: Access, channel: str) -> dict[str, Any]:
    with store.game(game_id) as game:
        allowed = _allies(game, shape, access, channel)
    others = [seat for seat in pair_members(channel) if seat != access.seat]
    if not allowed:
        raise MessageRefused(422, "no_alliance_here", "Une alliance se propose à un autre royaume, sur ton canal "
                             "privé, là où les règles en ont.", "An alliance is offered to another kingdom, on your "
                             "private channel, where the rules have them.")
    return {"with": others[0]}


@router.post("/games/{game_id}/messages", response_model=MessageOut, response_model_exclude_none=True, status_code=201,
             tags=["messages"], responses=WRITES)
async def write_message(game_id: str, body: MessageIn, access: AccessDep, request: Request,
                        token: TokenQuery = None, authorization: AuthHeader = None) -> MessageOut:
    """Write on a channel: plain text, shown as written (no HTML, links shown but never followed by themselves).
    Refused (403 ``press_closed``) where the game's press does not allow it."""
    store: Store = request.app.state.store
    speaker = await run_in_threadpool(_speaker, request, store, token, authorization)
    out = await run_in_threadpool(_write, store, game_id, access, body, speaker)
    request.app.state.notifier.publish_message(game_id, out.seq)
    return out


def _draft(store: Store, game_id: str, access: Access, body: DraftIn) -> MessageOut:
    shape = store.shape(game_id)
    if not (shape.councils and access.role in (SEAT, LORD) and access.seat in shape.kingdoms):
        raise MessageRefused(403, "no_council", "Seuls le Seigneur et le Chef militaire d'un royaume qui tient "
                             "conseil écrivent son brouillon d'ordres.", "Only the Lord and the Military chief of a "
                             "kingdom that holds a council write its draft of orders.")
    text = clean_text(body.text, MAX_DRAFT)
    with store.game(game_id) as game:
        turn = game.ruleset.round(game.state)
    message = store.messages.post(game_id, shape, DRAFT + access.seat, DRAFTED, access, text, data={"turn": turn})
    with store.game(game_id) as game:
        return message_out(game, shape, access, message, holders=store.accounts.seat_names(game_id))


@router.put("/games/{game_id}/draft", response_model=MessageOut, response_model_exclude_none=True,
            tags=["messages"], responses=WRITES)
async def write_draft(game_id: str, body: DraftIn, access: AccessDep, request: Request) -> MessageOut:
    """A kingdom's draft of orders, by its Seigneur or its Chef militaire: the Chef takes it up, edits it and
    sends it as his orders (only he sends them). Not press: kept whatever the game's press. It belongs to its
    turn (``data.turn``): once the turn is judged, the draft is no longer offered."""
    out = await run_in_threadpool(_draft, request.app.state.store, game_id, access, body)
    request.app.state.notifier.publish_message(game_id, out.seq)
    return out


# -- moderation --------------------------------------------------------------------------------------
def _hide(store: Store, game_id: str, access: Access, seq: int) -> MessageOut:
    shape = store.shape(game_id)
    if not shape.moderates(access):
        raise MessageRefused(403, "not_the_moderator", "Seul le maître du jeu (ou le propriétaire de la partie) "
                             "masque un message.", "Only the game master (or the game's owner) hides a message.")
    message = store.messages.hide(game_id, seq, access, shape)
    with store.game(game_id) as game:
        return message_out(game, shape, access, message, holders=store.accounts.seat_names(game_id))


@router.post("/games/{game_id}/messages/{seq}/hide", response_model=MessageOut, response_model_exclude_none=True,
             tags=["messages"], responses=WRITES)
async def hide_message(game_id: str, seq: Seq, access: AccessDep, request: Request) -> MessageOut:
    """The moderator hides a message for everyone; the act is a line of the same channel, seen by its readers."""
    out = await run_in_threadpool(_hide, request.app.state.store, game_id, access, seq)
    request.app.state.notifier.publish_message(game_id, out.seq)
    return out


def _report(store: Store, game_id: str, access: Access, seq: int, speaker: str | None) -> MessageOut:
    shape = store.shape(game_id)
    if access.role == SPECTATOR and speaker is None:
        raise MessageRefused(403, "sign_in_to_write", "Les spectateurs signalent depuis leur compte ou le lien des "
                             "spectateurs.", "Spectators report from their account or the spectators' link.")
    key = f"{access.role}:{access.seat or ''}:{speaker or ''}"[:80]
    message = store.messages.report(game_id, seq, access, key, shape)
    with store.game(game_id) as game:
        return message_out(game, shape, access, message, holders=store.accounts.seat_names(game_id))


@router.post("/games/{game_id}/messages/{seq}/report", response_model=MessageOut, response_model_exclude_none=True,
             status_code=201, tags=["messages"], responses=WRITES)
async def report_message(game_id: str, seq: Seq, access: AccessDep, request: Request, token: TokenQuery = None,
                         authorization: AuthHeader = None) -> MessageOut:
    """Show a message one reads to the game's moderator (the game master, else the owner), once per reader."""
    store: Store = request.app.state.store
    speaker = await run_in_threadpool(_speaker, request, store, token, authorization)
    out = await run_in_threadpool(_report, store, game_id, access, seq, speaker)
    request.app.state.notifier.publish_message(game_id, out.seq)
    return out


def _mute(store: Store, game_id: str, access: Access, seat: str, on: bool) -> list[str]:
    shape = store.shape(game_id)
    if access.role not in (SEAT, LORD):
        raise MessageRefused(403, "not_a_seat", "Seul un siège fait taire un autre siège.",
                             "Only a seat mutes another seat.")
    if seat not in shape.seats or seat == access.seat:
        raise MessageRefused(422, "unknown_seat", "Siège inconnu (ou le tien).", "Unknown seat (or your own).")
    store.messages.mute(game_id, access.seat, seat, on)
    return store.messages.muted_by(game_id, access.seat)


@router.put("/games/{game_id}/mutes/{seat}", response_model=list[str], tags=["messages"], responses=WRITES)
def mute(game_id: str, seat: SeatName, access: AccessDep, store: StoreDep) -> list[str]:
    """This seat no longer reads ``seat``'s messages (for itself alone): the seats it mutes."""
    return _mute(store, game_id, access, seat, True)


@router.delete("/games/{game_id}/mutes/{seat}", response_model=list[str], tags=["messages"], responses=WRITES)
def unmute(game_id: str, seat: SeatName, access: AccessDep, store: StoreDep) -> list[str]:
    """This seat reads ``seat``'s messages again."""
    return _mute(store, game_id, access, seat, False)

