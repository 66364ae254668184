"""Take the documentation's screenshots: a Manœuvre in progress as North sees it, a Royaumes
campaign after its first turn, as Kush writes its orders and as Imhotep's console shows it, and a
Front mission as Blue sees it (with the home page's Front panel, on a desktop and on a phone).

    python scripts/screenshots.py [--out docs]

Serves Kadesh on a temporary database, plays seeded openings through the store, and
photographs the pages in Debian's Chromium.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser_support import CHROMIUM, CHROMIUM_ARGS, running_server  # noqa: E402

NORTH = {"n1": "f2", "n2": "d2", "n3": "g2", "n4": "i2", "n5": "e2", "n6": "h2", "n7": "c2",
         "n8": "e1", "n9": "f1", "n10": "g1", "n11": "h1", "n12": "j2"}
SOUTH = {"s1": "g11", "s2": "e11", "s3": "h11", "s4": "j11", "s5": "f11", "s6": "d11", "s7": "i11",
         "s8": "e12", "s9": "f12", "s10": "g12", "s11": "h12", "s12": "c11"}


def nearest_enemy(state, action) -> int:
    from kadesh.core.grid import chebyshev, parse_cell

    mover = state.elements[action["element"]]
    to = parse_cell(action["to"], 12, 12)
    return min(chebyshev(to, e.cell) for e in state.elements.values() if e.side != mover.side and e.on_field)


def play_opening(store, game_id: str, fights_wanted: int = 3) -> None:
    """Deploy both sides, then advance and fight until a few fights are in the journal, North to play."""
    version = 0

    def act(seat, action):
        nonlocal version
        version = store.act(game_id, seat, version, action).version

    for seat, placement in (("north", NORTH), ("south", SOUTH)):
        for element, cell in placement.items():
            act(seat, {"type": "deploy", "element": element, "cell": cell})
        act(seat, {"type": "ready"})
    fights = 0
    for _ in range(60):
        with store.game(game_id) as game:
            seat = game.to_act()[0]
            if fights >= fights_wanted and seat == "north" or game.outcome:
                return
        for _ in range(3):
            with store.game(game_id) as game:
                legal = game.legal_actions(seat)
                forward = "S" if seat == "north" else "N"
                attacks = [a for a in legal if a["type"] in ("attack", "shoot")]
                moves = [a for a in legal if a["type"] == "move" and a["facing"] == forward]
                choice = attacks[0] if attacks else (min(moves, key=lambda a: nearest_enemy(game.state, a))
                                                     if moves else None)
            if choice is None:
                break
            fights += choice["type"] in ("attack", "shoot")
            act(seat, choice)
        act(seat, {"type": "end_turn"})


CAMPAIGN_TURN = {  # the first turn of the browser test: a battle at Saïs, Edfou taken by Kush
    "haute_egypte": {"moves": [{"from": "I16", "to": "I15"}], "stay": ["I14", "H12"]},
    "koush": {"moves": [{"from": "H17", "to": "I16"}], "war": ["haute_egypte"], "stay": ["G19", "D20"]},
    "libye": {"text": "C5 -> D4\nguerre: Basse-Égypte\nespion: Basse-Égypte\nB8 reste"},
}


def royaumes_shots(browser, base: str, store, out: Path) -> None:
    created = store.create_game("royaumes", seed="kadesh-screenshot")
    version = 0
    for seat, order in CAMPAIGN_TURN.items():
        version = store.act(created.id, seat, version, {"type": "orders", **order}).version
    version = store.act(created.id, "imhotep", version, {"type": "adjudicate"}).version
    store.act(created.id, "haute_egypte", version, {"type": "orders", "text": "I15 -> I16\nguerre: Koush"})
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    page.goto(f"{base}/play/{created.id}?token={created.seat_tokens['koush']}")
    page.locator("svg.campaign-map").wait_for()
    page.click('g.army[data-army="koush@G19"]')
    page.click('rect[data-cell="H18"]', position={"x": 2, "y": 2})
    page.select_option("#stance-libye", "ally")
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / "screenshot-royaumes-kingdom.png"))
    console = browser.new_page(viewport={"width": 1440, "height": 900})
    console.goto(f"{base}/play/{created.id}?token={created.seat_tokens['imhotep']}")
    console.locator("table.secrets").wait_for()
    console.wait_for_timeout(300)
    console.screenshot(path=str(out / "screenshot-royaumes-console.png"), full_page=True)


def front_shots(browser, base: str, store, out: Path) -> None:
    """The Vauclair bridge mission, blue's first turn, a tank selected; the home page's Front panel."""
    created = store.create_game("front", options={"scenario": "mission_hold"}, seed="kadesh-screenshot")
    link = f"{base}/play/{created.id}?token={created.seat_tokens['blue']}"
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(link)
    page.locator("svg.front-map").wait_for()
    page.locator("g.unit.blue").first.click()
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / "screenshot-front.png"), full_page=True)
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(link)
    phone.locator("svg.front-map").wait_for()
    phone.screenshot(path=str(out / "screenshot-front-phone.png"), full_page=True)
    for name, size in (("home-front", (1280, 900)), ("home-front-phone", (390, 844))):
        home = browser.new_page(viewport={"width": size[0], "height": size[1]})
        home.goto(base + "/")
        home.locator("#front-scenario").scroll_into_view_if_needed()
        home.wait_for_timeout(300)
        home.screenshot(path=str(out / f"screenshot-{name}.png"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="docs")
    parser.add_argument("--only", choices=["manoeuvre", "royaumes", "front"], help="Take one ruleset's shots only")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, running_server(f"{folder}/shots.sqlite3") as (base, store):
        created = store.create_game("manoeuvre", seed="kadesh-screenshot")
        play_opening(store, created.id)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            if args.only in (None, "manoeuvre"):
                manoeuvre_shots(browser, base, created.id, created.seat_tokens, Path(args.out))
            if args.only in (None, "royaumes"):
                royaumes_shots(browser, base, store, Path(args.out))
            if args.only in (None, "front"):
                front_shots(browser, base, store, Path(args.out))
            browser.close()


def manoeuvre_shots(browser, base: str, game_id: str, tokens: dict[str, str], out: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 760})
    page.goto(f"{base}/play/{game_id}?token={tokens['north']}")
    page.locator("#board .field").wait_for()
    page.locator("g.token.north:not(.acted)").first.click()
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / "screenshot.png"))
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    phone.goto(f"{base}/play/{game_id}?token={tokens['south']}")
    phone.locator("#board .field").wait_for()
    phone.screenshot(path=str(out / "screenshot-phone.png"), full_page=True)


if __name__ == "__main__":
    main()
