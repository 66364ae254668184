"""``/metrics`` for an operator's Prometheus (issue 60): a real ``kadesh serve --metrics-port`` with its workers, a game
against a bot, a watching socket, refusals and a webhook; every series moves, summed over the server's processes,
and the public port has no ``/metrics``."""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from pathlib import Path

import httpx
import yaml
from prometheus_client import REGISTRY
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from kadesh.cli import RUN_FOLDER
from kadesh.store import metrics as series
from tests.kadesh_http import deployment, make_client, migrated_url
from tests.notice_support import Hooks
from tests.server_support import ServerProcess, free_port
from tests.waiting import wait_until

Samples = dict[tuple[str, frozenset], float]
SCRAPE_EVERY = 0.2  # seconds between two scrapes while waiting: each costs the server a read of every process's values

# Each series, as one sample that must grow: (sample name, its labels). The bot's level is the test's.
LEVEL = "random"
GROWING = [
    ("kadesh_http_request_duration_seconds_count",
     {"route": "/api/games/{game_id}/actions", "method": "POST", "status": "2xx"}),
    ("kadesh_action_commit_seconds_count", {"ruleset": "manoeuvre"}),
    ("kadesh_action_answer_seconds_count", {"ruleset": "manoeuvre"}),
    ("kadesh_push_first_socket_seconds_count", {}),
    ("kadesh_push_last_socket_seconds_count", {}),
    ("kadesh_job_wait_seconds_count", {"kind": "bot"}),  # a worker's, in a child process
    ("kadesh_job_wait_seconds_count", {"kind": "test"}),
    ("kadesh_bot_thinking_seconds_count", {"ruleset": "manoeuvre", "bot": LEVEL}),
    ("kadesh_refusals_total", {"code": "rate_limited", "limit": "lists"}),
    ("kadesh_refusals_total", {"code": "too_large", "limit": ""}),
    ("kadesh_notices_total", {"channel": "webhook", "outcome": "sent"}),
    ("kadesh_db_pool_wait_seconds_count", {}),
    ("kadesh_db_writer_wait_seconds_count", {}),
]


def scrape(http: httpx.Client, url: str) -> Samples:
    """The samples at ``url``, asked through ``http`` (a client of its own for each scrape made a TLS context each
    time, 48 ms of CPU, twenty times a second while waiting)."""
    text = http.get(url).text
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def value(samples: Samples, name: str, labels: dict[str, str] | None = None) -> float:
    return samples.get((name, frozenset((labels or {}).items())), 0.0)


