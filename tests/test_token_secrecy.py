"""A seat's link stays secret (issue 26): tokens in the fragment, the WebSocket's subprotocol and headers,
never in a log line; every answer carries the security headers. (Behind nginx, over two servers, with the
logs read after a whole game: tests/test_operations.py.)"""

from __future__ import annotations

import json
import logging

import pytest
from starlette.websockets import WebSocketDisconnect

from kadesh.server.app import create_app
from kadesh.server.security import RedactTokens, redact
from kadesh.store import Store
from tests.asgi_client import TestClient
from tests.browser_support import running_server

HEADERS = ("content-security-policy", "referrer-policy", "x-content-type-options", "permissions-policy")


@pytest.fixture
def client(tmp_path):
    store = Store(f"sqlite:///{tmp_path}/secret.sqlite3")
    with TestClient(create_app(store=store, local_workers=0)) as test_client:
        yield test_client, store
    store.close()


def test_every_kind_of_answer_carries_the_security_headers(client):
    http, store = client
    created = store.create_game("manoeuvre")
    answers = [http.get("/"), http.get(f"/play/{created.id}?token=x"), http.get("/static/game.js"),
               http.get("/static/missing.js"), http.get("/no/such/page"), http.get("/api/rulesets"),
               http.get(f"/api/games/{created.id}"), http.get("/openapi.json"), http.get("/health"),
               http.post("/api/games", content=b"not json", headers={"Content-Type": "text/plain"}),
               http.post("/api/games", content=b"{" * 70_000, headers={"Content-Type": "application/json"}),
               http.get("/unsubscribe/unknown")]
    assert {answer.status_code for answer in answers} >= {200, 401, 404, 413, 415}
    for answer in answers:
        for name in HEADERS:
            assert name in answer.headers, (answer.request.url, name)
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy and "frame-ancestors 'none'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert answer.headers["x-content-type-options"] == "nosniff"
    assert "ws://testserver" in answers[0].headers["content-security-policy"]  # its own WebSocket
    assert http.get("/docs").status_code == 404  # Swagger's page needs scripts from elsewhere: off


def test_no_answer_carrying_a_view_a_journal_or_a_token_is_kept_by_a_cache(client):
    http, store = client
    created = store.create_game("manoeuvre")
    north = {"Authorization": f"Bearer {created.seat_tokens['north']}"}
    made = http.post("/api/games", json={"ruleset": "manoeuvre"})
    answers = [made, http.get(f"/api/games/{created.id}", headers=north),
               http.get(f"/api/games/{created.id}/journal", headers=north),
               http.get(f"/api/games/{created.id}/legal", headers=north),
               http.post(f"/api/games/{created.id}/actions", headers=north,
                         json={"expected_version": 0, "action": {"type": "deploy", "element": "n1", "cell": "e1"}}),
               http.post(f"/api/games/{made.json()['id']}/tokens/north",
                         headers={"Authorization": f"Bearer {made.json()['owner']['token']}"}),
               http.get(f"/api/games/{created.id}"), http.get("/unsubscribe/unknown")]
    assert [answer.status_code for answer in answers] == [201, 200, 200, 200, 200, 200, 401, 404]
    for answer in answers:
        assert answer.headers["cache-control"] == "no-store", answer.request.url


def test_links_carry_the_token_in_the_fragment(client):
    http, _ = client
    created = http.post("/api/games", json={"ruleset": "manoeuvre"}).json()
    for link in [*created["seats"].values(), created["spectator"], created["owner"]]:
        assert link["link"] == f"/play/{created['id']}#token={link['token']}"


def test_the_websocket_takes_its_token_in_the_subprotocol_and_refuses_as_before(client):
    http, store = client
    created = store.create_game("manoeuvre")
    north = created.seat_tokens["north"]
    with http.websocket_connect(f"/ws/games/{created.id}", subprotocols=["kadesh", f"kadesh.bearer.{north}"]) as ws:
        assert ws.accepted_subprotocol == "kadesh"
        assert ws.receive_json()["type"] == "update"
    with http.websocket_connect(f"/ws/games/{created.id}?token={north}") as ws:  # links from before: still taken
        assert ws.receive_json()["type"] == "update"
    with http.websocket_connect(f"/ws/games/{created.id}", subprotocols=["kadesh", "kadesh.bearer.wrong"]) as ws:
        refusal = ws.receive_json()
        assert refusal["type"] == "error" and refusal["problem"]["code"] == "unauthorized"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4401
    with http.websocket_connect(f"/ws/games/{created.id}", subprotocols=["kadesh"]) as ws:  # no token at all
        assert ws.receive_json()["problem"]["status"] == 401


