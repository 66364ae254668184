"""Replays in Debian's Chromium (issue 44): a finished Manœuvre game stepped through from its first move to its
last with the keyboard, as everyone may see it once it is over; a seat's replay of a game going on; the page reads
clean (axe) on a desktop and a phone."""

from __future__ import annotations

import random

import pytest

from tests.browser_support import assert_page_clean

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture
def site(shared_server):
    """The test process's shared server: each test plays in games and accounts of its own."""
    return shared_server


def random_game(store, moves: int, finish: bool):
    created = store.create_game("manoeuvre", seed="replay")
    rng = random.Random(1)
    for _ in range(moves):
        with store.game(created.id) as game:
            seat = game.to_act()[0]
            choices = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
            version = game.version
        store.act(created.id, seat, version, rng.choice(choices))
    if finish:
        with store.game(created.id) as game:
            seat, version = game.to_act()[0], game.version
        store.act(created.id, seat, version, {"type": "resign"})
    return created


def at(page) -> int:
    return int(page.get_attribute("#board", "data-replay"))


def test_a_finished_game_is_replayed_from_its_first_move_to_its_last_with_the_keyboard(browser, site):
    base, store = site
    created = random_game(store, 30, finish=True)
    for viewport in ({"width": 1280, "height": 800}, {"width": 390, "height": 844}):
        page = browser.new_page(viewport=viewport)
        page.goto(f"{base}/play/{created.id}#token={created.spectator_token}")
        page.wait_for_selector("#replay-open")
        page.click("#replay-open")
        page.wait_for_selector("#board[data-replay='0']")
        assert page.inner_text("#replay-at") == "Position de départ"
        assert page.locator("#journal li").count() == 0 or page.is_hidden("#journal")  # nothing had happened yet
        for expected in range(1, 32):
            page.keyboard.press("ArrowRight")
            page.wait_for_selector(f"#board[data-replay='{expected}']")
            assert page.inner_text("#replay-at") == f"Coup {expected} sur 31"
        page.keyboard.press("ArrowRight")  # past the last: it stays there
        assert at(page) == 31
        page.keyboard.press("Home")
        page.wait_for_selector("#board[data-replay='0']")
        page.keyboard.press("End")
        page.wait_for_selector("#board[data-replay='31']")
        assert_page_clean(page, "fr")
        page.click("#replay-close")
        page.wait_for_selector("#replay-open")
        assert page.get_attribute("#board", "data-replay") is None
        page.close()


def replay_as(browser, base: str, game_id: str, token: str):
    """A page of the game opened with ``token``, its replay open at the start."""
    page = browser.new_page()
    page.goto(f"{base}/play/{game_id}#token={token}")
    page.click("#replay-open")
    page.wait_for_selector("#board[data-replay='0']")
    return page


def assert_nothing_to_play(page) -> None:
    """A replay's board offers no control of play: no tray of elements to place, no button, no prompt."""
    board = page.inner_text("#board")
    assert "null" not in board and "Tes éléments à placer" not in board and "Choisis" not in board, board
    assert page.locator("#board button, #board .tray").count() == 0


def test_a_seat_replays_its_game_going_on_and_a_spectator_cannot_yet(browser, site):
    base, store = site
    created = random_game(store, 12, finish=False)
    page = replay_as(browser, base, created.id, created.seat_tokens["north"])
    assert_nothing_to_play(page)  # the deployment's start, North's elements all unplaced then (issue 59)
    page.fill("#replay-slider", "6")
    page.wait_for_selector("#board[data-replay='6']")
    assert_nothing_to_play(page)
    page.close()
    watcher = browser.new_page()
    watcher.goto(f"{base}/play/{created.id}#token={created.spectator_token}")
    watcher.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
    assert watcher.locator("#replay-open").count() == 0
    watcher.close()


def test_a_finished_games_replay_link_opens_it_for_anyone_without_a_secret(browser, site):
    """The link to share after the end: the game's address with ?replay, offered in the replay's bar; opened by
    someone who holds no link of the game, it starts the public replay. A game going on offers none."""
    base, store = site
    created = random_game(store, 20, finish=True)
    seat = replay_as(browser, base, created.id, created.seat_tokens["south"])
    link = seat.input_value("#replay-link")
    assert link == f"{base}/play/{created.id}?replay" and created.seat_tokens["south"] not in link
    seat.click("#replay-share")  # the note comes once the clipboard has answered: wait for it, do not read at once
    seat.wait_for_function("() => document.querySelector('#replay-shared').textContent.includes(\"quiconque l'ouvre\")")
    seat.close()
    stranger = browser.new_page()  # no link of this game in its storage
    stranger.goto(link)
    stranger.wait_for_selector("#board[data-replay='0']")
    stranger.keyboard.press("End")
    stranger.wait_for_selector("#board[data-replay='21']")
    assert_page_clean(stranger, "fr")
    stranger.close()
    going = random_game(store, 6, finish=False)
    player = replay_as(browser, base, going.id, going.seat_tokens["north"])
    assert player.locator("#replay-link").count() == 0
    player.close()


def test_the_other_sides_turn_is_replayed_from_what_it_just_did(browser, site):
    """Manœuvre: « Ce que le Sud vient de faire » offers to replay that turn, from the position before its first
    move, move by move."""
    base, store = site
    created = store.create_game("manoeuvre", seed="replay-turn")
    rng = random.Random(5)
    while True:  # at random until North is to play after a turn of South's in the battle
        with store.game(created.id) as game:
            seat, version = game.to_act()[0], game.version
            marks = [(v, mark) for v, _, mark in game.journal_marked("north") if mark and mark.get("side")]
            moved = [v for v, mark in marks if mark["side"] == "south" and mark["kind"] != "end_turn"
                     and v > max([0, *(w for w, m in marks if m["side"] == "north")])]
            if game.view(None)["phase"] != "deployment" and seat == "north" and moved:
                break
            choices = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
        store.act(created.id, seat, version, rng.choice(choices))
    first = min(moved)  # South's first move of that turn
    page = browser.new_page()
    page.goto(f"{base}/play/{created.id}#token={created.seat_tokens['north']}")
    page.click(".last-turn .replay-turn")
    page.wait_for_selector(f"#board[data-replay='{first - 1}']")
    page.wait_for_selector(f"#board[data-replay='{version}']")  # played on by itself to the present
    page.close()
