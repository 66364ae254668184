"""The shelf of maps (issue 61): players' drafts, the maps they publish, how often each was played, and reports.

A map is its author's draft until published: then read-only, listed, anyone's to play, until its author takes it
back (unpublished, a draft again: games already played on it keep their copy, the text their record holds). The
store keeps what the engine's last check of the text found (``Checked``): it never reads a map's text itself.

Every change is one conditional statement (``WHERE status = 'draft' AND revision = …``): of two publications or
withdrawals at once, on one server or several sharing a PostgreSQL database, one changes the row and the other
finds it changed, so the map is in one state or the other, never between. A publication is of the text it
checked: a draft changed since (its ``revision`` moved on) is not published.
"""

from __future__ import annotations

import contextlib
import math
import threading
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine, delete, func, insert, select, update

from kadesh.store import schema
from kadesh.store.errors import StoreError
from kadesh.store.jobs import utc_text

DRAFT, PUBLISHED = "draft", "published"
MAPS_PER_ACCOUNT = 100  # drafts and published maps together
MAPS_PER_PAGE = 20  # the shelf's page
NAME_LENGTH = 80  # characters of a map's name
DESCRIPTION_LENGTH = 2_000  # characters of its description
REASON_LENGTH = 1_000  # characters of a report's reason

maps, map_reports, map_games, players = schema.maps, schema.map_reports, schema.map_games, schema.players


class MapRefused(StoreError):
    """A map that may not be read or changed as asked: the status and the words to answer."""

    def __init__(self, status: int, code: str, fr: str, en: str) -> None:
        super().__init__(en)
        self.status, self.code, self.fr, self.en = status, code, fr, en


def no_such_map() -> MapRefused:
    """What another account learns of one's draft, and anyone of a map that is not there: the same."""
    return MapRefused(404, "no_such_map", "Pas de telle carte.", "No such map.")


def not_the_author() -> MapRefused:
    return MapRefused(403, "not_the_author", "Seul l'auteur de la carte la change.",
                      "Only the map's author changes it.")


def map_published() -> MapRefused:
    return MapRefused(409, "map_published", "Une carte publiée ne se change plus : retire-la d'abord.",
                      "A published map is read-only: unpublish it first.")


@dataclass(frozen=True, slots=True)
class Checked:
    """What the engine's check of a map's text found (``kadesh.server.map_checks.check_map``)."""

    playable: bool
    faults: list[dict[str, Any]]
    columns: int | None = None
    rows: int | None = None
    players: int | None = None

    @classmethod
    def of(cls, answer: dict[str, Any]) -> Checked:
        size = answer.get("size") or {}
        return cls(answer["playable"], answer["faults"], size.get("columns"), size.get("rows"), answer.get("players"))


@dataclass(frozen=True, slots=True)
class ShelfMap:
    id: str
    ruleset: str
    name: str
    description: str
    toml: str
    status: str
    author_id: str | None
    author_name: str | None
    author_deleted: bool
    revision: int
    playable: bool
    faults: list[dict[str, Any]]
    columns: int | None
    rows: int | None
    players: int | None
    played: int
    created_at: str
    updated_at: str
    published_at: str | None

    @property
    def published(self) -> bool:
        return self.status == PUBLISHED


@dataclass(frozen=True, slots=True)
class MapReport:
    map_id: str
    map_name: str
    reporter_id: str
    reason: str
    created_at: str


def _now() -> str:
    return utc_text(datetime.now(UTC))


_COLUMNS = (maps, players.c.name.label("author_name"))


def _shelf_map(row: Any) -> ShelfMap:
    values = row._mapping
    return ShelfMap(**{name: values[name] for name in ShelfMap.__slots__})  # type: ignore[attr-defined]