def test_a_logged_url_never_keeps_a_token():
    assert redact('127.0.0.1:5 - "GET /play/g1?token=abc-_1 HTTP/1.1" 200') == \
        '127.0.0.1:5 - "GET /play/g1?token=[redacted] HTTP/1.1" 200'
    assert redact("/ws/games/g?since=3&token=abc&lang=fr") == "/ws/games/g?since=3&token=[redacted]&lang=fr"
    assert redact("/ws/games/g?TOKEN=abc") == "/ws/games/g?TOKEN=[redacted]"
    assert redact("/api/games/g/tokens/north") == "/api/games/g/tokens/north"  # a path, not a parameter


def test_a_token_is_redacted_however_its_parameter_is_spelled():
    """The server decodes a parameter's name (``%74oken`` is ``token`` to it): so does the redaction; a
    value that carries a token once decoded (an address passed along) is cut as well."""
    for spelled in ("%74oken", "%74%6F%6B%65%6E", "%54OKEN", "tok%65n", "%2574oken"):
        assert redact(f"/ws/games/g?since=3&{spelled}=s3cret&lang=fr") == \
            f"/ws/games/g?since=3&{spelled}=[redacted]&lang=fr"
    assert redact("/play/g?next=%2Fplay%2Fh%3Ftoken%3Ds3cret&lang=en") == "/play/g?next=[redacted]&lang=en"
    assert redact("/play/g?next=/play/h?token=s3cret") == "/play/g?next=[redacted]"
    assert redact("/api/games/g/journal?lang=fr&since=4") == "/api/games/g/journal?lang=fr&since=4"
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/api/games/g?%74oken=s3cret", "1.1", 200), None)
    RedactTokens().filter(record)
    assert "s3cret" not in record.getMessage()


def test_the_server_reads_an_encoded_token_parameter(client):
    """Why the redaction decodes: the seat's link works with its parameter's name percent-encoded."""
    http, store = client
    created = store.create_game("manoeuvre")
    answer = http.get(f"/api/games/{created.id}?%74oken={created.seat_tokens['north']}")
    assert answer.status_code == 200 and answer.json()["seat"] == "north"
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               ("127.0.0.1:5", "GET", "/api/games/g?token=s3cret", "1.1", 200), None)
    RedactTokens().filter(record)
    assert "s3cret" not in record.getMessage() and "[redacted]" in record.getMessage()
    from uvicorn.logging import AccessFormatter  # it unpacks the five arguments: the record keeps its shape

    assert "token=[redacted]" in AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s').format(record)


@pytest.mark.browser
@pytest.mark.slow
def test_an_old_link_opens_its_seat_and_leaves_the_address_bar_clean(browser, tmp_path):
    with running_server(str(tmp_path / "links.sqlite3"), local_workers=0) as (base, store):
        created = store.create_game("manoeuvre", seed="old-links")
        page = browser.new_page()
        page.goto(f"{base}/play/{created.id}?token={created.seat_tokens['south']}")
        page.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
        assert page.url == f"{base}/play/{created.id}" and "Sud" in page.locator("#who").inner_text()
        stored = json.loads(page.evaluate(f"sessionStorage.getItem('kadesh.link.{created.id}')"))
        assert stored["token"] == created.seat_tokens["south"]
        remembered = json.loads(page.evaluate("localStorage.getItem('kadesh.games')"))
        assert remembered[0]["link"] == f"/play/{created.id}#token={created.seat_tokens['south']}"
        page.reload()
        page.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
        assert "Sud" in page.locator("#who").inner_text()
        # Both seats on one screen: their tokens in the fragment, kept by the tab the same way.
        tokens = "&".join(f"{seat}={token}" for seat, token in created.seat_tokens.items())
        page.goto(f"{base}/play/{created.id}#{tokens}")
        page.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
        assert page.url == f"{base}/play/{created.id}"
        page.reload()
        page.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
        assert "Nord" in page.locator("#who").inner_text()
        page.close()


@pytest.mark.browser
@pytest.mark.slow
def test_the_browser_tests_catch_a_page_that_breaks_the_policy(browser, tmp_path):
    """What makes every browser test fail on a CSP violation (tests/conftest.py) does see one."""
    with running_server(str(tmp_path / "csp.sqlite3"), local_workers=0) as (base, _):
        page = browser.new_page()
        page.goto(f"{base}/")
        page.evaluate("document.body.setAttribute('style', 'color: red')")  # an inline style: refused
        page.wait_for_timeout(200)
        assert any("style-src" in violation for violation in browser.violations), browser.violations
        browser.violations.clear()
        page.close()
