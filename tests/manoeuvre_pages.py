"""Playing Manœuvre through its page as a person would (the browser tests' shared moves)."""

from __future__ import annotations

import json
import urllib.request

NORTH_CELLS = ["e1", "d2", "c1", "f1", "g1", "h1", "i1", "c2", "e2", "f2", "g2", "h2"]
SOUTH_CELLS = ["e12", "d11", "c12", "f12", "g12", "h12", "i12", "c11", "e11", "f11", "g11", "h11"]


def version_of(page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or -1)


def wait_until_shown(page, condition: str, arg=None) -> None:
    """Wait until ``condition`` (a JavaScript function of ``arg``) holds on the page, looked at again at each change
    of its document. (Playwright's own waits look at each animation frame, and asking for frames makes Chromium
    draw them: some 0.03 s of CPU for each second a test waits on a bot, the server or the other player.)"""
    page.wait_for_function(f"""(arg) => new Promise((met) => {{
        const holds = {condition};
        if (holds(arg)) return met(true);
        const watch = new MutationObserver(() => {{ if (holds(arg)) {{ watch.disconnect(); met(true); }} }});
        watch.observe(document, {{ subtree: true, childList: true, attributes: true, characterData: true }});
    }})""", arg=arg)


def wait_version(page, version: int) -> None:
    wait_until_shown(page, "(version) => Number(document.querySelector('#board')?.dataset.version) >= version", version)


def perform(page, action: dict) -> None:
    """Do one action through the page as a person would."""
    before = version_of(page)
    kind = action["type"]
    if kind == "end_turn":
        page.click("#end-turn")
    else:
        token = page.locator(f'g.token[data-element="{action["element"]}"]')
        if "selected" not in (token.get_attribute("class") or ""):  # a second click would deselect it
            token.click()
        if kind == "move":
            page.click(f'rect[data-cell="{action["to"]}"]')
            page.click(f'.facings.move button[data-facing="{action["facing"]}"]')
        elif kind == "turn":
            page.click(f'.facings.turn button[data-facing="{action["facing"]}"]')
        else:
            page.click(f'g.token[data-element="{action["target"]}"]')
            selector = f'.attack-option button[data-kind="{kind}"]'
            selector += f'[data-from="{action["from"]}"]' if action.get("from") else ":not([data-from])"
            page.locator(selector).wait_for()
            wait_until_shown(page, "() => ![...document.querySelectorAll('.odds')].some(o => o.textContent === '…')")
            page.click(selector)
    wait_version(page, before + 1)


def distance_to_enemy(game, action) -> int:
    from kadesh.core.grid import chebyshev, parse_cell

    state = game.state
    mover = state.elements[action["element"]]
    to = parse_cell(action["to"], 12, 12)
    return min(chebyshev(to, e.cell) for e in state.elements.values() if e.side != mover.side and e.on_field)


def choose_turn(game, seat: str, done: set) -> list[dict]:
    """This turn's plan: a shot and an attack when possible, a facing change once, else advance."""
    legal = game.legal_actions(seat)
    for wanted in ("shoot", "attack"):
        options = [a for a in legal if a["type"] == wanted]
        if wanted not in done and options:
            done.add(wanted)
            return [options[0], {"type": "end_turn"}]
    plan = []
    if "turn" not in done:
        done.add("turn")
        plan.append(next(a for a in legal if a["type"] == "turn" and a["element"] == f"{seat[0]}5"))
    forward = "S" if seat == "north" else "N"
    moved = set()
    for eid in (f"{seat[0]}{n}" for n in (2, 3, 8, 9, 10, 11)):
        moves = [a for a in legal if a["type"] == "move" and a["element"] == eid and a["facing"] == forward]
        if moves and eid not in moved:
            plan.append(min(moves, key=lambda a: distance_to_enemy(game, a)))
            moved.add(eid)
        if len(moved) == 3:
            break
    return plan + [{"type": "end_turn"}]


def fight_first(game, seat: str, done: set) -> list[dict]:
    """A shot or an attack whenever one is possible, one at a time (each changes the board), else ``choose_turn``'s
    plan. A whole game against Général Maladroit ends sooner, and its length spreads less, than with ``choose_turn``
    alone, which only advances once it has shot and attacked (over 100 simulated games: 192 versions on average
    instead of 254, at most 393 instead of 643)."""
    fights = [a for a in game.legal_actions(seat) if a["type"] in ("shoot", "attack")]
    if fights:
        done.add(fights[0]["type"])
        return [fights[0]]
    return choose_turn(game, seat, done)


def deploy_by_click(page, side: str, cells: list[str], first: int = 1, after=None) -> None:
    """Select each tray piece, then click its cell, as a person would."""
    for number, cell in enumerate(cells, start=first):
        page.click(f'.tray .piece[data-element="{side[0]}{number}"]')
        page.click(f'rect[data-cell="{cell}"]')
        page.locator(f'g.token[data-element="{side[0]}{number}"]').wait_for()
        if after:
            after()


def created_over_http(base: str) -> dict:
    """A new Manœuvre game made through the API, as the home page makes one: its id and seats' links."""
    request = urllib.request.Request(f"{base}/api/games", data=json.dumps({"ruleset": "manoeuvre"}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


TIMINGS = """(version) => { const t = window.__kadesh.timings;
    return { answered: t.answered[version], heard: t.heard[version], drawn: t.drawn[version] }; }"""


def toggle_general(page) -> None:
    """North's general placed on c1 if it is in the tray, taken back to the tray if it is on the field."""
    if page.locator('.tray .piece[data-element="n1"]').count():
        page.click('.tray .piece[data-element="n1"]')
        page.click('rect[data-cell="c1"]')
    else:
        page.click('g.token[data-element="n1"]')
        page.click("#undeploy")


def timed_moves(acting, other, moves: int) -> list[dict]:
    """Make ``moves`` deployment moves on ``acting``'s page, each once the other page has drawn the one before.
    For each move (ms since the epoch): its ``version``, when its answer reached the acting page (``answered``) and
    the acting page drew it (``drawn_here``), when the other page was pushed it (``heard``) and drew it (``drawn``)."""
    measured = []
    for _ in range(moves):
        version = version_of(acting) + 1
        toggle_general(acting)
        wait_version(acting, version)
        other.wait_for_function(f"() => window.__kadesh.timings.drawn[{version}] !== undefined")
        here, there = acting.evaluate(TIMINGS, version), other.evaluate(TIMINGS, version)
        measured.append({"version": version, "answered": here["answered"], "drawn_here": here["drawn"],
                         "heard": there["heard"], "drawn": there["drawn"]})
    return measured
