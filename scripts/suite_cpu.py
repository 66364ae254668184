"""Run a command (by default the README's test command) and say where the machine's CPU went meanwhile.

Samples /proc twice a second: the machine's busy and idle time from /proc/stat, and every process's own CPU
time by kind (the test processes, Kadesh's servers and workers, Chromium, Playwright's driver, PostgreSQL,
the rest). A process that ends between two samples loses at most its last half second, so the kinds add up
to a little less than the machine's busy time. Used for docs/performance.md, « The suite's own time »:

    python scripts/suite_cpu.py                      # python -m pytest -q
    python scripts/suite_cpu.py -- python -m pytest -q -m "not slow"
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter

TICK = os.sysconf("SC_CLK_TCK")
KINDS = [  # the first pattern found in a process's command line names its kind
    ("kadesh worker", ("kadesh.cli worker", "kadesh worker")),
    ("kadesh checks and simulations", ("multiprocessing",)),
    ("kadesh server", ("kadesh.cli serve", "kadesh serve")),
    ("chromium", ("chromium",)),
    ("playwright driver", ("playwright", "node")),
    ("postgresql", ("postgres",)),
    ("test processes", ("pytest", "exec(eval(sys.stdin")),  # pytest-xdist's workers start by execnet
]


def machine_times() -> tuple[float, float]:
    """(busy, idle) seconds of every core since boot."""
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return (sum(fields) - idle) / TICK, idle / TICK


def process_times(kinds: dict[int, str], ours: int | None = None) -> dict[int, tuple[str, float]]:
    """Each live process's (kind, user+system seconds). A process keeps the kind it had when first seen
    (``kinds``): a zombie's command line is empty. With ``ours``, only that process and the processes it
    started (as first seen), and PostgreSQL's (its server leaves the tree at start)."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        pid, parent = int(entry), int(fields[1])
        if pid not in kinds and command:
            kind = kind_of(command)
            if ours is not None and pid != ours and kinds.get(parent, "elsewhere") == "elsewhere" \
                    and kind != "postgresql":
                kind = "elsewhere"
            kinds[pid] = kind
        unknown = "other" if ours is None else "elsewhere"
        found[pid] = (kinds.get(pid, unknown), (int(fields[11]) + int(fields[12])) / TICK)
    return found


def kind_of(command: str) -> str:
    for kind, patterns in KINDS:
        if any(pattern in command for pattern in patterns):
            return kind
    return "other"


def main(argv: list[str]) -> int:
    command = argv[argv.index("--") + 1:] if "--" in argv else [sys.executable, "-m", "pytest", "-q"]
    started, (busy0, idle0) = time.monotonic(), machine_times()
    kinds: dict[int, str] = {}
    by_kind: Counter[str] = Counter()
    child = subprocess.Popen(command)
    seen = process_times(kinds, child.pid)
    while child.poll() is None:
        time.sleep(0.5)
        now = process_times(kinds, child.pid)
        for pid, (kind, cpu) in now.items():
            before = seen.get(pid)
            by_kind[kind] += cpu - (before[1] if before else 0.0)
        seen = now
        for gone in kinds.keys() - now.keys():  # its number may be given to a new process
            del kinds[gone]
    wall = time.monotonic() - started
    busy1, idle1 = machine_times()
    print(f"\nexit {child.returncode}; wall {wall:.0f} s ({wall // 60:.0f}:{wall % 60:02.0f}); "
          f"machine busy {busy1 - busy0:.0f} s, idle {idle1 - idle0:.0f} s", file=sys.stderr)
    for kind, cpu in by_kind.most_common():
        if kind == "elsewhere":
            continue
        print(f"  {kind:18} {cpu:7.0f} s", file=sys.stderr)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
