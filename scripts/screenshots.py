"""Take the documentation's screenshots of every page, on a desktop (1280×800, what the player
sees first) and on a phone (390×844, the whole page): the lobby, Manœuvre (deployment with the
rules open, a battle after the other side's turn, the end with its rematch, the hot-seat hand-over),
Royaumes (a kingdom writing its orders, Imhotep's console, a spectator), Bataille, Front (each side,
by day and at night, a unit's orders, a shot's odds and a way's cost shown; against Général Maladroit after its
answer and at the battle's end), the map designer (the skirmish, a fault shown on its cell, the Nile of the four
kingdoms), and the page for a link that leads nowhere.

    python scripts/screenshots.py [--out docs/screenshots] [--only manoeuvre-battle,lobby]

Serves Kadesh on a temporary database, plays seeded openings through the store, and
photographs the pages in Debian's Chromium.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import update  # noqa: E402

from kadesh.core import all_rulesets  # noqa: E402
from kadesh.server.delivery import Settings  # noqa: E402
from kadesh.server.map_checks import check_map  # noqa: E402
from kadesh.store import schema  # noqa: E402
from kadesh.store.jobs import utc_text  # noqa: E402
from kadesh.store.maps import Checked  # noqa: E402
from kadesh.store.table import DAY, TableSettings  # noqa: E402
from tests.bataille_support import field_battle  # noqa: E402
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


CAMPAIGN_KINGDOM_EXTRA = "I15 -> I16\nguerre: Koush"


def campaign(store):
    """A Royaumes campaign after its first turn, Upper Egypt's next orders already in."""
    created = store.create_game("royaumes", seed="kadesh-screenshot")
    version = 0
    for seat, order in CAMPAIGN_TURN.items():
        version = store.act(created.id, seat, version, {"type": "orders", **order}).version
    version = store.act(created.id, "imhotep", version, {"type": "adjudicate"}).version
    store.act(created.id, "haute_egypte", version, {"type": "orders", "text": CAMPAIGN_KINGDOM_EXTRA})
    return created


def delta_campaign(store):
    """A campaign on the Delta after five turns of four computer kingdoms (played here, then stored)."""
    from kadesh.ai.royaumes import play_campaign

    kingdoms = ("bouto", "sais", "tanis", "heliopolis")
    played = play_campaign({k: "vizir" if k == "tanis" else "maladroit" for k in kingdoms}, 5, seed=4,
                           options={"scenario": "delta"})
    created = store.create_game("royaumes", seed="kadesh-screenshot-delta", options={"scenario": "delta"})
    for version, entry in enumerate(played.actions):
        store.act(created.id, entry["seat"], version, entry["action"])
    return created


