"""Front against the computer in Debian's Chromium (issue 20), as a person plays it: from the home page's
« contre l'ordinateur » form to the end of the battle, by clicks and keys on the map and the orders' bar, the
computer answering through the server's bot runner with its own dice and its own seed.

The battle is the small test ground (10 × 6: a heavy tank, an infantry and a truck against an infantry and a
sniper), loaded from its file as a player loads a scenario of their own. The person's plan reads the page
only, never the game's state: each unit fires at what the bar lists as a target, else moves to the reachable
cell nearest the nearest enemy in sight, then the turn ends (Tab, confirmed in the dialog); the battle is
bounded by a number of turns, so that a battle that does not end fails instead of hanging.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kadesh.core.game import replay_views
from kadesh.rules.front import scenario
from tests.browser_support import assert_page_clean
from tests.test_browser_front import bar, click_cell, on_map

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

SMALL = Path(scenario.__file__).parent / "scenarios" / "test_small.toml"
MOST_TURNS = 12      # Blue beats Général Maladroit on this ground in three or four turns when it plays sensibly
LEVELS = {"random": "Hasard", "maladroit": "Général Maladroit", "etat_major": "Chef d'état-major"}


@pytest.fixture
def site(shared_server):
    """The test process's shared server: each test plays in games and accounts of its own."""
    return shared_server


# -- the home page -------------------------------------------------------------------------------------------
def play_against_the_computer(page, level: str, side: str = "blue") -> str:
    """On the home page: the small ground loaded from its file, the level and the side chosen, then « Jouer
    contre l'ordinateur »; returns the game's id once its page shows the map."""
    card = page.locator("#card-front")
    card.locator("details.options summary").click()
    page.set_input_files("#opt-front-scenario_toml-file", str(SMALL))
    page.wait_for_function("() => document.querySelector('#opt-front-scenario_toml').value.includes('test_small')")
    card.locator("label", has_text=LEVELS[level]).click()
    page.check(f"#front-side-{side}")
    assert page.is_checked(f"#front-level-{level}")
    page.click("#play-computer-front")
    page.locator(".front .front-map-host").wait_for()
    page.wait_for_load_state("networkidle")
    return page.url.split("/play/")[1].split("?")[0]


# -- what the page shows -------------------------------------------------------------------------------------
def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def after(page, old: int) -> None:
    """Wait for the page to draw an order given at version ``old``."""
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {old}")


def over(page) -> bool:
    return page.locator("#ending").is_visible()


def wait_for_my_turn_or_the_end(page) -> None:
    """The computer has played: either the person's turn is back (the end of the turn offered, no order on its
    way) or the battle is over."""
    page.wait_for_function("""() => {
        const ending = document.querySelector('#ending');
        if (ending && !ending.hidden) return true;
        const end = document.querySelector('#end-turn');
        return end && !end.hidden && !end.disabled && document.querySelector('.front-whose.mine') !== null
          && document.querySelector('.front')?.getAttribute('aria-busy') === 'false';
    }""")


def cells_where(page, selector: str) -> list[str]:
    """The cells of the units drawn on the map that match ``selector`` (e.g. ``g.unit.enemy``)."""
    return page.evaluate("""(selector) => [...document.querySelectorAll(`.front-map-host ${selector}`)]
        .map((g) => g.closest('[data-cell]')?.dataset.cell).filter(Boolean)""", selector)


def reachable(page) -> list[str]:
    """The cells the map marks as reachable by the chosen unit (each cell's accessible name says so)."""
    return page.evaluate("""() => [...document.querySelectorAll('.front-map-host [data-cell]')]
        .filter((c) => (c.getAttribute('aria-label') || '').includes('atteignable')).map((c) => c.dataset.cell)""")


def xy(cell: str) -> tuple[int, int]:
    return ord(cell[0]) - ord("A"), int(cell[1:]) - 1


def apart(a: str, b: str) -> int:
    (ax, ay), (bx, by) = xy(a), xy(b)
    return max(abs(ax - bx), abs(ay - by))


# -- the person's plan ---------------------------------------------------------------------------------------
def choose(page, unit_id: str) -> bool:
    """Click the unit on the map unless it is chosen already; False if it is gone or has no order left."""
    unit = on_map(page, f'g.unit.own[data-unit="{unit_id}"]')
    if unit.count() == 0 or "spent" in (unit.first.get_attribute("class") or ""):
        return False
    if "selected" not in (unit.first.get_attribute("class") or ""):
        unit.first.click()
        page.locator(".front-selected").wait_for()
    return True


