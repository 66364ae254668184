"""Where the server's child processes (the check process, the simulations, the local workers) come from: one fork
server per server, which has loaded what they run (the rules, the bots, the store), so that a child is ready in
milliseconds rather than importing it all again (a third of a second to a second each, measured). Not "fork": the
web process has threads."""

from __future__ import annotations

import multiprocessing
import os
from multiprocessing.context import ForkServerContext
from multiprocessing.process import BaseProcess

from prometheus_client.multiprocess import mark_process_dead

from kadesh.core import all_rulesets

# What a child needs whatever it runs; the database driver is imported by a child's first connection otherwise.
PRELOAD = ("kadesh.ai", "kadesh.rules", "kadesh.server.checks", "kadesh.server.simulations", "kadesh.server.worker",
           "psycopg")
CONTEXT = multiprocessing.get_context("forkserver")
CONTEXT.set_forkserver_preload(list(PRELOAD))


def ruleset_modules() -> tuple[str, ...]:
    """The modules of every ruleset this server knows: a child imports them, so that it knows the rulesets
    registered by importing a module rather than through an entry point (a test's, a script's)."""
    return tuple(sorted({type(rules).__module__ for rules in all_rulesets().values()} - {"__main__"}))


def children() -> ForkServerContext:
    """The context to start a child from, its fork server told to load the rulesets' modules too when it starts
    (a package's ``__init__`` does not import them all, and a test's or a script's may import much more). Once the
    fork server runs, this changes nothing: a ruleset registered after that is imported by each child."""
    modules = ruleset_modules()
    CONTEXT.set_forkserver_preload([*PRELOAD, *(module for module in modules if module not in PRELOAD)])
    return CONTEXT


def ended(process: BaseProcess) -> None:
    """A child has exited: with ``/metrics`` served (``kadesh.server.metrics``), its gauges of live processes
    leave the sums (its counters stay: a total never goes back)."""
    if process.pid is not None and "PROMETHEUS_MULTIPROC_DIR" in os.environ:
        mark_process_dead(process.pid)
