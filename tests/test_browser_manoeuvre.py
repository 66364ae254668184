"""Two commanders play a manœuvre in Debian's Chromium, each in their own browser context.

The test chooses each move with the engine's own legal actions (read from the store, as a
referee would) and performs it through the page by clicks and one real drag-and-drop, so the
game goes on whatever the dice say, until an attack and a shot have happened.
"""

from __future__ import annotations

import time

import httpx
import pytest

from tests.browser_support import assert_page_clean
from tests.manoeuvre_pages import (
    NORTH_CELLS,
    SOUTH_CELLS,
    choose_turn,
    deploy_by_click,
    fight_first,
    perform,
    wait_until_shown,
    wait_version,
)

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def server(shared_server):
    """The test process's shared server: each test plays in games of its own."""
    return shared_server


def no_north_token_shown(page) -> bool:
    return page.locator("g.token.north").count() == 0


def assert_hidden(page) -> None:
    assert no_north_token_shown(page), "South's page showed North's placement before both were ready"


def test_two_commanders_play_a_manoeuvre_in_the_browser(browser, server):
    base, store = server
    north = browser.new_page(viewport={"width": 1200, "height": 900})
    south = browser.new_page(viewport={"width": 390, "height": 844})  # a phone

    # North creates the game on the home page and sends South its link.
    north.goto(base + "/")
    north.click("#create button[type=submit]")
    north.locator("#links input").first.wait_for()
    north_link = north.locator("#links input").nth(0).input_value()
    south_link = north.locator("#links input").nth(1).input_value()
    game_id = north_link.split("/play/")[1].split("#")[0]
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
    south.wait_for_function("() => document.querySelector('.status').textContent.includes('Nord : prêt')")
    assert no_north_token_shown(south)

    deploy_by_click(south, "south", SOUTH_CELLS, after=lambda: assert_hidden(south))
    south.click("#ready")
    south.locator("g.token.north").first.wait_for()  # revealed once both are ready
    north.locator("#end-turn").wait_for()            # live: North's page learns it is its turn
    # The rules panel follows the phase: its « maintenant » mark moved from the deployment to the battle.
    assert north.locator("#rules-body details[data-key='battle'][open] .now").count() == 1
    assert north.locator("#rules-body details[data-key='deployment'] .now").count() == 0

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
    south.wait_for_function("() => document.querySelector('#journal').textContent.includes(' against ')")

    # North resigns, after confirming; both pages show the end, the seed and its verification.
    with store.game(game_id) as game:
        over = game.outcome is not None
    if not over:
        north.click("#resign")
        north.click("#confirm-resign")
        south.wait_for_function("() => document.querySelector('.winner')?.textContent.includes('South wins')")
    north.locator("#verify-result[data-ok=true]").wait_for()
    assert "l'emporte" in north.inner_text("#journal")
    assert north.locator("#download").is_visible()

    # Back on the home page, "my games" remembers the game and says it is over.
    home = north.context.new_page()
    home.goto(base + "/")
    home.locator(".my-game").first.wait_for()
    assert home.locator(f'#my-games [data-game="{game_id}"]').count() == 1
    assert "terminée" in home.inner_text("#my-games")


def test_two_commanders_at_one_table_hand_over_between_deployments(browser, server):
    base, _ = server
    page = browser.new_page(viewport={"width": 1000, "height": 800})
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


