"""The server's own children leave a core to the web process and run as batch (or idle) work (issue 40): on
a 2-core machine, a client at its rate limits otherwise kept both cores busy and a player's read waited at
each wake-up (bench/bench_abuse.py, docs/performance.md)."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from pathlib import Path

import httpx
import pytest

from kadesh.server import priority
from kadesh.server.checks import Checks
from kadesh.server.worker import LOCAL_WORKER_NAME
from tests.server_support import ServerProcess
from tests.waiting import in_a_thread_of_its_own, wait_until

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="Linux's scheduling calls")

CORES = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []


def expected_cores(kept: int = priority.WEB_CORES) -> set[int]:
    """The cores a child may use, from this process's: all but the first ``kept``, if that leaves any."""
    return set(CORES[kept:]) if 0 < kept < len(CORES) else set(CORES)


def _report(how: str, environment: dict[str, str], sending) -> None:
    os.environ.update(environment)
    getattr(priority, how)()
    sending.send((os.sched_getaffinity(0), os.sched_getscheduler(0)))


def in_a_child(how: str, **environment: str) -> tuple[set[int], int]:
    """The cores and scheduling policy of a child process once it has called ``priority.<how>()``."""
    context = multiprocessing.get_context("forkserver")
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(target=_report, args=(how, environment, sending))
    child.start()
    try:
        return receiving.recv()
    finally:
        child.join()


def test_batch_work_leaves_the_first_core_to_the_web_process():
    cores, policy = in_a_child("as_batch")
    assert cores == expected_cores() and policy == os.SCHED_BATCH
    if len(CORES) > 1:
        assert CORES[0] not in cores


def test_the_operator_may_give_the_children_every_core():
    cores, _ = in_a_child("as_batch", KADESH_WEB_CORES="0")
    assert cores == set(CORES)


def test_the_check_process_runs_off_the_web_process_core(tmp_path):
    checks = Checks(f"sqlite:///{tmp_path}/checks.sqlite3")

    class Client:
        async def is_disconnected(self) -> bool:
            return False

    async def ask():
        client = Client()
        return await checks.run(client, os.sched_getaffinity, 0), await checks.run(client, os.sched_getscheduler, 0)

    try:
        cores, policy = in_a_thread_of_its_own(asyncio.run, ask())
    finally:
        checks.close()
    assert cores == expected_cores() and policy == os.SCHED_BATCH


def _name(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def test_the_workers_of_kadesh_serve_leave_the_web_process_its_core(tmp_path):
    server = ServerProcess(f"sqlite:///{tmp_path}/serve.sqlite3", tmp_path / "serve.log").start()
    try:
        answer = httpx.post(f"{server.url}/api/games", json={"ruleset": "manoeuvre", "bots": {"south": "maladroit"}})
        assert answer.status_code == 201, answer.text

        def workers() -> list[int]:  # forked from the server's fork server: its grandchildren, named
            return [pid for child in _children(server.process.pid) for pid in _children(child)
                    if _name(pid) == LOCAL_WORKER_NAME]

        def settled(pid: int) -> bool:  # a worker sets its place as it starts, before its first job
            return (os.sched_getaffinity(pid) == expected_cores() and os.sched_getscheduler(pid) == os.SCHED_BATCH
                    and os.getpriority(os.PRIO_PROCESS, pid) >= 10)

        wait_until(lambda: workers() and all(settled(pid) for pid in workers()),
                   what="the server's workers off the web process's core, as batch work")
    finally:
        server.kill()
