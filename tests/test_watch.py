"""Games to watch (issue 42): the public games in progress, each as a spectator sees it, and never more.

Property: for random public games of Front (fog of war) and Royaumes (secret orders, with a marker only the
kingdom may read), ``GET /api/watch`` and a public game's page without any link (``GET /api/games/{id}``, its
journal) hold exactly the spectators' view and journal, and none of the strings that only a seat's view holds
(its units in the fog, its orders), nor the dice seed or a link."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kadesh.server.app import create_app
from kadesh.server.rates import RatePolicy
from kadesh.store import Store
from kadesh.store.table import TableSettings
from tests.asgi_client import TestClient

pytestmark = pytest.mark.slow

OPTIONS = {"front": {"scenario": "test_mixed"}, "royaumes": {}}


def leaves(value: Any) -> Iterator[str]:
    """Every string value of a JSON value (its keys are the API's own words)."""
    if isinstance(value, dict):
        for item in value.values():
            yield from leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item)
    elif isinstance(value, str):
        yield value


def play_randomly(store: Store, game_id: str, rng: random.Random, actions: int) -> None:
    """Random legal actions; a kingdom's orders carry a marker that only it (and Imhotep) may read."""
    for _ in range(actions):
        with store.game(game_id) as game:
            if game.outcome is not None or not game.to_act():
                return
            seat, version = rng.choice(game.to_act()), game.version
            legal = [a for a in game.legal_actions(seat) if a.get("type") not in ("resign", "end_campaign")]
        if not legal:
            return
        action = rng.choice(legal)
        if action.get("type") == "orders":
            action = {"type": "orders", "text": f"consigne secrète mk{rng.getrandbits(32):08x}"}
        store.act(game_id, seat, version, action)


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    store = Store(f"sqlite:///{tmp_path_factory.mktemp('watch')}/kadesh.sqlite3")
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited())
    with TestClient(app) as client:
        yield store, client
    store.close()


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(ruleset=st.sampled_from(sorted(OPTIONS)), seed=st.integers(0, 2**32 - 1), actions=st.integers(0, 40))
def test_a_watched_game_shows_the_spectators_view_and_nothing_a_seat_alone_sees(served, ruleset, seed, actions):
    store, client = served
    created = store.create_game(ruleset, OPTIONS[ruleset], table=TableSettings(public=True))
    private = store.create_game(ruleset, OPTIONS[ruleset])
    play_randomly(store, created.id, random.Random(seed), actions)
    with store.game(created.id) as game:
        public_view = json.loads(json.dumps(game.view(None)))
        seat_strings = {text for seat in game.seats for text in leaves(json.loads(json.dumps(game.view(seat))))}
        journal = game.journal(None)
        over, dice_seed = game.outcome is not None, game.seed
    secrets = seat_strings - set(leaves(public_view)) - set(game.seats)  # the seats' names are no secret
    assert secrets, "nothing hidden from spectators: the property would hold vacuously"
    secrets |= {*created.seat_tokens.values(), created.spectator_token, created.owner_token}
    if not over:
        secrets.add(dice_seed)

    listed = client.get("/api/watch").json()
    assert private.id not in [entry["id"] for entry in listed]
    answers = [client.get(f"/api/games/{created.id}").json(), client.get(f"/api/games/{created.id}/journal").json()]
    if not over:
        entry = next(entry for entry in listed if entry["id"] == created.id)
        assert entry["view"] == public_view
        answers.append(entry)
    assert answers[0]["role"] == "spectator" and answers[0]["seat"] is None and answers[0]["view"] == public_view
    assert [line["line"] for line in answers[1]] == journal
    for answer in answers:
        assert not secrets & set(leaves(answer)), secrets & set(leaves(answer))
        assert over or dice_seed not in json.dumps(answer)
    assert client.get(f"/api/games/{private.id}").status_code == 401  # a private game: its links only
    version = store.current_version(created.id)
    refused = client.post(f"/api/games/{created.id}/actions", json={"expected_version": version, "action": {}})
    assert refused.status_code == 401 and store.current_version(created.id) == version  # watching is not playing
