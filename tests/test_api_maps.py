"""The maps' API (issue 61): a map checked and previewed as the engine reads it, drafts kept in an account and
published on the shelf, games opened on a published map, and what another account, an anonymous client or two
requests at once cannot do to a map."""

from __future__ import annotations

import threading
import tomllib
from concurrent.futures import ThreadPoolExecutor
from importlib import resources

import pytest
from sqlalchemy import update
from typer.testing import CliRunner

from kadesh.cli import app as cli
from kadesh.rules.front import scenario as front
from kadesh.server.app import create_app
from kadesh.server.identity import COOKIE
from kadesh.server.rates import RatePolicy
from kadesh.store import Store, schema
from kadesh.store.backup import dump, restore
from kadesh.store.maps import MAPS_PER_PAGE, Checked, MapRefused
from tests.asgi_client import TestClient
from tests.webauthn_support import ORIGIN

SMALL = resources.files("kadesh.rules.front").joinpath("scenarios", "test_small.toml").read_text(encoding="utf-8")
DELTA = resources.files("kadesh.rules.royaumes").joinpath("scenarios", "delta.toml").read_text(encoding="utf-8")
ON_WATER = SMALL.replace('cell = "A2"', 'cell = "F1"', 1)  # the truck on the river
EVIL = {"Origin": "https://evil.example"}


@pytest.fixture
def shelf(db):
    """The store, and a way to open a client signed in as a new account (or an anonymous one, ``None``)."""
    store = Store(db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited())
    with TestClient(app, base_url=ORIGIN):

        def client(name: str | None = None) -> TestClient:
            device = TestClient(app, base_url=ORIGIN)
            if name is not None:
                player = store.accounts.create_player(name, "fr")
                device.cookies.set(COOKIE, store.accounts.open_session(player.id))
            return device

        yield store, client
    store.close()


def draft(client: TestClient, toml: str = SMALL, ruleset: str = "front", name: str = "Le gué") -> dict:
    made = client.post("/api/maps", json={"ruleset": ruleset, "name": name, "description": "Un passage.",
                                          "toml": toml})
    assert made.status_code == 201, made.text
    return made.json()


# -- check and preview ---------------------------------------------------------------------------------------------

def test_a_check_answers_the_engines_fault_on_its_cell_and_the_document(shelf):
    _, client = shelf
    anyone = client()
    answer = anyone.post("/api/maps/check", json={"ruleset": "front", "toml": ON_WATER}).json()
    try:
        front.parse(ON_WATER)
    except Exception as refused:  # noqa: BLE001 - the engine's own words are the point
        engine = refused
    assert answer["playable"] is False and answer["size"] == {"columns": 10, "rows": 6}
    assert answer["faults"] == [{"where": "units[2].cell", "cell": "F1", "message": engine.fr,
                                 "message_en": engine.en}]
    assert answer["document"] == tomllib.loads(ON_WATER)
    fixed = dict(answer["document"], units=[*answer["document"]["units"]])
    fixed["units"][1] = {**fixed["units"][1], "cell": "A2"}
    again = anyone.post("/api/maps/check", json={"ruleset": "front", "document": fixed}).json()
    assert again["playable"] is True and again["faults"] == [] and again["players"] == 2
    assert tomllib.loads(again["toml"]) == fixed


def test_a_check_of_a_text_that_is_not_toml_has_no_document_and_a_body_of_another_shape_is_refused(shelf):
    _, client = shelf
    anyone = client()
    answer = anyone.post("/api/maps/check", json={"ruleset": "royaumes", "toml": "[map\nrows = 1"}).json()
    assert answer["document"] is None and answer["size"] is None and answer["faults"][0]["cell"] is None
    assert "TOML" in answer["faults"][0]["message"]
    for body in ({"ruleset": "manoeuvre", "toml": SMALL}, {"ruleset": "front"},
                 {"ruleset": "front", "toml": SMALL, "document": {}}, {"ruleset": "front", "document": {"a": None}}):
        assert anyone.post("/api/maps/check", json=body).status_code == 422, body
    huge = {"x" * 20_000: {f"k{n}": {"a": 1} for n in range(2_000)}}  # 54 KB of JSON, 40 MB of TOML headers
    refused = anyone.post("/api/maps/check", json={"ruleset": "front", "document": huge})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_document"
    deep = '{"ruleset": "front", "document": ' + '{"a": ' * 500 + "1" + "}" * 501  # pickling it would recurse
    refused = anyone.post("/api/maps/check", content=deep, headers={"Content-Type": "application/json"})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_document"
    too_long = anyone.post("/api/maps/check", json={"ruleset": "front", "toml": "#" * (front.MAX_TEXT + 1)}).json()
    assert not too_long["playable"] and "60000" in too_long["faults"][0]["message"]
    assert anyone.post("/api/maps/check", json={"ruleset": "front", "toml": "#" * 70_000}).status_code == 413


