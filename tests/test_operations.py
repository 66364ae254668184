"""docs/operations.md's nginx configuration, as written there (TLS with a certificate made here), in front of
two servers on one PostgreSQL; and no seat's token in any log after a whole game played through it."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.server_support import ServerProcess, free_port, play_maladroit

DOC = Path(__file__).resolve().parent.parent / "docs" / "operations.md"


def documented_nginx_block() -> str:
    blocks = re.findall(r"```nginx\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1, "docs/operations.md has one nginx block"
    return "\n".join(line.removeprefix("   ") for line in blocks[0].splitlines())


def self_signed(folder: Path) -> tuple[Path, Path]:
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=127.0.0.1", "-keyout", str(key), "-out", str(certificate)], check=True, capture_output=True)
    return certificate, key


def nginx_conf(folder: Path, port: int, plain_port: int, upstreams: list[int]) -> str:
    """The documented block on loopback: HTTPS on ``port`` with a certificate made here, HTTP on
    ``plain_port``, the access log in ``folder``."""
    block = documented_nginx_block()
    documented_ports = re.findall(r"server 127\.0\.0\.1:(\d+);", block)
    assert len(documented_ports) == len(upstreams)
    for documented, real in zip(documented_ports, upstreams, strict=True):
        block = block.replace(f"127.0.0.1:{documented};", f"127.0.0.1:{real};")
    certificate, key = self_signed(folder)
    block = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {certificate};", block)
    block = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", block)
    block = re.sub(r"access_log\s+\S+\s+kadesh;", f"access_log {folder / 'access.log'} kadesh;", block)
    block = block.replace("listen 443 ssl;", f"listen 127.0.0.1:{port} ssl;")
    block = block.replace("listen 80;", f"listen 127.0.0.1:{plain_port};")
    temp = Path(tempfile.mkdtemp(prefix="kadesh-nginx-"))
    os.chmod(temp, 0o777)  # as root, nginx's workers run as nobody: they buffer big bodies here
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    paths = " ".join(f"{kind}_temp_path {temp / kind};" for kind in kinds)
    return (f"daemon off; pid {folder / 'nginx.pid'}; error_log {folder / 'error.log'};\n"
            f"events {{ worker_connections 256; }}\n"
            f"http {{ access_log off; {paths}\n{block}\n}}\n")


UNVERIFIED = ssl.create_default_context()  # the certificate is made for the test: trusted, not checked
UNVERIFIED.check_hostname = False
UNVERIFIED.verify_mode = ssl.CERT_NONE
# The handshake's bound, as the HTTP calls' here: twice, under the whole suite on 2 cores, a handshake
# through nginx waited more than websockets' default 10 s (never alone, nor beside four busy processes).
HANDSHAKE_BOUND = 30


@pytest.fixture(scope="module")
def nginx_site(postgres, tmp_path_factory):
    """Two servers logging every request (as ``kadesh serve`` does by default), behind the documented nginx, and
    the folder of their logs and nginx's: shared by the module's tests, each playing a game of its own (two
    servers, their fork servers and nginx cost some 6 s of CPU to start)."""
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(nginx).exists(), "nginx is missing: apt-get install nginx (.ci/run does)"
    folder = tmp_path_factory.mktemp("nginx")
    db = postgres.new_database(migrated=True)
    servers = [ServerProcess(db, folder / f"serve-{i}.log", None, "--log-level", "info", "--access-log").launch()
               for i in range(2)]  # their access lines too: no token may reach them
    for server in servers:  # started side by side
        server.wait_ready()
    port, plain_port = free_port(), free_port()
    conf = folder / "nginx.conf"
    conf.write_text(nginx_conf(folder, port, plain_port, [s.port for s in servers]), encoding="utf-8")
    proxy = subprocess.Popen([nginx, "-c", str(conf), "-p", str(folder)], stderr=subprocess.PIPE,
                             start_new_session=True)  # its workers in its group: killed with it, never orphaned
    base = f"https://127.0.0.1:{port}"
    try:
        with httpx.Client(timeout=1, verify=False) as probe:
            for _ in range(100):
                try:
                    if probe.get(f"{base}/health").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
        yield base, servers, folder
    finally:
        os.killpg(proxy.pid, signal.SIGKILL)
        proxy.wait()
        for server in servers:
            server.kill()
        postgres.drop_database(db)


@pytest.fixture
def behind_nginx(nginx_site):
    """The shared site, with what nginx and the servers said last printed after each test."""
    yield nginx_site
    _, servers, folder = nginx_site
    _print_for_a_failure(folder, servers)


def _print_for_a_failure(folder: Path, servers: list[ServerProcess]) -> None:
    """What nginx and the servers said last: pytest shows it beside a failure (a WebSocket handshake through
    nginx once waited more than 10 s under the whole suite, and nothing told why)."""
    for name in ("error.log", "access.log"):
        log = folder / name
        if log.exists():
            print(f"--- nginx {name}:", *log.read_text(errors="replace").splitlines()[-15:], sep="\n")
    for index, server in enumerate(servers):
        lines = server.output().splitlines()
        print(f"--- server {index}, its WebSockets:", *[line for line in lines if "WebSocket" in line][-10:], sep="\n")
        print(f"--- server {index}, its last lines:", *lines[-15:], sep="\n")


@pytest.mark.slow
@pytest.mark.postgresql
def test_the_documented_nginx_serves_play_and_websockets_over_two_servers(behind_nginx):
    base, servers, _ = behind_nginx
    with httpx.Client(base_url=base, timeout=10, verify=False) as http:
        game = http.post("/api/games", json={"ruleset": "manoeuvre"}).json()
        north = {"Authorization": f"Bearer {game['seats']['north']['token']}"}
        socket_url = base.replace("http", "ws") + f"/ws/games/{game['id']}?token={game['spectator']['token']}"
        with connect(socket_url, ssl=UNVERIFIED, open_timeout=HANDSHAKE_BOUND) as socket:
            assert json.loads(socket.recv(timeout=10))["version"] == 0
            for version in range(6):  # nginx spreads these over both servers
                legal = http.get(f"/api/games/{game['id']}/legal", headers=north).json()
                deploy = next(a for a in legal["actions"] if a["type"] == "deploy")
                answer = http.post(f"/api/games/{game['id']}/actions", headers=north,
                                   json={"expected_version": version, "action": deploy})
                assert answer.status_code == 200, answer.text
            heard = 0
            while heard < 6:
                heard = json.loads(socket.recv(timeout=10))["version"]
        too_big = http.post(f"/api/games/{game['id']}/actions", headers={**north, "Content-Type": "application/json"},
                            content=b'{"action": "' + b"x" * 70_000 + b'"}')
        assert too_big.status_code == 413 and too_big.json()["code"] == "too_large"  # Kadesh's own answer
        health = http.get("/health")
        assert health.json()["database"] == "postgresql"
        assert health.headers["strict-transport-security"].startswith("max-age=")  # nginx's
        assert "frame-ancestors 'none'" in health.headers["content-security-policy"]  # Kadesh's
    for server in servers:
        assert "Traceback" not in server.output()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.slow
@pytest.mark.postgresql
@pytest.mark.browser
def test_no_token_reaches_any_log_after_a_whole_game(behind_nginx, browser):
    """A game played through the browser (an old ``?token=`` link and a new ``#token=`` one), the API (Bearer,
    and the old query form) and WebSockets (the subprotocol, and the old query), behind nginx, over two
    servers logging every request: no token of the game is in any log line."""
    base, _, folder = behind_nginx
    with httpx.Client(base_url=base, timeout=30, verify=False) as http:
        created = http.post("/api/games", json={"ruleset": "manoeuvre"}).json()
        game_id = created["id"]
        tokens = {seat: link["token"] for seat, link in created["seats"].items()}
        secrets = [*tokens.values(), created["spectator"]["token"], created["owner"]["token"]]
        assert created["seats"]["south"]["link"] == f"/play/{game_id}#token={tokens['south']}"
        context = browser.new_context(ignore_https_errors=True)
        north = context.new_page()
        north.goto(f"{base}/play/{game_id}?token={tokens['north']}")  # a link sent before issue 26
        north.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
        assert north.url == f"{base}/play/{game_id}" and "Nord" in north.locator("#who").inner_text()
        south = context.new_page()
        south.goto(base + created["seats"]["south"]["link"])
        south.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
        assert south.url == f"{base}/play/{game_id}" and "Sud" in south.locator("#who").inner_text()
        spectator = created["spectator"]["token"]
        assert http.get(f"/api/games/{game_id}?token={spectator}").status_code == 200  # the old query form
        with connect(f"{base.replace('https', 'wss')}/ws/games/{game_id}?token={spectator}", ssl=UNVERIFIED,
                     open_timeout=HANDSHAKE_BOUND) as old:
            assert json.loads(old.recv(timeout=10))["type"] == "update"
        last = play_maladroit(http, [base], game_id, tokens, resign_at=40)["version"]
        for page in (north, south):  # the pages followed over their WebSockets (token in the subprotocol)
            page.wait_for_function(f"() => Number(document.querySelector('#board')?.dataset.version) === {last}")
        north.reload()  # the tab keeps its seat without the token in its address
        north.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
        assert "Nord" in north.locator("#who").inner_text()
        replaced = http.post(f"/api/games/{game_id}/tokens/north", headers=_bearer(created["owner"]["token"]))
        secrets.append(replaced.json()["token"])
        context.close()
        # nginx writes a request's line once it has answered it: a last request's line marks the end of the log.
        last_line = f"GET /the-last-request-{os.urandom(4).hex()} "  # a 404, logged like any other
        http.get(last_line.split()[1])
        access_log = folder / "access.log"
        deadline = time.monotonic() + 60  # a bound on waiting, not a timing assertion
        while last_line not in access_log.read_text(errors="replace") and time.monotonic() < deadline:
            time.sleep(0.05)
    logs = {path.name: path.read_text(errors="replace") for path in folder.glob("*.log")}
    assert "/play/" in logs["access.log"] and "/ws/games/" in logs["access.log"]
    assert any("GET /api/games/" in text and "WebSocket" in text for text in logs.values())  # they do log
    assert any("[redacted]" in text for text in logs.values())  # the old forms' lines, cut
    leaks = [(name, secret[:6]) for name, text in logs.items() for secret in secrets if secret in text]
    assert not leaks, f"tokens in the logs: {leaks}"
