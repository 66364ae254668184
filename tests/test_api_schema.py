"""Schemathesis against /openapi.json: no 5xx, and every answer matches its documented schema.

Two runs: random requests (random ids and tokens) over every endpoint, each sent again with a real seat's token
where it names a game, on SQLite and on PostgreSQL (what PostgreSQL refuses that SQLite takes, a NUL character in
a text, shows in any run that writes one); then requests on a real game of each ruleset, with the tokens of its
seats, spectators and owner in turn (and the ruleset's name, seats and current version where a request names
them, sometimes a legal action), on SQLite, over the routes that name a game or a ruleset. A link that a request
replaced (``POST .../tokens/{holder}``) is followed.

Schemathesis draws a route's cases from one seed for the whole session (shared by pytest-xdist's processes), so
the runs over a route drew the same cases: each case is drawn once and sent in each way (plainly then with the
seat; to the game of each ruleset in turn), and the seat's and holders' requests are sent only where they change
the request: no other route reads a game's token. This took the module from 88.6 to 59.9 s of the test process's
CPU (the sum of its tests, ``-n 0``), for the same requests (and on SQLite the seat's 15 examples a route for
the random requests too, rather than 10).

The runs of every holder of every ruleset are not repeated on PostgreSQL: they took 44 of the suite's CPU
seconds there (docs/performance.md, « The suite's own time »), and what differs between the databases (the
store's statements, PostgreSQL's refusals of a NUL character) is met by the run above on both, and by the
store's and the API's own tests on both.

The suite runs few examples a route (``EXAMPLES``; CONTRIBUTING.md says what the cut saved): after a change to
the API, run it long as well, ``SCHEMA_EXAMPLES=100 python -m pytest tests/test_api_schema.py``.

Each run is shared out in ``PARTS`` tests, each over its part of the routes (every route in exactly one part, the
same examples each): one run of every route in a row took 30 to 40 s, the longest tests of the suite, which left a
test process working alone at the end; parts of a few seconds are shared out among the processes like any test.
"""

from __future__ import annotations

import copy
import itertools
import os
import random
from importlib import resources
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.python import asgi

from kadesh.core import all_rulesets
from kadesh.server.app import create_app
from kadesh.server.identity import COOKIE
from kadesh.server.rates import RatePolicy
from kadesh.store.maps import Checked
from tests.asgi_client import TestClient
from tests.kadesh_http import migrated_url
from tests.waiting import CEILING

SECURITY_HEADERS = {  # issue 26: on every answer of every route, refusals included
    "content-security-policy": "frame-ancestors 'none'",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "permissions-policy": "camera=()",
}


@schemathesis.check
def security_headers(ctx, response, case) -> bool | None:
    for name, part in SECURITY_HEADERS.items():
        values = response.headers.get(name) or []
        value = values[0] if isinstance(values, list) and values else values
        assert value and part in value, f"{name} missing or without {part!r}: {value!r}"
    return None


# Each request waits for its answer as long as any wait of the suite (schemathesis' own default, 10 s, failed a
# clean clone's run twice on a loaded machine: a read timeout is no answer of the server's).
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance, security_headers]
# Examples a route, by run: random ids and tokens (most answers refusals), sent again with a real seat's token on
# a game's routes, on each database; each holder of a real game of each ruleset. SCHEMA_EXAMPLES=N runs every one
# with N.
EXAMPLES = {"sqlite": 15, "postgresql": 10, "holders": 10}
if os.environ.get("SCHEMA_EXAMPLES"):
    EXAMPLES = dict.fromkeys(EXAMPLES, int(os.environ["SCHEMA_EXAMPLES"]))
SETTINGS = settings(deadline=None, suppress_health_check=list(HealthCheck), database=None)
PER_RULESET = settings(SETTINGS, max_examples=EXAMPLES["holders"])
RULESETS = sorted(all_rulesets())


def _app(url: str):
    application = create_app(url, bot_budget=0.01)
    yield application
    _close(application)


def _close(application) -> None:
    client = getattr(application.state, "schema_client", None)
    if client is not None:
        client.__exit__(None, None, None)
    application.state.store.close()


