"""Issue 42's acceptance in Debian's Chromium: two accounts in two browser contexts; one opens a rated Manœuvre
with one day per move from the lobby, the other finds it in « Parties ouvertes » and takes it; both play through
their pages until one resigns; both ratings move once and the leaderboard and the player's chart show them. The
clock's claim from the page, once the time has run out. The pages read clean (axe), on a desktop and a phone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import update

from kadesh.server.identity import COOKIE
from kadesh.store import SEAT, schema
from kadesh.store.table import DAY, TableSettings
from tests.browser_support import assert_page_clean, running_server
from tests.manoeuvre_pages import NORTH_CELLS, SOUTH_CELLS, choose_turn, perform, wait_version

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

DESKTOP, PHONE = {"width": 1280, "height": 800}, {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with running_server(str(tmp_path_factory.mktemp("table") / "table.sqlite3")) as (base, store):
        yield base, store


def signed_in(browser, site, name: str, viewport: dict):
    """A page whose context holds the session of a new account (signing up through the page, with a passkey, is
    test_browser_accounts')."""
    base, store = site
    player = store.accounts.create_player(name, "fr")
    page = browser.new_page(viewport=viewport)
    page.context.add_cookies([{"name": COOKIE, "value": store.accounts.open_session(player.id), "url": base}])
    return page


def open_rated_game(page, base: str) -> str:
    """From the lobby: one day per move, rated, opened to others; the game's id."""
    page.goto(f"{base}/")
    page.wait_for_selector("body[data-ready='true']")
    page.select_option("#clock-manoeuvre", "1")
    page.check("#rated-manoeuvre")
    page.click("#open-manoeuvre")
    page.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
    return page.url.split("/play/")[1].split("#")[0].split("?")[0]


def take_from_the_lobby(page, base: str, game_id: str) -> None:
    page.goto(f"{base}/")
    entry = page.locator(f'.open-game[data-game="{game_id}"]')
    entry.wait_for()
    words = entry.inner_text()
    assert "1 jour par coup" in words and "classée" in words and "place libre : Sud" in words, words
    assert_page_clean(page, "fr")
    entry.locator("button.take").click()
    page.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")


def test_two_accounts_play_a_rated_game_with_a_day_per_move_and_the_leaderboard_shows_them(browser, site):
    base, store = site
    north = signed_in(browser, site, "Sinouhé", DESKTOP)
    south = signed_in(browser, site, "Hatchepsout", PHONE)
    game_id = open_rated_game(north, base)
    assert "1 jour par coup · Partie classée" in north.inner_text("#clock")
    assert "La partie attend ses joueurs" in north.inner_text("#clock")
    assert north.locator("#clock .clock-due").count() == 0  # no clock runs while the game waits for its players
    take_from_the_lobby(south, base, game_id)
    assert "Sud" in south.inner_text("#who")
    assert "Tu dois jouer avant" in south.inner_text("#clock")  # the clocks start at the last take
    assert_page_clean(south, "fr")
    north.locator("#clock .clock-open").wait_for(state="detached")  # seen live on the opener's page
    assert "Tu dois jouer avant" in north.inner_text("#clock")
    assert "Sud (Hatchepsout) doit jouer avant" in north.inner_text("#clock")  # the side, and who holds it
    assert "Nord (Sinouhé) doit jouer avant" in south.inner_text("#clock")

    for page in (north, south):  # the server's placement, by the page's one button
        page.click("#default-placement")
        page.locator("#ready").click()
    north.locator("#end-turn").wait_for()
    pages, done = {"north": north, "south": south}, set()
    for _ in range(2):  # a turn each, through the pages
        with store.game(game_id) as game:
            seat, version = game.to_act()[0], game.version
            plan = choose_turn(game, seat, done)
        wait_version(pages[seat], version)
        for action in plan:
            perform(pages[seat], action)
    with store.game(game_id) as game:
        seat, version = game.to_act()[0], game.version
    loser = pages[seat]
    wait_version(loser, version)
    loser.click("#resign")
    loser.click("#confirm-resign")
    loser.locator("#ending").wait_for()
    assert loser.locator("#notices").is_hidden()  # no « Me prévenir quand c'est mon tour » in a finished game

    # A worker updates both ratings once; each page hears it and tells it, with no reload.
    for page in (north, south):
        page.wait_for_selector("#clock >> text=Les classements ont été mis à jour.")
    assert store.settle_rating(game_id) is None
    ratings = {row.name: row.rating for row in store.ratings.leaderboard("manoeuvre")}
    assert {name: rating.games for name, rating in ratings.items()} == {"Sinouhé": 1, "Hatchepsout": 1}
    winner = "Sinouhé" if seat == "south" else "Hatchepsout"
    assert ratings[winner].mu > ratings[({"Sinouhé", "Hatchepsout"} - {winner}).pop()].mu

    for page in (north, south):  # a desktop and a phone; with no game named, the first where someone is rated
        page.goto(f"{base}/leaderboards")
        page.wait_for_selector("body[data-ready='true']")
        assert page.url.endswith("/leaderboards?ruleset=manoeuvre")
        rows = page.locator("#leaderboard tbody tr")
        assert rows.count() == 2 and winner in rows.nth(0).inner_text() and "?" in rows.nth(0).inner_text()
        assert_page_clean(page, "fr")
        page.goto(f"{base}/players/{winner}")
        page.wait_for_selector("body[data-ready='true']")
        assert page.locator(".rating-card svg.rating-chart circle").count() == 2
        assert "1 partie classée" in page.inner_text(".player-ratings")
        assert_page_clean(page, "fr")

    # The player page's finished game opens its replay; « Mes parties » offers to replay it, not to resume it, and
    # counts the players by link of a campaign (issue 59).
    north.click(".player-game a.replay")
    north.wait_for_selector("#board[data-replay='0']")
    campaign = store.create_game("royaumes")
    store.accounts.claim(campaign.id, SEAT, "koush", store.accounts.by_name("Sinouhé").id)
    north.goto(f"{base}/")
    finished = north.locator(f'#my-games .my-game[data-game="{game_id}"]')
    finished.locator("a.replay").wait_for()
    assert "Reprendre" not in finished.inner_text()
    assert finished.locator("a.replay").get_attribute("href") == f"/play/{game_id}?replay"
    versus = north.locator(f'#my-games .my-game[data-game="{campaign.id}"] .my-game-versus')
    assert versus.inner_text() == " · contre 3 joueurs par lien"


def test_the_waiting_side_claims_the_win_on_time_from_its_page(browser, site):
    base, store = site
    north = signed_in(browser, site, "Amenemhat", DESKTOP)
    south = signed_in(browser, site, "Senousret", PHONE)
    # A rated game with a day per move, made beside the server (which has not read it yet): the north has
    # deployed, the south placed one element and no more (a game counts once each side moved), and the south's
    # turn began two days ago (the clock shortened).
    created = store.create_game("manoeuvre", table=TableSettings(seconds_per_move=DAY, rated=True))
    for seat, name in (("north", "Amenemhat"), ("south", "Senousret")):
        store.accounts.claim(created.id, SEAT, seat, store.accounts.by_name(name).id)
    store.act(created.id, "south", 0, {"type": "deploy", "element": "s1", "cell": SOUTH_CELLS[0]})
    for version, cell in enumerate(NORTH_CELLS, start=1):
        store.act(created.id, "north", version, {"type": "deploy", "element": f"n{version}", "cell": cell})
    store.act(created.id, "north", len(NORTH_CELLS) + 1, {"type": "ready"})
    with store.engine.begin() as conn:
        conn.execute(update(schema.games).where(schema.games.c.id == created.id)
                     .values(created_at=datetime.now(UTC) - timedelta(days=2)))
    store.cache.drop(created.id)  # the server's own store: it reads the game again

    north.goto(f"{base}/")  # the lobby tells it among her games
    north.wait_for_selector(f'.my-game[data-game="{created.id}"] >> text=l\'adversaire n\'a pas joué à temps')
    north.goto(f"{base}/play/{created.id}")
    north.wait_for_selector("#claim-timeout")
    assert "Sud (Senousret) n'a pas joué à temps : tu peux réclamer la victoire." in north.inner_text("#clock")
    assert_page_clean(north, "fr")
    south.goto(f"{base}/play/{created.id}")
    south.wait_for_selector("#clock >> text=Ton temps est écoulé")
    assert south.locator("#claim-timeout").count() == 0
    assert_page_clean(south, "fr")
    north.click("#claim-timeout")
    north.wait_for_selector("#ending >> text=Sud n'a pas joué à temps. Victoire !")
    for page in (north, south):  # the claim and then the ratings reach both open pages, with no reload
        page.wait_for_selector("#clock >> text=Les classements ont été mis à jour.")
    ratings = {row.name: row.rating for row in store.ratings.leaderboard("manoeuvre")}
    assert ratings["Amenemhat"].mu > ratings["Senousret"].mu


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE])
def test_the_leaderboards_read_clean_with_and_without_ratings(browser, site, lang, viewport):
    base, _ = site
    page = browser.new_page(viewport=viewport)
    page.add_init_script(f"localStorage.setItem('kadesh.lang', '{lang}')")
    page.goto(f"{base}/leaderboards?ruleset=front")  # nobody is rated in Front here
    page.wait_for_selector("body[data-ready='true']")
    assert page.locator("#leaderboard-empty").is_visible()
    assert_page_clean(page, lang)
    page.click('.leaderboard-tabs button[data-ruleset="manoeuvre"]')
    page.wait_for_selector('.leaderboard-tabs button[data-ruleset="manoeuvre"][aria-pressed="true"]')
    assert "ruleset=manoeuvre" in page.url and page.locator('.leaderboard-tabs [aria-pressed="true"]').count() == 1
    assert_page_clean(page, lang)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_public_game_is_watched_live_from_the_watch_list_without_any_link(browser, site, lang):
    base, store = site
    watched = store.create_game("manoeuvre", table=TableSettings(seconds_per_move=DAY, public=True))
    private = store.create_game("manoeuvre")
    for viewport in (DESKTOP, PHONE):
        page = browser.new_page(viewport=viewport)
        page.add_init_script(f"localStorage.setItem('kadesh.lang', '{lang}')")
        page.goto(f"{base}/watch")
        page.wait_for_selector("body[data-ready='true']")
        entry = page.locator(f'.watched-game[data-game="{watched.id}"]')
        assert entry.count() == 1 and page.locator(f'.watched-game[data-game="{private.id}"]').count() == 0
        assert ("1 jour par coup" if lang == "fr" else "1 day per move") in entry.inner_text()
        assert_page_clean(page, lang)
    entry.locator("a").click()
    page.wait_for_function("() => document.querySelector('#board')?.dataset.version === '0'")
    assert ("Spectateur" if lang == "fr" else "Spectator") in page.inner_text("#who")
    assert_page_clean(page, lang)
    with store.game(watched.id) as game:
        version = game.version
    store.act(watched.id, "north", version, {"type": "resign"})
    page.wait_for_function("() => document.querySelector('#board')?.dataset.version === '1'")


