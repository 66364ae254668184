"""A game where the computer holds every seat is played only while someone watches it (issue 40): anyone may
open such games, and they kept the workers busy long after their client had left (bench/bench_abuse.py). A
server watches a game while a WebSocket is open on it there (kadesh.store.watches, kadesh.server.watching).
Run on SQLite and on PostgreSQL (the ``db`` fixture); the workers are this test's own calls to ``claim``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

from kadesh.server.app import create_app
from kadesh.store import Store, schema
from kadesh.store.watches import LEASE
from tests.asgi_client import TestClient
from tests.store_support import computer_only, watched
from tests.waiting import wait_until


@pytest.fixture
def store(db):
    opened = Store(db)
    yield opened
    opened.close()


def watchers(store: Store, game_id: str) -> list[str]:
    with store.engine.connect() as conn:
        return list(conn.execute(select(schema.watches.c.server).where(schema.watches.c.game_id == game_id))
                    .scalars())


def test_a_computer_only_game_nobody_watches_waits_and_a_persons_game_does_not(store):
    alone = computer_only(store)
    person = store.create_game("manoeuvre").id
    store.set_bot(person, "south", "maladroit")
    assert store.jobs.pending() == 2
    assert store.jobs.claim("w").game_id == person
    assert store.jobs.claim("w") is None  # the computer-only game's job stays queued, unclaimed
    assert store.jobs.pending() == 2
    watched(store, alone)
    assert store.jobs.claim("w").game_id == alone


def test_a_watch_lasts_its_lease_unless_renewed(store):
    game_id = computer_only(store)
    then = datetime.now(UTC) - timedelta(seconds=LEASE + 1)
    store.watches.open(game_id, "gone", now=then)  # a server that died a lease ago
    assert store.jobs.claim("w") is None and not store.watches.watched(game_id)
    store.watches.renew("gone", [game_id])
    assert store.watches.watched(game_id) and store.jobs.claim("w").game_id == game_id


def test_a_renewal_keeps_the_servers_open_games_and_drops_the_others(store):
    kept, dropped, others = computer_only(store), computer_only(store), computer_only(store)
    store.watches.open(kept, "one")
    store.watches.open(dropped, "one")
    store.watches.open(others, "two")
    store.watches.renew("one", [kept])
    assert (watchers(store, kept), watchers(store, dropped), watchers(store, others)) == (["one"], [], ["two"])
    store.watches.forget("two")
    assert watchers(store, others) == []
    store.watches.close(kept, "one")
    assert watchers(store, kept) == []


def test_a_websocket_open_on_the_game_is_a_watch_and_closing_it_ends_the_watch(db):
    app = create_app(db, local_workers=0)
    with TestClient(app) as client:
        created = client.post("/api/games", json={"ruleset": "manoeuvre",
                                                  "bots": {"north": "maladroit", "south": "maladroit"}}).json()
        game_id, store = created["id"], app.state.store
        spectator = created["spectator"]["token"]
        assert store.jobs.claim("w") is None
        with client.websocket_connect(f"/ws/games/{game_id}", subprotocols=["kadesh", f"kadesh.bearer.{spectator}"]) \
                as first, client.websocket_connect(f"/ws/games/{game_id}",
                                                   subprotocols=["kadesh", f"kadesh.bearer.{spectator}"]) as second:
            first.receive_json(), second.receive_json()
            assert watchers(store, game_id) == [app.state.watching.server]
            job = store.jobs.claim("w")
            assert job is not None and job.game_id == game_id
            store.jobs.postpone(job, "w", 0)  # given back: the test only looked
            second.close()
            wait_until(lambda: app.state.watching.sockets.get(game_id) == 1, what="the second socket closed")
            assert watchers(store, game_id) == [app.state.watching.server]  # one page still looks
        wait_until(lambda: watchers(store, game_id) == [], what="the watch ended with the last socket")
        assert store.jobs.claim("w") is None
    store.close()


def test_a_stopping_server_watches_nothing_any_more(db):
    app = create_app(db, local_workers=0)
    with TestClient(app) as client:
        store = app.state.store
        game_id = computer_only(store)
        store.watches.open(game_id, app.state.watching.server)  # as a socket left open at the stop would
        client.get("/health")
    assert watchers(store, game_id) == []
    store.close()