def fire_at_the_first_target(page) -> bool:
    """Fire at the first target the bar lists: its odds shown at the first click, fired at the second."""
    targets = page.locator(".front-targets button[data-target]")
    if targets.count() == 0:
        return False
    cell = targets.first.get_attribute("data-target")
    click_cell(page, cell)
    page.wait_for_function("() => document.querySelector('.front-odds')?.innerText.includes('dégâts')")
    assert "Cible :" in bar(page)
    old = version(page)
    click_cell(page, cell)
    after(page, old)
    return True


def move_towards_the_enemy(page) -> bool:
    """Move to the reachable cell nearest the nearest enemy in sight (else the far side), if it brings the unit
    closer: the way's cost shown at the first click, the move given at the second."""
    here = cells_where(page, "g.unit.own.selected")[0]
    enemies = cells_where(page, "g.unit.enemy")
    goal = min(enemies, key=lambda cell: apart(cell, here)) if enemies else "J2"
    cells = reachable(page)
    if not cells or apart(here, goal) <= 1:
        return False
    best = min(cells, key=lambda cell: (apart(cell, goal), -apart(cell, here)))
    if apart(best, goal) >= apart(here, goal):
        return False
    click_cell(page, best)
    page.wait_for_function("() => document.querySelector('#front-confirm')?.disabled === false")  # its cost is in
    assert f"Aller en {best}" in bar(page)
    old = version(page)
    click_cell(page, best)
    after(page, old)
    return True


def command(page, unit_id: str) -> None:
    """One unit's turn: fire while it has a target, move once towards the enemy, fire again."""
    moved = False
    for _ in range(6):
        if over(page) or not choose(page, unit_id):
            return
        if fire_at_the_first_target(page):
            continue
        if moved or not move_towards_the_enemy(page):
            return
        moved = True


def end_the_turn(page) -> None:
    """Tab on the map; the truck still has orders, so the dialog asks first: « Finir le tour »."""
    old = version(page)
    page.keyboard.press("Escape")  # the unit let go: the map's cursor, not a button, has the focus
    on_map(page, '[role="grid"]').focus()
    page.keyboard.press("Tab")
    dialog = page.locator("dialog.front-dialog")
    if dialog.is_visible():
        page.click("#front-end-yes")
    after(page, old)


def own_units(page, name: str) -> list[str]:
    return page.evaluate("""(name) => [...document.querySelectorAll('.front-map-host g.unit.own')]
        .filter((g) => (g.getAttribute('aria-label') || '').startsWith(name)).map((g) => g.dataset.unit)""", name)


# -- the tests -----------------------------------------------------------------------------------------------
def test_a_person_beats_general_maladroit_on_the_small_ground(browser, site):
    base, store = site
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script("localStorage.setItem('kadesh.lang', 'fr')")
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready=true]")  # (a newcomer's lobby reads clean in test_browser_lobby)
    game_id = play_against_the_computer(page, "maladroit")
    assert page.inner_text("#who") == "Bleu · contre l'ordinateur : Général Maladroit"
    assert "Petit terrain d'essai" in (on_map(page, "svg.front-map").get_attribute("aria-label") or "")
    assert_page_clean(page, "fr")

    tank, infantry = own_units(page, "Char lourd bleu")[0], own_units(page, "Infanterie bleue")[0]
    turns = 0
    while not over(page):
        assert turns < MOST_TURNS, f"the battle is not over after {MOST_TURNS} turns of Blue's"
        wait_for_my_turn_or_the_end(page)
        if over(page):
            break
        if turns == 1:  # the computer's first answer: what Blue saw of it, the page still clean
            assert "Fin du tour 1 de Rouge." in page.locator("#journal").inner_text()
            assert_page_clean(page, "fr")
        for unit in (tank, infantry):
            command(page, unit)
        if not over(page):
            end_the_turn(page)
        turns += 1

    with store.game(game_id) as game:
        assert game.outcome == {"winner": "blue", "reason": "annihilation"}
    page.wait_for_function("() => document.querySelector('.front-whose')?.innerText === 'Victoire du Bleu.'")
    assert page.locator("#ending h2").inner_text() == "Partie terminée"
    assert page.locator("#ending .verdict").inner_text() == "Victoire !"
    assert page.locator(".front-bar").inner_text() == "La bataille est finie."
    assert page.locator("#journal li", has_text="Bleu a détruit toutes les unités adverses").count() == 1
    assert_page_clean(page, "fr")
    page.close()