def test_two_accounts_find_each_other_with_find_an_opponent(browser, site):
    """The speed is chosen and said while waiting; where another account waits is shown beside its speed, and
    offered to a player waiting at another: nobody waits at 1 and 3 days without knowing it."""
    base, store = site
    first = signed_in(browser, site, "Djéser", DESKTOP)
    second = signed_in(browser, site, "Snéfrou", PHONE)
    first.goto(f"{base}/")
    first.wait_for_selector("body[data-ready='true']")
    first.select_option("#pair-days-front", "3")
    first.click("#pair-front")
    first.wait_for_selector("#pairing-front[data-waiting='true'] >> text=En attente d'un adversaire à 3 jours par "
                            "coup depuis")
    assert_page_clean(first, "fr")
    first.reload()  # the wait goes on across a reload
    first.wait_for_selector("#pairing-front[data-waiting='true']")
    second.goto(f"{base}/")
    second.wait_for_selector("body[data-ready='true']")
    assert second.locator("#pair-days-front option[value='3']").inner_text() == "3 jours par coup · 1 joueur attend"
    second.select_option("#pair-days-front", "1")  # another speed, chosen: the page keeps it
    second.click("#pair-front")
    offer = second.locator("#pairing-front[data-waiting='true'] .pairing-elsewhere")
    offer.wait_for()
    assert "En attente d'un adversaire à 1 jour par coup" in second.inner_text("#pairing-front")
    assert "1 joueur attend à 3 jours par coup." in offer.inner_text()
    offer.locator("button").click()  # « Jouer à 3 jours par coup »
    second.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
    first.wait_for_function("() => document.querySelector('#board')?.dataset.version !== undefined")
    assert first.url.split("/play/")[1] == second.url.split("/play/")[1]
    assert "3 jours par coup · Partie classée" in first.inner_text("#clock")
    game_id = first.url.split("/play/")[1]
    names = store.accounts.seat_names(game_id)
    assert sorted(names.values()) == ["Djéser", "Snéfrou"] and names["blue"] == "Djéser"  # the longer wait: first seat
    second.goto(f"{base}/")  # among her games: begun, no « last move » before any move
    line = second.locator(f'.my-game[data-game="{game_id}"] .my-game-when')
    line.wait_for()
    assert "commencée le" in line.inner_text() and "dernier coup" not in line.inner_text()


