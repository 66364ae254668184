"""The maps' routes (issue 61): a map checked and previewed as the engine reads it, and the shelf, where a
signed-in player keeps drafts and publishes maps that anyone may play (``POST /api/games`` with
``options.map``).

A map is checked by the engine's own door, in the check process (``kadesh.server.map_checks``); the store keeps
its drafts and published maps (``kadesh.store.maps``). Every write is a signed-in player's, from this site's pages
(``accounts_api.current_player``); a draft is its author's alone: to anyone else it does not exist (404).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.concurrency import run_in_threadpool

from kadesh.core.tomlcheck import UNPRINTABLE
from kadesh.server.accounts_api import PlayerDep
from kadesh.server.api import StoreDep, problems
from kadesh.server.identity import signed_in
from kadesh.server.map_checks import check_depth, check_map, preview_map
from kadesh.server.models import JsonObject
from kadesh.server.problems import ApiProblem
from kadesh.store import Store
from kadesh.store.maps import DESCRIPTION_LENGTH, NAME_LENGTH, REASON_LENGTH, Checked, ShelfMap

router = APIRouter(prefix="/api/maps")

MAX_BODY_TEXT = 64 * 1024  # characters of TOML a request may carry: no more than its body (the format's own
#                            ceiling, 60,000, is the engine's to say, as a fault of the map: bad_scenario)
CHECKED = problems(400, 413, 415, 422, 429)
WRITES = problems(400, 401, 403, 404, 409, 413, 415, 422, 429)
MapId = Annotated[str, Path(max_length=32, description="A map's id (opaque)")]


# -- models ----------------------------------------------------------------------------------------------------

class CheckIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(max_length=64, examples=["front"])
    toml: str | None = Field(None, max_length=MAX_BODY_TEXT, description="The map's TOML text")
    document: JsonObject | None = Field(None, description="Or its document: the TOML's keys and values as JSON")

    @model_validator(mode="after")
    def one_of_the_two(self) -> CheckIn:
        if (self.toml is None) == (self.document is None):
            raise ValueError("give either toml or document")
        return self


class Fault(BaseModel):
    where: str = Field(description="The key at fault (``units[3].cell``), or empty for the whole text")
    cell: str | None = Field(description="The map's cell the fault names (``C4``), if it names one")
    message: str = Field(description="The engine's refusal, in French (bad_scenario's message)")
    message_en: str


class Size(BaseModel):
    columns: int
    rows: int


class CheckOut(BaseModel):
    ruleset: str
    toml: str
    document: JsonObject | None = Field(description="The TOML's keys and values; null when it is not well-formed")
    playable: bool = Field(description="Whether a game may be played on it (no fault)")
    faults: list[Fault] = Field(description="The engine's refusals: the first it finds")
    size: Size | None
    players: int | None = Field(None, description="How many sides or kingdoms it seats, once playable")


class PreviewIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(max_length=64, examples=["front"])
    toml: str = Field(max_length=MAX_BODY_TEXT)
    seat: str = Field(max_length=64, examples=["blue"])


class PreviewOut(BaseModel):
    seat: str
    view: JsonObject = Field(description="What the seat sees of a game on this map at version 0, as GET "
                                         "/api/games/{id} gives it")


class MapIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(max_length=64, examples=["front"])
    name: str = Field(min_length=1, max_length=NAME_LENGTH)
    description: str = Field("", max_length=DESCRIPTION_LENGTH)
    toml: str = Field(max_length=MAX_BODY_TEXT)


class MapChange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(None, min_length=1, max_length=NAME_LENGTH)
    description: str | None = Field(None, max_length=DESCRIPTION_LENGTH)
    toml: str | None = Field(None, max_length=MAX_BODY_TEXT)


class Author(BaseModel):
    name: str | None = Field(description="null once the author's account is deleted")
    deleted: bool = Field(False, description="« auteur supprimé »: the author's account was deleted")


class MapOut(BaseModel):
    id: str
    ruleset: str
    name: str
    description: str
    toml: str
    status: Literal["draft", "published"]
    author: Author
    created: str = Field(description="UTC")
    updated: str = Field(description="UTC")
    published: str | None = Field(description="When it was published (UTC); null for a draft")
    playable: bool
    faults: list[Fault]
    size: Size | None
    players: int | None
    played: int = Field(description="Games opened on it")


class ShelfEntry(BaseModel):
    id: str
    ruleset: str
    name: str
    description: str
    author: Author
    size: Size | None
    players: int | None
    played: int
    published: str


class ShelfOut(BaseModel):
    maps: list[ShelfEntry]
    page: int
    pages: int


class ReportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: str = Field(min_length=1, max_length=REASON_LENGTH)


def _author(shelf: ShelfMap) -> Author:
    return Author(name=shelf.author_name, deleted=shelf.author_deleted)


def _size(shelf: ShelfMap) -> Size | None:
    return Size(columns=shelf.columns, rows=shelf.rows) if shelf.columns and shelf.rows else None


def map_out(shelf: ShelfMap) -> MapOut:
    return MapOut(id=shelf.id, ruleset=shelf.ruleset, name=shelf.name, description=shelf.description, toml=shelf.toml,
                  status=shelf.status, author=_author(shelf), created=shelf.created_at, updated=shelf.updated_at,
                  published=shelf.published_at, playable=shelf.playable, faults=shelf.faults, size=_size(shelf),
                  players=shelf.players, played=shelf.played)


def _one_line(text: str, what: tuple[str, str]) -> str:
    """A name shown on the shelf: one line of visible text."""
    text = text.strip()
    if not text or any(unicodedata.category(char) in UNPRINTABLE for char in text):
        raise ApiProblem(422, "bad_name", f"{what[0]} : une ligne de texte visible est attendue.",
                         f"{what[1]}: one line of visible text is expected.")
    return text


MAP_NAME = ("Nom de la carte", "Map name")
KEPT_CONTROLS = "\n\t"  # the control characters a description keeps: its lines, its tabs


def _description(text: str) -> str:
    """A map's description: lines of visible text (a control or format character refused, line breaks kept)."""
    if any(char not in KEPT_CONTROLS and unicodedata.category(char) in UNPRINTABLE for char in text):
        raise ApiProblem(422, "control_character", "Description : du texte, sans caractère de contrôle.",
                         "Description: text, without control characters.")
    return text.strip()