def test_a_click_goes_through_however_often_the_opponent_writes_first(browser, server):
    """South deploys before each of North's clicks (as the other player does at the same moment, or a computer
    opponent, more often on a busy server): what North cannot see leaves the page's version standing, so each
    click lands at once, with no 409 nor any error in the console (issue 59). South's « prêt », which North
    sees, does make it stale: the page sends the action again while it still stands, and it lands."""
    base, store = server
    created = store.create_game("manoeuvre")
    cut_ins = [{"type": "deploy", "element": f"s{number}", "cell": cell} for number, cell in enumerate(SOUTH_CELLS, 1)]
    cut_ins.append({"type": "ready"})
    cut_in = []

    def south_first(route):
        with store.game(created.id) as game:
            version = game.version
        store.act(created.id, "south", version, cut_ins[len(cut_in)])
        cut_in.append(version + 1)
        route.continue_()

    page = browser.new_page()
    troubles = []
    page.on("console", lambda message: troubles.append(message.text) if message.type == "error" else None)
    page.goto(f"{base}/play/{created.id}?token={created.seat_tokens['north']}")
    page.locator("#board .field").wait_for()
    page.route("**/actions", south_first, times=len(cut_ins))
    deploy_by_click(page, "north", NORTH_CELLS)
    assert troubles == []
    assert len(cut_in) == len(SOUTH_CELLS)
    page.click("#ready")
    page.locator("#ready").wait_for(state="detached")  # (a Playwright wait: the route's handler runs meanwhile)
    with store.game(created.id) as game:
        assert game.view(None)["phase"] == "battle"
    assert len(troubles) == 1 and "409 (Conflict)" in troubles[0]  # the one try that met « prêt »
    assert page.locator("#error").inner_text() == ""


def test_keyboard_alone_can_deploy_an_element(browser, server):
    base, store = server
    created = store.create_game("manoeuvre")
    page = browser.new_page()
    page.goto(f"{base}/play/{created.id}?token={created.seat_tokens['north']}")
    piece = page.locator('.tray .piece[data-element="n1"]')
    piece.focus()
    page.keyboard.press("Enter")
    cell = page.locator('rect[data-cell="e2"]')
    cell.focus()
    page.keyboard.press("Enter")
    page.locator('g.token[data-element="n1"]').wait_for()


def test_a_person_plays_a_whole_game_against_general_maladroit(browser, server):
    base, store = server
    page = browser.new_page(viewport={"width": 1100, "height": 850})
    page.emulate_media(reduced_motion="reduce")  # the bot's spinner still, not drawn anew 60 times a second
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
            plan = fight_first(game, "north", done)
        for action in plan:
            with store.game(game_id) as game:
                if game.outcome is not None or action not in game.legal("north"):
                    break
                version = game.version
            wait_version(page, version)  # the bot's last move is on the page before North acts
            perform(page, action)
        wait_until_shown(page, "() => document.querySelector('#end-turn') || document.querySelector('.winner')")
    with store.game(game_id) as game:
        assert game.outcome is not None, "the game did not end"
        winner = game.outcome["winner"]
    page.locator(".winner").wait_for()
    assert ("Nord" if winner == "north" else "Sud") in page.inner_text(".winner")
    page.locator("#verify-result[data-ok=true]").wait_for()
    assert "plie" in page.inner_text("#journal")
    with store.game(game_id) as game:  # the journal grew line by line on the page: each once, in order
        assert page.locator("#journal li").all_inner_texts() == game.journal("north", "fr")


def test_deployment_shows_the_zone_first_and_an_illegal_drop_says_why(browser, server):
    base, store = server
    created = store.create_game("manoeuvre")
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{base}/play/{created.id}?token={created.seat_tokens['north']}")
    page.locator("#board .field").wait_for()
    # Before any element is picked: the whole zone is shaded, two rows of columns c to j.
    assert page.locator(".tray .piece.selected").count() == 0
    zone = {page.locator("rect.cell.zone").nth(i).get_attribute("data-cell") for i in range(16)}
    assert page.locator("rect.cell.zone").count() == 16
    assert zone == {f"{c}{r}" for c in "cdefghij" for r in (1, 2)}
    # (this page, a new game's North before anything is placed, reads clean in test_browser_pages, « manoeuvre seat »)

    # A drop outside the zone does nothing, and says why beside the board.
    page.locator('.tray .piece[data-element="n1"]').drag_to(page.locator('rect[data-cell="e5"]'))
    page.wait_for_function("() => document.querySelector('.notice').textContent.includes('Hors de ta zone')")
    assert "colonnes c à j" in page.inner_text(".notice")
    assert page.locator('g.token[data-element="n1"]').count() == 0
    page.locator('.tray .piece[data-element="n1"]').drag_to(page.locator('rect[data-cell="e2"]'))
    page.locator('g.token[data-element="n1"]').wait_for()
    # A picked element's cells are drawn over the zone; a taken cell says who holds it.
    page.click('.tray .piece[data-element="n2"]')
    assert page.locator("rect.cell.legal").count() == 15
    page.locator('.tray .piece[data-element="n2"]').drag_to(page.locator('g.token[data-element="n1"]'))
    page.wait_for_function("() => document.querySelector('.notice').textContent.includes('ton général')")

    page.click("#lang")
    page.wait_for_function("() => document.querySelector('.status').textContent.includes('Deployment')")
    page.locator('.tray .piece[data-element="n2"]').drag_to(page.locator('rect[data-cell="a1"]'))
    page.wait_for_function("() => document.querySelector('.notice').textContent.includes('Outside your zone')")
    assert_page_clean(page, "en")


