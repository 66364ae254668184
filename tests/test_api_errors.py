"""Every refusal is a 4xx problem+json document; no input gets a 5xx."""

from __future__ import annotations

import json

import pytest

from tests.kadesh_http import auth, create, make_client


@pytest.fixture
def client(db):
    yield from make_client(db)


@pytest.fixture
def game(client):
    return create(client)


def _post(client, game, body: bytes, content_type: str = "application/json"):
    return client.post(f"/api/games/{game['id']}/actions", content=body,
                       headers={**auth(game["seats"]["north"]["token"]), "Content-Type": content_type})


def _is_problem(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert {"type", "title", "status", "code", "fr", "en", "detail"} <= set(body)
    assert body["status"] == status
    if code is not None:
        assert body["code"] == code
    return body


def test_a_body_over_64_kib_is_413(client, game):
    padding = "x" * (65 * 1024)
    body = json.dumps({"expected_version": 0, "action": {"type": "ready", "pad": padding}}).encode()
    _is_problem(_post(client, game, body), 413, "too_large")


def test_a_chunked_body_over_64_kib_is_413(client, game):
    def chunks():
        yield b'{"expected_version": 0, "action": {"pad": "'
        for _ in range(70):
            yield b"x" * 1024
        yield b'"}}'

    response = client.post(f"/api/games/{game['id']}/actions", content=chunks(),
                           headers={**auth(game["seats"]["north"]["token"]), "Content-Type": "application/json"})
    _is_problem(response, 413, "too_large")


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_body_that_is_not_json_is_415(client, game, content_type):
    _is_problem(_post(client, game, b'{"expected_version": 0, "action": {}}', content_type), 415,
                "unsupported_media_type")


@pytest.mark.parametrize("body", [b"{", b"not json", b"[]", b"null", b'{"expected_version": 0}',
                                  b'{"expected_version": "zero", "action": {}}',
                                  b'{"expected_version": -1, "action": {"type": "ready"}}',
                                  b'{"expected_version": 0, "action": {}, "extra": 1}'])
def test_malformed_requests_are_422(client, game, body):
    _is_problem(_post(client, game, body), 422)


@pytest.mark.parametrize("action", [[1, 2], "ready", 7, None, True])
def test_an_action_that_is_not_an_object_is_422(client, game, action):
    body = json.dumps({"expected_version": 0, "action": action}).encode()
    _is_problem(_post(client, game, body), 422)


@pytest.mark.parametrize("body", [
    b'{"expected_version": 0, "action": {"type": "deploy", "element": "n1", "cell": "c1", "n": ' + b"9" * 5000 + b"}}",
    b'{"expected_version": ' + b"9" * 5000 + b', "action": {"type": "ready"}}',
    b'{"expected_version": 0, "action": {"a": ' + b"[" * 30000 + b"]" * 30000 + b"}}",
    b'{"expected_version": 0, "action": {"type": "deploy", "element": "n1", "cell": "c1", "x": NaN}}',
    b'{"expected_version": 0, "action": {"type": "deploy", "element": "n1", "cell": "c1", "x": 1e999}}',
])
def test_huge_numbers_deep_nesting_and_non_finite_floats_are_4xx(client, game, body):
    response = _post(client, game, body)
    assert 400 <= response.status_code < 500, response.text
    assert client.app.state.store.action_count(game["id"]) == 0


def test_big_but_parseable_integers_are_refused_by_the_rules_or_the_version_check(client, game):
    body = json.dumps({"expected_version": 10**40, "action": {"type": "ready"}}).encode()
    _is_problem(_post(client, game, body), 409, "stale_version")
    body = json.dumps({"expected_version": 0, "action": {"type": "deploy", "element": 10**40, "cell": 1}}).encode()
    _is_problem(_post(client, game, body), 422)


def test_moderately_nested_action_is_refused_without_a_crash(client, game):
    action = {"type": "deploy", "element": "n1", "cell": "c1", "x": json.loads("[" * 100 + "]" * 100)}
    _is_problem(_post(client, game, json.dumps({"expected_version": 0, "action": action}).encode()), 422,
                "bad_action")


def test_unknown_ruleset_and_bad_options_are_422(client):
    _is_problem(client.post("/api/games", json={"ruleset": "chess"}), 422, "unknown_ruleset")
    _is_problem(client.post("/api/games", json={"ruleset": "manoeuvre", "options": {"choice": "axe"}}), 422,
                "bad_options")
    _is_problem(client.post("/api/games", json={"ruleset": "manoeuvre", "options": {"speed": 3}}), 422,
                "bad_options")
    _is_problem(client.post("/api/games", json={"ruleset": "manoeuvre", "options": [1]}), 422)


def test_unknown_routes_and_methods_are_problems(client, game):
    _is_problem(client.get("/api/nothing"), 404, "not_found")
    _is_problem(client.delete(f"/api/games/{game['id']}"), 405, "method_not_allowed")


def test_bad_query_parameters_are_422(client, game):
    token = game["spectator"]["token"]
    _is_problem(client.get(f"/api/games/{game['id']}/journal", params={"token": token, "lang": "de"}), 422)
    _is_problem(client.get(f"/api/games/{game['id']}/journal", params={"token": token, "since": "-1"}), 422)
    _is_problem(client.get(f"/api/games/{game['id']}/journal", params={"token": token, "since": "9" * 50}), 422)


def test_odds_of_nonsense_are_422_not_500(client, game):
    token = game["seats"]["north"]["token"]
    for action in ({}, {"type": "attack"}, {"type": "shoot", "element": ["n1"], "target": {"a": 1}}):
        response = client.post(f"/api/games/{game['id']}/odds", headers=auth(token), json={"action": action})
        assert 400 <= response.status_code < 500, response.text


def test_weird_actions_never_give_a_5xx(client, game):
    token = game["seats"]["north"]["token"]
    weird = [{"type": t, "element": e, "cell": c, "to": c, "facing": f, "target": e, "from": c}
             for t in ("deploy", "undeploy", "move", "turn", "attack", "shoot", "end_turn", "ready", None, 3)
             for e in ("n1", "s1", None, 3, ["n1"], {"id": "n1"}, "")
             for c in ("c1", "zz99", None, 5)
             for f in ("N", None)]
    for action in weird:
        response = client.post(f"/api/games/{game['id']}/actions", headers=auth(token),
                               json={"expected_version": client.app.state.store.current_version(game["id"]),
                                     "action": action})
        assert response.status_code < 500, (action, response.text)