class Maps:
    def __init__(self, engine: Engine, writing: threading.Lock | contextlib.nullcontext) -> None:
        self.engine, self._writing = engine, writing

    def _read(self, conn: Connection, map_id: str) -> ShelfMap | None:
        row = conn.execute(select(*_COLUMNS).outerjoin(players, players.c.id == maps.c.author_id)
                           .where(maps.c.id == map_id)).first()
        return _shelf_map(row) if row is not None else None

    def get(self, map_id: str) -> ShelfMap | None:
        if not _possible(map_id):
            return None
        with self.engine.connect() as conn:
            return self._read(conn, map_id)

    def seen_by(self, map_id: str, reader_id: str | None) -> ShelfMap:
        """A published map, or the reader's own draft (404 ``no_such_map`` otherwise: another's draft is not
        told apart from a map that does not exist)."""
        found = self.get(map_id)
        if found is None or not (found.published or (reader_id is not None and found.author_id == reader_id)):
            raise no_such_map()
        return found

    def own(self, map_id: str, author_id: str) -> ShelfMap:
        """The author's own map (404 for another's draft, 403 for another's published map)."""
        found = self.seen_by(map_id, author_id)
        if found.author_id != author_id:
            raise not_the_author()
        return found

    def mine(self, author_id: str) -> list[ShelfMap]:
        """The author's drafts and published maps, the last changed first."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(*_COLUMNS).outerjoin(players, players.c.id == maps.c.author_id)
                                .where(maps.c.author_id == author_id)
                                .order_by(maps.c.updated_at.desc(), maps.c.id)).all()
        return [_shelf_map(row) for row in rows]

    def create(self, author_id: str, ruleset: str, name: str, description: str, toml: str,
               checked: Checked) -> ShelfMap:
        """A new draft (422 ``too_many_maps`` past ``MAPS_PER_ACCOUNT``)."""
        map_id, now = uuid.uuid4().hex, _now()
        with self.engine.connect() as conn, self._writing, conn.begin():
            held = conn.execute(select(func.count()).select_from(maps).where(maps.c.author_id == author_id)).scalar()
            if held >= MAPS_PER_ACCOUNT:
                raise MapRefused(422, "too_many_maps", f"{MAPS_PER_ACCOUNT} cartes par compte au plus : supprime-en "
                                 "une d'abord.", f"At most {MAPS_PER_ACCOUNT} maps an account: delete one first.")
            conn.execute(insert(maps).values(
                id=map_id, ruleset=ruleset, name=name, description=description, toml=toml, author_id=author_id,
                status=DRAFT, created_at=now, updated_at=now, **_checked_values(checked)))
            return self._read(conn, map_id)  # type: ignore[return-value]

    def update(self, map_id: str, author_id: str, name: str | None = None, description: str | None = None,
               toml: str | None = None, checked: Checked | None = None) -> ShelfMap:
        """The author's draft changed (409 ``map_published`` for a published one)."""
        if not _possible(map_id):
            raise no_such_map()
        values: dict[str, Any] = {"updated_at": _now()}
        if name is not None:
            values["name"] = name
        if description is not None:
            values["description"] = description
        if toml is not None and checked is not None:
            values.update(toml=toml, revision=maps.c.revision + 1, **_checked_values(checked))
        with self.engine.connect() as conn, self._writing, conn.begin():
            changed = conn.execute(update(maps).where(maps.c.id == map_id, maps.c.author_id == author_id,
                                                      maps.c.status == DRAFT).values(**values)).rowcount
            if changed:
                return self._read(conn, map_id)  # type: ignore[return-value]
        self.own(map_id, author_id)  # 404 or 403 if it is not theirs
        raise map_published()

    def publish(self, map_id: str, author_id: str, revision: int, checked: Checked) -> ShelfMap:
        """The author's draft, as checked at ``revision``, on the shelf (409 ``map_changed`` if its text changed
        since). Published already: as it is."""
        if not _possible(map_id):
            raise no_such_map()
        now = _now()
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(update(maps).where(maps.c.id == map_id, maps.c.author_id == author_id, maps.c.status == DRAFT,
                                            maps.c.revision == revision)
                         .values(status=PUBLISHED, published_at=now, updated_at=now, **_checked_values(checked)))
        found = self.own(map_id, author_id)
        if not found.published:
            raise MapRefused(409, "map_changed", "La carte a changé pendant sa vérification : publie-la à nouveau.",
                             "The map changed while it was checked: publish it again.")
        return found

    def unpublish(self, map_id: str, author_id: str) -> ShelfMap:
        """The author's map taken off the shelf, a draft again (a draft already: as it is)."""
        if not _possible(map_id):
            raise no_such_map()
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(update(maps).where(maps.c.id == map_id, maps.c.author_id == author_id,
                                            maps.c.status == PUBLISHED)
                         .values(status=DRAFT, published_at=None, updated_at=_now()))
        return self.own(map_id, author_id)

    def delete(self, map_id: str, author_id: str) -> None:
        """The author's map gone, with its reports (games played on it keep their copy)."""
        if not _possible(map_id):
            raise no_such_map()
        with self.engine.connect() as conn, self._writing, conn.begin():
            owned = conn.execute(select(maps.c.id).where(maps.c.id == map_id, maps.c.author_id == author_id)).first()
            if owned is not None:
                conn.execute(delete(map_reports).where(map_reports.c.map_id == map_id))
                conn.execute(delete(maps).where(maps.c.id == map_id))
                return
        self.own(map_id, author_id)  # 404 or 403
        raise no_such_map()  # gone meanwhile (deleted twice at once)

    def shelf(self, ruleset: str | None = None, page: int = 1) -> tuple[list[ShelfMap], int]:
        """A page of the published maps (of one ruleset), the last published first, and how many pages there are."""
        if ruleset is not None and not _possible(ruleset):
            return [], 1
        shown = maps.c.status == PUBLISHED
        if ruleset is not None:
            shown = shown & (maps.c.ruleset == ruleset)
        with self.engine.connect() as conn:
            count = conn.execute(select(func.count()).select_from(maps).where(shown)).scalar() or 0
            rows = conn.execute(select(*_COLUMNS).outerjoin(players, players.c.id == maps.c.author_id).where(shown)
                                .order_by(maps.c.published_at.desc(), maps.c.id)
                                .limit(MAPS_PER_PAGE).offset((page - 1) * MAPS_PER_PAGE)).all()
        return [_shelf_map(row) for row in rows], max(1, math.ceil(count / MAPS_PER_PAGE))

    def to_play(self, map_id: str) -> ShelfMap:
        """A published map, to open a game on (404 ``no_such_map`` otherwise, one's own draft too: a game is
        played on a map that was checked on publication)."""
        found = self.get(map_id)
        if found is None or not found.published:
            raise no_such_map()
        return found

    def played(self, map_id: str, game_id: str, name: str) -> None:
        """A game opened on the map (``name``, as it was then): counted, and the game's lists name it."""
        with self.engine.connect() as conn, self._writing, conn.begin():
            conn.execute(update(maps).where(maps.c.id == map_id).values(played=maps.c.played + 1))
            conn.execute(insert(map_games).values(game_id=game_id, map_id=map_id, name=name))

    def of_games(self, game_ids: list[str]) -> dict[str, tuple[str, str]]:
        """The map each of these games was opened on, as (map id, name then), by game; games on no map left out."""
        if not game_ids:
            return {}
        with self.engine.connect() as conn:
            rows = conn.execute(select(map_games).where(map_games.c.game_id.in_(game_ids))).all()
        return {row.game_id: (row.map_id, row.name) for row in rows}

    def report(self, map_id: str, reporter_id: str, reason: str) -> None:
        """A published map shown to the installation's moderators, once per reporter (again: nothing more)."""
        self.to_play(map_id)
        with self.engine.connect() as conn, self._writing, conn.begin():
            known = conn.execute(select(map_reports.c.map_id).where(map_reports.c.map_id == map_id,
                                                                     map_reports.c.reporter_id == reporter_id)).first()
            if known is None:
                conn.execute(insert(map_reports).values(map_id=map_id, reporter_id=reporter_id, reason=reason,
                                                        created_at=_now()))

    def reports(self) -> list[MapReport]:
        """Every report of a map still there, the latest first (for the operators: ``kadesh maps reports``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(map_reports, maps.c.name.label("map_name"))
                                .join(maps, maps.c.id == map_reports.c.map_id)
                                .order_by(map_reports.c.created_at.desc())).all()
        return [MapReport(row.map_id, row.map_name, row.reporter_id, row.reason, row.created_at) for row in rows]

    def withdraw(self, map_id: str) -> bool:
        """An operator takes a published map off the shelf, whoever wrote it (a report upheld): whether it was."""
        if not _possible(map_id):
            return False
        with self.engine.connect() as conn, self._writing, conn.begin():
            return bool(conn.execute(update(maps).where(maps.c.id == map_id, maps.c.status == PUBLISHED)
                                     .values(status=DRAFT, published_at=None, updated_at=_now())).rowcount)


def _possible(key: str) -> bool:
    """Whether a map could have this id (or ruleset): one with a NUL character none has, and PostgreSQL refuses it
    in a query."""
    return "\x00" not in key


def _checked_values(checked: Checked) -> dict[str, Any]:
    return {"playable": checked.playable, "faults": checked.faults, "columns": checked.columns, "rows": checked.rows,
            "players": checked.players}


def author_gone(author_id: str) -> list[Any]:
    """The statements that take a deleted account's maps with it: its drafts (and their reports) deleted, its
    published maps kept on the shelf by nobody (« auteur supprimé »)."""
    drafts = select(maps.c.id).where(maps.c.author_id == author_id, maps.c.status == DRAFT)
    return [delete(map_reports).where(map_reports.c.map_id.in_(drafts)),
            delete(maps).where(maps.c.author_id == author_id, maps.c.status == DRAFT),
            update(maps).where(maps.c.author_id == author_id).values(author_id=None, author_deleted=True)]