def test_a_preview_is_what_the_seat_sees_at_the_start_of_a_game(shelf):
    _, client = shelf
    anyone = client()
    seen = anyone.post("/api/maps/preview", json={"ruleset": "front", "toml": SMALL, "seat": "blue"}).json()
    game = anyone.post("/api/games", json={"ruleset": "front", "options": {"scenario_toml": SMALL}}).json()
    view = anyone.get(f"/api/games/{game['id']}", headers={"Authorization": f"Bearer {game['seats']['blue']['token']}"})
    assert seen == {"seat": "blue", "view": view.json()["view"]}
    kingdom = anyone.post("/api/maps/preview", json={"ruleset": "royaumes", "toml": DELTA, "seat": "bouto"})
    assert kingdom.status_code == 200 and kingdom.json()["view"]["ruleset"] == "royaumes"
    refused = anyone.post("/api/maps/preview", json={"ruleset": "front", "toml": ON_WATER, "seat": "blue"})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_scenario"
    nobody = anyone.post("/api/maps/preview", json={"ruleset": "front", "toml": SMALL, "seat": "green"})
    assert nobody.status_code == 422 and nobody.json()["code"] == "unknown_seat"


# -- the shelf -------------------------------------------------------------------------------------------------

def test_a_draft_is_published_played_counted_and_unpublished_while_games_keep_their_copy(shelf):
    store, client = shelf
    author, player = client("Ahmès"), client("Tiyi")
    made = draft(author, ON_WATER)
    assert made["status"] == "draft" and made["playable"] is False and made["faults"][0]["cell"] == "F1"
    assert made["author"] == {"name": "Ahmès", "deleted": False}
    refused = author.post(f"/api/maps/{made['id']}/publish")
    assert refused.status_code == 422 and refused.json()["code"] == "bad_scenario"
    assert refused.json()["fr"] == made["faults"][0]["message"]
    assert player.post("/api/games", json={"ruleset": "front", "options": {"map": made["id"]}}).status_code == 404
    fixed = author.put(f"/api/maps/{made['id']}", json={"toml": SMALL}).json()
    assert fixed["playable"] is True and fixed["faults"] == [] and fixed["players"] == 2
    published = author.post(f"/api/maps/{made['id']}/publish").json()
    assert published["status"] == "published" and published["published"]
    listed = player.get("/api/maps?ruleset=front").json()
    assert [m["id"] for m in listed["maps"]] == [made["id"]] and listed["pages"] == 1
    assert listed["maps"][0]["size"] == {"columns": 10, "rows": 6} and listed["maps"][0]["players"] == 2
    assert player.get("/api/maps?ruleset=royaumes").json()["maps"] == []
    assert player.get("/api/maps?ruleset=fr%00nt").json()["maps"] == []
    game = player.post("/api/games", json={"ruleset": "front", "options": {"map": made["id"]},
                                           "bots": {"red": "maladroit"}})
    assert game.status_code == 201, game.text
    with store.game(game.json()["id"]) as played:
        assert played.options["scenario_toml"] == SMALL and "map" not in played.options
    assert player.get(f"/api/maps/{made['id']}").json()["played"] == 1
    assert author.put(f"/api/maps/{made['id']}", json={"name": "Autre"}).json()["code"] == "map_published"
    assert author.post(f"/api/maps/{made['id']}/unpublish").json()["status"] == "draft"
    assert player.get("/api/maps").json()["maps"] == []
    assert player.get(f"/api/maps/{made['id']}").status_code == 404
    with store.game(game.json()["id"]) as played:  # the game keeps its copy
        assert played.options["scenario_toml"] == SMALL
    assert [m["id"] for m in author.get("/api/maps/mine").json()] == [made["id"]]
    wrong = client("Kiya").post("/api/games", json={"ruleset": "royaumes", "options": {"map": made["id"]}})
    assert wrong.status_code == 404  # a draft again: nobody plays it