def _kept_text(toml: str) -> str:
    """A map's text as kept on the shelf: any text (the engine says what is wrong with it), but no NUL character,
    which no database column of text holds (PostgreSQL refuses it)."""
    if "\x00" in toml:
        raise ApiProblem(422, "control_character", "Le texte de la carte contient un caractère nul.",
                         "The map's text holds a NUL character.")
    return toml


# -- checking a map, as the engine reads it ------------------------------------------------------------------------

async def _checked(request: Request, ruleset: str, toml: str | None, document: dict[str, Any] | None = None) -> Any:
    """The engine's check of a map, in the check process (None: the client went away)."""
    return await request.app.state.checks.run(request, check_map, ruleset, toml, document)


@router.post("/check", response_model=CheckOut, tags=["maps"], responses=CHECKED)
async def check(body: CheckIn, request: Request) -> Any:
    """A map as the engine reads it: its text and document (each from the other), whether a game may be played on
    it, and its faults, in the words creating a game on it would answer (``bad_scenario``), each with the cell it
    names. Anyone may ask; computed in the check process."""
    if body.document is not None:
        check_depth(body.document)  # before it is pickled for the check process
    answer = await _checked(request, body.ruleset, body.toml, body.document)
    return Response(status_code=499) if answer is None else answer


@router.post("/preview", response_model=PreviewOut, tags=["maps"], responses=CHECKED)
async def preview(body: PreviewIn, request: Request) -> Any:
    """What a seat sees of a game on this map as it starts (fog and sight as the game shows them); 422
    ``bad_scenario`` if no game may be played on it."""
    answer = await request.app.state.checks.run(request, preview_map, body.ruleset, body.toml, body.seat)
    return Response(status_code=499) if answer is None else answer


# -- the shelf ---------------------------------------------------------------------------------------------------

@router.get("", response_model=ShelfOut, tags=["maps"], responses=problems(422, 429))
def shelf(store: StoreDep, ruleset: Annotated[str | None, Query(max_length=64)] = None,
          page: Annotated[int, Query(ge=1, le=10_000)] = 1) -> ShelfOut:
    """The published maps, the last published first, a page at a time (of one game with ``ruleset``)."""
    found, pages = store.maps.shelf(ruleset, page)
    return ShelfOut(maps=[ShelfEntry(id=m.id, ruleset=m.ruleset, name=m.name, description=m.description,
                                     author=_author(m), size=_size(m), players=m.players, played=m.played,
                                     published=m.published_at or "") for m in found],
                    page=page, pages=pages)


