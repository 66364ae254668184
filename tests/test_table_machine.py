"""The table as a state machine (Hypothesis' ``RuleBasedStateMachine``): accounts, sign-in links, rated games with
open seats, takes, claims, cut links, the computer, clocks, resignations, vacations, deletions and backups in any
order, through the HTTP API as players and attackers use it, on both databases. After every step:

- one account holds at most one seat (or Seigneur's place) of a game;
- every seat of a game has exactly one live link, and at most one account keeping it;
- a counted rating result moved only accounts that held their seats, each its own, never the computer's, and
  only in a game where each side made its own first move;
- a deleted account's name appears nowhere (accounts, messages, leaderboards);
- a backup restores the same table (checked when a step takes one).

``TABLE_STEPS`` and ``TABLE_EXAMPLES`` size the run (the suite's are small; a long run sets them higher).
"""

from __future__ import annotations

import itertools
import os
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, consumes, invariant, rule, run_state_machine_as_test

from kadesh.server.app import create_app
from kadesh.server.rates import RatePolicy
from kadesh.server.worker import Worker
from kadesh.store import Store, schema
from kadesh.store.backup import dump, restore
from tests.asgi_client import TestClient
from tests.webauthn_support import ORIGIN, make_account

STEPS = int(os.environ.get("TABLE_STEPS", "30"))
EXAMPLES = int(os.environ.get("TABLE_EXAMPLES", "6"))
NAMES = itertools.count()
LATER = timedelta(days=3)