def _send(case):
    """``case.call_and_validate`` through one client per app, as schemathesis would send it through a client of its
    own: a new client for each case was a twentieth of the module's CPU, with the environment's proxies and netrc
    looked up at each request (an app called in-process meets neither). The client's cookies are dropped after
    each case, so that no case carries another's."""
    application = case.operation.app
    client = getattr(application.state, "schema_client", None)
    if client is None:
        client = application.state.schema_client = asgi.get_client(application).__enter__()
        client.trust_env = False
    try:
        return case.call_and_validate(session=client, checks=CHECKS, timeout=CEILING)
    finally:
        client.cookies.clear()


@pytest.fixture(scope="module")
def sqlite_random_app(tmp_path_factory, migrated_sqlite):
    yield from _app(migrated_url(migrated_sqlite, tmp_path_factory.mktemp("random") / "kadesh.sqlite3"))


@pytest.fixture(scope="module")
def postgresql_random_app(postgres):
    url = postgres.new_database(migrated=True)
    yield from _app(url)
    postgres.drop_database(url)


# The games under test are made from an address of their own: schemathesis' requests (from "testclient")
# meet the rate limits, and their 429s are checked like any answer, without starving the set-up.
SETUP_CLIENT = ("192.0.2.10", 50000)


def _seat(app) -> tuple[str, str]:
    """A real game and its north seat, so that some calls get past the token check."""
    with TestClient(app, client=SETUP_CLIENT) as client:
        game = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    return game["id"], game["seats"]["north"]["token"]


@pytest.fixture(scope="module")
def sqlite_seat(sqlite_random_app):
    return _seat(sqlite_random_app)


@pytest.fixture(scope="module")
def postgresql_seat(postgresql_random_app):
    return _seat(postgresql_random_app)


class Table:
    """A real game of one ruleset and the current token of each holder, taken in turn."""

    def __init__(self, app, ruleset: str) -> None:
        with TestClient(app, client=SETUP_CLIENT) as client:
            game = client.post("/api/games", json={"ruleset": ruleset}).json()
        self.app, self.ruleset, self.id, self.seats = app, ruleset, game["id"], list(game["seats"])
        self.tokens = {**{seat: link["token"] for seat, link in game["seats"].items()},
                       "spectator": game["spectator"]["token"], "owner": game["owner"]["token"]}
        self.turns = itertools.cycle(list(self.tokens))
        self.rng = random.Random(ruleset)

    def legal_action(self, seat: str) -> dict[str, Any] | None:
        with self.app.state.store.game(self.id) as game:
            actions = game.legal_actions(seat) if game.outcome is None else []
        return self.rng.choice(actions) if actions else None

    def prepare(self, case) -> str:
        """Point the case at this game with the next holder's token; return that holder."""
        holder = next(self.turns)
        parameters = case.path_parameters or {}
        if "game_id" in parameters:
            parameters["game_id"] = self.id
        if "name" in parameters:
            parameters["name"] = self.ruleset
        if "seat" in parameters and self.rng.random() < 0.5:
            parameters["seat"] = self.rng.choice(self.seats)
        if "holder" in parameters and self.rng.random() < 0.5:
            parameters["holder"] = self.rng.choice(list(self.tokens))
        case.query = {k: v for k, v in (case.query or {}).items() if k != "token"}
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {self.tokens[holder]}"}
        if isinstance(case.body, dict) and "expected_version" in case.body and self.rng.random() < 0.7:
            case.body["expected_version"] = self.app.state.store.current_version(self.id)
            action = self.legal_action(holder) if holder in self.seats and self.rng.random() < 0.5 else None
            if action is not None and action.get("type") != "resign":
                case.body["action"] = action
        return holder

    def follow(self, case, response) -> None:
        """A replaced link: keep playing with the new token."""
        holder = (case.path_parameters or {}).get("holder")
        if response.status_code == 200 and holder in self.tokens and case.method.upper() == "POST":
            self.tokens[holder] = response.json()["token"]


@pytest.fixture(scope="module")
def sqlite_app(tmp_path_factory, migrated_sqlite):
    application = create_app(migrated_url(migrated_sqlite, tmp_path_factory.mktemp("holders") / "kadesh.sqlite3"),
                             bot_budget=0.01)
    yield application
    _close(application)


@pytest.fixture(scope="module")
def tables(sqlite_app) -> dict[tuple[str, int], Table]:
    """The game of each ruleset and part of the routes, made on first use."""
    return {}