def test_a_map_of_another_game_or_beside_a_text_of_ones_own_is_refused(shelf):
    _, client = shelf
    author = client("Ahmès")
    made = draft(author)
    author.post(f"/api/maps/{made['id']}/publish")
    for options in ({"map": made["id"], "scenario_toml": SMALL}, {"map": 3}):
        answer = author.post("/api/games", json={"ruleset": "front", "options": options})
        assert answer.status_code == 422 and answer.json()["code"] == "bad_options", options
    other = author.post("/api/games", json={"ruleset": "royaumes", "options": {"map": made["id"]}})
    assert other.status_code == 422 and other.json()["code"] == "map_of_another_game"


def test_a_royaumes_map_seats_its_kingdoms_and_opens_an_open_game(shelf):
    _, client = shelf
    author, taker = client("Ahmès"), client("Tiyi")
    made = draft(author, DELTA, "royaumes", "Le Delta")
    assert made["players"] == 4 and made["size"] == {"columns": 12, "rows": 12}
    author.post(f"/api/maps/{made['id']}/publish")
    game = taker.post("/api/games", json={"ruleset": "royaumes", "options": {"map": made["id"]},
                                          "open": {"sais": "anyone"}})
    assert game.status_code == 201, game.text
    listed = taker.get("/api/maps?ruleset=royaumes").json()["maps"]
    assert listed[0]["played"] == 1 and listed[0]["players"] == 4
    waiting = next(g for g in taker.get("/api/open-games").json() if g["id"] == game.json()["id"])
    assert waiting["map"] == {"id": made["id"], "name": "Le Delta"} and "scenario_toml" not in waiting["options"]


def test_the_shelf_comes_in_pages(shelf):
    store, client = shelf
    author = client("Ahmès")
    for number in range(MAPS_PER_PAGE + 1):
        made = draft(author, name=f"Carte {number}")
        author.post(f"/api/maps/{made['id']}/publish")
    first, second = (author.get(f"/api/maps?page={page}").json() for page in (1, 2))
    assert (first["pages"], len(first["maps"]), len(second["maps"])) == (2, MAPS_PER_PAGE, 1)
    assert second["maps"][0]["name"] == "Carte 0"  # the last published first


# -- the attacker's look ---------------------------------------------------------------------------------------

def test_another_account_cannot_read_change_publish_or_delete_ones_map(shelf):
    _, client = shelf
    author, other, anonymous = client("Ahmès"), client("Tiyi"), client()
    made = draft(author)
    url = f"/api/maps/{made['id']}"
    for reader in (other, anonymous):
        assert reader.get(url).json()["code"] == "no_such_map"
    assert anonymous.get("/api/maps/a%00b").json()["code"] == "no_such_map"  # PostgreSQL's refusal is no answer
    for write in (author.post("/api/maps/a%00b/unpublish"), author.delete("/api/maps/a%00b"),
                  author.put("/api/maps/a%00b", json={"name": "x"}), author.post("/api/maps/a%00b/publish")):
        assert write.status_code == 404, write.text
    assert other.put(url, json={"name": "À moi"}).status_code == 404
    assert other.post(f"{url}/publish").status_code == 404
    assert other.delete(url).status_code == 404
    author.post(f"{url}/publish")
    assert other.get(url).status_code == 200 and anonymous.get(url).status_code == 200
    for refused in (other.put(url, json={"name": "À moi"}), other.post(f"{url}/unpublish"), other.delete(url)):
        assert refused.status_code == 403 and refused.json()["code"] == "not_the_author"
    assert other.get(url).json()["name"] == "Le gué"
    for write in (anonymous.post("/api/maps", json={"ruleset": "front", "name": "x", "toml": SMALL}),
                  anonymous.post(f"{url}/unpublish"), anonymous.delete(url), anonymous.put(url, json={"name": "x"}),
                  anonymous.post(f"{url}/report", json={"reason": "x"})):
        assert write.status_code == 401, write.text
    assert author.post(f"{url}/unpublish", headers=EVIL).status_code == 403  # another site's page, her cookie
    assert author.get(url).json()["status"] == "published"


