"""From a move's answer on one screen to the other screen's board drawn (issue 46), in Debian's Chromium.

    python bench/bench_redraw.py [--moves 20] [--rounds 3]

Serves Kadesh on a temporary SQLite database over loopback (as ``kadesh serve``), creates a Manœuvre game and
opens North's and South's links in two browser contexts. North's page places its general and takes it back,
``--moves`` times per round, by clicks, each once South's page has drawn the one before. Both pages write down
when it happened (``window.__kadesh.timings`` in game.js): North when its action's answer arrived, South when
it heard that version pushed and when it first drew its board. Both pages are in one Chromium on one machine,
so their clocks (``performance.timeOrigin + performance.now()``) agree. Prints each round's p50, p95 and worst
of answer → redraw (and answer → push heard, the server's share, and answer → the acting page's own board drawn),
with the load average at the start and end.
Printed, never asserted: the tests do not time anything.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, running_server  # noqa: E402
from tests.manoeuvre_pages import created_over_http, timed_moves  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def spread(values: list[float]) -> str:
    return f"p50 {statistics.median(values):.1f}, p95 {percentile(values, 0.95):.1f}, worst {max(values):.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    everything = []
    with tempfile.TemporaryDirectory() as folder, running_server(str(Path(folder) / "bench.sqlite3")) as (base, _), \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for round_number in range(1, args.rounds + 1):
            game = created_over_http(base)
            north, south = (browser.new_context().new_page() for _ in range(2))
            north.goto(base + game["seats"]["north"]["link"])
            south.goto(base + game["seats"]["south"]["link"])
            for page in (north, south):
                page.locator("#board .field").wait_for()
            measured = timed_moves(north, south, args.moves)
            lags = [move["drawn"] - move["answered"] for move in measured]
            everything += lags
            print(f"round {round_number}: answer → other board drawn, ms: {spread(lags)}; of which answer → push "
                  f"heard: {spread([move['heard'] - move['answered'] for move in measured])}; answer → own board "
                  f"drawn: {spread([move['drawn_here'] - move['answered'] for move in measured])}")
            for page in (north, south):
                page.context.close()
        browser.close()
    print(f"all {len(everything)} moves, answer → other board drawn, ms: {spread(everything)}; "
          f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
