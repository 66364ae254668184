"""Schemathesis against /openapi.json: no 5xx, and every answer matches its documented schema."""

from __future__ import annotations

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from kadesh.server import create_app

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance]
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    application = create_app(f"sqlite:///{tmp_path_factory.mktemp('schema') / 'kadesh.sqlite3'}")
    yield application
    application.state.store.close()


@pytest.fixture(scope="module")
def seat(app):
    """A real game and its north seat, so that some calls get past the token check."""
    with TestClient(app) as client:
        game = client.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    return game["id"], game["seats"]["north"]["token"]


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture(scope="module")
def api_schema(app):
    return schemathesis.openapi.from_asgi("/openapi.json", app)


@pytest.mark.slow
@schema.parametrize()
@SETTINGS
def test_random_requests_get_documented_answers(case):
    case.call_and_validate(checks=CHECKS)


@pytest.mark.slow
@schema.parametrize()
@SETTINGS
def test_random_requests_with_a_real_seat_get_documented_answers(case, seat):
    game_id, token = seat
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = game_id
        case.query = {k: v for k, v in (case.query or {}).items() if k != "token"}
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    case.call_and_validate(checks=CHECKS)