PARTS = 3


METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


def _part(index: int, covers=lambda path, spec: True):
    """The routes of part ``index`` (of ``PARTS``): the routes a run covers (``covers(path, spec)``) in the order
    of their method and path, taken in turn, so each part has as many."""
    positions: dict[str, int] = {}

    def in_part(ctx) -> bool:
        if not positions:
            positions.update((label, n) for n, label in enumerate(_labels(ctx.operation.schema.raw_schema, covers)))
        position = positions.get(ctx.operation.label)
        return position is not None and position % PARTS == index

    in_part.__name__ = f"part_{index + 1}_of_{PARTS}"
    return in_part


def _labels(raw_schema, covers) -> list[str]:
    return sorted(f"{method.upper()} {path}" for path, item in raw_schema["paths"].items()
                  for method, spec in item.items() if method in METHODS and covers(path, spec))


def _not_accounts(path: str, spec: dict) -> bool:
    """The accounts' routes answer a session's cookie, not a game's tokens: a seat's and a game's holders' requests
    leave them to the random ones (tests/test_accounts*.py drive them signed in)."""
    return "accounts" not in spec.get("tags", ())


# A game's holders change nothing but a game's routes and a ruleset's (its name for ``{name}``; no other route
# reads a game's token): elsewhere their runs sent the random run's requests again (the same seed draws the same
# cases for a route in every run).
def _names_a_game_or_ruleset(path: str, spec: dict) -> bool:
    return _not_accounts(path, spec) and ("{game_id}" in path or "{name}" in path)


BACKENDS = ("sqlite", "postgresql")
schemas = {backend: schemathesis.pytest.from_fixture(f"{backend}_random_schema") for backend in BACKENDS}
holder_routes = schemathesis.pytest.from_fixture("sqlite_api_schema")


@pytest.fixture(scope="module")
def sqlite_random_schema(sqlite_random_app):
    return schemathesis.openapi.from_asgi("/openapi.json", sqlite_random_app)


@pytest.fixture(scope="module")
def postgresql_random_schema(postgresql_random_app):
    return schemathesis.openapi.from_asgi("/openapi.json", postgresql_random_app)


@pytest.fixture(scope="module")
def sqlite_api_schema(sqlite_app):
    return schemathesis.openapi.from_asgi("/openapi.json", sqlite_app)


def _random_requests(part: int, backend: str):
    """Random requests; on a game's routes each is sent again with a real seat's token (drawn once for both: the
    seat's own run drew the random run's cases, the same seed drawing a route's cases in every run)."""
    routes = schemas[backend].include(_part(part))
    if backend == "sqlite":  # the seat's fixture is named in the signature: it must be set up before the run

        def test(case, sqlite_seat):
            _call_then_with_seat(case, sqlite_seat)
    else:

        def test(case, postgresql_seat):
            _call_then_with_seat(case, postgresql_seat)

    examples = settings(SETTINGS, max_examples=EXAMPLES[backend])
    return pytest.mark.slow(routes.parametrize()(examples(test)))


def _call_then_with_seat(case, seat: tuple[str, str]) -> None:
    _send(case)
    if "game_id" not in (case.path_parameters or {}) or "accounts" in (case.operation.tags or ()):
        return  # the seat changes nothing elsewhere; the accounts' routes: see _not_accounts
    game_id, token = seat
    case.path_parameters["game_id"] = game_id
    case.query = {k: v for k, v in (case.query or {}).items() if k != "token"}
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    try:
        _send(case)
    except Exception as failure:
        failure.add_note("sent again with a real seat's token")
        raise


def _every_holder(part: int):
    """One test per part: each case is drawn once and sent, as drawn, to the game of each ruleset in turn (the
    runs of the four rulesets drew the same cases, the same seed drawing a route's cases in every run)."""

    @pytest.mark.slow
    @holder_routes.include(_part(part, _names_a_game_or_ruleset)).parametrize()
    @PER_RULESET
    def test(case, sqlite_app, tables):
        drawn = _as_drawn(case)
        for ruleset in RULESETS:
            table = tables.get((ruleset, part)) or tables.setdefault((ruleset, part), Table(sqlite_app, ruleset))
            _restore(case, drawn)
            holder = table.prepare(case)
            try:
                response = _send(case)
            except Exception as failure:
                failure.add_note(f"on the game of {ruleset}, as its {holder}")
                raise
            table.follow(case, response)

    return test


