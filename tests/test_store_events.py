"""The store: a creation record plus append-only actions; state rebuilt by replay, cache never trusted."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, insert, inspect, select, text
from sqlalchemy.exc import IntegrityError

from kadesh.core import RuleError, commitment
from kadesh.store import GameNotFound, GameNotOver, StaleVersion, Store, json_value, schema, token_hash
from kadesh.store.db import NEWEST_REVISION, default_db_path, normalize_url
from kadesh.store.migrating import head_revision
from tests.kadesh_http import db_url, finished_game_in_store


@pytest.fixture
def store(db):
    opened = Store(db)
    yield opened
    opened.close()


def _first_deploys(store, game_id, seat, count):
    with store.game(game_id) as game:
        actions = [a for a in game.legal_actions(seat) if a["type"] == "deploy"]
    seen, plan = set(), []
    for action in actions:
        if action["element"] not in seen and all(p["cell"] != action["cell"] for p in plan):
            seen.add(action["element"])
            plan.append(action)
    return plan[:count]


def test_creation_record_keeps_a_256_bit_seed_and_its_commitment(store):
    created = store.create_game("manoeuvre", {"choice": "blade"})
    with store.engine.connect() as conn:
        row = conn.execute(select(schema.games).where(schema.games.c.id == created.id)).one()
    assert row.ruleset == "manoeuvre" and row.ruleset_version == "1"
    assert row.options == {"choice": "blade"}
    assert len(row.seed) == 64 and int(row.seed, 16) >= 0  # secrets.token_hex(32)
    assert row.commitment == commitment(row.seed) == created.commitment
    assert row.version == 0 and row.created_at is not None


def test_tokens_are_stored_as_sha256_only(store):
    created = store.create_game("manoeuvre")
    with store.engine.connect() as conn:
        rows = conn.execute(select(schema.tokens).where(schema.tokens.c.game_id == created.id)).all()
    assert {(r.role, r.seat) for r in rows} == {("seat", "north"), ("seat", "south"), ("spectator", None),
                                                ("owner", None)}
    assert {r.hash for r in rows} == {token_hash(t) for t in
                                      [*created.seat_tokens.values(), created.spectator_token, created.owner_token]}


def test_actions_are_appended_with_seq_and_events(store):
    created = store.create_game("manoeuvre")
    plan = _first_deploys(store, created.id, "north", 3)
    for version, action in enumerate(plan):
        assert store.act(created.id, "north", version, action).version == version + 1
    with store.engine.connect() as conn:
        rows = conn.execute(select(schema.actions).where(schema.actions.c.game_id == created.id)
                            .order_by(schema.actions.c.seq)).all()
    assert [r.seq for r in rows] == [1, 2, 3]
    assert [r.action for r in rows] == plan
    assert rows[0].events[0]["type"] == "deployed" and rows[0].events[0]["audience"] == ["north"]


def test_state_is_rebuilt_by_replay_when_the_cache_is_empty(store, db):
    created = store.create_game("manoeuvre")
    for version, action in enumerate(_first_deploys(store, created.id, "south", 5)):
        store.act(created.id, "south", version, action)
    with store.game(created.id) as game:
        before = game.view("south")
    store.cache.clear()
    with store.game(created.id) as game:
        assert game.view("south") == before
    other = Store(db)  # another process would see the same
    with other.game(created.id) as game:
        assert game.view("south") == before
    other.close()


def test_a_cache_behind_the_database_is_reloaded(store, db):
    created = store.create_game("manoeuvre")
    plan = _first_deploys(store, created.id, "north", 2)
    with store.game(created.id):
        pass  # cached at version 0
    other = Store(db)
    other.act(created.id, "north", 0, plan[0])
    other.close()
    with store.game(created.id) as game:
        assert game.version == 1
    assert store.act(created.id, "north", 1, plan[1]).version == 2


def test_stale_version_writes_nothing(store):
    created = store.create_game("manoeuvre")
    plan = _first_deploys(store, created.id, "north", 2)
    store.act(created.id, "north", 0, plan[0])
    with pytest.raises(StaleVersion) as stale:
        store.act(created.id, "north", 0, plan[1])
    assert stale.value.current == 1
    assert store.action_count(created.id) == 1 and store.current_version(created.id) == 1


def test_a_version_made_stale_only_by_what_the_seat_cannot_see_still_lands(store):
    """Issue 59: South's hidden placements do not make North's version stale (North saw nothing new: the page
    drew its click on what is still true); South's « prêt », which North sees, does."""
    created = store.create_game("manoeuvre")
    north = _first_deploys(store, created.id, "north", 2)
    south = _first_deploys(store, created.id, "south", 12)
    for version, action in enumerate(south):
        store.act(created.id, "south", version, action)
    assert store.act(created.id, "north", 0, north[0]).version == 13  # seen at 0, played at 12
    with pytest.raises(StaleVersion):  # North's own move since: a repeat never lands twice
        store.act(created.id, "north", 0, north[1])
    store.act(created.id, "south", 13, {"type": "ready"})
    with pytest.raises(StaleVersion):
        store.act(created.id, "north", 13, north[1])
    assert store.act(created.id, "north", 14, north[1]).version == 15