def unmoved(before: Samples, after: Samples) -> list[str]:
    return [f"{name}{labels}" for name, labels in GROWING if value(after, name, labels) <= value(before, name, labels)]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_every_series_moves_and_the_public_port_has_no_metrics(tmp_path, monkeypatch, migrated_sqlite):
    monkeypatch.setenv("KADESH_LIMIT_LISTS", "1/minute")
    monkeypatch.setenv("KADESH_WEBHOOKS_PRIVATE", "allow")  # the webhook is on loopback
    metrics_port = free_port()
    server = ServerProcess(migrated_url(migrated_sqlite, tmp_path / "kadesh.sqlite3"), tmp_path / "serve.log", None,
                           "--log-level", "warning",
                           "--metrics-port", str(metrics_port)).start()
    metrics = f"http://127.0.0.1:{metrics_port}/metrics"
    run_folder = Path(tempfile.gettempdir()) / f"{RUN_FOLDER}{server.process.pid}"  # its processes' values
    try:
        assert run_folder.is_dir()
        with httpx.Client(base_url=server.url, timeout=30) as http, Hooks() as hooks:
            assert http.get("/metrics").status_code == 404  # nothing to find on the public side
            assert not [path for path in http.get("/openapi.json").json()["paths"] if "metrics" in path]
            before = scrape(http, metrics)
            assert value(before, "kadesh_jobs_waiting", {"kind": "bot"}) == 0

            # Nobody watches a game the computer plays alone: its bot's job waits in the queue.
            alone = http.post("/api/games", json={"ruleset": "manoeuvre", "bots": {"north": LEVEL, "south": LEVEL}})
            assert alone.status_code == 201, alone.text
            wait_until(lambda: value(scrape(http, metrics), "kadesh_jobs_waiting", {"kind": "bot"}) >= 1,
                       "the computer-only game's job counted as waiting", every=SCRAPE_EVERY)

            game = http.post("/api/games", json={"ruleset": "manoeuvre", "bots": {"south": LEVEL}}).json()
            game_id, north = game["id"], bearer(game["seats"]["north"]["token"])
            wait_until(lambda: http.get(f"/api/games/{game_id}", headers=north).json()["view"]["ready"]["south"],
                       "the bot's deployment")
            socket_url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}"
            with connect(socket_url, subprotocols=["kadesh", f"kadesh.bearer.{game['seats']['north']['token']}"],
                         open_timeout=30) as socket:
                first = json.loads(socket.recv(timeout=30))
                wait_until(lambda: value(scrape(http, metrics), "kadesh_sockets_open") == 1, "the socket counted open",
                           every=SCRAPE_EVERY)
                legal = http.get(f"/api/games/{game_id}/legal", headers=north).json()["actions"]
                played = http.post(f"/api/games/{game_id}/actions", headers=north,
                                   json={"expected_version": first["version"], "action": deployment(legal)[0]})
                assert played.status_code == 200, played.text
                wait_until(lambda: json.loads(socket.recv(timeout=30)).get("version", -1) >= played.json()["version"],
                           "the action pushed to the socket")
            wait_until(lambda: value(scrape(http, metrics), "kadesh_sockets_open") == 0, "the socket counted closed",
                       every=SCRAPE_EVERY)

            assert [http.get("/api/watch").status_code for _ in range(2)] == [200, 429]
            assert http.post("/api/games", content=b"{" + b" " * 70_000 + b"}",
                             headers={"Content-Type": "application/json"}).status_code == 413
            hook = http.post(f"/api/games/{game_id}/subscriptions", headers=north,
                             json={"channel": "webhook", "address": hooks.url})
            assert hook.status_code == 201, hook.text
            tested = http.post(f"/api/games/{game_id}/subscriptions/{hook.json()['id']}/test", headers=north)
            assert tested.status_code == 202, tested.text
            wait_until(lambda: hooks.received, "the webhook's test notice")

            last: list[str] = []

            def all_moved() -> bool:
                last[:] = unmoved(before, scrape(http, metrics))
                return not last

            try:
                wait_until(all_moved, "every series to move", seconds=60, every=SCRAPE_EVERY)
            except AssertionError as error:
                raise AssertionError(f"series that did not move: {last}") from error
    finally:
        server.kill()
        shutil.rmtree(run_folder, ignore_errors=True)  # else the next server started with metrics removes it


OPERATIONS = Path(__file__).resolve().parent.parent / "docs" / "operations.md"


def test_the_operators_documentation_names_every_series_and_alerts_on_series_that_exist():
    section = OPERATIONS.read_text(encoding="utf-8").split("## Metrics\n", 1)[1].split("\n## ", 1)[0]
    recorded = {metric._name for metric in vars(series).values() if isinstance(metric, MetricWrapperBase)}
    recorded.add("kadesh_jobs_waiting")  # read at each scrape (kadesh.server.metrics.JobsWaiting)
    documented = {name.removesuffix("_total") for name in re.findall(r"^\| `(kadesh_\w+)` \|", section, re.M)}
    assert documented == recorded
    blocks = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", section, flags=re.S)]
    rules = [rule for block in blocks for group in block.get("groups", []) for rule in group["rules"]]
    assert len(rules) == 3 and blocks[0]["scrape_configs"][0]["static_configs"][0]["targets"]
    alerted = {re.sub(r"_(bucket|count|sum)$", "", name) for rule in rules for name in re.findall(r"kadesh_\w+",
                                                                                                rule["expr"])}
    assert alerted and alerted <= recorded


def test_requests_are_counted_by_route_template_never_by_what_a_client_makes_up(tmp_path, migrated_sqlite):
    """In this process's own memory (its metrics served on a port the system picks): a game's id, a path of nothing,
    a method of the client's own never become a label's value."""
    url = migrated_url(migrated_sqlite, tmp_path / "kadesh.sqlite3")
    for client in make_client(url, local_workers=0, metrics_at=("127.0.0.1", 0)):  # once
        assert client.get("/api/games/made-up-game").status_code == 404
        assert client.get("/nothing/here/at-all").status_code == 404
        assert client.request("BREW", "/api/rulesets").status_code == 405
    labels = [sample.labels for family in REGISTRY.collect() if family.name == "kadesh_http_request_duration_seconds"
              for sample in family.samples if sample.name.endswith("_count")]
    assert {"route": "/api/games/{game_id}", "method": "GET", "status": "4xx"} in labels
    assert {"route": "<unmatched>", "method": "GET", "status": "4xx"} in labels
    assert {"route": "/api/rulesets", "method": "OTHER", "status": "4xx"} in labels
    made_up = [value for label in labels for value in label.values()
               if "made-up" in value or "nothing" in value or value == "BREW"]
    assert made_up == []
