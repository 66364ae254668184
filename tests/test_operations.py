"""docs/operations.md's nginx configuration, as written there, in front of two servers on one PostgreSQL."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.server_support import free_port, start_servers

DOC = Path(__file__).resolve().parent.parent / "docs" / "operations.md"


def documented_nginx_block() -> str:
    blocks = re.findall(r"```nginx\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 1, "docs/operations.md has one nginx block"
    return "\n".join(line.removeprefix("   ") for line in blocks[0].splitlines())


def nginx_conf(folder: Path, port: int, upstreams: list[int]) -> str:
    block = documented_nginx_block()
    documented_ports = re.findall(r"server 127\.0\.0\.1:(\d+);", block)
    assert len(documented_ports) == len(upstreams)
    for documented, real in zip(documented_ports, upstreams, strict=True):
        block = block.replace(f"127.0.0.1:{documented};", f"127.0.0.1:{real};")
    block = block.replace("listen 80;", f"listen 127.0.0.1:{port};")
    temp = Path(tempfile.mkdtemp(prefix="kadesh-nginx-"))
    os.chmod(temp, 0o777)  # as root, nginx's workers run as nobody: they buffer big bodies here
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    paths = " ".join(f"{kind}_temp_path {temp / kind};" for kind in kinds)
    return (f"daemon off; pid {folder / 'nginx.pid'}; error_log {folder / 'error.log'};\n"
            f"events {{ worker_connections 256; }}\n"
            f"http {{ access_log off; {paths}\n{block}\n}}\n")


@pytest.fixture
def behind_nginx(postgres, tmp_path):
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    assert Path(nginx).exists(), "nginx is missing: apt-get install nginx (.ci/run does)"
    db = postgres.new_database()
    servers = start_servers(db, tmp_path, 2)
    port = free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(nginx_conf(tmp_path, port, [s.port for s in servers]), encoding="utf-8")
    proxy = subprocess.Popen([nginx, "-c", str(conf), "-p", str(tmp_path)], stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base, servers
    finally:
        proxy.kill()
        proxy.wait()
        for server in servers:
            server.kill()


@pytest.mark.slow
@pytest.mark.postgresql
def test_the_documented_nginx_serves_play_and_websockets_over_two_servers(behind_nginx):
    base, servers = behind_nginx
    with httpx.Client(base_url=base, timeout=10) as http:
        game = http.post("/api/games", json={"ruleset": "manoeuvre"}).json()
        north = {"Authorization": f"Bearer {game['seats']['north']['token']}"}
        socket_url = base.replace("http", "ws") + f"/ws/games/{game['id']}?token={game['spectator']['token']}"
        with connect(socket_url) as socket:
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
        assert http.get("/health").json()["database"] == "postgresql"
    for server in servers:
        assert "Traceback" not in server.output()
