"""Hostile input against a game of every ruleset: every refusal is a small 4xx problem+json that
reveals nothing (no seed, no token, no other seat's secret), and leaves every game as it was:
same version, same record, and the same views, journals and legal actions for every holder.

The server and its games are made once per database for the whole module: each test checks, when it ends, that
every game is still as it was made (``unchanged``), so the next finds them as the first did. A server and four
games a test, and what every holder sees read before and after each, took about half of the module's CPU."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import pytest
from starlette.websockets import WebSocketDisconnect

from kadesh.core import all_rulesets
from kadesh.server.problems import problem_response
from kadesh.server.rates import RatePolicy
from kadesh.store import json_value
from kadesh.store.tokens import new_token
from tests.kadesh_http import auth, legal, make_client, play

RULESETS = sorted(all_rulesets())
SECRET = "zqxsecretmarker"  # in Kush's orders: only Kush (and Imhotep) may ever read it
MAX_PROBLEM = 8192  # bytes: a problem document is a few sentences, never a view, a journal or the request


@pytest.fixture(scope="module")
def client(module_db):
    # Every hostile body must reach the checks it is aimed at: the rate limits, which would refuse most of them
    # first, are tested on their own (tests/test_api_rates.py).
    yield from make_client(module_db, rate_policy=RatePolicy.unlimited())


@dataclass
class Table:
    """One game per ruleset, one action into it, and every secret that no refusal may show."""

    games: dict[str, dict[str, Any]]
    secrets: list[str] = field(default_factory=list)

    def tokens(self, ruleset: str) -> dict[str, str]:
        game = self.games[ruleset]
        return {**{seat: link["token"] for seat, link in game["seats"].items()},
                "spectator": game["spectator"]["token"], "owner": game["owner"]["token"]}


def _first_action(client, game: dict[str, Any]) -> None:
    gid = game["id"]
    seat = game_state(client, game)["to_act"][0]
    token = game["seats"][seat]["token"]
    if game["ruleset"] == "royaumes":  # secret orders, with a line the rules do not understand
        seat, token = "koush", game["seats"]["koush"]["token"]
        action: dict[str, Any] = {"type": "orders", "text": f"G19 -> G18\n{SECRET}"}
    else:
        action = next(a for a in legal(client, gid, token) if a["type"] != "resign")
    play(client, gid, token, 0, action)


def game_state(client, game: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/games/{game['id']}", headers=auth(token or game["spectator"]["token"]))
    assert response.status_code == 200, response.text
    return response.json()


@pytest.fixture(scope="module")
def table(client) -> Table:
    games = {}
    for ruleset in RULESETS:
        response = client.post("/api/games", json={"ruleset": ruleset})
        assert response.status_code == 201, response.text
        games[ruleset] = response.json()
        _first_action(client, games[ruleset])
    table = Table(games)
    store = client.app.state.store
    for ruleset, game in games.items():
        table.secrets += list(table.tokens(ruleset).values())
        table.secrets.append(store.export(game["id"], force=True)["record"]["seed"])
    table.secrets.append(SECRET)
    return table


def everything(client, table: Table) -> dict[str, Any]:
    """All that every holder of every game may read, and all that the store holds of each game."""
    store = client.app.state.store
    out: dict[str, Any] = {}
    for ruleset, game in table.games.items():
        gid = game["id"]
        seen: dict[str, Any] = {"record": store.export(gid, force=True), "bots": store.bots(gid)}
        for holder, token in table.tokens(ruleset).items():
            seen[holder] = {"game": game_state(client, game, token)}
            for lang in ("fr", "en"):
                response = client.get(f"/api/games/{gid}/journal", headers=auth(token), params={"lang": lang})
                assert response.status_code == 200, response.text
                seen[holder][lang] = response.json()
            if holder in game["seats"]:
                seen[holder]["legal"] = legal(client, gid, token)
        out[gid] = seen
    return out


def refused(table: Table, response, status: int | None = None, code: str | None = None) -> dict[str, Any]:
    """A small 4xx problem document, in French and English, that holds no secret."""
    assert 400 <= response.status_code < 500, (response.status_code, response.text[:1000])
    if status is not None:
        assert response.status_code == status, response.text[:1000]
    assert response.headers["content-type"] == "application/problem+json"
    body = response.json()
    assert body["status"] == response.status_code and body["code"] and body["fr"] and body["en"]
    if code is not None:
        assert body["code"] == code, body
    assert len(response.content) < MAX_PROBLEM, response.text[:1000]
    for secret in table.secrets:
        assert secret not in response.text
    return body


@pytest.fixture(scope="module")
def as_made(client, table) -> dict[str, Any]:
    """Everything, read once when the games are made: every test leaves it so (``unchanged``)."""
    return everything(client, table)


@pytest.fixture
def unchanged(client, table, as_made):
    """Checks, after the test, that no game moved and nobody sees anything new."""
    yield
    assert everything(client, table) == as_made


def _versions(client, table: Table) -> dict[str, int]:
    return {r: game_state(client, g)["version"] for r, g in table.games.items()}


def body_routes(game: dict[str, Any], version: int) -> list[tuple[str, str, str, Any]]:
    """(method, path, whose token, a well-formed body) of every route that takes a body."""
    gid, seat = game["id"], next(iter(game["seats"]))
    return [
        ("POST", f"/api/games/{gid}/actions", seat, {"expected_version": version, "action": {"type": "ready"}}),
        ("POST", f"/api/games/{gid}/odds", seat, {"action": {"type": "ready"}}),
        ("POST", f"/api/games/{gid}/preview", seat, {"action": {"type": "ready"}}),
        ("PUT", f"/api/games/{gid}/bots/{seat}", "owner", {"level": "random"}),
        ("POST", "/api/games", "owner", {"ruleset": game["ruleset"]}),
        ("POST", f"/api/rulesets/{game['ruleset']}/simulate", "owner", {"seats": {}, "games": 1}),
    ]


def token_routes(game: dict[str, Any], version: int, seat: str) -> list[tuple[str, str, Any]]:
    """(method, path, body) of every route that takes a token, with a body that a right token could send."""
    gid = game["id"]
    return [
        ("GET", f"/api/games/{gid}", None),
        ("GET", f"/api/games/{gid}/legal", None),
        ("GET", f"/api/games/{gid}/journal", None),
        ("GET", f"/api/games/{gid}/export", None),
        ("GET", f"/api/games/{gid}/verify", None),
        ("POST", f"/api/games/{gid}/actions", {"expected_version": version, "action": {"type": "resign"}}),
        ("POST", f"/api/games/{gid}/odds", {"action": {"type": "resign"}}),
        ("POST", f"/api/games/{gid}/preview", {"action": {"type": "resign"}}),
        ("PUT", f"/api/games/{gid}/bots/{seat}", {"level": "random"}),
        ("POST", f"/api/games/{gid}/tokens/{seat}", None),
        ("POST", f"/api/games/{gid}/tokens/spectator", None),
        ("POST", f"/api/games/{gid}/tokens/owner", None),
    ]


def _send(client, method: str, path: str, token: str | None, body: Any = None, raw: bytes | None = None,
          content_type: str = "application/json", headers: dict[str, Any] | None = None):
    sent = dict(headers or {})
    if token is not None:
        sent.update(auth(token))
    if raw is None and body is not None:
        raw = json.dumps(body).encode()
    if raw is not None:
        sent["Content-Type"] = content_type
    return client.request(method, path, content=raw, headers=sent)


# -- bodies -----------------------------------------------------------------------------

def test_oversized_bodies_with_and_without_length_are_413(client, table, unchanged):
    versions = _versions(client, table)
    padding = "x" * (65 * 1024)
    for ruleset, game in table.games.items():
        tokens = table.tokens(ruleset)
        for method, path, who, body in body_routes(game, versions[ruleset]):
            big = json.dumps({**body, "pad": padding}).encode()
            refused(table, _send(client, method, path, tokens[who], raw=big), 413, "too_large")
            refused(table, _send(client, method, path, tokens[who], raw=b"[" + b"1," * (2 << 20) + b"1]"), 413)

            def chunks(payload: bytes = big):
                for start in range(0, len(payload), 4096):
                    yield payload[start:start + 4096]

            refused(table, _send(client, method, path, tokens[who], raw=chunks()), 413, "too_large")  # chunked
            lying = {"Content-Length": str(10**12)}  # a length announced beyond the limit: refused unread
            refused(table, _send(client, method, path, tokens[who], raw=b"{}", headers=lying), 413, "too_large")


def _nested(depth: int) -> list[str]:
    return ["[" * depth + "]" * depth, '{"a":' * depth + "{}" + "}" * depth, "[" * depth, '{"a":' * depth]


def test_deeply_nested_json_is_refused(client, table, unchanged):
    versions = _versions(client, table)
    for ruleset, game in table.games.items():
        tokens = table.tokens(ruleset)
        for method, path, who, body in body_routes(game, versions[ruleset]):
            for nested in _nested(10_000):
                raw = nested.encode()
                refused(table, _send(client, method, path, tokens[who], raw=raw))  # the whole body
                for key in body:  # each field in turn
                    raw = json.dumps(body).replace(json.dumps(body[key]), nested, 1).encode()
                    refused(table, _send(client, method, path, tokens[who], raw=raw))
            deep_action = json.loads("[" * 500 + "]" * 500)
            for key in ("action", "options", "seats", "level"):
                if key in body:
                    refused(table, _send(client, method, path, tokens[who], {**body, key: deep_action}))


MALFORMED = [b"{", b"}", b"{]", b'{"expected_version": 0, "action": {"type": "ready"}', b"not json", b"nul",
             b'{"a" 1}', b"{'a': 1}", b'{"a": 1,}', b'{"a": 01}', b'{"a": .5}', b'{"a": +1}', b"\xff\xfe\x00{",
             b"\xef\xbb\xbf{}", b'{"a": "\xc3\x28"}', b'{"a": "\xed\xa0\x80"}', b"{} trailing", b"[] []",
             b"\x00", b" ", b"null", b"true", b"0", b'"text"', b"[]", b'{"a": "\\x41"}', b'{"a": "\\u12"}']
NOT_JSON = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "application/xml",
            "application/javascript", "text/json", "", "application", "*/*", "application/json-patch",
            "application/jsonx", "json"]


def test_malformed_json_and_wrong_content_types_are_refused(client, table, unchanged):
    versions = _versions(client, table)
    for ruleset, game in table.games.items():
        tokens = table.tokens(ruleset)
        for method, path, who, body in body_routes(game, versions[ruleset]):
            for raw in MALFORMED:
                refused(table, _send(client, method, path, tokens[who], raw=raw))
            for content_type in NOT_JSON:
                refused(table, _send(client, method, path, tokens[who], body, content_type=content_type), 415,
                        "unsupported_media_type")
            refused(table, client.request(method, path, content=json.dumps(body).encode(),
                                          headers={**auth(tokens[who]), "Content-Type": ""}), 415)
            if method != "PUT" and "/games/" in path:  # no body at all where one is needed
                refused(table, _send(client, method, path, tokens[who]), 422)


NUMBERS = [b"1e400", b"-1e400", b"NaN", b"Infinity", b"-Infinity", b"9" * 4000, b"-" + b"9" * 4000, b"1e-400",
           b"123456789012345678901234567890", b"0.1", b"-0", b"1E+2"]
JUNK = ["\u0000", "\u202e\u202d", "\ufeff", "\uffff", "\U0010ffff", "🏳️‍🌈" * 50, "é" * 3000, "\\u0000", "null",
        "' OR 1=1 --", "<script>alert(1)</script>", "../../etc/passwd", "%00", "\r\n\r\nHTTP/1.1 200 OK",
        "𒀀" * 100, "ⅷ", "\x7f\x1b[2J"]
LONE_SURROGATES = [b'"\\ud800"', b'"\\udfff"', b'"a\\ud83d"', b'"\\ude00\\ud83d"']


def _with(body: dict[str, Any], key: str, raw_value: bytes) -> bytes:
    marker = "@@value@@"
    return json.dumps({**body, key: marker}).encode().replace(json.dumps(marker).encode(), raw_value)


def test_huge_numbers_non_finite_floats_and_unicode_junk_are_refused(client, table, unchanged):
    versions = _versions(client, table)
    for ruleset, game in table.games.items():
        tokens = table.tokens(ruleset)
        seat = next(iter(game["seats"]))
        for method, path, who, body in body_routes(game, versions[ruleset]):
            for key in body:
                for value in NUMBERS + LONE_SURROGATES:
                    response = _send(client, method, path, tokens[who], raw=_with(body, key, value))
                    if value in LONE_SURROGATES:
                        refused(table, response, 400, "invalid_unicode")
                    elif response.status_code >= 300:  # "simulate" may take a number as its seed
                        refused(table, response)
        gid = game["id"]
        action_routes = [("POST", f"/api/games/{gid}/actions", {"expected_version": versions[ruleset]}),
                         ("POST", f"/api/games/{gid}/odds", {}), ("POST", f"/api/games/{gid}/preview", {})]
        for method, path, extra in action_routes:
            for value in NUMBERS:
                raw = _with(extra, "action", b'{"type": "move", "unit": ' + value + b', "element": ' + value + b"}")
                response = _send(client, method, path, tokens[seat], raw=raw)
                if path.endswith("/actions") or response.status_code >= 300:
                    refused(table, response)
            for text in JUNK:
                shapes = ({"type": text}, {"type": "move", "unit": text, "to": text, "element": text, "cell": text,
                                           "target": text}, {text: text})
                for action in shapes if path.endswith("/actions") else shapes[1:2]:
                    response = _send(client, method, path, tokens[seat], {**extra, "action": action})
                    if path.endswith("/actions") or response.status_code >= 300:
                        refused(table, response)
            for value in LONE_SURROGATES:
                raw = _with(extra, "action", b'{"type": "orders", "text": ' + value + b"}")
                refused(table, _send(client, method, path, tokens[seat], raw=raw), 400, "invalid_unicode")
        for text in JUNK:
            where = quote(text, safe="")
            response = client.put(f"/api/games/{gid}/bots/{where}", headers=auth(tokens["owner"]),
                                  json={"level": "random"})
            refused(table, response)
            refused(table, client.post(f"/api/games/{gid}/tokens/{where}", headers=auth(tokens["owner"])))
            refused(table, client.get(f"/api/games/{gid}{where}", headers=auth(tokens["owner"])))


def test_a_lone_surrogate_is_refused_before_the_store_and_never_crashes_an_error(client, table, unchanged):
    """Found by this file: Royaumes stored "\\ud800" in an order and every later read was a 500."""
    from kadesh.core.errors import RuleError

    with pytest.raises(RuleError):
        json_value({"type": "orders", "text": "\ud800"})
    assert problem_response(422, "x", "\ud800", "\udc00").status_code == 422
    refused(table, client.post("/api/games", content=b'{"ruleset": "royaumes", "options": {"\\ud800": 1}}',
                               headers={"Content-Type": "application/json"}), 400, "invalid_unicode")
    emoji = client.post("/api/games", content=b'{"ruleset": "royaumes", "options": {"\\ud83d\\ude00": 1}}',
                        headers={"Content-Type": "application/json"})
    refused(table, emoji, 422, "bad_options")  # a pair is a real character: the rules answer


# -- actions ------------------------------------------------------------------------------

UNKNOWN_ACTIONS = [{}, {"type": ""}, {"type": "nuke"}, {"type": None}, {"type": 5}, {"type": ["ready"]},
                   {"type": {"type": "ready"}}, {"type": "READY"}, {"type": " ready"}, {"kind": "ready"},
                   {"type": "__class__"}, {"type": "ready" * 1000}]


def test_unknown_actions_out_of_turn_and_other_seats_actions_are_refused(client, table, unchanged):
    for ruleset, game in table.games.items():
        gid, tokens = game["id"], table.tokens(ruleset)
        state = game_state(client, game)
        version, to_act = state["version"], state["to_act"]
        legal_of = {seat: legal(client, gid, tokens[seat]) for seat in game["seats"]}
        for seat in game["seats"]:
            for action in UNKNOWN_ACTIONS:
                body = {"expected_version": version, "action": action}
                refused(table, client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]), json=body))
            # Another seat's moves sent by this seat: out of turn when this seat is not to act, someone
            # else's element or order otherwise (what the rules list as legal for this seat is left out).
            for other in game["seats"]:
                for action in legal_of[other][:5]:
                    if action in legal_of[seat]:
                        continue
                    body = {"expected_version": version, "action": action}
                    response = client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]), json=body)
                    refused(table, response)
        assert any(seat not in to_act for seat in game["seats"]) or ruleset in ("manoeuvre",), to_act


def test_expected_version_junk_is_refused_even_with_a_legal_action(client, table, unchanged):
    for ruleset, game in table.games.items():
        gid, tokens = game["id"], table.tokens(ruleset)
        state = game_state(client, game)
        version, seat = state["version"], state["to_act"][0]
        action = next(a for a in legal(client, gid, tokens[seat]) if a["type"] != "resign")
        junk: list[Any] = [-1, -version, version - 1, version + 1, 2**31, 2**31 - 1, 2**63, 2**64, 10**40, -(10**40),
                           str(version), f" {version}", "", "one", True, False, float(version), version + 0.5, None,
                           [version], {"v": version}]
        for value in junk:
            body = {"expected_version": value, "action": action}
            refused(table, client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]), json=body))
        for raw in NUMBERS + [str(version).encode() + b".0", str(version).encode() + b"e0"]:
            response = _send(client, "POST", f"/api/games/{gid}/actions", tokens[seat],
                             raw=_with({"action": action}, "expected_version", raw))
            refused(table, response)
        refused(table, client.post(f"/api/games/{gid}/actions", headers=auth(tokens[seat]), json={"action": action}),
                422)


# -- tokens -------------------------------------------------------------------------------

FORGED = [new_token(), new_token()[:-1] + "A", "", " ", "x" * 43, "x" * 256, "x" * 257, "x" * 5000, "été",
          "\u202e" + new_token(), "🔑" * 10, "a\u0000b", "%00", "null", "undefined", "Bearer", "' OR '1'='1"]


def test_forged_tokens_open_nothing(client, table, unchanged):
    """Every route refuses no token and a random one; three routes (a read, an action, a reissue) get them all."""
    versions = _versions(client, table)
    for ruleset, game in table.games.items():
        seat = next(iter(game["seats"]))
        routes = token_routes(game, versions[ruleset], seat)
        for number, (method, path, body) in enumerate(routes):
            raw = json.dumps(body).encode() if body is not None else None
            headers = {"Content-Type": "application/json"} if raw is not None else {}
            refused(table, client.request(method, path, content=raw, headers=headers), 401, "unauthorized")
            everyone = path.endswith(("/actions", "/tokens/owner")) or number == 0
            for token in FORGED if everyone else FORGED[:2]:
                response = client.request(method, path, params={"token": token}, content=raw, headers=headers)
                refused(table, response)
                if everyone and token.isascii() and "\u0000" not in token:
                    for value in (f"Bearer {token}", f"Basic {token}", token):
                        response = client.request(method, path, content=raw,
                                                  headers={**headers, "Authorization": value})
                        refused(table, response)
            if everyone:
                for value in (b"Bearer \xe9t\xe9", b"Bearer \xff\xfe", "Bearer é".encode(), b"Bearer\t" + b"x" * 43):
                    response = client.request(method, path, content=raw, headers={**headers, "Authorization": value})
                    refused(table, response)


def test_tokens_of_another_game_another_seat_the_spectator_or_the_owner_are_refused(client, table, unchanged):
    versions = _versions(client, table)
    for ruleset, game in table.games.items():
        gid, tokens = game["id"], table.tokens(ruleset)
        seats = list(game["seats"])
        for other_ruleset in table.games:
            if other_ruleset == ruleset:
                continue
            other = table.games[other_ruleset]
            for token in (next(iter(other["seats"].values()))["token"], other["spectator"]["token"],
                          other["owner"]["token"]):  # a seat, the spectators and the owner of another game
                for method, path, body in token_routes(game, versions[ruleset], seats[0]):
                    refused(table, _send(client, method, path, token, body), 403, "forbidden")
        for holder in ("spectator", "owner"):  # they watch, they do not play
            for path, body in ((f"/api/games/{gid}/actions", {"expected_version": versions[ruleset],
                                                              "action": {"type": "resign"}}),
                               (f"/api/games/{gid}/odds", {"action": {"type": "resign"}}),
                               (f"/api/games/{gid}/preview", {"action": {"type": "resign"}})):
                refused(table, client.post(path, headers=auth(tokens[holder]), json=body), 403, "not_a_seat")
            refused(table, client.get(f"/api/games/{gid}/legal", headers=auth(tokens[holder])), 403, "not_a_seat")
        for holder in [*seats, "spectator"]:  # only the owner gives seats away or replaces links
            refused(table, client.put(f"/api/games/{gid}/bots/{seats[0]}", headers=auth(tokens[holder]),
                                      json={"level": "random"}), 403, "not_the_owner")
            for target in [*seats, "spectator", "owner"]:
                refused(table, client.post(f"/api/games/{gid}/tokens/{target}", headers=auth(tokens[holder])),
                        403, "not_the_owner")
        for holder in [*seats, "spectator", "owner"]:  # nobody exports before the end: it holds the seed
            for what in ("export", "verify"):
                refused(table, client.get(f"/api/games/{gid}/{what}", headers=auth(tokens[holder])), 409,
                        "game_not_over")
        # A seat's token with another seat's token in the query: the query wins, and acts as its own seat only.
        first, second = seats[0], seats[1]
        response = client.get(f"/api/games/{gid}", params={"token": tokens[first]}, headers=auth(tokens[second]))
        assert response.json()["seat"] == first


def test_websocket_refusals_reveal_nothing(client, table, unchanged):
    for ruleset, game in table.games.items():
        gid = game["id"]
        others = [t for r in table.games if r != ruleset for t in table.tokens(r).values()]
        attempts = [(token, 4401) for token in FORGED
                    if token.isascii() and token.strip() and "\u0000" not in token and len(token) < 300]
        attempts += [(token, 4403) for token in others[:3]]
        for token, code in attempts:
            with client.websocket_connect(f"/ws/games/{gid}", headers=auth(token)) as socket:
                frame = socket.receive_text()
                with pytest.raises(WebSocketDisconnect) as closed:
                    socket.receive_text()
            assert closed.value.code == code, frame
            assert len(frame) < MAX_PROBLEM and json.loads(frame)["problem"]["status"] == code - 4000
            assert not any(secret in frame for secret in table.secrets)
