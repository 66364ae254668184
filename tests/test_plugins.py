"""Rulesets as plugins (issue 27): found through the entry-point group ``kadesh.rulesets``, the four shipped
ones included; a broken plugin is reported and the others served; the example of docs/writing-a-ruleset.md
(examples/dudo) installed as its own package and played through the API, the WebSocket and the browser."""

from __future__ import annotations

import json
import logging
import os
import site
import subprocess
import sys
import time
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import httpx
import pytest

from kadesh.core import registry
from kadesh.server.app import create_app
from tests.asgi_client import TestClient
from tests.browser_support import assert_page_clean
from tests.server_support import ServerProcess

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "dudo"
SHIPPED = {"bataille", "front", "manoeuvre", "royaumes"}


def test_the_shipped_rulesets_are_plugins_like_any_other():
    named = {entry.name: entry.value for entry in entry_points(group=registry.GROUP)}
    assert set(named) >= SHIPPED
    assert named["manoeuvre"] == "kadesh.rules.manoeuvre:Manoeuvre"


def test_the_core_imports_no_ruleset():
    code = ("import sys, kadesh.core, kadesh.core.game, kadesh.core.registry; "
            "print([m for m in sys.modules if m.startswith('kadesh.rules') or m.startswith('kadesh_')])")
    imported = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert imported.strip() == "[]"


@pytest.fixture
def with_broken_plugins(monkeypatch):
    """The installed rulesets plus four broken ones, found afresh; the real ones again afterwards."""
    broken = [EntryPoint("gone", "kadesh_no_such_package:Game", registry.GROUP),
              EntryPoint("notarule", "collections:OrderedDict", registry.GROUP),
              EntryPoint("unfinished", "kadesh.core.ruleset:Ruleset", registry.GROUP),
              EntryPoint("misnamed", "kadesh.rules.manoeuvre:Manoeuvre", registry.GROUP)]
    real = list(entry_points(group=registry.GROUP))
    monkeypatch.setattr(registry, "entry_points", lambda group: [*real, *broken] if group == registry.GROUP else [])
    registry.rediscover()
    yield
    monkeypatch.undo()
    registry.rediscover()


def test_a_broken_plugin_is_reported_at_start_up_and_the_other_games_go_on(with_broken_plugins, tmp_path, caplog):
    problems = {broken.entry_point: broken.problem for broken in registry.broken_rulesets()}
    assert set(problems) == {"gone", "notarule", "unfinished", "misnamed"}
    assert "ModuleNotFoundError" in problems["gone"] and "kadesh_no_such_package" in problems["gone"]
    assert "not a subclass of kadesh.core.Ruleset" in problems["notarule"]
    assert "does not implement" in problems["unfinished"] and "apply" in problems["unfinished"]
    assert "'manoeuvre'" in problems["misnamed"] and "'misnamed'" in problems["misnamed"]
    assert set(registry.all_rulesets()) >= SHIPPED
    with caplog.at_level(logging.ERROR), TestClient(create_app(f"sqlite:///{tmp_path}/k.sqlite3",
                                                               local_workers=0)) as client:
        said = " ".join(record.getMessage() for record in caplog.records)
        assert "'gone'" in said and "not served" in said
        health = client.get("/health").json()
        assert {b["name"] for b in health["broken_rulesets"]} == set(problems)
        assert {r["name"] for r in client.get("/api/rulesets").json()} >= SHIPPED
        assert client.post("/api/games", json={"ruleset": "manoeuvre"}).status_code == 201
        assert client.post("/api/games", json={"ruleset": "gone"}).status_code == 422


@pytest.fixture(scope="module")
def example_env(tmp_path_factory):
    """A virtual environment on top of this one, with the example installed as any package would be.

    ``--system-site-packages`` would not do: a virtual environment made from this one's interpreter sees the
    *base* interpreter's packages, not the suite's. A ``.pth`` file that adds the suite's own site-packages
    with ``site.addsitedir`` (which reads their ``.pth`` files too: Kadesh's editable install is one) lays the
    new environment on top of this one, whatever is or is not installed outside it."""
    folder = tmp_path_factory.mktemp("dudo-venv")
    # No pip of its own (making one costs seconds): uv, the installer of the README's test command, installs into it.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / "bin" / "python"
    lower = [path for path in site.getsitepackages() if Path(path).is_dir()]
    new_site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                              capture_output=True, text=True, check=True).stdout.strip()
    lines = "".join(f"import site; site.addsitedir({path!r})\n" for path in lower)
    (Path(new_site) / "_kadesh_suite.pth").write_text(lines)
    # Built in isolation from its sources as they are now (never a build uv kept from an earlier run), and installed
    # as any package is: uv takes 2 s of CPU for it, pip 5 s.
    subprocess.run([sys.executable, "-m", "uv", "pip", "install", "-q", "--python", str(python), "--no-deps",
                    "--refresh-package", "kadesh-dudo", str(EXAMPLE)], check=True)
    return python


