"""Two commanders play a manœuvre in Debian's Chromium, each in their own browser context.

The test chooses each move with the engine's own legal actions (read from the store, as a
referee would) and performs it through the page by clicks and one real drag-and-drop, so the
game goes on whatever the dice say, until an attack and a shot have happened.
"""

from __future__ import annotations

import pytest

from tests.browser_support import running_server

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

NORTH_CELLS = ["e1", "d2", "c1", "f1", "g1", "h1", "i1", "c2", "e2", "f2", "g2", "h2"]
SOUTH_CELLS = ["e12", "d11", "c12", "f12", "g12", "h12", "i12", "c11", "e11", "f11", "g11", "h11"]


def version_of(page) -> int:
    return int(page.locator("#board").get_attribute("data-version") or -1)


def wait_version(page, version: int) -> None:
    page.wait_for_function(f"Number(document.querySelector('#board')?.dataset.version) >= {version}")


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
            page.wait_for_function("![...document.querySelectorAll('.odds')].some(o => o.textContent === '…')")
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


def deploy_by_click(page, side: str, cells: list[str], first: int = 1, after=None) -> None:
    """Select each tray piece, then click its cell, as a person would."""
    for number, cell in enumerate(cells, start=first):
        page.click(f'.tray .piece[data-element="{side[0]}{number}"]')
        page.click(f'rect[data-cell="{cell}"]')
        page.locator(f'g.token[data-element="{side[0]}{number}"]').wait_for()
        if after:
            after()


def no_north_token_shown(page) -> bool:
    return page.locator("g.token.north").count() == 0


def assert_hidden(page) -> None:
    assert no_north_token_shown(page), "South's page showed North's placement before both were ready"


def test_two_commanders_play_a_manoeuvre_in_the_browser(browser, tmp_path):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, store):
        north = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
        south = browser.new_context(viewport={"width": 390, "height": 844}).new_page()  # a phone

        # North creates the game on the home page and sends South its link.
        north.goto(base + "/")
        north.click("#create button[type=submit]")
        north.locator("#links input").first.wait_for()
        north_link = north.locator("#links input").nth(0).input_value()
        south_link = north.locator("#links input").nth(1).input_value()
        game_id = north_link.split("/play/")[1].split("?")[0]
        north.goto(north_link)
        south.goto(south_link)
        north.locator("#board .field").wait_for()
        south.locator("#board .field").wait_for()
        assert "Déploiement" in north.inner_text("#board")

        # North deploys: the general by real drag-and-drop, the rest by click.
        north.locator('.tray .piece[data-element="n1"]').drag_to(north.locator('rect[data-cell="e1"]'))
        north.locator('g.token[data-element="n1"]').wait_for()
        assert no_north_token_shown(south)
        deploy_by_click(north, "north", NORTH_CELLS[1:], first=2, after=lambda: assert_hidden(south))
        north.click("#ready")
        south.wait_for_function("document.querySelector('.status').textContent.includes('Nord : prêt')")
        assert no_north_token_shown(south)

        deploy_by_click(south, "south", SOUTH_CELLS, after=lambda: assert_hidden(south))
        south.click("#ready")
        south.locator("g.token.north").first.wait_for()  # revealed once both are ready
        north.locator("#end-turn").wait_for()            # live: North's page learns it is its turn

        # Threat highlighted on selection.
        north.click('g.token[data-element="n2"]')
        assert north.locator("rect.threat").get_attribute("data-cell") == "d3"

        done: set = set()
        pages = {"north": north, "south": south}
        for _ in range(40):
            with store.game(game_id) as game:
                seat, version = game.to_act()[0], game.version
                plan = choose_turn(game, seat, done)
            wait_version(pages[seat], version)  # as a person would, wait for the page to show the other's turn
            for action in plan:
                perform(pages[seat], action)
                with store.game(game_id) as game:
                    if game.outcome is not None:
                        break
            if {"shoot", "attack"} <= done or game.outcome is not None:
                break
        assert {"shoot", "attack", "turn"} <= done, done

        # Both read the journal: the fight and the shot are there with their numbers.
        north_journal = north.inner_text("#journal")
        assert " attaque " in north_journal and " tire " in north_journal and " contre " in north_journal
        south.click("#lang")
        south.wait_for_function("document.querySelector('#journal').textContent.includes(' against ')")

        # North resigns, after confirming; both pages show the end, the seed and its verification.
        with store.game(game_id) as game:
            over = game.outcome is not None
        if not over:
            north.click("#resign")
            north.click("#confirm-resign")
            south.wait_for_function("document.querySelector('.winner')?.textContent.includes('South wins')")
        north.locator("#verify-result[data-ok=true]").wait_for()
        assert "l'emporte" in north.inner_text("#journal")
        assert north.locator("#download").is_visible()

        # Back on the home page, "my games" remembers the game and says it is over.
        home = north.context.new_page()
        home.goto(base + "/")
        home.locator(".my-game").first.wait_for()
        assert game_id in home.inner_text("#my-games") and "terminée" in home.inner_text("#my-games")