def test_bad_names_oversized_bodies_and_unknown_games_are_refused(shelf):
    _, client = shelf
    author = client("Ahmès")
    for body in ({"ruleset": "front", "name": "a\u202eb", "toml": SMALL},
                 {"ruleset": "front", "name": " ", "toml": SMALL},
                 {"ruleset": "front", "name": "x" * 81, "toml": SMALL},
                 {"ruleset": "bataille", "name": "x", "toml": ""},
                 {"ruleset": "front", "name": "x", "toml": SMALL, "author": "Tiyi"},
                 {"ruleset": "front", "name": "x", "toml": SMALL + "\x00"},  # PostgreSQL keeps no NUL
                 {"ruleset": "front", "name": "x", "description": "a\x00b", "toml": SMALL}):
        assert author.post("/api/maps", json=body).status_code == 422, body
    big = author.post("/api/maps", json={"ruleset": "front", "name": "x", "toml": "#" * 70_000})
    assert big.status_code == 413
    assert author.get("/api/maps/mine").json() == []


def test_reports_reach_the_operators_once_per_account(shelf):
    store, client = shelf
    author, reader = client("Ahmès"), client("Tiyi")
    made = draft(author)
    assert reader.post(f"/api/maps/{made['id']}/report", json={"reason": "insulte"}).status_code == 404  # a draft
    author.post(f"/api/maps/{made['id']}/publish")
    for _ in range(2):
        assert reader.post(f"/api/maps/{made['id']}/report", json={"reason": "insulte"}).status_code == 204
    assert [(r.map_name, r.reason) for r in store.maps.reports()] == [("Le gué", "insulte")]
    assert store.maps.withdraw(made["id"]) and reader.get(f"/api/maps/{made['id']}").status_code == 404


def test_a_deleted_account_leaves_its_published_maps_by_nobody_and_takes_its_drafts(shelf):
    store, client = shelf
    author, reader = client("Ahmès"), client("Tiyi")
    kept, dropped = draft(author, name="Publiée"), draft(author, name="Brouillon")
    author.post(f"/api/maps/{kept['id']}/publish")
    exported = author.get("/api/account/export").json()
    assert sorted(m["name"] for m in exported["maps"]) == ["Brouillon", "Publiée"]
    assert author.delete("/api/account").status_code == 204
    shown = reader.get(f"/api/maps/{kept['id']}").json()
    assert shown["author"] == {"name": None, "deleted": True}
    assert reader.get("/api/maps").json()["maps"][0]["author"] == {"name": None, "deleted": True}
    assert store.maps.get(dropped["id"]) is None


def _at_once(calls):
    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def test_publications_and_withdrawals_at_once_leave_one_state(shelf):
    store, client = shelf
    author = client("Ahmès")
    made = draft(author)
    url = f"/api/maps/{made['id']}"
    for _ in range(5):
        answers = _at_once([lambda: author.post(f"{url}/publish"), lambda: author.post(f"{url}/publish")])
        assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
        assert {a.json()["status"] for a in answers} == {"published"}
        answers = _at_once([lambda: author.post(f"{url}/unpublish"), lambda: author.post(f"{url}/publish")])
        assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
        final = store.maps.get(made["id"])
        assert (final.status == "published") == (final.published_at is not None)
        listed = [m["id"] for m in author.get("/api/maps").json()["maps"]]
        assert listed == ([made["id"]] if final.published else [])
        author.post(f"{url}/unpublish")


def test_a_publication_is_of_the_text_it_checked(shelf):
    store, client = shelf
    author = client("Ahmès")
    made = draft(author)
    checked = store.maps.own(made["id"], store.accounts.by_name("Ahmès").id)
    author.put(f"/api/maps/{made['id']}", json={"toml": ON_WATER})  # changed after the check, before the write
    with pytest.raises(MapRefused) as refused:
        store.maps.publish(made["id"], checked.author_id, checked.revision, Checked(True, []))
    assert refused.value.code == "map_changed"
    assert store.maps.get(made["id"]).status == "draft"