def test_against_the_chef_detat_major_from_the_home_page_then_resign_and_replay_the_whole_battle(browser, site):
    """The home page offers the levels; the Chef d'état-major answers a turn; Blue resigns (asked first), and the
    finished battle's replay shows both sides' units, or Blue's own view when chosen (issue 59)."""
    base, store = site
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script("localStorage.setItem('kadesh.lang', 'fr')")
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready=true]")
    form = page.locator("#card-front form.versus")
    assert form.locator("h4").inner_text() == "Contre l'ordinateur"
    levels = form.locator("fieldset").first
    assert sorted(label.inner_text().strip() for label in levels.locator("label").all()) == sorted(LEVELS.values())
    assert page.locator("#play-computer-front").inner_text() == "Jouer contre l'ordinateur"

    game_id = play_against_the_computer(page, "etat_major")
    assert page.inner_text("#who") == "Bleu · contre l'ordinateur : Chef d'état-major"
    with store.game(game_id) as game:
        assert game.to_act() == ["blue"] and game.version == 0  # the computer waits for Blue's turn
    command(page, own_units(page, "Char lourd bleu")[0])  # a move at least, for the replay's journal to tell
    end_the_turn(page)
    wait_for_my_turn_or_the_end(page)
    with store.game(game_id) as game:
        red_orders = [entry["action"] for entry in game.actions if entry["seat"] == "red"]
        assert red_orders[-1] == {"type": "end_turn"} and game.to_act() == ["blue"]
        assert len(red_orders) > 1  # orders, then the end of its turn
    # the computer's turn is told, and what Blue saw of it, as a person's would be
    assert "Fin du tour 1 de Rouge." in page.locator("#journal").inner_text()
    assert page.locator(".front-summary").is_visible()
    assert page.locator(".front-turn").inner_text() == "Tour 2"
    assert_page_clean(page, "fr")
    resign_and_replay(page, store, game_id, base, browser)


def resign_and_replay(page, store, game_id: str, base: str, browser) -> None:
    """« Abandonner », « Non, continuer », then « Oui, abandonner »: Red wins; the replay opens on the whole battle,
    both sides drawn at every step and its journal telling both sides' moves, Blue's own view and journal offered;
    the link to share opens the same for anyone."""
    page.click("#resign")
    assert page.inner_text("dialog.front-dialog h2") == "Abandonner la bataille ?"
    assert "Le Rouge l'emportera." in page.inner_text("dialog.front-dialog")
    page.click("#cancel-resign")  # not yet: nothing is sent
    assert not page.locator("dialog.front-dialog").is_visible() and not over(page)
    page.click("#resign")
    page.click("#confirm-resign")
    page.locator("#ending").wait_for()
    with store.game(game_id) as game:
        assert game.outcome == {"winner": "red", "reason": "resignation"}
        record, last = game.to_record(), game.version
    assert page.locator("#journal li", has_text="Bleu abandonne la bataille.").count() == 1
    assert page.locator("#resign").is_hidden() and page.locator("#end-turn").is_hidden()

    page.click("#replay-open")
    page.click("#replay-last")  # the whole battle's journal beside the whole board, both sides' moves in it
    page.wait_for_selector(f"#board[data-replay='{last}'][data-reader='public']")
    with store.game(game_id) as game:
        whole = game.journal(None)
    assert page.locator("#journal li").all_inner_texts() == whole
    for side in ("Bleu", "Rouge"):
        assert any(line.startswith(f"{side} ") and " va de " in line for line in whole), (side, whole)
    middle = last // 2
    page.fill("#replay-slider", str(middle))
    page.wait_for_selector(f"#board[data-replay='{middle}'][data-reader='public']")
    assert page.input_value("#replay-reader") == "public"
    assert cells_where(page, "g.unit.side-blue") and cells_where(page, "g.unit.side-red")  # both sides, whole
    assert page.locator(".front-map-host .fm-fog-shade").count() == 0
    assert_page_clean(page, "fr")
    page.select_option("#replay-reader", "blue")  # what Blue saw then, fog and all
    page.wait_for_selector(f"#board[data-replay='{middle}'][data-reader='blue']")
    _, then = next(replay_views(record, middle, middle))
    seen = {u["cell"] for u in then.view("blue")["units"] if not u.get("aboard")}
    assert set(cells_where(page, "g.unit")) == seen
    with store.game(game_id) as game:  # and its journal as Blue read it then
        read = [line for version, line in game.journal_entries("blue") if version <= middle]
    assert page.locator("#journal li").all_inner_texts() == read
    link = page.input_value("#replay-link")
    page.close()

    stranger = browser.new_page(viewport={"width": 1280, "height": 800})  # no link of this game: the public
    stranger.goto(link)
    stranger.wait_for_selector("#board[data-replay='0'][data-reader='public']")
    assert cells_where(stranger, "g.unit.side-blue") and cells_where(stranger, "g.unit.side-red")
    stranger.close()