def test_two_commanders_at_one_table_hand_over_between_deployments(browser, tmp_path):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, _):
        page = browser.new_context(viewport={"width": 1000, "height": 800}).new_page()
        page.goto(base + "/")
        page.click("#create button[type=submit]")
        page.click("#hotseat")
        page.locator('.tray .piece[data-element="n1"]').wait_for()
        deploy_by_click(page, "north", NORTH_CELLS)
        page.click("#ready")
        page.locator("#take-over").wait_for()
        assert "Passe la main au Sud" in page.inner_text("#pass")
        assert page.locator("g.token").count() == 0  # North's placement is off the screen
        page.click("#take-over")
        page.locator('.tray .piece[data-element="s1"]').wait_for()
        assert page.locator("g.token.north").count() == 0
        deploy_by_click(page, "south", SOUTH_CELLS)
        page.click("#ready")
        page.click("#take-over")  # back to North, who has the initiative
        page.locator("#end-turn").wait_for()
        assert page.locator("g.token.north").count() == 12 and page.locator("g.token.south").count() == 12


def test_keyboard_alone_can_deploy_an_element(browser, tmp_path):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, store):
        created = store.create_game("manoeuvre")
        page = browser.new_context().new_page()
        page.goto(f"{base}/play/{created.id}?token={created.seat_tokens['north']}")
        piece = page.locator('.tray .piece[data-element="n1"]')
        piece.focus()
        page.keyboard.press("Enter")
        cell = page.locator('rect[data-cell="e2"]')
        cell.focus()
        page.keyboard.press("Enter")
        page.locator('g.token[data-element="n1"]').wait_for()


def test_a_person_plays_a_whole_game_against_general_maladroit(browser, tmp_path):
    with running_server(str(tmp_path / "kadesh.sqlite3")) as (base, store):
        page = browser.new_context(viewport={"width": 1100, "height": 850}).new_page()
        page.goto(base + "/")
        page.check("#level-maladroit")
        page.check("#side-north")
        page.click("#versus button[type=submit]")
        page.locator("#board .field").wait_for()
        assert "Général Maladroit" in page.inner_text("#who")
        game_id = page.url.split("/play/")[1].split("?")[0]
        deploy_by_click(page, "north", NORTH_CELLS)
        page.click("#ready")
        page.locator("#end-turn").wait_for()  # the bot was ready: the battle starts, North to play
        assert page.locator("g.token.south").count() == 12
        done: set = set()
        for _ in range(150):
            with store.game(game_id) as game:
                if game.outcome is not None:
                    break
                plan = choose_turn(game, "north", done)
            for action in plan:
                with store.game(game_id) as game:
                    if game.outcome is not None or action not in game.legal("north"):
                        break
                    version = game.version
                wait_version(page, version)  # the bot's last move is on the page before North acts
                perform(page, action)
            page.wait_for_function("document.querySelector('#end-turn') || document.querySelector('.winner')")
        with store.game(game_id) as game:
            assert game.outcome is not None, "the game did not end"
            winner = game.outcome["winner"]
        page.locator(".winner").wait_for()
        assert ("Nord" if winner == "north" else "Sud") in page.inner_text(".winner")
        page.locator("#verify-result[data-ok=true]").wait_for()
        assert "plie" in page.inner_text("#journal")
