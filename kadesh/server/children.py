"""Where the server's child processes (the check process, the simulations) come from: one fork server per server,
which has loaded what they run (the rules, the bots, the store), so that a child is ready in milliseconds rather
than importing it all again (a third of a second each, measured). Not "fork": the web process has threads."""

from __future__ import annotations

import multiprocessing

# What a child needs whatever it runs; the database driver is imported by a child's first connection otherwise.
PRELOAD = ("kadesh.ai", "kadesh.rules", "kadesh.server.checks", "kadesh.server.simulations", "psycopg")
CONTEXT = multiprocessing.get_context("forkserver")
CONTEXT.set_forkserver_preload(list(PRELOAD))


def preload(modules: tuple[str, ...]) -> None:
    """Have the fork server load ``modules`` too when it starts (the modules of the rulesets: a package's
    ``__init__`` does not import them all, and a test's or a script's may import much more). A child still
    imports them itself, which then costs nothing; once the fork server runs, this changes nothing, and a
    ruleset registered after that is imported by each child (0.3-0.5 s each, measured)."""
    CONTEXT.set_forkserver_preload([*PRELOAD, *(module for module in modules if module not in PRELOAD)])