@router.get("/mine", response_model=list[MapOut], tags=["maps"], responses=problems(401, 403))
def mine(player: PlayerDep, store: StoreDep) -> list[MapOut]:
    """The signed-in player's drafts and published maps, the last changed first."""
    return [map_out(found) for found in store.maps.mine(player.id)]


@router.post("", response_model=MapOut, status_code=201, tags=["maps"], responses=WRITES)
async def create(body: MapIn, player: PlayerDep, request: Request) -> Any:
    """A new draft in the signed-in player's account (it may have faults: it is checked, not refused)."""
    name, description, toml = _one_line(body.name, MAP_NAME), _description(body.description), _kept_text(body.toml)
    answer = await _checked(request, body.ruleset, toml)
    if answer is None:
        return Response(status_code=499)
    store: Store = request.app.state.store
    made = await run_in_threadpool(store.maps.create, player.id, answer["ruleset"], name, description, toml,
                                   Checked.of(answer))
    return map_out(made)


@router.get("/{map_id}", response_model=MapOut, tags=["maps"], responses=problems(404, 422))
def read(map_id: MapId, request: Request, store: StoreDep) -> MapOut:
    """A published map (anyone's to read), or one's own draft: 404 ``no_such_map`` for anyone else's."""
    reader = signed_in(request, store)
    return map_out(store.maps.seen_by(map_id, reader.id if reader else None))


@router.put("/{map_id}", response_model=MapOut, tags=["maps"], responses=WRITES)
async def change(map_id: MapId, body: MapChange, player: PlayerDep, request: Request) -> Any:
    """The author's draft changed (its text checked again); a published map is read-only: 409 ``map_published``."""
    store: Store = request.app.state.store
    own = await run_in_threadpool(store.maps.own, map_id, player.id)
    name = _one_line(body.name, MAP_NAME) if body.name is not None else None
    description = _description(body.description) if body.description is not None else None
    toml = _kept_text(body.toml) if body.toml is not None else None
    checked = None
    if toml is not None and not own.published:
        answer = await _checked(request, own.ruleset, toml)
        if answer is None:
            return Response(status_code=499)
        checked = Checked.of(answer)
    changed = await run_in_threadpool(store.maps.update, map_id, player.id, name, description, toml, checked)
    return map_out(changed)


@router.post("/{map_id}/publish", response_model=MapOut, tags=["maps"], responses=WRITES)
async def publish(map_id: MapId, player: PlayerDep, request: Request) -> Any:
    """The author's draft on the shelf, checked again first: 422 ``bad_scenario`` (the engine's first fault) while
    no game may be played on it. Read-only once published."""
    store: Store = request.app.state.store
    own = await run_in_threadpool(store.maps.own, map_id, player.id)
    if own.published:
        return map_out(own)
    answer = await _checked(request, own.ruleset, own.toml)
    if answer is None:
        return Response(status_code=499)
    if not answer["playable"]:
        first = answer["faults"][0]
        raise ApiProblem(422, "bad_scenario", first["message"], first["message_en"])
    published = await run_in_threadpool(store.maps.publish, map_id, player.id, own.revision, Checked.of(answer))
    return map_out(published)


@router.post("/{map_id}/unpublish", response_model=MapOut, tags=["maps"], responses=WRITES)
def unpublish(map_id: MapId, player: PlayerDep, store: StoreDep) -> MapOut:
    """The author takes the map off the shelf: a draft again. Games already opened on it keep their copy."""
    return map_out(store.maps.unpublish(map_id, player.id))


@router.delete("/{map_id}", status_code=204, tags=["maps"], responses=WRITES)
def remove(map_id: MapId, player: PlayerDep, store: StoreDep) -> Response:
    """The author deletes the map (games already opened on it keep their copy)."""
    store.maps.delete(map_id, player.id)
    return Response(status_code=204)


@router.post("/{map_id}/report", status_code=204, tags=["maps"], responses=WRITES)
def report(map_id: MapId, body: ReportIn, player: PlayerDep, store: StoreDep) -> Response:
    """Show a published map to the installation's moderators (its operators: ``kadesh maps reports``), once per
    account."""
    store.maps.report(map_id, player.id, _description(body.reason) or "-")
    return Response(status_code=204)