def _as_drawn(case) -> tuple:
    """What ``Table.prepare`` changes in a case, as drawn."""
    return (dict(case.path_parameters or {}), dict(case.query or {}), dict(case.headers or {}),
            copy.deepcopy(case.body) if isinstance(case.body, (dict, list)) else case.body)


def _restore(case, drawn: tuple) -> None:
    path_parameters, query, headers, body = drawn
    case.path_parameters, case.query, case.headers = dict(path_parameters), dict(query), dict(headers)
    case.body = copy.deepcopy(body) if isinstance(body, (dict, list)) else body


for _part_index in range(PARTS):
    _suffix = f"part_{_part_index + 1}_of_{PARTS}"
    for _backend in BACKENDS:
        _name = f"test_random_requests_and_a_real_seats_get_documented_answers_{_suffix}_on_{_backend}"
        globals()[_name] = _random_requests(_part_index, _backend)
        globals()[_name].__name__ = _name
    _name = f"test_every_holder_of_every_ruleset_gets_documented_answers_{_suffix}"
    globals()[_name] = _every_holder(_part_index)
    globals()[_name].__name__ = _name


# -- the maps' routes, signed in (issue 61): an author's requests on a real draft and a published map ------------

MAPS_EXAMPLES = EXAMPLES["holders"] * 2


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)])
def maps_app(request, tmp_path_factory):
    """Without rate limits: the random runs meet them, this one is for what an author's requests reach. On both
    databases: what PostgreSQL refuses that SQLite takes (a NUL character) is met where requests are signed in."""
    if request.param == "sqlite":
        template = request.getfixturevalue("migrated_sqlite")
        url = migrated_url(template, tmp_path_factory.mktemp("maps") / "kadesh.sqlite3")
    else:
        url = request.getfixturevalue("postgres").new_database(migrated=True)
    application = create_app(url, rate_policy=RatePolicy.unlimited())
    yield application
    _close(application)
    if request.param == "postgresql":
        request.getfixturevalue("postgres").drop_database(url)


@pytest.fixture(scope="module")
def maps_schema(maps_app):
    return schemathesis.openapi.from_asgi("/openapi.json", maps_app)


@pytest.fixture(scope="module")
def author(maps_app) -> dict[str, Any]:
    """A signed-in author's cookie, a draft and a published map of theirs."""
    store = maps_app.state.store
    player = store.accounts.create_player("Ahmès", "fr")
    small = resources.files("kadesh.rules.front").joinpath("scenarios", "test_small.toml").read_text(encoding="utf-8")
    with TestClient(maps_app, client=SETUP_CLIENT, base_url="https://testserver") as client:
        client.cookies.set(COOKIE, store.accounts.open_session(player.id))
        made = [client.post("/api/maps", json={"ruleset": "front", "name": name, "toml": small}).json()["id"]
                for name in ("Brouillon", "Publiée")]
        client.post(f"/api/maps/{made[1]}/publish")
        return {"cookie": client.cookies[COOKIE], "maps": made, "toml": small, "id": player.id}


maps_routes = schemathesis.pytest.from_fixture("maps_schema")


@pytest.mark.slow
@maps_routes.include(path_regex="^/api/maps").parametrize()
@settings(SETTINGS, max_examples=MAPS_EXAMPLES)
def test_the_maps_routes_signed_in_get_documented_answers(case, author, maps_app):
    rng = random.Random(repr(case.body) + repr(case.path_parameters))
    if "map_id" in (case.path_parameters or {}) and rng.random() < 0.7:
        case.path_parameters["map_id"] = rng.choice(author["maps"])
        if case.method.upper() == "DELETE":  # a draft of its own to delete: the others stay for the other routes
            made = maps_app.state.store.maps.create(author["id"], "front", "Jetable", "", author["toml"],
                                                    Checked(True, []))
            case.path_parameters["map_id"] = made.id
    if isinstance(case.body, dict) and "toml" in case.body and rng.random() < 0.5:
        case.body["toml"] = author["toml"]
    case.headers = {**(case.headers or {}), "Cookie": f"{COOKIE}={author['cookie']}"}
    _send(case)