@pytest.mark.slow
def test_the_example_passes_its_own_tests_once_installed(example_env):
    # As its author runs them: none of the suite's pytest plugins (schemathesis, hypothesis, playwright…, loaded
    # and rewritten at every start) nor its options (three xdist processes for a few tests).
    done = subprocess.run([str(example_env), "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                           str(EXAMPLE / "tests")],
                          capture_output=True, text=True, cwd=EXAMPLE,
                          env={**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"})
    assert done.returncode == 0, done.stdout + done.stderr


class ExampleServer(ServerProcess):
    """``kadesh serve`` run by the environment where the example is installed."""

    def __init__(self, python: Path, db: str, log: Path) -> None:
        super().__init__(db, log, None, "--log-level", "warning", "--workers", "1")
        self.python = python

    def start(self, timeout: float = 60) -> ExampleServer:
        real = sys.executable
        sys.executable = str(self.python)  # ServerProcess starts ``sys.executable -m kadesh.cli serve``
        try:
            return super().start(timeout)
        finally:
            sys.executable = real


@pytest.mark.slow
@pytest.mark.browser
def test_the_installed_example_is_played_over_http_the_websocket_and_the_browser(example_env, browser, tmp_path):
    from websockets.sync.client import connect

    server = ExampleServer(example_env, f"sqlite:///{tmp_path}/dudo.sqlite3", tmp_path / "serve.log").start()
    try:
        base = server.url
        with httpx.Client(base_url=base, timeout=30) as http:
            rulesets = {r["name"]: r for r in http.get("/api/rulesets").json()}
            assert rulesets["dudo"]["title"] == {"fr": "Dudo", "en": "Liar's Dice"}
            assert [b["level"] for b in rulesets["dudo"]["bots"]] == ["compteur", "random"]
            assert http.get("/static/rules/dudo.js").status_code == 200  # served from the package
            created = http.post("/api/games", json={"ruleset": "dudo", "bots": {"south": "compteur"}}).json()
            north = created["seats"]["north"]["token"]
            socket_url = f"{base.replace('http', 'ws')}/ws/games/{created['id']}"
            with connect(socket_url, subprotocols=["kadesh", f"kadesh.bearer.{north}"]) as socket:
                assert json.loads(socket.recv(timeout=10))["view"]["my_dice"] == []
                page = browser.new_page()
                page.goto(base + created["seats"]["north"]["link"])
                page.locator("#dudo-roll").click()  # the North shakes the cups
                assert json.loads(socket.recv(timeout=10))["version"] == 1  # and the socket hears it
                page.locator(".dudo .cup .die[role=img]").first.wait_for()  # its own dice, face up
                assert page.locator(".dudo .cup .die[role=img]").count() == 5
                face = page.locator(".faces button").first
                face.click()
                page.locator("#dudo-bid").click()
                # The Counter (a worker) answers: a higher bid or « Dudo ! », in the journal.
                page.wait_for_function("() => [...document.querySelectorAll('#journal li')]"
                                       ".some(li => li.textContent.includes('Le Sud'))")
                assert "annonce" in page.locator("#journal").inner_text()
                assert_page_clean(page)
                page.close()
            game = http.get(f"/api/games/{created['id']}", headers={"Authorization": f"Bearer {north}"}).json()
            assert game["version"] >= 3 and len(game["view"]["my_dice"]) in (0, 5)
            # Played to its end through the API, the computer answering each time.
            for _ in range(300):
                game = http.get(f"/api/games/{created['id']}", headers={"Authorization": f"Bearer {north}"}).json()
                if game["outcome"] is not None:
                    break
                if game["to_act"] != ["north"]:
                    time.sleep(0.05)
                    continue
                legal = http.get(f"/api/games/{created['id']}/legal",
                                 headers={"Authorization": f"Bearer {north}"}).json()["actions"]
                action = next((a for a in legal if a["type"] in ("roll", "dudo")), legal[0])
                http.post(f"/api/games/{created['id']}/actions", headers={"Authorization": f"Bearer {north}"},
                          json={"expected_version": game["version"], "action": action})
            assert game["outcome"]["winner"] in ("north", "south")
            verified = http.get(f"/api/games/{created['id']}/verify", headers={"Authorization": f"Bearer {north}"})
            assert verified.json()["ok"] is True  # every die re-derived from the revealed seed
    finally:
        server.kill()
