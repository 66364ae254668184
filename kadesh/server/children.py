"""Where the server's child processes (the check process, the simulations) come from: one fork server per server,
which has loaded what they run (the rules, the bots, the store), so that a child is ready in milliseconds rather
than importing it all again (a third of a second each, measured). Not "fork": the web process has threads."""

from __future__ import annotations

import multiprocessing

CONTEXT = multiprocessing.get_context("forkserver")
CONTEXT.set_forkserver_preload(["kadesh.ai", "kadesh.rules", "kadesh.server.checks", "kadesh.server.simulations"])