def test_a_player_goes_on_vacation_and_comes_back_from_the_account_page(browser, site):
    base, store = site
    page = signed_in(browser, site, "Ouserkaf", PHONE)
    page.goto(f"{base}/account")
    page.wait_for_selector("#vacation-form")
    assert page.inner_text("#vacation-left") == "Il te reste 14 jours de vacances cette année."
    page.select_option("#vacation-days", "3")
    page.click("#vacation-go")
    page.wait_for_selector("#vacation-state >> text=En vacances jusqu'au")
    # What is true while away (issue 59): the clocks stand still, and the stay's three days are counted already.
    assert "tes horloges sont arrêtées jusque-là" in page.inner_text("#vacation-state")
    assert page.inner_text("#vacation-left").startswith("Ces vacances comptées, il te reste 11 jours cette année")
    assert_page_clean(page, "fr")
    assert store.vacations.away_until(store.accounts.by_name("Ouserkaf").id) is not None
    page.click("#vacation-back")
    page.wait_for_selector("#vacation-form")
    assert store.vacations.away_until(store.accounts.by_name("Ouserkaf").id) is None


def test_the_creator_takes_a_game_out_of_the_open_games_from_its_page(browser, site):
    base, store = site
    other = browser.new_page(viewport=DESKTOP)  # another player, on the lobby all along
    other.goto(f"{base}/")
    other.wait_for_selector("body[data-ready='true']")
    page = signed_in(browser, site, "Néferkarê", PHONE)
    page.goto(f"{base}/")
    page.wait_for_selector("body[data-ready='true']")
    page.click("#open-bataille")
    page.wait_for_selector("#clock >> text=La partie attend ses joueurs")
    assert_page_clean(page, "fr")
    game_id = page.url.split("/play/")[1].split("#")[0].split("?")[0]
    back = "document.dispatchEvent(new Event('visibilitychange'))"  # the player comes back to the lobby's tab
    other.evaluate(back)
    other.locator(f'.open-game[data-game="{game_id}"]').wait_for()  # the list looks again: no reload
    page.click("#close-open")
    page.wait_for_function("() => !document.querySelector('.clock-open')")
    assert store.open_seats.of_game(game_id) == []
    # Withdrawn before anyone came, the game is cancelled (as a cancelled seek leaves no game): the page says so,
    # no clock, no rematch; « Mes parties » and « En cours » hold no game to play in it.
    verdict = page.locator("#ending .verdict")
    verdict.wait_for()
    assert verdict.inner_text().startswith("Partie annulée : elle a été retirée des parties ouvertes")
    assert page.locator("#ending #rematch").count() == 0 and page.locator("#clock .clock-due").count() == 0
    assert "doit jouer" not in page.inner_text("body")
    assert page.locator("#orders-title").count() == 0  # no orders to give in a game over
    page.goto(f"{base}/")
    listed = page.locator(f'#my-games .my-game[data-game="{game_id}"]')
    listed.wait_for()
    assert "annulée" in listed.inner_text() and "à toi de jouer" not in listed.inner_text()
    page.goto(f"{base}/players/N%C3%A9ferkar%C3%AA")  # his page says cancelled, not « terminée »
    page.wait_for_selector("body[data-ready='true']")
    assert "annulée" in page.inner_text(".player-game") and "terminée" not in page.inner_text(".player-game")
    page.goto(f"{base}/watch")
    page.wait_for_selector("body[data-ready='true']")
    assert page.locator(f'[data-game="{game_id}"]').count() == 0
    other.evaluate(back)
    other.locator(f'.open-game[data-game="{game_id}"]').wait_for(state="detached")