def created_by_http(base: str, request: dict) -> dict:
    """A game opened as the lobby opens it, so that its computer seats start playing at once."""
    import json
    import urllib.request

    ask = urllib.request.Request(f"{base}/api/games", data=json.dumps(request).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(ask) as answer:
        return json.load(answer)


def seat_link(base: str, created, seat: str) -> str:
    return f"{base}/play/{created.id}?token={created.seat_tokens[seat]}"


def open_rules(page) -> None:
    page.click("#rules-toggle")


def select_first_north(page) -> None:
    page.locator("g.token.north:not(.acted)").first.click()


FRONT_AIR = [  # Blue's opening in the default battle
    {"type": "launch", "unit": "b38", "drone": "b39", "to": "E15"},  # the surveillance drone up beside its operator
    {"type": "launch", "unit": "b38", "drone": "b40", "to": "D16"},  # the bomb drone over its operator
    {"type": "move", "unit": "b36", "to": "H17"},  # the attack helicopter off its heliport, over a rocket launcher
]


def campaign_with_computers(page) -> None:
    """The campaign card with two kingdoms given to the computer, once created."""
    page.locator("#ruler-royaumes-basse_egypte").wait_for()
    page.select_option("#ruler-royaumes-basse_egypte", "vizir")
    page.select_option("#ruler-royaumes-libye", "maladroit")
    page.click("#campaign button[type=submit]")
    page.locator("#campaign-created").wait_for()


def front_in_the_air(store):
    """Front's default battle with aircraft in flight over the ground units, Blue to play."""
    created = store.create_game("front", seed="kadesh-screenshot")
    for version, action in enumerate(FRONT_AIR):
        store.act(created.id, "blue", version, action)
    return created


def select_blue_drone(page) -> None:
    page.click('.front-map-host [data-unit="b39"]')


def front_advance(store, game_id: str, turns: int) -> None:
    """Both sides of a Front battle play ``turns`` turns in all: each fires what it can at the ground and moves a
    few units towards the other side, then ends its turn (blue to play again when ``turns`` is even)."""
    from kadesh.core.grid import parse_map_cell

    with store.game(game_id) as game:
        version = game.version
        width = len(game.view("blue")["map"][0])

    def column(cell: str) -> int:
        return parse_map_cell(cell, width, 99)[0]

    for _ in range(turns):
        with store.game(game_id) as game:
            side = game.to_act()[0]
        forward = 1 if side == "blue" else -1
        for _ in range(8):
            with store.game(game_id) as game:
                legal = game.legal_actions(side)
                cells = {u["id"]: u["cell"] for u in game.view(side)["units"]}
            shots = [a for a in legal if a["type"] == "shoot" and "at" not in a]
            moves = [a for a in legal if a["type"] == "move"]
            if shots:
                choice = shots[0]
            elif moves:  # the step that gains the most ground towards the other side
                gains = [forward * (column(a["to"]) - column(cells[a["unit"]])) for a in moves]
                choice = moves[gains.index(max(gains))]
            else:
                break
            version = store.act(game_id, side, version, choice).version
        version = store.act(game_id, side, version, {"type": "end_turn"}).version


def front_day_red(store):
    """The default battle with Blue's aircraft up and Blue's turn over: Red's first turn, by day."""
    created = front_in_the_air(store)
    store.act(created.id, "blue", len(FRONT_AIR), {"type": "end_turn"})
    return created


def front_at_night(store, seed: str, turns: int):
    """The default battle after ``turns`` turns of advancing and firing: the fifth round is at night."""
    created = store.create_game("front", seed=seed)
    front_advance(store, created.id, turns)
    return created


def front_aim_or_move(page) -> None:
    """Choose a unit that can fire and aim at its target (the odds shown), else one that can move and point at a
    way (the path and its cost shown): the own units nearest the middle of the map's view, so a phone shows them."""
    page.wait_for_selector(".front-map-host [data-unit]")
    nearest = """(tried) => {
        const frame = document.querySelector('.fm-viewport').getBoundingClientRect();
        const [left, top] = [frame.left, frame.top];
        const [right, bottom] = [Math.min(frame.right, innerWidth), Math.min(frame.bottom, innerHeight - 120)];
        const inside = (b) => b.left >= left && b.right <= right && b.top >= top && b.bottom <= bottom;
        const far = (b) => Math.hypot(b.x - (left + right) / 2, b.y - (top + bottom) / 2);
        return [...document.querySelectorAll('.front-map-host g.unit.own:not(.spent)')]
          .filter((g) => !tried.includes(g.dataset.unit) && inside(g.getBoundingClientRect()))
          .sort((a, b) => far(a.getBoundingClientRect()) - far(b.getBoundingClientRect()))[0]?.dataset.unit ?? null;
    }"""
    tried = []
    for _ in range(12):
        unit = page.evaluate(nearest, tried)
        if unit is None:
            break
        tried.append(unit)
        page.click(f'.front-map-host [data-unit="{unit}"]')
        target = page.locator(".front-targets button").first
        if target.count():
            target.click()
            page.wait_for_selector(".front-odds:not(:has-text('…'))")
            return
        page.keyboard.press("Escape")
    page.click(f'.front-map-host [data-unit="{tried[0]}"]')
    reach = page.evaluate("""() => [...document.querySelectorAll('.front-map-host [data-cell]')]
        .filter((c) => (c.getAttribute('aria-label') || '').match(/atteignable|reachable/))
        .map((c) => c.dataset.cell)""")
    if reach:
        page.hover(f'.front-map-host [data-cell="{reach[len(reach) // 2]}"]')


def forward_order(game, side: str = "blue") -> dict | None:
    """What a side that presses forward does next: fire at what it can on the ground, else the move that gains the
    most ground towards the other side; None when nothing gains ground."""
    from kadesh.core.grid import parse_map_cell

    legal, view = game.legal_actions(side), game.view(side)
    width, forward = len(view["map"][0]), 1 if side == "blue" else -1
    cells = {u["id"]: u["cell"] for u in view["units"]}
    shots = [a for a in legal if a["type"] == "shoot" and "at" not in a]
    if shots:
        return shots[0]
    moves = [(forward * (parse_map_cell(a["to"], width, 99)[0] - parse_map_cell(cells[a["unit"]], width, 99)[0]), a)
             for a in legal if a["type"] == "move"]
    gain, best = max(moves, key=lambda pair: pair[0], default=(0, None))
    return best if gain > 0 else None


def front_against_the_computer(store, seed: str, options: dict, turns: int):
    """A Front battle against Général Maladroit: Blue plays ``turns`` turns (``forward_order``, eight orders at
    most), the computer answers each (the server's bot, seeded here so that the pictures come out the same each
    time); Blue to play again, or the battle over."""
    from kadesh.ai.base import make_bot

    created = store.create_game("front", seed=seed, options=options)
    bot = make_bot("front", "maladroit", seed=1)
    for _ in range(turns):
        for order in range(9):
            with store.game(created.id) as game:
                if game.outcome:
                    break
                version, action = game.version, forward_order(game) if order < 8 else None
            store.act(created.id, "blue", version, action or {"type": "end_turn"})
            if action is None:
                break
        for _ in range(500):
            with store.game(created.id) as game:
                if game.outcome or game.to_act() != ["red"]:
                    break
                version, action = game.version, bot.choose(game.view("red"), "red", [])
            store.act(created.id, "red", version, action)
    store.set_bot(created.id, "red", "maladroit")  # Blue to play: the computer waits its turn
    return created


def north_orders_at_turn(turn: int):
    return lambda game: game.state.turn >= turn and game.state.phase == "orders" and "north" in game.to_act()


def north_decides_in_a_fight(game) -> bool:
    return game.state.phase == "engage" and game.to_act() == ["north"]


def orders_reviewed(page) -> None:
    """Every group's order chosen: the turn's orders read again before they are sent."""
    while not page.locator("#send-orders").count():
        page.locator("button.order").first.click()
    page.wait_for_timeout(300)


def half_ordered(page) -> None:
    """One order given, the next group picked: what the field looks like while a general gives his orders."""
    page.locator("button.order").first.click()
    page.wait_for_timeout(300)


def subscribed_battle(base: str, store):
    """A battle whose North is told by e-mail (the last one sent), by Discord (the last one refused), and waits
    for a second address's confirmation."""
    battle = store.create_game("manoeuvre", seed="kadesh-screenshot-notices")
    play_opening(store, battle.id, fights_wanted=1)
    link = seat_link(base, battle, "north")
    mail = store.subscriptions.add(battle.id, "north", "email", "nord@exemple.org", "", "fr", link)
    store.subscriptions.confirm(mail.confirm_key)
    store.subscriptions.record(mail.id, None)
    store.subscriptions.add(battle.id, "north", "email", "nord.bis@exemple.org", "", "fr", link)  # not confirmed
    while store.jobs.claim("screenshots", lease=3600, notices=True):  # no mail server here: the confirmations
        pass  # are held back, as if on their way, so that no worker records their failure
    chat = store.subscriptions.add(battle.id, "north", "webhook", "https://discord.com/api/webhooks/1234/abcd",
                                   "discord", "fr", link, None)
    store.subscriptions.record(chat.id, "http_status:404")
    return battle


def waiting_confirmation(store, game_id: str):
    return next(s for s in store.subscriptions.of_seat(game_id, "north") if not s.confirmed)


def open_notices(page) -> None:
    page.click("#notices summary")
    page.fill("#notice-address", "nord.ter@exemple.org")
    page.locator("#notices").scroll_into_view_if_needed()


def dudo_table(store):
    """Dudo, the example plugin (installed with ``pip install -e examples/dudo``): the South has raised, the
    North picks a face."""
    created = store.create_game("dudo", seed="shot")
    for version, (seat, action) in enumerate([("north", {"type": "roll"}),
                                              ("north", {"type": "bid", "quantity": 2, "face": 4}),
                                              ("south", {"type": "bid", "quantity": 3, "face": 4})]):
        store.act(created.id, seat, version, action)
    return created


def pick_a_face(page) -> None:
    page.click(".faces button[data-face='5']")


def design_text(text: str):
    """The designer with ``text`` loaded through its own « Charger ce texte », the text's box closed again."""
    def prepare(page) -> None:
        page.wait_for_selector("body[data-ready]")
        page.click(".design-text summary")
        page.fill("#design-toml", text)
        page.click("#design-load")
        page.wait_for_selector("#design-verdict:is([data-state='playable'], [data-state='faults'])")
        page.click(".design-text summary")
        page.evaluate("window.scrollTo(0, 0)")
    return prepare


SKIRMISH = (Path(__file__).resolve().parent.parent / "kadesh/rules/front/scenarios/skirmish.toml").read_text("utf-8")
# The skirmish with Blue's mortar put in the river: the fault shown on its cell.
SKIRMISH_WET = SKIRMISH.replace('cell = "A3"', 'cell = "I5"', 1)
NILE = (Path(__file__).resolve().parent.parent / "kadesh/rules/royaumes/scenarios/nil.toml").read_text("utf-8")


def show_open_games(page) -> None:
    page.wait_for_selector("#open-games-section[data-loaded='true']", state="attached")
    page.locator("#open-games-section").scroll_into_view_if_needed()


def players(store, battle, finished, base: str) -> dict:
    """Néfertari, signed in (her session's secret), keeping North of the battle and South of the finished game
    (Ramsès keeps the battle's South); a game whose link she has just opened; a sign-in link for a new address, and
    the link that adds another address to her account."""
    accounts = store.accounts
    her = accounts.create_player("Néfertari", "fr", email="nefertari@exemple.org")
    rival = accounts.create_player("Ramsès", "fr")
    for label in ("iPhone", "Linux"):
        accounts.add_passkey(her.id, f"screenshot-{label}", "screenshot", 0, label)
    accounts.claim(battle.id, "seat", "north", her.id)
    accounts.claim(battle.id, "seat", "south", rival.id)
    accounts.claim(finished.id, "seat", "south", her.id)
    fresh = store.create_game("manoeuvre", seed="kadesh-screenshot-keep")
    waiting = store.create_game("manoeuvre", {"choice": "blade"}, seed="kadesh-screenshot-open")
    accounts.claim(waiting.id, "seat", "north", rival.id)
    store.open_seats.open(waiting.id, {"south": "anyone"})
    campaign_open = store.create_game("royaumes", seed="kadesh-screenshot-open")
    store.open_seats.open(campaign_open.id, {"koush": "accounts", "libye": "anyone"})
    store.pairing.seek(rival.id, "front", 3 * DAY, 25.0)  # Ramsès waits for an opponent at Front, 3 days a move
    return {"session": accounts.open_session(her.id), "fresh": fresh,
            "sign_in_key": accounts.new_sign_in_link("nouvelle@exemple.org", "fr", base),
            "add_address_key": accounts.new_sign_in_link("nefertari@maison.exemple", "fr", base, player_id=her.id)}


def rated_history(store) -> dict:
    """Néfertari's rated Manœuvre games against Ramsès and Khâemouaset (settled as a worker would), an open rated
    game with a day per move, and a game where Ramsès let his day run out (her page offers the claim)."""
    accounts = store.accounts
    her, rival = accounts.by_name("Néfertari"), accounts.by_name("Ramsès")
    third = accounts.create_player("Khâemouaset", "fr")
    rated = TableSettings(seconds_per_move=DAY, rated=True, public=True)
    results = [(her, rival, "south"), (third, her, "north"), (her, third, "south"), (rival, her, "south"),
               (her, rival, "south"), (third, rival, "north"), (her, third, "north"), (rival, third, "south")]
    for number, (north, south, loser) in enumerate(results):
        game = store.create_game("manoeuvre", seed=f"kadesh-screenshot-rated-{number}", table=rated)
        accounts.claim(game.id, "seat", "north", north.id)
        accounts.claim(game.id, "seat", "south", south.id)
        store.act(game.id, loser, 0, {"type": "resign"})
        store.settle_rating(game.id)
    waiting = store.create_game("manoeuvre", seed="kadesh-screenshot-open-rated", table=rated)
    accounts.claim(waiting.id, "seat", "north", third.id)
    store.open_seats.open(waiting.id, {"south": "accounts"})
    late = store.create_game("manoeuvre", seed="kadesh-screenshot-late", table=rated)
    accounts.claim(late.id, "seat", "north", her.id)
    accounts.claim(late.id, "seat", "south", rival.id)
    with store.game(late.id) as game:
        deployment = [a for a in game.legal_actions("north") if a["type"] == "deploy"]
    cells = iter(sorted({a["cell"] for a in deployment}))
    for version, element in enumerate(sorted({a["element"] for a in deployment})):
        store.act(late.id, "north", version, {"type": "deploy", "element": element, "cell": next(cells)})
    store.act(late.id, "north", store.current_version(late.id), {"type": "ready"})
    began = datetime.now(UTC) - timedelta(days=1, hours=3)  # Ramsès' turn began then: his day ran out
    with store.engine.begin() as conn:
        conn.execute(update(schema.games).where(schema.games.c.id == late.id)
                     .values(created_at=began, due_at=utc_text(began + timedelta(days=1))))
    store.cache.drop(late.id)
    return {"late": late}


def show_ratings(page) -> None:
    page.wait_for_selector("body[data-ready='true']")
    page.locator(".player-ratings").scroll_into_view_if_needed()


def council(store):
    """A campaign with councils: Koush's Seigneur and Chef militaire confer and draft, Upper Egypt offers an
    alliance, Imhotep answers everyone."""
    from kadesh.store import LORD, SEAT, Access
    from kadesh.store.messages import ALLIANCE, DRAFTED, TEXT, pair_channel

    kingdoms = ("basse_egypte", "haute_egypte", "koush", "libye")
    created = store.create_game("royaumes", seed="kadesh-screenshot-council", table=TableSettings(councils=True),
                                lords=kingdoms)
    shape = store.shape(created.id)
    lord, chief = Access(created.id, LORD, "koush"), Access(created.id, SEAT, "koush")
    say = store.messages.post
    say(created.id, shape, "table", TEXT, Access(created.id, SEAT, "imhotep"),
        "Bienvenue à tous. Les ordres du premier tour sont attendus avant la fin de la semaine.")
    say(created.id, shape, pair_channel("koush", "haute_egypte"), ALLIANCE, Access(created.id, SEAT, "haute_egypte"),
        "Koush, Thèbes vous propose une alliance contre la Libye. Voir https://example.org/carte pour nos plans.",
        None, {"with": "koush"})
    say(created.id, shape, "council:koush", TEXT, chief, "Les Libyens avancent vers l'oasis. Que faisons-nous ?")
    say(created.id, shape, "council:koush", TEXT, lord,
        "Tenons Napata, et acceptons l'alliance de Thèbes. Je t'écris un brouillon.")
    say(created.id, shape, "draft:koush", DRAFTED, lord, "H12 reste\nalliance: Haute-Égypte\npaix: Basse-Égypte, Libye")
    return created


def chatting(store):
    """A Manœuvre battle whose two commanders talk at the table."""
    from kadesh.store import SEAT, Access
    from kadesh.store.messages import TEXT

    created = store.create_game("manoeuvre", seed="kadesh-screenshot-chat")
    play_opening(store, created.id, fights_wanted=1)
    shape = store.shape(created.id)
    for seat, text in (("south", "Bonne partie ! Ta cavalerie est bien aventurée."),
                       ("north", "Merci, toi aussi. On verra si elle l'est trop."),
                       ("south", "Les règles sont ici, si besoin : https://fr.wikipedia.org/wiki/De_Bellis_Antiquitatis")):
        store.messages.post(created.id, shape, "table", TEXT, Access(created.id, SEAT, seat), text)
    return created


def replay_halfway(page) -> None:
    page.click("#replay-open")
    page.wait_for_selector("#board[data-replay='0']")
    last = int(page.get_attribute("#replay-slider", "max"))
    page.fill("#replay-slider", str(last - 4))  # the battle, past the deployment the public does not see
    page.wait_for_selector(f"#board[data-replay='{last - 4}']")


def replay_other_turn(page) -> None:
    """Front: the other side's last turn replayed from the summary, paused two orders in."""
    page.click(".front-replay-turn")
    page.locator("#replay").wait_for()
    start = int(page.get_attribute("#board", "data-replay"))
    page.wait_for_selector(f"#board[data-replay='{start + 2}']")
    page.click("#replay-play")  # pause


def show_council(page) -> None:
    page.click("[data-channel='council:koush']")


SHELF = (("front", "skirmish", "L'escarmouche du gué, revue",
          "Deux ponts, trois points : qui tient le gué tient la rive."),
         ("royaumes", "delta", "Le Delta des quatre nomes", "Quatre nomes autour des bras du Nil."),
         ("front", "test_small", "Petit terrain", "Pour une partie d'un quart d'heure."))


def shelf_of_maps(store) -> str:
    """The shelf of maps (issue 61): three maps published by Méryt, one played twice; the battle's id."""
    author = store.accounts.create_player("Méryt", "fr")
    published = []
    for ruleset, file_name, name, description in SHELF:
        folder = Path(__file__).resolve().parent.parent / "kadesh" / "rules" / ruleset / "scenarios"
        text = (folder / f"{file_name}.toml").read_text(encoding="utf-8")
        checked = Checked.of(check_map(ruleset, text))
        made = store.maps.create(author.id, ruleset, name, description, text, checked)
        published.append(store.maps.publish(made.id, author.id, made.revision, checked))
    battle = published[0]
    for _ in range(2):  # games opened on it, as POST /api/games with options.map opens them
        game = store.create_game(battle.ruleset, {"scenario_toml": battle.toml})
        store.maps.played(battle.id, game.id, battle.name)
    return battle.id


def shelf_drawn(page) -> None:
    """Every picture drawn: each is drawn as its card comes near the screen (a phone's whole page is taken)."""
    pictures = page.locator(".map-picture")
    for index in range(pictures.count()):
        pictures.nth(index).scroll_into_view_if_needed()
    page.wait_for_function("() => [...document.querySelectorAll('.map-picture')].every((p) => p.dataset.drawn)")
    page.evaluate("window.scrollTo(0, 0)")


def shots(base: str, store) -> dict:
    """name → (link, what to do on the page before the picture or None[, a session's secret: signed in])."""
    battle = store.create_game("manoeuvre", seed="kadesh-screenshot")
    play_opening(store, battle.id)
    store.set_bot(battle.id, "south", "maladroit")  # North to play: the computer waits its turn
    deployment = created_by_http(base, {"ruleset": "manoeuvre", "bots": {"south": "maladroit"}})
    finished = store.create_game("manoeuvre", seed="kadesh-screenshot-end")
    play_opening(store, finished.id, fights_wanted=1)
    with store.game(finished.id) as game:
        version = game.version
    store.act(finished.id, "north", version, {"type": "resign"})
    hotseat = store.create_game("manoeuvre", seed="kadesh-screenshot-hotseat")
    tokens = "&".join(f"{seat}={token}" for seat, token in hotseat.seat_tokens.items())
    royaumes = campaign(store)
    delta = delta_campaign(store)
    bataille = store.create_game("bataille", seed="kadesh-screenshot")
    field_orders = field_battle(store, "kadesh-screenshot-field", north_orders_at_turn(3))
    field_fight = field_battle(store, "kadesh-screenshot-field", north_decides_in_a_fight)
    field_end = field_battle(store, "kadesh-screenshot-field", lambda game: False)
    subscribed = subscribed_battle(base, store)
    front = front_in_the_air(store)
    front_red = front_day_red(store)
    night_blue = front_at_night(store, "kadesh-screenshot-night", 8)
    night_red = front_at_night(store, "kadesh-screenshot-night", 9)
    computer = front_against_the_computer(store, "kadesh-screenshot-computer", {"scenario": "default"}, 2)
    computer_end = front_against_the_computer(store, "kadesh-screenshot-computer", {"scenario": "test_small"}, 20)
    skirmish = front_against_the_computer(store, "kadesh-screenshot-seen", {"scenario": "skirmish"}, 3)
    signed = players(store, battle, finished, base)
    table = rated_history(store)
    councils, chat = council(store), chatting(store)
    shelf_map = shelf_of_maps(store)
    return {
        "lobby": (f"{base}/", None),
        "manoeuvre-deployment": (base + deployment["seats"]["north"]["link"], open_rules),
        "manoeuvre-battle": (seat_link(base, battle, "north"), select_first_north),
        "manoeuvre-end": (seat_link(base, finished, "south"), None),
        "manoeuvre-hotseat": (f"{base}/play/{hotseat.id}#{tokens}", None),
        "royaumes-create": (f"{base}/", campaign_with_computers),
        "royaumes-kingdom": (seat_link(base, royaumes, "koush"), None),
        "royaumes-delta": (seat_link(base, delta, "tanis"), None),
        "royaumes-console": (seat_link(base, royaumes, "imhotep"), None),
        "royaumes-spectator": (f"{base}/play/{royaumes.id}?token={royaumes.spectator_token}", None),
        "bataille": (seat_link(base, bataille, next(iter(bataille.seat_tokens))), None),
        "bataille-field": (seat_link(base, field_orders, "north"), half_ordered),
        "bataille-field-review": (seat_link(base, field_orders, "north"), orders_reviewed),
        "bataille-field-fight": (seat_link(base, field_fight, "north"), None),
        "bataille-field-end": (seat_link(base, field_end, "south"), None),
        "front": (seat_link(base, front, "blue"), select_blue_drone),
        "front-red": (seat_link(base, front_red, "red"), None),
        "front-night": (seat_link(base, night_blue, "blue"), front_aim_or_move),
        "front-night-red": (seat_link(base, night_red, "red"), front_aim_or_move),
        "front-computer": (seat_link(base, computer, "blue"), None),
        "front-computer-end": (seat_link(base, computer_end, "blue"), None),
        "front-seen": (seat_link(base, skirmish, "blue"), None),
        "front-seen-replay": (seat_link(base, skirmish, "blue"), replay_other_turn),
        "not-found": (f"{base}/play-this-link-is-cut", None),
        **({"dudo": (seat_link(base, dudo_table(store), "north"), pick_a_face)} if "dudo" in all_rulesets() else {}),
        "notices": (seat_link(base, subscribed, "north"), open_notices),
        "unsubscribe": (f"{base}/unsubscribe/{store.subscriptions.of_seat(subscribed.id, 'north')[0].unsubscribe_key}",
                        None),
        "confirm": (f"{base}/confirm/{waiting_confirmation(store, subscribed.id).confirm_key}", None),
        "account-sign-in": (f"{base}/account", None),
        "account": (f"{base}/account", None, signed["session"]),
        "lobby-account": (f"{base}/", None, signed["session"]),
        "player": (f"{base}/players/N%C3%A9fertari", None),
        "keep-seat": (seat_link(base, signed["fresh"], "north"), None, signed["session"]),
        "sign-in-link": (f"{base}/sign-in/{signed['sign_in_key']}", None),
        "sign-in-switch": (f"{base}/sign-in/{signed['sign_in_key']}", None, signed["session"]),
        "add-address-link": (f"{base}/sign-in/{signed['add_address_key']}", None),
        "open-games": (f"{base}/", show_open_games),
        "design": (f"{base}/design", design_text(SKIRMISH), signed["session"]),  # signed in: « Mes cartes »
        "design-fault": (f"{base}/design", design_text(SKIRMISH_WET)),
        "design-royaumes": (f"{base}/design?ruleset=royaumes", design_text(NILE)),
        "clock": (f"{base}/play/{table['late'].id}", None, signed["session"]),
        "leaderboard": (f"{base}/leaderboards?ruleset=manoeuvre", None),
        "player-ratings": (f"{base}/players/N%C3%A9fertari", show_ratings),
        "watch": (f"{base}/watch", None),
        "council-lord": (f"{base}/play/{councils.id}?token={councils.lord_tokens['koush']}", show_council),
        "council-chief": (seat_link(base, councils, "koush"), show_council),
        "chat": (seat_link(base, chat, "north"), None),
        "replay": (f"{base}/play/{finished.id}?token={finished.spectator_token}", replay_halfway),
        "maps": (f"{base}/maps", shelf_drawn),
        "lobby-map": (f"{base}/?map={shelf_map}", None),
    }


SIZES = {"": ({"width": 1280, "height": 800}, False), "-phone": ({"width": 390, "height": 844}, True)}


def photograph(browser, name: str, link: str, prepare, out: Path, session: str | None = None) -> None:
    for suffix, (viewport, whole) in SIZES.items():
        page = browser.new_page(viewport=viewport)
        if session is not None:
            site = urlsplit(link)
            page.context.add_cookies([{"name": "kadesh_session", "value": session, "url": f"{site.scheme}://{site.netloc}/"}])
        page.goto(link)
        page.wait_for_load_state("networkidle")
        if prepare is not None:
            prepare(page)
        page.wait_for_timeout(400)
        page.screenshot(path=str(out / f"{name}{suffix}.png"), full_page=whole)
        page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", default="docs/screenshots")
    parser.add_argument("--only", help="comma-separated names of the shots to take (default: all)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, running_server(
            f"{folder}/shots.sqlite3", notice_settings=Settings(smtp_host="courrier.exemple.org")) as (base, store):
        wanted = shots(base, store)
        names = args.only.split(",") if args.only else list(wanted)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for name in names:
                link, prepare, *session = wanted[name]
                photograph(browser, name, link, prepare, out, *session)
                print(f"{out / name}.png, {out / name}-phone.png")
            browser.close()


if __name__ == "__main__":
    main()
