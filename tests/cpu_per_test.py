"""A pytest plugin that writes each test's CPU time, its own process's and every process it started (Chromium,
servers, workers, checks), to the file named by KADESH_CPU_PER_TEST, one ``seconds<TAB>test id`` line each.

    KADESH_CPU_PER_TEST=/tmp/cpu.tsv python -m pytest -p tests.cpu_per_test -n 0 tests/test_browser_pages.py

With ``-n 0`` a test's figure is its own; with xdist each process writes its own lines (the file is appended to).
Our processes are looked at every half second: what one spent between its last look and its end is lost, so the
figures are a little low (a process that lives less than half a second is missed).
"""

from __future__ import annotations

import os
import threading
import time

import pytest

TICK = os.sysconf("SC_CLK_TCK")
LOOK_EVERY = 0.5


OURS: set[int] = set()  # every process seen under this one: still ours once orphaned and adopted by init
SEEN: dict[int, float] = {}  # each of our processes' own CPU seconds when last looked at (an ended one's stay)
LOCK = threading.Lock()


def _look() -> dict[int, float]:
    """Look at every process: note our processes' own CPU seconds (user and system); return them all so far."""
    with LOCK:
        parents, times = {}, {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
            times[int(entry)] = (int(fields[11]) + int(fields[12])) / TICK  # utime stime
        OURS.add(os.getpid())
        for pid, seconds in times.items():
            ancestor = pid
            while ancestor not in OURS and ancestor in parents and ancestor > 1:
                ancestor = parents[ancestor]
            if ancestor in OURS:
                OURS.add(pid)
                SEEN[pid] = seconds
        return dict(SEEN)


def _keep_looking() -> None:
    while True:
        _look()
        time.sleep(LOOK_EVERY)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    path = os.environ.get("KADESH_CPU_PER_TEST")
    if path and not any(thread.name == "cpu-per-test" for thread in threading.enumerate()):
        threading.Thread(target=_keep_looking, name="cpu-per-test", daemon=True).start()
    before = _look()
    yield
    after = _look()
    if path:
        spent = sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())
        with open(path, "a") as out:
            out.write(f"{spent:.2f}\t{item.nodeid}\n")