class Table(RuleBasedStateMachine):
    """One app on one database for the whole run; each example adds its own accounts and games."""

    store: Store
    app = None
    restores = None

    accounts = Bundle("accounts")
    games = Bundle("games")

    def __init__(self) -> None:
        super().__init__()
        self.deleted: list[str] = []

    def device(self) -> TestClient:
        return TestClient(self.app, base_url=ORIGIN)

    # -- accounts ----------------------------------------------------------------------------------------------
    @rule(target=accounts)
    def sign_up(self):
        client = self.device()
        name = f"Scribe {next(NAMES)}"
        make_account(client, name, ORIGIN)
        return (client, name)

    @rule(account=consumes(accounts))
    def delete_account(self, account):
        client, name = account
        assert client.delete("/api/account").status_code == 204
        self.deleted.append(name)

    @rule(account=accounts, days=st.integers(1, 3))
    def take_a_vacation(self, account, days):
        client, _ = account
        assert client.post("/api/account/vacation", json={"days": days}).status_code in (200, 409, 422)

    @rule(account=accounts)
    def ask_for_a_sign_in_link_for_another(self, account):
        client, _ = account  # a link bound to this account: it may never open another
        assert client.post("/api/session/email", json={"address": f"x{next(NAMES)}@example.org"}).status_code in (
            202, 422)

    # -- games -------------------------------------------------------------------------------------------------
    @rule(target=games, creator=accounts, days=st.sampled_from([None, 1]))
    def open_a_rated_game(self, creator, days):
        client, _ = creator
        body = {"ruleset": "manoeuvre", "rated": True, "open": {"south": "accounts"}}
        if days:
            body["clock"] = {"days_per_move": days}
        made = client.post("/api/games", json=body)
        assert made.status_code == 201, made.text
        game = made.json()
        assert set(game["seats"]) == {"north"}
        return {"id": game["id"], "owner": game["owner"]["token"], "north": game["seats"]["north"]["token"],
                "creator": client}

    @rule(game=games, account=accounts)
    def take(self, game, account):
        client, _ = account
        answer = client.post(f"/api/games/{game['id']}/seats/south/take")
        assert answer.status_code in (200, 401, 409), answer.text

    @rule(game=games, account=accounts)
    def claim_the_creators_link(self, game, account):
        client, _ = account
        answer = client.post(f"/api/games/{game['id']}/claim", headers={"Authorization": f"Bearer {game['north']}"})
        assert answer.status_code in (200, 401, 409), answer.text  # 401: the link was cut meanwhile

    @rule(game=games, seat=st.sampled_from(["north", "south"]), level=st.sampled_from(["maladroit", None]))
    def give_a_seat_to_the_computer(self, game, seat, level):
        answer = game["creator"].put(f"/api/games/{game['id']}/bots/{seat}", json={"level": level},
                                     headers={"Authorization": f"Bearer {game['owner']}"})
        assert answer.status_code in (200, 401, 403, 409), answer.text
        assert level is None or answer.status_code != 200

    @rule(game=games, seat=st.sampled_from(["north", "south"]))
    def owner_cuts_a_link(self, game, seat):
        answer = game["creator"].post(f"/api/games/{game['id']}/tokens/{seat}",
                                      headers={"Authorization": f"Bearer {game['owner']}"})
        assert answer.status_code in (200, 401, 403, 409), answer.text
        if answer.status_code == 200 and seat == "north":
            game["north"] = answer.json()["token"]

    @rule(game=games, account=accounts)
    def move(self, game, account):
        client, _ = account
        gid = game["id"]
        seen = client.get(f"/api/games/{gid}")
        if seen.status_code != 200 or seen.json().get("role") != "seat" or seen.json()["outcome"]:
            return
        legal = client.get(f"/api/games/{gid}/legal").json().get("actions", [])
        moves = [a for a in legal if a["type"] == "deploy"] or [a for a in legal if a["type"] != "resign"]
        if moves:
            answer = client.post(f"/api/games/{gid}/actions", json={"expected_version": seen.json()["version"],
                                                                   "action": moves[0]})
            assert answer.status_code in (200, 409, 422), answer.text

    @rule(game=games, account=accounts)
    def resign(self, game, account):
        client, _ = account
        gid = game["id"]
        seen = client.get(f"/api/games/{gid}")
        if seen.status_code == 200 and seen.json().get("role") == "seat" and not seen.json()["outcome"]:
            answer = client.post(f"/api/games/{gid}/actions", json={"expected_version": seen.json()["version"],
                                                                   "action": {"type": "resign"}})
            assert answer.status_code in (200, 409), answer.text

    @rule(game=games, account=accounts)
    def claim_on_time_days_later(self, game, account):
        player = self.store.accounts.by_name(account[1])
        if player is None:
            return
        try:
            self.store.claim_on_time(game["id"], None, player_id=player.id, now=datetime.now(UTC) + LATER)
        except Exception as refused:  # noqa: BLE001 - every refusal of the store is a refusal here
            assert getattr(refused, "code", None) is not None, refused

    @rule()
    def settle_ratings(self):
        worker = Worker(self.store, budget=0.01)
        while worker.work_once():
            pass

    @rule(data=st.data())
    def back_up_and_restore(self, data):
        if self.restores is None or data.draw(st.integers(0, 4)) != 0:
            return  # a restore is the costliest step: about one in five times
        target = Store(self.restores())
        try:
            report = restore(target, itertools.islice(dump(self.store), 1, None))  # the header aside
            assert not report.refused
            for table in (schema.claims, schema.vacations, schema.ratings, schema.rating_results, schema.tokens):
                assert _rows(self.store, table) == _rows(target, table), table.name
        finally:
            target.close()

    # -- invariants --------------------------------------------------------------------------------------------
    @invariant()
    def one_seat_an_account_in_a_game(self):
        claims = _rows(self.store, schema.claims)
        held = [(c["game_id"], c["player_id"]) for c in claims if c["role"] != "owner"]
        assert len(held) == len(set(held))

    @invariant()
    def every_seat_has_one_live_link(self):
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(schema.tokens.c.game_id, schema.tokens.c.seat, sa.func.count())
                                .where(schema.tokens.c.role == "seat")
                                .group_by(schema.tokens.c.game_id, schema.tokens.c.seat)).all()
        assert all(count == 1 for _, _, count in rows)

    @invariant()
    def ratings_are_earned_by_the_seats_holders(self):
        with self.store.engine.connect() as conn:
            results = conn.execute(sa.select(schema.rating_results)).all()
            bots = {row.game_id for row in conn.execute(sa.select(schema.seat_bots.c.game_id))}
        for result in results:
            if not result.counted:
                continue
            assert result.game_id not in bots
            assert len(set(result.players.values())) == len(result.players) == 2
            game = self.store.rebuild(result.game_id)
            for seat in ("north", "south"):
                assert any(a["seat"] == seat and a["action"].get("type") not in ("resign", "claim_timeout")
                           for a in game.actions), (result.game_id, seat)

    @invariant()
    def a_deleted_name_appears_nowhere(self):
        if not self.deleted:
            return
        with self.store.engine.connect() as conn:
            names = set(conn.execute(sa.select(schema.players.c.name)).scalars())
            authors = set(conn.execute(sa.select(schema.messages.c.author)).scalars())
        board = {row.name for row in self.store.ratings.leaderboard("manoeuvre")}
        for name in self.deleted:
            assert name not in names and name not in authors and name not in board


def _rows(store: Store, table: sa.Table) -> list[dict]:
    with store.engine.connect() as conn:
        rows = [dict(row._mapping) for row in conn.execute(sa.select(table))]
    return sorted((dict(sorted(row.items())) for row in rows), key=repr)


def test_the_table_holds_its_promises_whatever_the_order(db, tmp_path, request):
    store = Store(db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited())
    counter = itertools.count()

    def restores() -> str:
        if db.startswith("sqlite"):
            return f"sqlite:///{tmp_path}/restored-{next(counter)}.sqlite3"
        return request.getfixturevalue("postgres").new_database()

    with TestClient(app, base_url=ORIGIN):
        Table.store, Table.app, Table.restores = store, app, staticmethod(restores)
        try:
            run_state_machine_as_test(Table, settings=settings(
                max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None, database=None,
                suppress_health_check=list(HealthCheck)))
        finally:
            Table.store = Table.app = Table.restores = None
    store.close()


pytestmark = pytest.mark.slow