HTTP = httpx.Client(timeout=30)  # one for the module: each client makes a TLS context, 50 ms of CPU (measured)


def api(base: str, method: str, path: str, token: str | None = None, body: dict | None = None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = HTTP.request(method, f"{base}/api{path}", json=body, headers=headers)
    assert response.status_code < 300, response.text
    return response.json()


def wait_for_north(base: str, game_id: str, token: str) -> dict:
    import time

    for _ in range(600):
        game = api(base, "GET", f"/games/{game_id}", token)
        if game["outcome"] or game["to_act"] == ["north"]:
            return game
        time.sleep(0.05)
    raise AssertionError("the bot did not play")


def test_the_bots_last_turn_is_marked_on_the_board_and_losses_stay_in_sight(browser, server):
    """Against Général Maladroit over the API until something is destroyed, then by the page: a
    move, the end of the turn, and the bot's answer drawn on the field; the losses in their trays."""
    from kadesh.ai.base import make_bot

    base, store = server
    created = api(base, "POST", "/games", body={"ruleset": "manoeuvre", "bots": {"south": "maladroit"}})
    game_id, token = created["id"], created["seats"]["north"]["token"]
    north = make_bot("manoeuvre", "maladroit", seed=5)
    for _ in range(3000):
        game = wait_for_north(base, game_id, token)
        assert game["outcome"] is None, "the game ended before the test could look at it"
        lost = [e for e in game["view"]["elements"] if not e["alive"]]
        if lost and game["view"]["phase"] == "battle":
            break
        legal = api(base, "GET", f"/games/{game_id}/legal", token)["actions"]
        action = north.choose(game["view"], "north", legal)
        if action["type"] == "resign":
            action = {"type": "end_turn"}
        api(base, "POST", f"/games/{game_id}/actions", token,
            {"expected_version": game["version"], "action": action})
    journal = api(base, "GET", f"/games/{game_id}/journal", token)
    assert any(line.get("mark", {}).get("destroyed") for line in journal)

    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{base}/play/{game_id}?token={token}")
    page.locator("#end-turn").wait_for()
    with store.game(game_id) as game:
        move = next(a for a in game.legal_actions("north") if a["type"] == "move")
        version = game.version
    perform(page, move)
    page.click("#end-turn")
    wait_version(page, version + 2)  # the move, the end of the turn: now the bot plays (in a worker)
    deadline = time.monotonic() + 180  # a busy machine's bot thinks slowly: the condition, not a time, decides
    while time.monotonic() < deadline:  # until its turn is over (its last mark an end of turn), or the game
        with store.game(game_id) as game:
            marks = [m for _, _, m in game.journal_marked("north") if m and m.get("side") == "south"]
            ended = game.outcome is not None or (game.to_act() == ["north"] and marks
                                                 and marks[-1]["kind"] == "end_turn")
            answered, latest = game.version > version + 2 and ended, game.version
        if answered:
            break
        time.sleep(0.05)
    wait_version(page, latest)
    with store.game(game_id) as game:
        south_marks = [m for _, _, m in game.journal_marked("north") if m and m.get("side") == "south"]
        dead = [e.id for e in game.state.elements.values() if not e.alive]
    assert south_marks[-1]["kind"] == "end_turn"
    page.locator('.field g.mark[data-side="south"]').first.wait_for()
    assert page.locator('.field g.mark[data-side="north"]').count() == 0  # one's own moves are known
    shown = page.locator('.last-turn[data-side="south"] li').count()
    assert shown == page.locator('.field g.mark[data-side="south"]').count() >= 1
    moves = page.locator('.field g.mark.move[data-side="south"]')
    for index in range(moves.count()):  # each move: its from-cell outlined, an arrow to its to-cell
        start = moves.nth(index).get_attribute("data-from")
        assert page.locator(f'rect.mark-from[data-cell="{start}"]').count() == 1
        assert moves.nth(index).locator("line.mark-arrow").count() == 1
    # Destroyed elements are kept in their side's tray of losses.
    trays = page.locator(".lost .lost-piece").evaluate_all("ns => ns.map(n => n.dataset.element)")
    assert sorted(trays) == sorted(dead)
    assert_page_clean(page, "fr")
    page.click("#lang")
    page.wait_for_function("() => document.querySelector('.losses h3').textContent === 'Losses'")
    assert_page_clean(page, "en")

    # The end: resigning shows the winner, the page stays clean.
    page.click("#resign")
    page.click("#confirm-resign")
    page.locator(".winner").wait_for()
    assert_page_clean(page, "en")


def test_a_threatened_cell_is_hatched_above_the_token_on_it(browser, server):
    base, store = server
    created = store.create_game("manoeuvre")
    version = 0
    for seat, cells in (("north", NORTH_CELLS), ("south", SOUTH_CELLS)):
        for number, cell in enumerate(cells, start=1):
            version = store.act(created.id, seat, version,
                                {"type": "deploy", "element": f"{seat[0]}{number}", "cell": cell}).version
        version = store.act(created.id, seat, version, {"type": "ready"}).version
    # The general on e1 faces south and threatens e2, where a bow stands.
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(f"{base}/play/{created.id}?token={created.seat_tokens['north']}")
    page.locator("#end-turn").wait_for()
    page.click('g.token[data-element="n1"]')
    overlay = page.locator("rect.threat-overlay")
    assert overlay.get_attribute("data-cell") == "e2"
    assert page.evaluate("""() => { const o = document.querySelector('rect.threat-overlay');
        const t = document.querySelector('g.token[data-element="n9"]');
        return !!(t.compareDocumentPosition(o) & Node.DOCUMENT_POSITION_FOLLOWING); }""")
    # On a phone the controls sit right under the field.
    field = page.locator(".field").bounding_box()
    side = page.locator(".manoeuvre .side").bounding_box()
    assert field["width"] >= 370 and 0 <= side["y"] - (field["y"] + field["height"]) < 60
    title = page.locator('g.token[data-element="n1"] > title').text_content()
    assert "3 contre les gens de pied" in title and "menace e2" in title


def test_a_game_withdrawn_before_its_players_came_offers_nothing_to_place(browser, server):
    """Cancelled while both sides were still to deploy: the board says nobody wins, with no tray to place from."""
    base, store = server
    made = httpx.post(f"{base}/api/games", json={"ruleset": "manoeuvre", "open": {"south": "anyone"}}).json()
    north = made["seats"]["north"]["token"]
    assert httpx.delete(f"{base}/api/games/{made['id']}/open", headers={"Authorization": f"Bearer {north}"}
                        ).status_code == 204
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(base + made["seats"]["north"]["link"])
    page.locator("#ending .verdict").wait_for()
    assert "Personne ne l'emporte : la partie a été annulée." in page.inner_text(".status")
    assert page.locator(".tray").count() == 0 and "Tes éléments à placer" not in page.inner_text("body")