def test_a_refused_action_writes_nothing(store):
    created = store.create_game("manoeuvre")
    with pytest.raises(RuleError):
        store.act(created.id, "north", 0, {"type": "ready"})
    assert store.action_count(created.id) == 0
    with store.game(created.id) as game:
        assert game.version == 0


def test_losing_the_race_in_the_database_is_stale_and_drops_the_cache(store, db, monkeypatch):
    created = store.create_game("manoeuvre")
    plan = _first_deploys(store, created.id, "north", 2)
    slow = Store(db)
    with slow.game(created.id):
        pass
    store.act(created.id, "north", 0, plan[0])
    # ``slow`` read version 0 just before the other write landed (on PostgreSQL the read locks the game's row,
    # so that this cannot happen there; it can between SQLite's processes): only the database can refuse it.
    monkeypatch.setattr(slow, "_version_to_write", StaleOnce(slow._version_to_write, 0))
    with pytest.raises(StaleVersion) as stale:
        slow.act(created.id, "north", 0, plan[1])
    assert stale.value.current == 1  # as the database said after refusing the write
    assert slow.cache.get(created.id, 1) is None
    assert store.action_count(created.id) == 1
    slow.close()


class StaleOnce:
    """A read of the game's version that gives ``version`` the first time, whatever the database holds."""

    def __init__(self, real, version):
        self.real, self.stale = real, [(version,)]

    def run(self, conn, **values):
        if self.stale:
            return StaleCursor(self.stale.pop())
        return self.real.run(conn, **values)


class StaleCursor:
    def __init__(self, row):
        self.row = row

    def fetchone(self):
        return self.row


def test_the_database_refuses_a_second_action_with_the_same_seq(store):
    created = store.create_game("manoeuvre")
    store.act(created.id, "north", 0, _first_deploys(store, created.id, "north", 1)[0])
    row = {"game_id": created.id, "seq": 1, "seat": "north", "action": {"type": "ready"}, "events": [],
           "created_at": None}
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        conn.execute(insert(schema.actions).values(**row))


def test_export_needs_a_finished_game(store):
    created = store.create_game("manoeuvre")
    with pytest.raises(GameNotOver):
        store.export(created.id)
    assert store.export(created.id, force=True)["record"]["seed"]
    with pytest.raises(GameNotFound):
        store.export("nothing")


def test_export_of_a_finished_game_has_record_commitment_and_stored_events(store):
    game_id = finished_game_in_store(store, seed=1, min_rolls=2)
    export = store.export(game_id)
    assert export["commitment"] == commitment(export["record"]["seed"])
    assert export["outcome"]["reason"] == "resignation"
    assert len(export["events"]) == len(export["record"]["actions"]) == store.current_version(game_id)
    assert sum(e["type"] == "roll" for events in export["events"] for e in events) >= 2


def test_json_value_refuses_non_finite_numbers_and_deep_nesting():
    assert json_value({"a": [1, 2.5, "x", None]}) == {"a": [1, 2.5, "x", None]}
    deep: list = []
    for _ in range(40):
        deep = [deep]
    for bad in ({"x": float("nan")}, {"x": float("inf")}, {"x": deep}):
        with pytest.raises(RuleError):
            json_value(bad)


def test_migrations_create_the_tables_and_wal_on_a_new_file(tmp_path):
    opened = Store(db_url(tmp_path, "fresh.sqlite3"))
    opened.close()
    engine = create_engine(db_url(tmp_path, "fresh.sqlite3"))
    with engine.connect() as conn:
        assert set(inspect(conn).get_table_names()) >= {"games", "actions", "tokens", "seat_bots", "revoked_tokens",
                                                        "jobs", "subscriptions", "emails", "watches",
                                                        "players", "claims", "open_seats", "table_settings",
                                                        "ratings", "rating_results", "rating_changes", "pairing_queue",
                                                        "vacations",
                                                        "alembic_version"}
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head_revision()
        assert "due_at" in {column["name"] for column in inspect(conn).get_columns("games")}
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
    engine.dispose()
    Store(db_url(tmp_path, "fresh.sqlite3")).close()  # re-opening migrates nothing and fails nothing


def test_the_newest_revision_the_store_knows_is_the_last_migrations():
    """A database at NEWEST_REVISION is opened without Alembic: a new migration moves the constant too."""
    assert head_revision() == NEWEST_REVISION


