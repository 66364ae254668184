"""How the server's own children (its local workers, simulations and checks) run beside the web process.

On a machine of more than one core they leave the first ``web_cores()`` of them to the web process. Measured
(bench/bench_abuse.py): when they could use every core, a client sending the worst of everything at its rate
limits kept both cores of a 2-core machine busy with simulations, checks and computer-only games, and a
player's read then waited for a core at each of its wake-ups: 2 to 3.8 times its quiet p95, whatever the
children's niceness or scheduling policy; with a core left to the web process, 0.9 to 1.6 times.

Within their cores they are also batch work (Linux's ``SCHED_BATCH``): a batch process keeps its fair share
of the CPU, but the scheduler never lets it delay a process that wakes up. (Simulations as idle work,
``SCHED_IDLE``, measured no better for the reads, and waited behind everything on a busy machine: a browser
test of Bataille's odds took 38 s instead of 16.) Where the system has no such policy, nothing changes.
"""

from __future__ import annotations

import contextlib
import os

WEB_CORES = 1  # cores left to the web process, where the machine has more
WEB_CORES_SETTING = "KADESH_WEB_CORES"  # the operator's number instead (0: the children may use every core)


def web_cores() -> int:
    value = os.environ.get(WEB_CORES_SETTING, "").strip()
    return int(value) if value.isdigit() else WEB_CORES


def off_the_web_cores() -> None:
    """Run the calling process on the cores the web process does not keep, if the machine has others."""
    if not hasattr(os, "sched_getaffinity"):
        return
    allowed = sorted(os.sched_getaffinity(0))
    kept = web_cores()
    if 0 < kept < len(allowed):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, allowed[kept:])


def as_batch() -> None:
    """Make the calling process batch work on the cores the web process does not keep, if the system can."""
    off_the_web_cores()
    _policy("SCHED_BATCH")


def _policy(name: str) -> None:
    if hasattr(os, "sched_setscheduler") and hasattr(os, name):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, getattr(os, name), os.sched_param(0))
