"""Time a full redraw of Front's map (rules/front-map.js) on the default battle in Debian's Chromium.

    python scripts/bench_front_draw.py [--runs 20] [--turns 2]

Serves Kadesh on a temporary database, plays a few seeded turns through the store (so the map holds
moved units and fog), opens a page of the server's own origin, and times the whole battle drawn from a
state a player sees mid-turn (a unit selected with its reachable cells, a path, targets, spent units):
a first draw (a new map made and drawn from nothing) and a redraw (the same map told another whole
state: ``render`` rebuilds every layer's markup and every cell's name, and the DOM takes what changed).
Three figures per draw: the call alone, with the browser's style and layout forced at once, and up to
the next painted frame (frame-aligned: it includes the wait for the display's next frame). A baseline in
the same run draws an empty SVG (one rectangle) the same way; the ratios say how much dearer the map is.
Printed, never asserted: the tests do not time anything.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, running_server  # noqa: E402

PAGE = """<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Kadesh bench</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/rules/front-map.css" data-front-map>
</head><body><main id="host"></main></body></html>"""

# In the page: build the states a player sees mid-turn, then time `runs` draws of each kind.
TIMING = """async ({ game, token, runs }) => {
  const { createMap } = await import("/static/rules/front-map.js");
  const auth = { headers: { Authorization: `Bearer ${token}` } };
  const got = await (await fetch(`/api/games/${game}`, auth)).json();
  const legal = (await (await fetch(`/api/games/${game}/legal`, auth)).json()).actions;
  const glossary = (await (await fetch("/api/rulesets")).json()).find((r) => r.name === "front").glossary;
  const moves = legal.filter((a) => a.type === "move");
  const movers = [...new Set(moves.map((a) => a.unit))];
  const target = (a) => (a.at === "air" ? "air" : a.at === "structure" ? "structure" : "ground");
  // A unit selected: where it may go, the way to its farthest cell, what it may shoot at.
  const selecting = (unit, spent) => {
    const reachable = new Set(moves.filter((a) => a.unit === unit).map((a) => a.to));
    return { view: got.view, seat: got.seat, selected: unit, reachable, path: [...reachable].slice(-3),
      targets: new Map(legal.filter((a) => a.unit === unit && a.type === "shoot").map((a) => [a.target, target(a)])),
      spent: new Set(spent), hover: [...reachable][0] ?? null };
  };
  const states = [selecting(movers[0], []), selecting(movers[Math.floor(movers.length / 2)], movers.slice(-3))];
  const host = document.querySelector("#host");
  const frame = () => new Promise((done) => requestAnimationFrame(() => {
    const channel = new MessageChannel(); channel.port1.onmessage = done; channel.port2.postMessage(0); }));
  const measure = async (draw) => {
    const call = [], layout = [], painted = [];
    for (let i = 0; i < runs; i++) {
      await frame();
      const t0 = performance.now();
      draw(i);
      const t1 = performance.now();
      host.getBoundingClientRect();  // style and layout now
      const t2 = performance.now();
      await frame();
      const t3 = performance.now();
      call.push(t1 - t0); layout.push(t2 - t0); painted.push(t3 - t0);
    }
    return { call, layout, painted };
  };
  // Cold: a new map made and drawn from nothing, as when the page opens.
  const cold = await measure((i) => {
    host.replaceChildren();
    createMap(host, { lang: "fr", glossary }).render(states[i % 2]);
  });
  // Redraw: the same map told a whole new state (another unit selected, others spent), as after each click.
  host.replaceChildren();
  const map = createMap(host, { lang: "fr", glossary });
  map.render(states[1]);
  const redraw = await measure((i) => map.render(states[i % 2]));
  const nodes = map.element.querySelectorAll("*").length;
  const empty = await measure(() => {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.innerHTML = '<rect width="10" height="10"/>';
    host.replaceChildren(svg);
  });
  const cells = got.view.map.length * got.view.map[0].length, reachable = states.map((s) => s.reachable.size);
  return { cold, redraw, empty, nodes, cells, units: got.view.units.length, reachable };
}"""


def opening(store, turns: int):
    """A default battle after `turns` rounds: each side moves a few units towards the middle, then hands over."""
    created = store.create_game("front", seed="bench", options={"scenario": "default"})
    version = 0
    for _ in range(turns):
        for side in ("blue", "red"):
            for _ in range(4):
                with store.game(created.id) as game:
                    moves = [a for a in game.legal_actions(side) if a["type"] == "move"]
                if moves:
                    version = store.act(created.id, side, version, moves[len(moves) // 2]).version
            version = store.act(created.id, side, version, {"type": "end_turn"}).version
    return created


def summary(times: list[float]) -> str:
    return f"median {statistics.median(times):6.2f} ms   max {max(times):6.2f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--turns", type=int, default=2)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, running_server(str(Path(tmp) / "kadesh.sqlite3")) as (base, store):
        created = opening(store, args.turns)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.route("**/bench-front-draw", lambda route: route.fulfill(body=PAGE, content_type="text/html"))
            page.goto(f"{base}/bench-front-draw")
            seat = {"game": created.id, "token": created.seat_tokens["blue"], "runs": args.runs}
            result = page.evaluate(TIMING, seat)
            version = browser.version
            browser.close()
    print(f"Front map, default battle: {result['cells']} cells, {result['units']} units in blue's view, "
          f"{result['nodes']} elements on the map; Chromium {version}; {args.runs} draws of each kind, the two states "
          f"selecting units that reach {' and '.join(map(str, result['reachable']))} cells.")
    for kind, title in (("cold", "first draw (new map)"), ("redraw", "redraw (new state)")):
        print(f"  {title}")
        for key, what in (("call", "render() call"), ("layout", "+ style and layout"), ("painted", "to painted frame")):
            full, empty = result[kind][key], result["empty"][key]
            ratio = statistics.median(full) / max(statistics.median(empty), 1e-3)
            print(f"    {what:<22} {summary(full)}   empty SVG: {summary(empty)}   ratio ×{ratio:.1f}")


if __name__ == "__main__":
    main()