def test_the_migrations_give_the_tables_of_schema_py(store):
    """Alembic's autogenerate finds nothing to change between the migrated database and ``schema.metadata``:
    columns, types, nullability, keys, indexes and constraints."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    with store.engine.connect() as conn:
        assert compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), schema.metadata) == []


def test_a_server_of_the_previous_release_queues_jobs_a_person_waits_for(store):
    """Migration 0007 adds the jobs' priority with a default: a job inserted without it, as servers of the
    previous release write them during a rolling restart, is taken to be a person's game's and is claimed."""
    game_id = store.create_game("manoeuvre").id
    with store.engine.begin() as conn:
        conn.execute(text("INSERT INTO jobs (kind, game_id, version, run_after, attempts, target) "
                          "VALUES ('bot', :game, 0, '2000-01-01T00:00:00.000000Z', 0, '')"), {"game": game_id})
        assert conn.execute(select(schema.jobs.c.priority)).scalar_one() == 0
    assert store.jobs.claim("w").game_id == game_id


def test_default_database_is_a_sqlite_file_in_the_user_data_folder():
    assert default_db_path().name == "kadesh.sqlite3"
    assert normalize_url(None) == f"sqlite:///{default_db_path()}"
    assert normalize_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"


def _open_at(url: str, start_at: float, report) -> None:
    """In a process of its own: open the store at ``start_at``, then send the error's traceback, or nothing."""
    import time
    import traceback

    time.sleep(max(0.0, start_at - time.time()))
    try:
        Store(url).close()
    except BaseException:
        report.send(traceback.format_exc())
    else:
        report.send("")


@pytest.mark.slow
def test_servers_opening_a_new_database_together_migrate_it_once(empty_db):
    """Several server processes starting at the same instant on an empty database all come up."""
    import multiprocessing
    import time

    # Forked from this process, Kadesh already imported (a new interpreter spent 0.45 s of CPU importing it),
    # each with connections of its own, opening the database at the same agreed instant.
    fork = multiprocessing.get_context("fork")
    start_at = time.time() + 1
    reports, processes = [], []
    for _ in range(4):
        receiving, sending = fork.Pipe(duplex=False)
        reports.append(receiving)
        processes.append(fork.Process(target=_open_at, args=(empty_db, start_at, sending)))
    for process in processes:
        process.start()
    for process, report in zip(processes, reports, strict=True):
        assert report.poll(120), "a process did not open the database in two minutes"
        assert report.recv() == ""
        process.join(30)
        assert process.exitcode == 0
    store = Store(empty_db)
    created = store.create_game("manoeuvre")
    assert store.exists(created.id)
    store.close()


def test_a_new_sqlite_file_and_its_folders_are_the_servers_users_alone(tmp_path):
    """The file holds every seat's link and unfinished games' seeds: 0600, its new folders 0700, and SQLite's
    WAL file the same as the database's (issue 40, finding 8)."""
    path = tmp_path / "new" / "deeper" / "kadesh.sqlite3"
    store = Store(f"sqlite:///{path}")
    created = store.create_game("manoeuvre")
    store.act(created.id, "north", 0, {"type": "deploy", "element": "n1", "cell": "e1"})
    modes = {p.name: p.stat().st_mode & 0o777 for p in (path, path.with_name(path.name + "-wal"), path.parent,
                                                        path.parent.parent)}
    store.close()
    assert modes == {"kadesh.sqlite3": 0o600, "kadesh.sqlite3-wal": 0o600, "deeper": 0o700, "new": 0o700}


def test_subscriptions_made_before_confirmation_existed_stay_confirmed(tmp_path):
    """Migration 0008: e-mail subscriptions of a database at 0007 keep receiving their notices (they have
    carried an unsubscribe link all along); new ones wait for their address's owner."""
    from alembic import command

    from kadesh.store.db import make_engine
    from kadesh.store.migrating import alembic_config

    url = db_url(tmp_path, "old.sqlite3")
    engine = make_engine(url)
    config = alembic_config(engine)
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0007")
        connection.execute(text("INSERT INTO games (id, ruleset, ruleset_version, options, seed, commitment, dice,"
                                " version, created_at) VALUES ('g', 'manoeuvre', '1', '{}', 's', 'c', '[]', 0,"
                                " '2026-12-01')"))
        connection.execute(text(
            "INSERT INTO subscriptions (id, game_id, seat, channel, address, style, lang, link, unsubscribe_key,"
            " created_at) VALUES ('s', 'g', 'north', 'email', 'n@example.org', '', 'fr', 'http://x/play/g', 'k',"
            " '2026-12-01')"))
    engine.dispose()
    opened = Store(url)
    try:
        assert opened.subscriptions.get("s").confirmed
    finally:
        opened.close()
