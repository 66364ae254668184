"""Waiting on a condition, the suite's one way to wait: a generous ceiling, so that a busy machine (two
CPU-bound processes beside the suite, CONTRIBUTING.md) slows a test down but never fails it. The ceiling
bounds the wait; it is not a timing assertion (those belong in bench/)."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

CEILING = 120.0  # seconds: far beyond what any wait takes on a quiet machine (a few seconds at most)

T = TypeVar("T")


def wait_until(predicate: Callable[[], T], what: str, seconds: float = CEILING, every: float = 0.05) -> T:
    """The first true value of ``predicate()``, polled every ``every`` seconds; fails, saying ``what`` was
    awaited, after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still waiting after {seconds:.0f} s: {what}")
        time.sleep(every)


def in_a_thread_of_its_own(function: Callable[..., T], *args: object, **kwargs: object) -> T:
    """``function(*args, **kwargs)`` called in a new thread, its result or its exception here: for code that runs
    an event loop (``asyncio.run``), since a pytest-xdist worker that ran the browser tests holds Playwright's
    loop in the main thread."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(function, *args, **kwargs).result()