def test_a_backup_carries_the_maps_and_their_reports(shelf, tmp_path):
    store, client = shelf
    author, reader = client("Ahmès"), client("Tiyi")
    published, kept_draft = draft(author, name="Publiée"), draft(author, ON_WATER, name="Brouillon")
    author.post(f"/api/maps/{published['id']}/publish")
    reader.post(f"/api/maps/{published['id']}/report", json={"reason": "insulte"})
    items = list(dump(store))
    restored = Store(f"sqlite:///{tmp_path / 'restored.sqlite3'}")
    try:
        report = restore(restored, items[1:])
        assert sorted(report.maps) == sorted([published["id"], kept_draft["id"]])
        for made in (published, kept_draft):
            assert restored.maps.get(made["id"]) == store.maps.get(made["id"])
        assert [r.reason for r in restored.maps.reports()] == ["insulte"]
        assert restore(restored, items[1:]).maps == []  # already there
    finally:
        restored.close()


def test_the_operators_read_the_reports_and_withdraw_a_map(shelf, db):
    store, client = shelf
    author, reader = client("Ahmès"), client("Tiyi")
    made = draft(author, name="Le [gué]")
    author.post(f"/api/maps/{made['id']}/publish")
    reader.post(f"/api/maps/{made['id']}/report", json={"reason": "une insulte"})
    listed = CliRunner().invoke(cli, ["map-reports", "--db", db])
    assert listed.exit_code == 0 and "« Le [gué] »" in listed.output and "une insulte" in listed.output
    withdrawn = CliRunner().invoke(cli, ["map-reports", "--db", db, "--withdraw", made["id"]])
    assert withdrawn.exit_code == 0 and f"{made['id']}: withdrawn" in withdrawn.output
    assert reader.get("/api/maps").json()["maps"] == []


def test_the_seats_of_a_map_of_the_shelf_are_its_kingdoms(shelf):
    _, client = shelf
    author = client("Ahmès")
    made = draft(author, DELTA, "royaumes", "Le Delta")
    author.post(f"/api/maps/{made['id']}/publish")
    seats = author.post("/api/rulesets/royaumes/seats", json={"options": {"map": made["id"]}}).json()
    assert seats["bot_seats"] == list(tomllib.loads(DELTA)["kingdoms"])
    assert author.post("/api/rulesets/royaumes/seats", json={"options": {"map": "nothing"}}).status_code == 404


def test_publications_and_withdrawals_on_two_servers_at_once_leave_one_state(db):
    """Two apps on one database: their in-process locks cannot help, only the database's conditional writes."""
    stores = [Store(db), Store(db)]
    apps = [create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited()) for store in stores]
    player = stores[0].accounts.create_player("Ahmès", "fr")
    with TestClient(apps[0], base_url=ORIGIN) as first, TestClient(apps[1], base_url=ORIGIN) as second:
        for client in (first, second):
            client.cookies.set(COOKIE, stores[0].accounts.open_session(player.id))
        url = f"/api/maps/{draft(first)['id']}"
        for _ in range(5):
            answers = _at_once([lambda: first.post(f"{url}/publish"), lambda: second.post(f"{url}/publish")])
            assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
            answers = _at_once([lambda: first.post(f"{url}/unpublish"), lambda: second.post(f"{url}/publish")])
            assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
            seen = [client.get(url).json() for client in (first, second)]
            assert seen[0]["status"] == seen[1]["status"] and (seen[0]["published"] is None) == (
                seen[0]["status"] == "draft")
            first.post(f"{url}/unpublish")
    for store in stores:
        store.close()


def test_a_published_map_the_engine_no_longer_takes_is_refused_when_played(shelf):
    """Published maps were checked then; a game is made through the engine's door all the same (its rules may have
    changed since): 422 bad_scenario, nothing counted."""
    store, client = shelf
    author = client("Ahmès")
    made = draft(author)
    author.post(f"/api/maps/{made['id']}/publish")
    with store.engine.begin() as conn:
        conn.execute(update(schema.maps).where(schema.maps.c.id == made["id"]).values(toml=ON_WATER))
    refused = author.post("/api/games", json={"ruleset": "front", "options": {"map": made["id"]}})
    assert refused.status_code == 422 and refused.json()["code"] == "bad_scenario"
    assert store.maps.get(made["id"]).played == 0
