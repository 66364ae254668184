"""Bataille on a field in Debian's Chromium (issue 23): two generals give their groups orders on the field and
fight the engagements to the end of the battle, each in their own browser; the battle table sets up a field,
works out its odds and starts a battle against a computer general; the pages read clean (no internal text,
no serious accessibility violation) in both languages, at the orders, in an engagement and at the end."""

from __future__ import annotations

import json

import pytest

from tests.browser_support import assert_page_clean, caught_up, running_server, wait_for_odds

playwright_api = pytest.importorskip("playwright.sync_api")
pytestmark = [pytest.mark.browser, pytest.mark.slow]

ORDER = 'button.order[data-order="advance"]'
DECISION = 'button.decision[data-decision="attack"], button.decision[data-decision="pursue"]'


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A server of the module's own, not the test process's shared one: its odds (ten requests a table) and
    tests/test_browser_bataille.py's share one address's rate of simulations (30 a minute), which the two modules'
    tables together exceed."""
    with running_server(str(tmp_path_factory.mktemp("field") / "field.sqlite3")) as (base, store):
        yield base, store


def over(page) -> bool:
    return page.locator("#battle-status").inner_text().endswith("terrain.")


def version(page) -> int:
    return int(page.locator("#board").get_attribute("data-version"))


def open_seat(browser, base: str, created, seat: str, lang: str = "fr"):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.add_init_script(f"localStorage.setItem('kadesh.lang', {json.dumps(lang)})")
    page.goto(f"{base}/play/{created.id}?token={created.seat_tokens[seat]}")
    page.locator(".field-battle").wait_for()
    return page


def click_and_wait(page, button) -> None:
    before = version(page)
    button.click()
    page.wait_for_function(f"() => Number(document.querySelector('#board').dataset.version) > {before}")


def test_two_generals_fight_a_field_battle_to_its_end(browser, site):
    base, store = site
    created = store.create_game("bataille", options={"field": "gue"}, seed="browser-field")
    pages = {seat: open_seat(browser, base, created, seat) for seat in ("north", "south")}
    field = pages["north"].locator("svg.field-map")
    assert field.locator("g.field-group").count() == 5  # the South's reinforcements are not in sight
    assert field.locator("rect.river").count() == 1 and field.locator("rect.lane").count() == 3
    assert_page_clean(pages["north"])
    orders = engagements = decisions = told = 0
    storied, read = False, set()
    for _ in range(400):
        if all(over(page) for page in pages.values()):
            break
        for page in pages.values():
            caught_up(page, store, created.id)
            if over(page):
                continue
            told += page.locator("#other-decided").count()  # issue 59: the other general has sent his orders
            story = page.locator(".turn-story h2")
            if not storied and story.count() and story.inner_text() not in read:
                read.add(story.inner_text())
                storied = read_the_turn_fight_by_fight(page) > 0
            if page.locator("#send-orders:enabled").count():  # every group has its order: read, then sent
                click_and_wait(page, page.locator("#send-orders"))
                page.locator("#send-orders").wait_for(state="detached")
            elif page.locator("button.order").count():
                # One read of the page (a push from the other general may redraw it between two reads).
                picked, drawn = page.evaluate("""() => [
                    document.querySelector('button.pick-group.chosen')?.dataset.group,
                    [...document.querySelectorAll('g.field-group.chosen')].map((g) => g.dataset.group)]""")
                if picked is None:
                    continue  # redrawn meanwhile without orders to give: look again
                assert drawn.count(picked) == 1, (picked, drawn)
                # chosen, not sent yet; a group caught in a melee that goes on may only hold (issue 45)
                (page.locator(ORDER) if page.locator(ORDER).count() else page.locator("button.order")).first.click()
                orders += 1
            elif page.locator("button.decision").count():
                if engagements == 0:
                    assert page.locator("#engagement-now").inner_text().startswith("Engagement")
                    assert page.locator("rect.lane.engaged").count() == 1
                    assert page.locator("path.swords").count() == 1
                    assert_page_clean(page)
                engagements += 1
                wanted = page.locator(DECISION)
                click_and_wait(page, wanted.first if wanted.count() else page.locator("button.decision").first)
                decisions += 1
        for page in pages.values():
            page.wait_for_timeout(30)
    assert all(over(page) for page in pages.values())
    assert orders >= 6 and decisions >= 1 and told and storied
    assert "Pendant le tour 1" in read  # the play-test: a first turn of moves alone was not told
    with store.game(created.id) as game:
        assert game.outcome is not None
    journal = pages["south"].locator("#journal").inner_text()
    assert "Engagement" in journal and "ou moins (1d20)" in journal and "Fin de la bataille" in journal
    assert "les Gardes du Nord" in journal or "les Chars du Nord" in journal  # the story names the groups
    verdict = pages["north"].locator("#verify-result[data-ok]")  # the check is asked once the end is drawn
    verdict.wait_for()
    assert verdict.get_attribute("data-ok") == "true", verdict.inner_text()
    for page in pages.values():
        assert page.locator(".battle-reason").inner_text()
        assert_page_clean(page)


def read_the_turn_fight_by_fight(page) -> int:
    """Issue 59: a turn's fights came in one burst, the first of them scrolled away in the journal. The turn is told
    at the top of the board, on screen: the orders and moves, then each fight alone, its lane lit on the field; a
    turn of moves alone is told too (the page moves on to the next turn at once). Returns the fights told."""
    story = page.locator(".turn-story")
    top = story.bounding_box()["y"]
    assert 0 <= top < page.viewport_size["height"]
    fights = 0
    while True:
        title = story.locator(".turn-story-step").inner_text()
        lines = story.locator(".turn-story-lines li").all_inner_texts()
        if title.startswith("Engagement"):
            fights += 1
            assert lines[0].startswith("Engagement")  # one fight, from its start
            assert sum(line.startswith("Engagement") for line in lines) == 1
            assert page.locator("svg.field-map rect.lane.story").count() == 1
        else:
            assert lines[0].startswith("Ordres")  # the turn's orders revealed, then the moves
        following = story.locator(".turn-story-next")
        if following.is_disabled():
            break
        following.click()
    story.locator(".turn-story-close").click()
    assert page.locator(".turn-story").count() == 0
    return fights


def test_a_general_picks_a_group_on_the_field_and_sees_its_march_and_range(browser, site):
    base, store = site
    created = store.create_game("bataille", options={"field": "kadesh"}, seed="browser-pick")
    for lang in ("fr", "en"):
        page = open_seat(browser, base, created, "north", lang)
        page.locator('g.field-group[data-group="n1"]').click()  # the archers in the west
        assert page.locator('button.pick-group.chosen').get_attribute("data-group") == "n1"
        assert page.locator("svg.field-map rect.reach").count() == 1  # their bow's range, ahead of them
        assert page.locator('button.order[data-order="close"]').count() == 1
        assert "180" in page.locator(".groups .group").first.inner_text()  # the chosen group's figures first
        page.locator('g.field-group[data-group="n2"]').click()  # the spearmen do not shoot
        assert page.locator("svg.field-map rect.reach").count() == 0
        assert page.locator('button.order[data-order="close"]').count() == 0
        assert_page_clean(page, lang)
        # issue 59: the rules panel opens on the field's section, and holds no one-against-one text
        page.click("#rules-toggle")
        rules = page.locator("#rules-body")
        assert rules.locator("details[open]").get_attribute("data-key") == "field"
        assert rules.locator("details").first.locator(".now").count() == 1
        for duel in ({"fr": "Tu ne déplaces rien", "en": "You move nothing"}[lang], "60 s"):
            assert duel not in rules.text_content()
        page.click("#rules-close")
        # issue 59: « Passer à l'ouest » from the east lane leads to the centre, and every word says so
        page.locator('g.field-group[data-group="n3"]').click()  # the chariots in the east
        west = page.locator('button.order[data-order="west"]')
        assert west.inner_text() == {"fr": "Passer au centre", "en": "Move to the centre"}[lang]
        assert {"fr": "couloir du centre", "en": "centre lane"}[lang] in west.get_attribute("title")
        west.click()
        while page.locator(ORDER).count():
            page.locator(ORDER).click()
        review = page.locator('.review-list li[data-group="n3"] .review-sentence').inner_text()
        assert review == {"fr": "Les Chars du Nord, à l'est, passent dans le couloir du centre.",
                          "en": "The North's Chariots, in the east, move into the centre lane."}[lang]
        page.close()


def test_the_battle_table_sets_up_a_field_and_starts_it_against_a_computer_general(browser, site):
    base, _ = site
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(base + "/")
    page.locator("#battle-table").wait_for()
    page.select_option("#table-field", "kadesh")
    assert page.locator("#north-troop").is_hidden() and page.locator("#table-shelter").is_hidden()
    assert "Levées (centre, en renfort au tour 3)" in page.locator("#north-army").inner_text()
    page.click("#run-odds")
    wait_for_odds(page)
    assert page.locator("#odds-games").get_attribute("data-games") == "1000"
    # issue 59: each battle ends one way, with who holds the field then; the ways add up to the battles, and to
    # each side's share; a night on a field is not « sans issue »; the table's help says the real count
    endings = page.locator("#odds-endings li")
    counts = [(int(li.get_attribute("data-games")), li.get_attribute("data-holds")) for li in endings.all()]
    assert sum(n for n, _ in counts) == 1000
    held = {side: round(float(page.locator(f"#odds-held rect.bar.{side}").get_attribute("data-share")) * 1000)
            for side in ("north", "south", "nobody")}
    assert all(abs(sum(n for n, h in counts if h == side) - held[side]) <= 1 for side in held)
    assert "sans issue" not in page.locator("#odds-endings").inner_text()
    assert all("terrain" in line for line in endings.all_inner_texts())
    assert "1 000 sur un champ" in page.locator("#panel-bataille-title + p").inner_text()
    assert_page_clean(page)
    page.select_option("#south-general", "bold")
    page.click("#run-battle")
    page.locator(".field-battle").wait_for()
    assert page.locator(ORDER).count() == 1 and page.locator("button.pick-group").count() == 3


def test_the_battle_table_builds_a_field_of_ones_own_and_a_bad_one_is_refused_in_words(browser, site):
    base, store = site
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(base + "/")
    page.locator("#battle-table").wait_for()
    page.select_option("#table-field", "custom")
    north = page.locator('.editor-side[data-side="north"]')
    while north.locator("button.remove-group").count():
        north.locator("button.remove-group").first.click()
    page.click("#run-battle")
    page.locator("#error").filter(has_text="aucun groupe").wait_for()  # the server's words, nothing created
    assert page.url.rstrip("/") == base  # nothing was created
    page.click("#north-add-group")
    north.locator("select.group-troop").select_option("guards")
    north.locator("select.group-lane").select_option("east")
    page.click("#north-add-group")
    north.locator("select.group-turn").nth(1).select_option("2")
    page.select_option("#field-night", "4")
    page.check("#south-river")
    assert_page_clean(page)
    page.click("#run-battle")
    page.locator(".field-battle").wait_for()
    game_id = page.url.split("/play/")[1].split("?")[0].split("#")[0]
    with store.game(game_id) as game:
        field = game.options["field"]
    assert [(g["side"], g["troop"], g["lane"], g["turn"]) for g in field["groups"] if g["side"] == "north"] == \
        [("north", "guards", "east", 0), ("north", "chariots", "centre", 2)]
    assert field["night"] == 4 and field["river"] == ["north", "south"] and field["name"] == "custom"
