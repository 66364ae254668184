"""How the server's own children run beside the web process: as batch work (Linux's SCHED_BATCH).

A batch process keeps its fair share of the CPU (a simulation or a check is as fast as ever on a machine
that has nothing else to do, or only other work of the same kind), but the scheduler never lets it delay
a process that wakes up: a request that arrives takes the core at once, instead of waiting for the batch
process's slice to end. Where the system has no such policy, nothing changes.
"""

from __future__ import annotations

import contextlib
import os


def as_batch() -> None:
    """Make the calling process batch work, if the system can."""
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_BATCH"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
