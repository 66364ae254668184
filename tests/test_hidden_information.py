"""Property: nothing the server sends to a seat holds what that seat's own view does not.

For every registered ruleset (``all_rulesets()``: a new one is covered without a change here),
random games are played through the HTTP API with every seat's token, and every answer a seat
gets is checked: ``GET /api/games/{id}``, ``/legal``, ``/journal`` (fr and en), ``POST /actions``
(events and view), ``/odds`` and ``/preview``, refusals (illegal or forged actions, out of turn,
stale, malformed, a spectator acting) and the frames of ``/ws/games/{id}`` each seat (and a
spectator, reader ``None``) receives.

Each game's dice seed is drawn from the test's own seeded rng: the games differ from one another, and a failure
comes again at every run.

How a leak is recognised. A *fact* is a string *atom* (an identifier such as ``e2``, ``r1``,
``G18``, or a word in a JSON value) or a *pair* of identifiers standing together in one JSON
object or one clause of a sentence (``r1`` with ``J1``: a unit on a cell). Each reader keeps:

* ``known``: the facts of its views (every version), its legal actions, what it sent, the
  public view and what anyone may read (the API's field names, the ruleset's own files);
* ``heard``: the facts of the events it may read (as stored, with their audiences);
* ``cand``: the facts of what the others know: the other seats' views and actions, the events
  it may not read, the identifiers of the whole state; and, as raw strings, the dice seed while
  the game runs and every token but its own.

A secret is a fact of ``cand`` that is neither known nor heard: no answer or frame may hold one. An answer
to ``/odds`` or ``/preview`` may also tell a seat what it works out itself from its view alone with the rules
(the same question in the game rebuilt from that view, ``Ruleset.state_from_view``: a move's way pairs cells
it passes, which an enemy the seat did not see may have gone between).
Structure is checked too: views equal ``game.view(reader)`` at that version, events are exactly
the stored events the seat may read, journals exactly their narration, and the seed appears once
the game is over. Events themselves are held to the views: one addressed to a few seats names and
pairs nothing their views (before or after it) do not show, a public one names nothing the public
view does not. And where the test can build the same game with all a seat does not see left out
(``COUNTERFACTUALS``, or ``Ruleset.state_from_view``), forged actions (legal or played ones with
fields swapped, often for what the seat must not know) must get the same answer from the rules
there: an action that lands only thanks to a hidden unit, or a refusal that differs, is a leak; so are
odds or a preview that differ there.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import random
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest

from kadesh.core import Event, RuleError, Ruleset, all_rulesets, get_ruleset
from kadesh.server.app import create_app
from tests.asgi_client import TestClient

pytestmark = pytest.mark.slow

RULESETS = sorted(all_rulesets())
ACTIONS_PER_RULESET = 110  # in one or more games; the whole file runs in well under a minute
OPTIONS: dict[str, dict[str, Any]] = {"front": {"scenario": "test_mixed"}}  # small boards where there is a choice
# What each ruleset is known to hide: some live secret of a seat must match, or the test would pass vacuously.
HIDDEN: dict[str, re.Pattern[str]] = {
    "manoeuvre": re.compile(r"^[a-l](?:1[0-2]|[1-9])$"),  # the cells of the other side's deployment
    "front": re.compile(r"^[br]\d+$"),  # enemy units the side does not see (fog of war)
    "royaumes": re.compile(r"^mk[0-9a-f]{8}$"),  # the markers written in other kingdoms' secret orders
}
# How often a random player picks an action of this type (1 by default).
WEIGHTS = {"resign": 0.0, "end_campaign": 0.0, "undeploy": 0.1, "end_turn": 0.3, "set_deadline": 0.2, "let_go": 0.5}
WORD = re.compile(r"[\w-]+")
CLAUSE = re.compile(r"[:;,()\[\]\n!?«»]|\.\s")  # identifiers pair up within one clause of a sentence


# -- facts ------------------------------------------------------------------------------------------------------------
def _prose(text: str) -> bool:
    return any(c.isspace() for c in text)


@functools.lru_cache(maxsize=1 << 17)  # asked of the same few thousand words a million times a game
def _idlike(atom: str) -> bool:
    """An identifier: letters and digits in one word (``e2``, ``r1``, ``G18``, a marker)."""
    return any(c.isdigit() for c in atom) and any(c.isalpha() for c in atom) and not _prose(atom)


@functools.lru_cache(maxsize=1 << 17)  # a state's strings are the same from one version to the next
def _identifiers_in(text: str) -> frozenset[str]:
    return frozenset(word for word in WORD.findall(text) if _idlike(word))


def _atom(atom: str) -> bool:
    """Distinctive enough to be a fact: a word of 3+ characters, or a 2-character identifier (``e2``)."""
    return any(c.isalpha() for c in atom) and (len(atom) >= 3 or (len(atom) == 2 and _idlike(atom)))


@dataclass
class Facts:
    atoms: set[str] = field(default_factory=set)
    pairs: set[tuple[str, str]] = field(default_factory=set)

    def update(self, other: Facts) -> None:
        self.atoms |= other.atoms
        self.pairs |= other.pairs


def facts(value: Any, whole: bool = False, words: Callable[[str], bool] = _atom, keys: bool = True,
          memo: Memo | None = None) -> Facts:
    """The atoms of a JSON value, and the pairs of identifiers that stand together in one object
    (or anywhere in it, ``whole``: an action or an event is one fact) or in one sentence.
    ``words`` picks which words of a sentence count (for others' sentences: identifiers only);
    without ``keys``, only values count (what an event says, not the names of its fields).
    ``memo``: the facts of ``value``'s objects by their ``id``, for values that never change once made (the views
    as ``_json_like`` copies them, which share with one another every object they have alike): each object read
    once, whichever view and version it is in."""
    out = Facts()

    def pair_up(unit: set[str]) -> None:
        ids = sorted(a for a in unit if _idlike(a))
        out.pairs.update(itertools.combinations(ids, 2))

    def text(item: str, unit: set[str]) -> None:
        if _prose(item):  # a sentence: its words, each clause's identifiers as pairs
            for clause in CLAUSE.split(item):
                found = {w for w in WORD.findall(clause) if words(w)}
                out.atoms |= found
                pair_up(found)
        else:
            if _atom(item):
                out.atoms.add(item)
            unit.add(item)

    def walk(item: Any, unit: set[str]) -> None:
        if isinstance(item, str):
            text(item, unit)
        elif isinstance(item, dict):
            if memo is not None and not whole and item is not value:  # an object of its own, read once
                out.update(_remembered(item, words, keys, memo))
                return
            own = unit if whole else set()
            for key, child in item.items():
                if keys and _idlike(str(key)):  # a map keyed by cells or units; other keys are field names
                    text(str(key), own)
                if isinstance(child, dict) and isinstance(child.get("id"), str):
                    own.add(child["id"])
                walk(child, own)
            if not whole:
                pair_up(own)
        elif isinstance(item, list | tuple):
            for child in item:
                if isinstance(child, dict) and not whole and memo is None:  # an object of its own: the same facts
                    out.update(_object_facts(json.dumps(child, sort_keys=True), words, keys))  # wherever it is
                else:
                    walk(child, unit)

    top: set[str] = set()
    walk(value, top)
    pair_up(top)
    return out


# The facts of objects that never change, by id (each object kept, so that its id is never another's).
Memo = dict[tuple[int, Callable[[str], bool], bool], tuple[Any, Facts]]


def _remembered(item: dict[str, Any], words: Callable[[str], bool], keys: bool, memo: Memo) -> Facts:
    """``facts`` of one object that never changes, read once (a dict's facts do not depend on where it stands);
    an object met for the first time may have its like elsewhere already (``_object_facts``)."""
    key = (id(item), words, keys)
    if key not in memo:
        memo[key] = (item, _object_facts(json.dumps(item, sort_keys=True), words, keys))
    return memo[key][1]


_MEMO: dict[tuple[str, Callable[[str], bool], bool], Facts] = {}


def _object_facts(text: str, words: Callable[[str], bool], keys: bool) -> Facts:
    """``facts`` of one JSON object, remembered: views repeat the same objects version after version."""
    key = (text, words, keys)
    if key not in _MEMO:
        if len(_MEMO) > 100_000:
            _MEMO.clear()
        _MEMO[key] = facts(json.loads(text), words=words, keys=keys)
    return _MEMO[key]


def state_strings(state: Any) -> set[str]:
    """Every identifier held anywhere in a ruleset's state (dataclasses, dicts, lists), even in a sentence.

    Only identifiers (``r2``, ``G18``): the state also holds field names and translations,
    which are no secret."""
    texts: set[str] = set()  # each string once, however often the state holds it
    seen: set[int] = set()

    def walk(item: Any, depth: int) -> None:
        if isinstance(item, str):
            texts.add(item)
            return
        if depth > 12 or id(item) in seen or isinstance(item, int | float | bool) or item is None:
            return
        seen.add(id(item))
        if isinstance(item, dict):
            children: Any = itertools.chain.from_iterable(item.items())  # each key, then its value
        elif isinstance(item, list | tuple | set | frozenset):
            children = item
        elif is_dataclass(item):
            names = _fields_of(type(item)) if not isinstance(item, type) else [f.name for f in fields(item)]
            children = [getattr(item, name) for name in names]
        else:
            return
        for child in children:  # the strings and numbers, most of a state, without a call each
            kind = type(child)
            if kind is str:
                texts.add(child)
            elif not (kind is int or kind is float or kind is bool or child is None):
                walk(child, depth + 1)

    walk(state, 0)
    found: set[str] = set()
    for text in texts:
        found |= _identifiers_in(text)
    return found


@functools.cache
def _fields_of(kind: type) -> tuple[str, ...]:
    return tuple(spec.name for spec in fields(kind))


@dataclass
class Book:
    """What one reader may know, and what others know that it must not be told."""

    reader: str | None
    known: Facts = field(default_factory=Facts)  # its views, legal actions, own actions, what is public
    heard: Facts = field(default_factory=Facts)  # the events it may read
    cand: Facts = field(default_factory=Facts)  # what the others know
    raw: dict[str, str] = field(default_factory=dict)  # label → a secret string (seed, tokens)

    def live(self) -> Iterator[str | tuple[str, str]]:
        yield from (a for a in self.cand.atoms if a not in self.known.atoms and a not in self.heard.atoms)
        yield from (p for p in self.cand.pairs if p not in self.known.pairs and p not in self.heard.pairs)

    def secrets_in(self, found: Facts, sent: Facts | None = None, heard: bool = True) -> Facts:
        """The facts of ``found`` that are secrets of this reader (``sent``: what it sent itself;
        without ``heard``, what events told it counts as secret too)."""
        sent = sent or Facts()
        told = self.heard if heard else Facts()
        return Facts({a for a in found.atoms if a in self.cand.atoms and a not in self.known.atoms
                      and a not in sent.atoms and a not in told.atoms},
                     {p for p in found.pairs if p in self.cand.pairs and p not in self.known.pairs
                      and p not in sent.pairs and p not in told.pairs})


def _labels(secret: Facts) -> list[str]:
    return [f"secret {a!r}" for a in sorted(secret.atoms)] + [f"secret pair {p}" for p in sorted(secret.pairs)]


_UNPARSED = object()


def leaks(book: Book, text: str, sent: Any = None, verified: tuple[str, ...] = (), reckoned: Any = None,
          parsed: Any = _UNPARSED, memo: Memo | None = None) -> list[str]:
    """Every secret of ``book``'s reader in the raw ``text`` of an answer or frame sent to it
    (``sent``: what the reader itself sent in that request, which an answer may repeat;
    ``reckoned``: what the reader works out itself from its own view with the rules, which an answer may tell it;
    ``parsed``: ``text`` already read as JSON by the caller, not read again; ``memo``: ``facts``' own, where
    ``parsed``'s objects never change).
    In sentences only identifiers count: their other words are the rules' own vocabulary."""
    found = [f"the {label}" for label, secret in book.raw.items() if secret and secret in text]
    if parsed is not _UNPARSED:
        data = parsed
    else:
        try:
            data = json.loads(text)
        except ValueError:
            data = text
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k not in verified}
    own = facts(sent, whole=True) if sent is not None else Facts()
    if reckoned is not None:  # the same facts the answer would hold if it said just that
        own.update(facts(reckoned, words=_idlike))
    return found + _labels(book.secrets_in(facts(data, words=_idlike, memo=memo), own))


def _within(small: Facts, large: Facts) -> bool:
    return small.atoms <= large.atoms and small.pairs <= large.pairs


def _without_type(action: Any) -> Any:
    return {k: v for k, v in action.items() if k != "type"} if isinstance(action, dict) else action


def _json(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _compact(value: Any) -> str:
    """``value`` in JSON as the server writes it: no spaces, other than ASCII characters as they are."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _compact_sharing(value: Any, written: dict[int, tuple[Any, str]]) -> str:
    """``_compact(value)``, each list and object in it written once (``written``: by ``id``, for values that never
    change once made, as ``_json_like``'s copies share them from one view and version to the next)."""
    kind = type(value)
    if kind is not dict and kind is not list:
        return _compact(value)
    if id(value) not in written:
        if kind is dict:
            parts = (f"{_compact(key)}:{_compact_sharing(child, written)}" for key, child in value.items())
            written[id(value)] = value, "{" + ",".join(parts) + "}"
        else:
            written[id(value)] = value, "[" + ",".join(_compact_sharing(child, written) for child in value) + "]"
    return written[id(value)][1]


_UNREAD = json.dumps("the value expected here, found written so")


def _read_expecting(text: str, name: str, value: Any, written: str) -> Any:
    """``json.loads(text)``, a JSON object whose field ``name`` should be ``value``, written ``written``
    (``_compact(value)``). Where the text holds it so, that span is not read again: it reads as ``value`` itself
    (the same object, equal to what reading it would give); otherwise, or if the field stands elsewhere, the
    whole text is read. The span is the field's own when the text with a marker in its place reads with
    the marker as that field: the rest is the same text, and nothing else can be read in its place."""
    span = f'"{name}":{written}'
    at = text.find(span)
    if at >= 0 and _UNREAD not in text:
        data = json.loads(f'{text[:at]}"{name}":{_UNREAD}{text[at + len(span):]}')
        if isinstance(data, dict) and data.get(name) == json.loads(_UNREAD):
            data[name] = value
            return data
    return json.loads(text)


def _json_like(value: Any, olds: list[Any]) -> Any:
    """``_json(value)``, sharing with ``olds`` (copies made so before) each part equal to theirs at the same place.

    The views of one version are much alike, and much like the last version's (a Royaumes view holds every past
    turn): comparing costs a fraction of writing and reading them again, and a part shared is read once
    (``facts``' ``memo``). A part is taken from ``olds`` where Python's ``==`` finds it equal, which no more tells
    1 from 1.0 or True, nor one order of keys from another, than the test's own comparisons of views do."""
    for old in olds:
        if value == old and type(old) is type(value) is not tuple:
            return old
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return value
    if isinstance(value, dict):
        olds = [old for old in olds if type(old) is dict]
        out = {}
        for key, child in value.items():
            name = key if type(key) is str else next(iter(_json({key: None})))
            out[name] = _json_like(child, [old[name] for old in olds if name in old])
        return out
    if isinstance(value, list | tuple):
        olds = [old for old in olds if type(old) is list]
        return [_json_like(child, [old[index] for old in olds if index < len(old)])
                for index, child in enumerate(value)]
    return _json(value)


# -- the checker catches what it should --------------------------------------------------------------------------------
def test_the_checker_catches_a_sighting_the_side_could_not_have_made():
    from tests.test_front_seen_moves import _night_road

    seen = Event("seen_moving", {"unit": "r1", "side": "red", "cells": ["H2", "G2"], "seen_leaving": False,
                                 "seen_arriving": False}, ("blue",))
    assert _front_sighting(_night_road((4, 4)), seen, "blue")  # the road is in sight from E5
    with pytest.raises(AssertionError, match="which it would not see there"):
        _front_sighting(_night_road((4, 5)), seen, "blue")  # not from E6
    with pytest.raises(AssertionError):  # I2, where it stood, is listed only if seen there
        _front_sighting(_night_road((5, 3)), Event("seen_moving", {**seen.data, "cells": ["I2", "H2"]}, ("blue",)),
                        "blue")


def test_the_checker_catches_planted_leaks():
    book = Book("south")
    book.known.update(facts({"units": [{"id": "s1", "cell": "h11"}], "phase": "deployment"}))
    book.cand.update(facts({"units": [{"id": "n5", "cell": "e2", "kind": "sniper"}], "note": "plan mk0123abcd"},
                           words=_idlike))
    book.raw["seed"] = "f00dfeed" * 8
    clean = json.dumps({"view": {"units": [{"id": "s1", "cell": "h11"}]},
                        "journal": [{"line": "Tu places s1 en h11."}]})
    assert leaks(book, clean) == []
    assert leaks(book, json.dumps({"view": {"cells": ["e2"]}})) == ["secret 'e2'"]
    assert leaks(book, json.dumps({"line": "North placed n5 on e2."})) == ["secret 'e2'", "secret 'n5'",
                                                                          "secret pair ('e2', 'n5')"]
    assert leaks(book, json.dumps({"units": [{"kind": "sniper"}]})) == ["secret 'sniper'"]
    assert "secret 'mk0123abcd'" in leaks(book, json.dumps([{"line": "ordre mk0123abcd"}]))
    assert leaks(book, json.dumps({"seed": "f00dfeed" * 8})) == ["the seed"]
    # What the reader sent itself may be repeated to it; a pair known separately is still a pair.
    assert leaks(book, json.dumps({"detail": "Unknown cell: e2."}), sent={"cell": "e2"}) == []
    book.known.update(facts({"a": "n5", "b": {"c": "e2"}}))
    assert leaks(book, json.dumps({"unit": "n5", "cell": "e2"})) == ["secret pair ('e2', 'n5')"]


def test_what_a_seat_reckons_from_its_view_is_no_secret():
    """Front, as found with one game's dice: blue's truck b5 went from D2 to B1 out of red's sight, so the pair
    (B1, D2) is blue's secret. Later red asks for the preview of its truck r4's move from D3 to B1: its way over
    the ground red knows goes D2, C1, B1, and an answer listing a way pairs its cells. Red works that way out
    itself from its view and the rules (the preview in the battle rebuilt from its view): no secret. Any fact
    beyond that reckoning still is."""
    book = Book("red")
    book.known.update(facts({"units": [{"id": "r4", "side": "red", "cell": "D3"}, {"id": "b5", "cell": "C2"}],
                             "fires": ["C1"]}))
    book.known.update(facts([{"type": "move", "unit": "r4", "to": cell} for cell in ("B1", "C1", "D2")]))  # legal
    book.cand.update(facts({"type": "moved", "unit": "b5", "from": "D2", "to": "B1", "audience": ["blue"]},
                           words=_idlike))
    action = {"type": "move", "unit": "r4", "to": "B1"}
    way = {"kind": "move", "path": ["D2", "C1", "B1"], "ap": 12, "fuel": 5, "ap_left": 2}
    answer = json.dumps({"seat": "red", "version": 74, "preview": way})
    assert leaks(book, answer, sent=action) == ["secret pair ('B1', 'D2')"]  # the checker alone cannot tell
    assert leaks(book, answer, sent=action, reckoned=way) == []
    told = json.dumps({"seat": "red", "version": 74, "preview": {**way, "note": "b5 came from D2"}})
    assert leaks(book, told, sent=action, reckoned=way) == ["secret pair ('D2', 'b5')"]
    assert leaks(book, json.dumps({"preview": {"path": ["D2", "B1"]}}), sent=action,
                 reckoned={"path": ["D2", "C1"]}) == ["secret pair ('B1', 'D2')"]


def test_the_checker_catches_another_seats_view_sent_to_a_seat(tmp_path, migrated_sqlite):
    """A real game: south's book, then north's view (deployed) and north's journal as if sent to south."""
    rng = random.Random(5)
    with _client(tmp_path, migrated_sqlite) as client:
        table = Table(client, "manoeuvre", {"choice": "bow"}, rng)
        north = table.tokens["north"]
        for action in [a for a in table.legal("north") if a["type"] == "deploy"][:1]:
            table.post("north", action)
        north_view = client.get(f"/api/games/{table.gid}", params={"token": north}).text
        north_journal = client.get(f"/api/games/{table.gid}/journal", params={"token": north}).text
        assert leaks(table.books["south"], north_view) and leaks(table.books["south"], north_journal)
        assert not leaks(table.books["north"], north_view)
        spectator = client.get(f"/api/games/{table.gid}", params={"token": table.spectator}).text
        assert leaks(table.books[None], spectator.replace(table.gid, table.tokens["south"])) == ["the token of south"]
        placed = table.played[-1][1]  # north's deployment, as if its event had been made public
        public = Event("deployed", {"element": {"id": placed["element"]}, "cell": placed["cell"]})
        with pytest.raises(AssertionError, match="tells None"):
            table.news(table.books[None], public, table.seen[None], table.seen[None], None)
        table.close()


# -- one game through the API -----------------------------------------------------------------------------------------
@contextlib.contextmanager
def _client(tmp_path: Path, migrated: Path) -> Iterator[TestClient]:
    """A server on a copy of ``migrated`` (conftest's ``migrated_sqlite``: a new file's migration, once a process)."""
    path = tmp_path / "k.sqlite3"
    shutil.copyfile(migrated, path)
    path.chmod(0o600)  # as the store makes its files
    app = create_app(f"sqlite:///{path}")
    with TestClient(app) as client:
        yield client
    app.state.store.close()


def _field_names(schema: Any) -> Iterator[str]:
    """The names of the fields of the API's answers (``properties`` in its OpenAPI description)."""
    if isinstance(schema, dict):
        yield from schema.get("properties", {})
        for child in schema.values():
            yield from _field_names(child)
    elif isinstance(schema, list):
        for child in schema:
            yield from _field_names(child)


@functools.cache  # the same files for every game of the ruleset (a ruleset defined in a test module: all of tests/)
def vocabulary(ruleset: str) -> Facts:
    """The words written in a ruleset's own files (its catalogue, its messages and their examples, its
    scenarios), and the identifiers standing together on one of their lines: anyone may read them.
    Shared by every caller: never to be changed."""
    root = Path(sys.modules[type(get_ruleset(ruleset)).__module__].__file__ or "").parent
    out = Facts()
    for path in root.rglob("*"):
        if path.suffix in (".py", ".toml", ".json"):
            lines = "\n".join(path.read_text(encoding="utf-8").splitlines()) + " "  # a line ends a clause
            out.atoms.update(word for word in set(WORD.findall(lines)) if _atom(word))
            for clause in CLAUSE.split(lines):  # as ``facts`` pairs a sentence's identifiers
                ids = sorted({word for word in WORD.findall(clause) if _idlike(word)})
                out.pairs.update(itertools.combinations(ids, 2))
    return out


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _receive(socket: Any, timeout: float = 10.0) -> str:
    """One frame's raw text, or a failure after ``timeout`` seconds (never a hung test)."""
    receiver = getattr(socket, "_send_rx", None)
    if receiver is None:  # another Starlette: no timeout then
        return socket.receive_text()

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await receiver.receive()

    message = socket.portal.call(get)
    socket._raise_on_close(message)
    return message["text"]


class Table:
    """A game being played, with every reader's book, views by version and open sockets."""

    def __init__(self, client: TestClient, ruleset: str, options: dict[str, Any], rng: random.Random) -> None:
        self.client, self.rng, self.name = client, rng, ruleset
        self.rules = get_ruleset(ruleset)
        self.store = client.app.state.store
        # Opened in the store with a dice seed drawn from the test's rng (the API draws a fresh secret one): each
        # game has its own dice, and the same ones at every run, so that a failure is replayed from the test's name.
        created = self.store.create_game(ruleset, options, seed=f"{rng.getrandbits(256):064x}")
        self.gid, self.commitment = created.id, created.commitment
        self.tokens = dict(created.seat_tokens)
        self.seats = list(self.tokens)
        self.spectator, self.owner = created.spectator_token, created.owner_token
        self.readers: list[str | None] = [*self.seats, None]
        self.books = {reader: Book(reader) for reader in self.readers}
        public = facts([client.get("/api/rulesets").json(), self.gid, self.commitment, self.seats, ruleset,
                        sorted(_field_names(client.get("/openapi.json").json())), "update", "problem"])
        public.update(vocabulary(ruleset))
        for reader, book in self.books.items():
            book.known.update(public)
            book.raw.update({f"token of {seat}": token for seat, token in self.tokens.items() if seat != reader})
            book.raw.update({"spectator token": self.spectator, "owner token": self.owner})
        self.views: dict[int, dict[str | None, Any]] = {}
        self.written: dict[tuple[int, str | None], str] = {}  # the views of the last versions, ``_compact``
        self.parts: dict[int, tuple[Any, str]] = {}  # their lists and objects, ``_compact_sharing``
        self.legals: dict[str, list[dict[str, Any]]] = {}
        self.to_act: list[str] = []
        self.outcome: Any = None
        self.version = -1
        self.played: list[tuple[str, Any]] = []
        self.seen: dict[str | None, Facts] = {}
        self.memo: Memo = {}  # the facts of the views' objects and journal lines, which never change once made
        self.stored: list[list[dict[str, Any]]] = []  # the events of each action as the store holds them
        self.events: list[list[Event]] = []  # the same, read: the events of version n at n - 1
        self.marks: dict[tuple[str | None, int], tuple[list[tuple[int, int, Event]], list[Any]]] = {}
        self.narrated: dict[tuple[int, int, str | None, str], str | None] = {}  # the rules' line of each event
        self.lines: dict[tuple[Any, ...], dict[str, Any]] = {}  # ``line``'s objects
        self.battle: Any = None  # the state as it stood at the last version, for SIGHTINGS
        self.hidden_seen: set[str] = set()  # readers that had a live secret of the kind the ruleset hides
        self.sockets: dict[str | None, tuple[Any, str, int]] = {}
        self.stack = contextlib.ExitStack()
        self.checked = 0
        self.snapshot()
        try:
            for reader in self.readers:
                lang = rng.choice(["fr", "en"])
                socket = self.stack.enter_context(client.websocket_connect(
                    f"/ws/games/{self.gid}?token={self.token(reader)}&lang={lang}&since=0"))
                self.sockets[reader] = (socket, lang, -1)
            self.drain()
        except BaseException:  # a leak in the first frames: sockets left open would hang the client's exit
            self.close()
            raise

    def token(self, reader: str | None) -> str:
        return self.tokens[reader] if reader is not None else self.spectator

    def close(self) -> None:
        self.stack.close()

    # -- the truth, from the server's own store ------------------------------------------------------------------------
    def snapshot(self) -> None:
        with self.store.game(self.gid) as game:
            version = game.version
            views: dict[str | None, Any] = {}
            last = self.views.get(self.version, {})
            for reader in self.readers:  # alike, and like the last version's: made sharing what they have alike
                olds = [*list(views.values())[-1:], *([last[reader]] if last else [])]
                views[reader] = _json_like(game.view(reader), olds)
            self.legals = {seat: _json(game.legal_actions(seat)) for seat in self.seats}
            self.to_act, self.outcome, seed = game.to_act(), game.outcome, game.seed
            strings = state_strings(game.state)
            battle = self.rules.clone(game.state) if self.name in SIGHTINGS else None
        assert version == self.version + 1, "one snapshot per version"
        self.version, self.views[version] = version, views
        self.written = {key: text for key, text in self.written.items() if key[0] == version - 1}
        battle_before, self.battle = self.battle, battle
        stored, self.stored = self.stored, self.store.stored_events(self.gid)
        assert len(self.stored) == version and self.stored[:-1] == stored, "past actions' events never change"
        events = [Event.from_dict(raw) for raw in self.stored[-1]] if version else []
        if version:
            self.events.append(events)
        actor, action = self.played[-1] if version else (None, None)
        seen = {reader: facts(views[reader], memo=self.memo) for reader in self.readers}
        seen_by_others = {seat: facts(views[seat], words=_idlike, memo=self.memo) for seat in self.seats}
        before, self.seen = self.seen, seen
        for reader, book in self.books.items():
            for seat in self.seats:  # first what the others know now, then what this reader was told
                if seat != reader:
                    book.cand.update(seen_by_others[seat])
            for event in events:
                if not event.visible_to(reader):
                    book.cand.update(facts(event.to_dict(), words=_idlike))
            if version and actor != reader:  # what another seat did; the name of its action type is no secret
                book.cand.update(facts(_without_type(action), words=_idlike, keys=False))
            book.cand.atoms |= strings
            oversees = actor is not None and actor in before and reader in before and _within(before[actor],
                                                                                             before[reader])
            # What the rules announce to every seat in this action counts as shown with the views: within one
            # action a side may see a unit that no view shows before or after (Front: an enemy stepping into
            # the fire of units on alert, destroyed there; the `destroyed` announcement names it too).
            shown_now = Facts(set(seen[reader].atoms), set(seen[reader].pairs))
            for event in events:
                if event.visible_to(reader) and event.audience is not None and set(self.seats) <= set(event.audience):
                    shown_now.update(facts(event.data, keys=False))
                elif event.visible_to(reader) and self.name in SIGHTINGS and SIGHTINGS[self.name](battle_before, event,
                                                                                                  reader):
                    shown_now.update(facts(event.data, keys=False))  # checked against the rules' own sight
            for event in events:  # what the actor sent is no news to a reader that sees all the actor sees
                self.news(book, event, shown_now, before.get(reader, Facts()), action if oversees else None)
            book.known.update(seen[reader])
            book.known.update(seen[None])
            if reader is not None:
                book.known.update(facts(self.legals[reader]))
            if version and actor == reader:
                book.known.update(facts(action, whole=True))
            for event in events:
                if event.visible_to(reader):
                    book.heard.update(facts(event.to_dict(), whole=True))
            if self.outcome is not None:  # over: what the rules give to read then is told (Front's public: all)
                for past in [event for events_then in self.events for event in events_then]:
                    if self.rules.visible_once_over(past, reader):
                        book.heard.update(facts(past.to_dict(), whole=True))
            if self.outcome is None:
                book.raw["seed"] = seed
            else:
                book.raw.pop("seed", None)
            hidden = HIDDEN.get(self.name)
            if hidden is not None and reader is not None and reader not in self.hidden_seen and any(
                    any(hidden.match(part) for part in ((item,) if isinstance(item, str) else item))
                    for item in book.live()):
                self.hidden_seen.add(reader)

    def news(self, book: Book, event: Event, now: Facts, before: Facts, sent: Any) -> None:
        """What an event tells a reader must be in its views (before or after the action), unless all seats
        are told: an event for a few seats names nothing and pairs nothing their views do not, and
        a public event names nothing the public view does not (its pairs may be news: a move).
        Events told to every seat and not to the public are the ruleset's announcements to the players."""
        if not event.visible_to(book.reader):
            return
        few = event.audience is not None and not set(self.seats) <= set(event.audience)
        if not few and not (event.audience is None and book.reader is None):
            return
        told = book.secrets_in(facts(event.data, keys=False),
                               facts(sent, whole=True) if sent is not None else None, heard=False)
        shown = now.atoms | before.atoms
        told = Facts({a for a in told.atoms if _idlike(a) and a not in shown},
                     {p for p in told.pairs if few and not set(p) <= shown})
        assert not (told.atoms or told.pairs), \
            f"{self.name} v{self.version}: event {event.to_dict()} tells {book.reader} {_labels(told)}"

    # -- checks ------------------------------------------------------------------------------------------------------
    def check(self, reader: str | None, text: str, what: str, sent: Any = None, verified: tuple[str, ...] = (),
              reckoned: Any = None, parsed: Any = _UNPARSED, memo: Memo | None = None) -> None:
        """No secret of ``reader`` in ``text``; the fields ``verified`` were found equal to what it
        knows (its view, its legal actions, its events), so only their raw text is searched; ``reckoned``:
        what it works out from its own view; ``parsed``: ``text`` as JSON, where the caller read it already
        (``leaks``)."""
        found = leaks(self.books[reader], text, sent, verified, reckoned, parsed, memo)
        assert not found, f"{self.name} v{self.version}: {what} to {reader} leaks {found}: {text[:2000]}"
        self.checked += 1

    def journal_of(self, reader: str | None, lang: str, since: int, until: int | None = None,
                   marked: bool = False) -> list[dict[str, Any]]:
        """The journal ``reader`` must get: the narration of the stored events it may read, and with
        ``marked`` (the HTTP journal) each line's board mark, made from those events alone."""
        visible, marks = self.marked(reader)
        lines = []
        for (version, index, event), mark in zip(visible, marks, strict=True):
            if version <= since or (until is not None and version > until):
                continue
            key = (version, index, reader, lang)
            if key not in self.narrated:
                self.narrated[key] = self.rules.narrate(event, reader, lang)
            line = self.narrated[key]
            if line is not None:
                lines.append(self.line(key, {"version": version, "line": line}
                                       | ({"mark": mark} if marked and mark else {})))
        return lines

    def line(self, key: tuple[Any, ...], line: dict[str, Any]) -> dict[str, Any]:
        """The one object for a journal line, whichever journal holds it: its facts are read once (``memo``)."""
        kept = self.lines.setdefault((*key, "mark" in line), line)
        return kept if kept == line else line

    def marked(self, reader: str | None) -> tuple[list[tuple[int, int, Event]], list[Any]]:
        """The stored events ``reader`` may read (version, place in the version, event) and their marks, made once
        per version: every journal ``reader`` gets at this version is checked against them."""
        key = (reader, len(self.stored))
        if key not in self.marks:  # once over, what the rules give to read then (Front's public: the whole battle)
            readable = (lambda event: event.visible_to(reader)) if self.outcome is None else \
                (lambda event: self.rules.visible_once_over(event, reader))
            visible = [(version, index, event) for version, events in enumerate(self.events, start=1)
                       for index, event in enumerate(events) if readable(event)]
            self.marks[key] = visible, self.rules.marks([event for _, _, event in visible], reader)
        return self.marks[key]

    def read_all(self) -> None:
        """Every reader reads the game, its journal (fr or en, from a random version) and its legal actions."""
        for reader in self.readers:
            token = self.token(reader)
            response = self.client.get(f"/api/games/{self.gid}", params={"token": token})
            assert response.status_code == 200, response.text
            body = self.read_view(response.text, self.version, reader)
            assert body["version"] == self.version and body["seat"] == reader
            assert body["view"] == self.views[self.version][reader]
            assert body["to_act"] == self.to_act and body["outcome"] == self.outcome
            assert (body["seed"] is None) == (self.outcome is None)
            self.check(reader, response.text, "GET game", verified=("view",), parsed=body)
            lang, since = self.rng.choice(["fr", "en"]), self.rng.randint(0, self.version)
            response = self.client.get(f"/api/games/{self.gid}/journal", headers=_auth(token),
                                       params={"lang": lang, "since": since})
            assert response.status_code == 200, response.text
            expected = self.journal_of(reader, lang, since, marked=True)
            journal = expected if response.text == _compact(expected) else response.json()
            assert journal == expected
            # Equal, so with the same facts: those of the expected lines, each read once.
            self.check(reader, response.text, f"journal {lang}", parsed=expected, memo=self.memo)
            if reader is not None:
                response = self.client.get(f"/api/games/{self.gid}/legal", headers=_auth(token))
                assert response.status_code == 200, response.text
                legal = response.json()
                assert legal["actions"] == self.legals[reader]
                self.check(reader, response.text, "legal", verified=("actions",), parsed=legal)

    def drain(self) -> None:
        """Each socket gets frames up to the current version: the right view, the new lines, no secret."""
        for reader, (socket, lang, last) in list(self.sockets.items()):
            while last < self.version:
                text = _receive(socket)
                frame = self.read_frame(text, reader)
                assert frame["type"] == "update", text
                version = frame["version"]
                assert version > last and frame["view"] == self.views[version][reader]
                expected = self.journal_of(reader, lang, max(last, 0), version)
                assert frame["journal"] == expected
                # Equal, so with the same facts: those of the expected lines, each read once.
                self.check(reader, text, "websocket frame", verified=("view",), parsed={**frame, "journal": expected},
                           memo=self.memo)
                last = version
                self.sockets[reader] = (socket, lang, last)

    def read_view(self, text: str, version: int, reader: str | None) -> Any:
        """An answer holding ``reader``'s view at ``version`` in its field ``view``, read (``_read_expecting``:
        a Royaumes view holds every past turn, and most of the answer)."""
        key = (version, reader)
        if key not in self.written:
            view = self.views[version][reader]
            self.written[key] = _compact_sharing(view, self.parts)
            self.parts.pop(id(view), None)  # kept in ``written`` while its version is read
        return _read_expecting(text, "view", self.views[version][reader], self.written[key])

    def read_frame(self, text: str, reader: str | None) -> Any:
        """A socket's frame, read; its view expected as ``reader``'s at the version the frame begins with."""
        start = re.match(r'\{"type":"update","version":(\d+),', text)
        if start is None or int(start[1]) not in self.views:
            return json.loads(text)
        return self.read_view(text, int(start[1]), reader)

    def legal(self, seat: str) -> list[dict[str, Any]]:
        return self.legals[seat]

    def answer(self, state: Any, seat: str, action: Any) -> tuple[str, ...]:
        try:
            self.rules.check(state, seat, action)
        except RuleError as refused:
            return refused.code, refused.en
        return ("accepted",)

    def reply(self, state: Any, seat: str, route: str, action: dict[str, Any]) -> tuple[Any, ...]:
        """What the rules answer ``seat`` asking for the ``odds`` or the ``preview`` of ``action`` in ``state``
        (as ``Game.odds`` and ``Game.preview`` do): ``("accepted", answer)``, or the refusal."""
        try:
            if route == "odds":
                self.rules.check(state, seat, action)
            return "accepted", _json(getattr(self.rules, route)(state, seat, action))
        except RuleError as refused:
            return refused.code, refused.en

    def reckon(self, seat: str, route: str, action: Any) -> Any:
        """What ``seat`` works out itself with the rules from its view alone: the answer to ``route`` in the
        game rebuilt from that view (``Ruleset.state_from_view``), where the ruleset can rebuild one; None
        otherwise, or if refused there."""
        if (type(self.rules).state_from_view is Ruleset.state_from_view or self.outcome is not None
                or not isinstance(action, dict)):
            return None
        state = self.rules.state_from_view(self.views[self.version][seat], seat)
        reply = self.reply(state, seat, route, action)
        return reply[1] if reply[0] == "accepted" else None

    def blind_state(self, seat: str) -> tuple[Any, Any] | None:
        """The game now, and the same game with all that ``seat`` does not see left out (None: no such game)."""
        make = COUNTERFACTUALS.get(self.name)
        if make is None and type(self.rules).state_from_view is not Ruleset.state_from_view:
            make = _from_view
        if make is None:
            return None
        with self.store.game(self.gid) as game:
            if game.outcome is not None:
                return None
            state = self.rules.clone(game.state)
        return state, make(self.rules, self.rules.clone(state), seat)

    def blind(self, seat: str, action: Any) -> tuple[str, ...] | None:
        """What the rules answer ``seat`` in the game where all it does not see is left out."""
        states = self.blind_state(seat) if isinstance(action, dict) else None
        return self.answer(states[1], seat, action) if states is not None else None

    def differential(self, seat: str, count: int = 12) -> None:
        """Forged actions (legal or played ones with fields swapped, often for what ``seat`` must not know)
        get the same answer from the rules as in the game where what ``seat`` does not see is left out."""
        states = self.blind_state(seat)
        if states is None:
            return
        real, blind = states
        templates = self.legals[seat] + [action for _, action in self.played if isinstance(action, dict)]
        for template in self.rng.sample(templates, min(count, len(templates))):
            action = forge(self, seat, template)
            here, there = self.answer(real, seat, action), self.answer(blind, seat, action)
            assert here == there or (there[0] == "accepted" and here[0] != "accepted"), \
                f"{self.name} v{self.version}: {seat}'s {action} gets {here}, but {there} where it sees all there is"

    def post(self, seat: str, action: Any, version: int | None = None) -> Any:
        """Send an action; if it lands, take the new truth and check the answer and the frames.

        Whether it lands, and the refusal, must not depend on what ``seat`` does not see: the
        rules must answer the same in a game where that is left out (where the ruleset can
        build one). Only an action that lands here and not there, or a different refusal, fails:
        an action refused here and accepted there (walking into what one does not see) is not checked."""
        blind = self.blind(seat, action) if version is None else None
        response = self.client.post(f"/api/games/{self.gid}/actions", headers=_auth(self.tokens[seat]),
                                    json={"expected_version": self.version if version is None else version,
                                          "action": action})
        if response.status_code == 200:
            self.played.append((seat, action))
            self.snapshot()
            body = response.json()
            assert body["version"] == self.version
            assert body["view"] == self.views[self.version][seat]
            mine = [raw for raw in self.stored[-1] if Event.from_dict(raw).visible_to(seat)]
            assert body["events"] == mine
            assert all(e.get("audience") is None or seat in e["audience"] for e in body["events"])
            self.check(seat, response.text, "POST actions", action, verified=("view", "events"), parsed=body)
            self.drain()
        else:
            self.check(seat, response.text, f"refusal {response.status_code}", action)
        if blind is not None and response.status_code in (200, 409, 422):
            here = ("accepted",) if response.status_code == 200 else (response.json()["code"], response.json()["en"])
            assert here == blind or (blind[0] == "accepted" and here[0] != "accepted"), \
                f"{self.name} v{self.version}: {seat}'s {action} gets {here}, but {blind} where it sees all there is"
        return response

    def ask(self, seat: str, route: str, action: Any) -> None:
        """The ``odds`` or the ``preview`` of an action. The answer may tell ``seat`` what it works out itself
        from its view (``reckon``: a move's way over the ground it knows pairs cells that an enemy it does
        not see may have gone between), nothing more; and the rules must answer the same in the game where
        what it does not see is left out (where the test can build one; as for actions, a refusal here
        where that game accepts is not checked)."""
        states = self.blind_state(seat) if isinstance(action, dict) else None
        response = self.client.post(f"/api/games/{self.gid}/{route}", headers=_auth(self.tokens[seat]),
                                    json={"action": action})
        assert response.status_code in (200, 409, 422), response.text
        body = response.json()
        if states is not None:
            here = ("accepted", body[route]) if response.status_code == 200 else (body["code"], body["en"])
            there = self.reply(states[1], seat, route, action)
            assert here == there or (there[0] == "accepted" and here[0] != "accepted"), \
                f"{self.name} v{self.version}: {seat}'s {route} of {action} gets {here}, but {there} in the game " \
                f"where what it does not see is left out"
        self.check(seat, response.text, route, action, reckoned=self.reckon(seat, route, action), parsed=body)


# -- games where a seat's blind spots are left out ------------------------------------------------------------------
def _from_view(rules: Any, state: Any, seat: str) -> Any:
    """Any ruleset that can rebuild a state from a view alone (``Ruleset.state_from_view``)."""
    return rules.state_from_view(rules.view(state, seat), seat)


def _front_blind(rules: Any, state: Any, seat: str) -> Any:
    """Front: the same battle, the enemy units the side does not spot taken off the map (as if aboard
    a truck: still alive, nowhere), the enemy mines it has not found taken away, and the works, buildings
    and ground as it last saw them."""
    from kadesh.rules.front.mines import mines_seen_by
    from kadesh.rules.front.vision import remembered_ground, spotted

    seen = spotted(state, seat, frozenset(u.id for u in state.units.values() if u.camouflaged))
    for unit in [u for u in state.units.values() if u.side != seat and u.id not in seen and u.aboard is None]:
        unit.aboard = "nowhere"
        if state.occupied.get(unit.cell) == unit.id:
            del state.occupied[unit.cell]
    found = mines_seen_by(state, seat)
    state.mines = {cell: side for cell, side in state.mines.items() if cell in found}
    state.structures = state.structures_known_by(seat)
    state.terrain = remembered_ground(state, seat)
    return state


COUNTERFACTUALS: dict[str, Callable[[Any, Any, str], Any]] = {"front": _front_blind}


def _front_sighting(battle: Any, event: Event, reader: str) -> bool:
    """Front's ``seen_moving`` (issue 44): the cells where ``reader`` saw an enemy unit pass during one move, which
    no view shows (a view is taken before and after the move, not between its steps). Each cell is checked
    against the rules' own sight: in the battle as it stood before the move, the unit put there, moving (no longer
    camouflaged; an aircraft in flight), ``reader`` spots it; and the start is listed exactly when it was seen
    leaving. Then what the event tells counts as shown to ``reader``."""
    from kadesh.core.grid import map_cell_name, parse_map_cell
    from kadesh.rules.front.vision import spotted

    if event.type != "seen_moving":
        return False
    unit_id, cells = event.data["unit"], event.data["cells"]
    assert (cells[0] == map_cell_name(battle.units[unit_id].cell)) == event.data["seen_leaving"], event
    for index, name in enumerate(cells):
        there = battle.copy()
        unit = there.units[unit_id]
        if index or not event.data["seen_leaving"]:
            unit.camouflaged, unit.flying = False, unit.type.flies
            there.place(unit, parse_map_cell(name, there.width, there.height))
        assert unit_id in spotted(there, reader, frozenset(u.id for u in there.units.values() if u.camouflaged)), \
            f"front: {event.to_dict()} tells {reader} of {unit_id} at {name}, which it would not see there"
    return True


# Events that tell a few seats what they saw within one action, each checked here against the rules' sight.
SIGHTINGS: dict[str, Callable[[Any, Event, str], bool]] = {"front": _front_sighting}


# -- random players ---------------------------------------------------------------------------------------------------
def _weighted(actions: list[dict[str, Any]], rng: random.Random) -> dict[str, Any] | None:
    """A random action, its type drawn first (weighted), so that a rare type is not drowned."""
    kinds = sorted({a.get("type", "") for a in actions if WEIGHTS.get(a.get("type", ""), 1.0) > 0})
    if not kinds:
        return None
    kind = rng.choices(kinds, weights=[WEIGHTS.get(k, 1.0) for k in kinds])[0]
    return rng.choice([a for a in actions if a.get("type") == kind])


def _royaumes_orders(view: dict[str, Any], seat: str, rng: random.Random) -> dict[str, Any]:
    """A random order message, text or JSON, with a marker that only the kingdom and Imhotep may read."""
    you, marker = view["you"], f"mk{rng.getrandbits(32):08x}"
    others = [k["id"] for k in view["kingdoms"] if k["id"] != seat]
    cities = [c["name"] for c in view["cities"] if c["owner"] == seat and not c["destroyed"]]
    moves = [(a["cell"], rng.choice(a["destinations"])) for a in you["armies"]
             if a["mobile"] and a["destinations"] and rng.random() < 0.7]
    stances = {word: [k for k in others if rng.random() < 0.15] for word in ("war", "peace", "ally")}
    spies = [k for k in others if rng.random() < 0.2]
    create = rng.choice(cities) if cities and rng.random() < 0.3 else None
    if rng.random() < 0.3:
        order: dict[str, Any] = {"type": "orders", "moves": [{"from": a, "to": b} for a, b in moves],
                                 "stay": [marker], "spies": spies, **{w: ks for w, ks in stances.items() if ks}}
        if create:
            order["create"] = create
        return order
    words = {"war": "guerre", "peace": "paix", "ally": "alliance"}
    lines = [f"{a} -> {b}  # {marker}" if i == 0 else f"{a} -> {b}" for i, (a, b) in enumerate(moves)]
    lines += [f"{words[w]}: {', '.join(ks)}" for w, ks in stances.items() if ks]
    lines += [f"espion: {', '.join(spies)}"] if spies else []
    lines += [f"créer armée à {create}"] if create else []
    lines += ["construire: guilde"] if rng.random() < 0.2 else []
    lines.append(f"consigne secrète {marker}")
    return {"type": "orders", "text": "\n".join(lines)}


def choose(table: Table, seat: str, actions: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A random action for ``seat``, with a little knowledge of each ruleset to play further."""
    rng, view = table.rng, table.views[table.version][seat]
    if table.name == "royaumes" and {"type": "orders"} in actions:
        return _royaumes_orders(view, seat, rng)
    if table.name == "manoeuvre" and view.get("phase") == "deployment":
        if {"type": "ready"} in actions and rng.random() < 0.9:
            return {"type": "ready"}
        unplaced = {e["id"] for e in view["elements"] if e["side"] == seat and e["cell"] is None}
        fresh = [a for a in actions if a["type"] == "deploy" and a["element"] in unplaced]
        if fresh and rng.random() < 0.85:
            return rng.choice(fresh)
    if table.name == "front":
        fights = [a for a in actions if a["type"] == "shoot"]
        if fights and rng.random() < 0.5:
            return rng.choice(fights)
    return _weighted(actions, rng)


@functools.lru_cache(maxsize=1 << 14)  # asked of the same identifiers at every forged action
def _shape(text: str) -> str:
    """``J15`` → ``A0``, ``r2`` → ``a0``: a field is swapped for values that look like its own."""
    return re.sub(r"(.)\1+", r"\1", re.sub(r"[a-z]", "a", re.sub(r"[A-Z]", "A", re.sub(r"\d", "0", text))))


def forge(table: Table, seat: str, action: dict[str, Any]) -> dict[str, Any]:
    """The action with its string fields swapped (each at even odds, one at least) for identifiers ``seat``
    sees, or more often for ones it must not know about (a cell where a unit it does not see stands): a probe."""
    rng = table.rng
    keys = [k for k, v in action.items() if k != "type" and isinstance(v, str)]
    pool = sorted(a for a in table.seen[seat].atoms if _idlike(a))
    hot = sorted({part for item in table.books[seat].live() for part in ((item,) if isinstance(item, str) else item)
                  if _idlike(part)})
    if not keys or not pool:
        return action
    out = dict(action)
    for key in [k for k in keys if rng.random() < 0.5] or [rng.choice(keys)]:
        values = hot if hot and rng.random() < 0.6 else pool
        alike = [v for v in values if _shape(v) == _shape(action[key])]
        out[key] = rng.choice(alike or values)
    return out


def probe(table: Table, actor: str, action: dict[str, Any]) -> None:
    """Refusals tell a seat nothing either: stale, out of turn, unknown, malformed, a spectator acting."""
    rng = table.rng
    kind = rng.choice(["stale", "out_of_turn", "unknown", "malformed", "spectator", "odds", "preview"])
    if kind == "stale" and table.version > 0:
        # Before the actor's own last action (the others' hidden moves alone leave a version standing), or ahead.
        own = [version for version, (seat, _) in enumerate(table.played) if seat == actor]
        response = table.post(actor, action, version=own[-1] if own else table.version + 1)
        assert response.status_code == 409 and response.json()["code"] == "stale_version"
    elif kind == "out_of_turn":
        idle = [s for s in table.seats if s not in table.to_act and not table.legals[s]]
        if idle:
            response = table.post(rng.choice(idle), action)
            assert response.status_code in (409, 422), response.text
    elif kind == "unknown":
        assert table.post(actor, {"type": "no_such_action", "element": "zz9"}).status_code == 422
    elif kind == "malformed":
        assert table.post(actor, rng.choice([[], "attack", 7, {"type": ["x"]}])).status_code in (409, 422)
    elif kind == "spectator":
        response = table.client.post(f"/api/games/{table.gid}/actions", headers=_auth(table.spectator),
                                     json={"expected_version": table.version, "action": action})
        assert response.status_code == 403
        table.check(None, response.text, "spectator refusal", action)
    elif kind in ("odds", "preview"):
        table.ask(actor, kind, action)


def play_game(table: Table, budget: int) -> int:
    """Random play until the game ends or ``budget`` actions were played; returns the actions played."""
    rng, played = table.rng, 0
    while played < budget and table.outcome is None:
        table.read_all()
        movers = list(table.to_act)
        free = [s for s in table.seats if s not in movers and table.legals[s]]  # e.g. a game master
        if free and (not movers or rng.random() < 0.15):
            movers = free
        if not movers:
            break
        actor = rng.choice(movers)
        action = choose(table, actor, table.legals[actor])
        if action is None:
            break
        if rng.random() < 0.35:
            probe(table, actor, action)
        table.differential(actor)
        for attempt in (forge(table, actor, action) if rng.random() < 0.25 else None, action):
            if attempt is None:
                continue
            if rng.random() < 0.2:
                table.ask(actor, rng.choice(["odds", "preview"]), attempt)
            response = table.post(actor, attempt)
            if response.status_code == 200:
                break
            assert attempt is not action, f"{table.name}: a legal action was refused: {response.text}"
        played += 1
    enders = [(s, a) for s, acts in table.legals.items() for a in acts if a.get("type") in ("resign", "end_campaign")]
    if table.outcome is None and enders:  # end it, to see the seed revealed and nothing else
        assert table.post(*rng.choice(enders)).status_code == 200
        played += 1
    table.read_all()
    if table.outcome is not None:  # over: the seed is everyone's now, and still nothing else leaks
        body = table.client.get(f"/api/games/{table.gid}", params={"token": table.spectator}).json()
        with table.store.game(table.gid) as game:
            assert body["seed"] == game.seed
    return played


def test_a_crash_with_passengers_tells_the_other_side_nothing_of_its_cargo(tmp_path, migrated_sqlite):
    """Front's air war (issue 45): Blue's infantry boards the transport helicopter, which flies towards Red and
    hovers there until it runs dry and falls; every answer and frame is checked as in random play. The cargo
    is Blue's secret: Red never saw it board."""
    with _client(tmp_path, migrated_sqlite) as client:
        table = Table(client, "front", {"scenario": "test_air"}, random.Random(45))
        try:
            assert table.post("blue", {"type": "board", "unit": "b8", "truck": "b7"}).status_code == 200
            ways = [a for a in table.legal("blue") if a["type"] == "move" and a["unit"] == "b7"]
            towards_red = min(ways, key=lambda a: abs(ord(a["to"][0]) - ord("K")) + abs(int(a["to"][1:]) - 6))
            assert table.post("blue", towards_red).status_code == 200
            for _ in range(12):
                if any(e["type"] == "crashed" and e["unit"] == "b7" for raw in table.stored for e in raw):
                    break
                for seat in ("blue", "red"):
                    if table.outcome is None:
                        assert table.post(seat, {"type": "end_turn"}).status_code == 200
            table.read_all()
            crashes = [e for raw in table.stored for e in raw if e["type"] == "crashed" and e["unit"] == "b7"]
            read_by_red = [e for raw in table.stored[1:] for e in raw if "red" in (e.get("audience") or ["red"])]
            assert not [e for e in read_by_red if "b8" in json.dumps(e)]  # aboard, b8 is never named to Red again
            assert {tuple(e["audience"]) for e in crashes} == {("blue",), ("red",)}, crashes  # Red saw it fall
            assert next(e for e in crashes if e["audience"] == ["blue"])["with"] == ["b8"]
        finally:
            table.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_seat_is_told_what_its_view_does_not_show(tmp_path, migrated_sqlite, ruleset):
    rng = random.Random(f"hidden-{ruleset}")
    options = OPTIONS.get(ruleset, {})
    budget, games, hidden_seen, checked = ACTIONS_PER_RULESET, 0, set(), 0
    with _client(tmp_path, migrated_sqlite) as client:
        while budget > 0 and games < 6:
            table = Table(client, ruleset, options, rng)
            try:
                assert all("seed" in book.raw for book in table.books.values())  # and the other tokens
                budget -= max(1, play_game(table, budget))
            finally:
                table.close()
            games += 1
            hidden_seen |= table.hidden_seen
            checked += table.checked
    assert checked > 100
    if ruleset in HIDDEN:  # the seats had secrets of the kind this ruleset hides: the check was armed
        assert hidden_seen, f"{ruleset}: no seat ever had a secret matching {HIDDEN[ruleset].pattern}"
