"""Helpers shared by the store, API and CLI tests (imported by them; not a test module)."""

from __future__ import annotations

import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kadesh.server.app import create_app
from kadesh.store import Store
from tests.asgi_client import TestClient


def db_url(tmp_path: Path, name: str = "kadesh.sqlite3") -> str:
    return f"sqlite:///{tmp_path / name}"


def migrated_url(template: Path, path: Path) -> str:
    """A SQLite database at ``path``, a copy of ``template`` (conftest's ``migrated_sqlite``, migrated once a test
    process), made as the store makes its files: an app or a ``kadesh serve`` opens it without running Alembic's
    migrations (a new process imports Alembic for them: some 0.25 s of its CPU)."""
    shutil.copyfile(template, path)
    path.chmod(0o600)
    return f"sqlite:///{path}"


def make_client(url: str, **app_options: Any) -> Iterator[TestClient]:
    """Body of each module's ``client`` fixture: the real app on a fresh database (the ``db`` fixture)."""
    app = create_app(url, **app_options)
    with TestClient(app) as test_client:
        yield test_client
    app.state.store.close()


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, choice: str = "bow") -> dict[str, Any]:
    response = client.post("/api/games", json={"ruleset": "manoeuvre", "options": {"choice": choice}})
    assert response.status_code == 201, response.text
    return response.json()


def game_of(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", params={"token": token})
    assert response.status_code == 200, response.text
    return response.json()


def legal(client: TestClient, game_id: str, token: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/games/{game_id}/legal", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()["actions"]


def post_action(client: TestClient, game_id: str, token: str, version: int, action: Any):
    return client.post(f"/api/games/{game_id}/actions", headers=auth(token),
                       json={"expected_version": version, "action": action})


def play(client: TestClient, game_id: str, token: str, version: int, action: Any) -> dict[str, Any]:
    response = post_action(client, game_id, token, version, action)
    assert response.status_code == 200, response.text
    return response.json()


def deployment(actions: list[dict[str, Any]], rng: random.Random | None = None) -> list[dict[str, Any]]:
    """Deploy actions placing every element of a side on distinct cells, read from its legal actions.

    Without ``rng``: elements in order on the zone's cells in order (c1..j1, then c2...).
    """
    deploys = [a for a in actions if a["type"] == "deploy"]
    elements = list(dict.fromkeys(a["element"] for a in deploys))
    cells = list(dict.fromkeys(a["cell"] for a in deploys))
    if rng is not None:
        cells = rng.sample(cells, len(elements))
    return [{"type": "deploy", "element": e, "cell": c} for e, c in zip(elements, cells, strict=False)]


def deploy_side(client: TestClient, game_id: str, token: str, version: int, ready: bool = True) -> int:
    """Deploy all of a seat's elements (and declare it ready); return the new version."""
    for action in deployment(legal(client, game_id, token)):
        version = play(client, game_id, token, version, action)["version"]
    if ready:
        version = play(client, game_id, token, version, {"type": "ready"})["version"]
    return version


def to_battle(client: TestClient, game: dict[str, Any]) -> int:
    """Deploy north then south, both ready; return the version at the start of the battle."""
    version = deploy_side(client, game["id"], game["seats"]["north"]["token"], 0)
    return deploy_side(client, game["id"], game["seats"]["south"]["token"], version)


def finished_game_in_store(store: Store, seed: int = 3, min_rolls: int = 3) -> str:
    """A game deployed (each element placed once), then played at random (preferring fights) until it has
    ``min_rolls`` rolls, then resigned. Deployed at random, each took 400 to 2,800 actions, nine tenths of them
    elements placed again and again before the first fight: thousands of writes that no test looked at."""
    rng = random.Random(seed)
    created = store.create_game("manoeuvre", {"choice": "bow"})
    version = deploy_all(store, created.id, "north", 0)
    deploy_all(store, created.id, "south", version)
    rolls = 0
    while rolls < min_rolls:
        with store.game(created.id) as game:
            if game.outcome is not None:
                break
            seat, version = game.to_act()[0], game.version
            choices = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
            fights = [a for a in choices if a["type"] in ("attack", "shoot")]
        result = store.act(created.id, seat, version, rng.choice(fights or choices))
        rolls += sum(1 for event in result.events if event.type == "roll")
    with store.game(created.id) as game:
        over, version = game.outcome is not None, game.version
    if not over:
        store.act(created.id, "south", version, {"type": "resign"})
    return created.id


def first_moves(store: Store, game_id: str, version: int = 0) -> int:
    """Each side of a Manœuvre at its deployment places one element (a rated game counts once each side moved):
    the version after."""
    for seat in ("north", "south"):
        with store.game(game_id) as game:
            action = next(a for a in game.legal_actions(seat) if a["type"] == "deploy")
        version = store.act(game_id, seat, version, action).version
    return version


def deploy_all(store: Store, game_id: str, seat: str, version: int) -> int:
    """The seat deploys every element not yet placed and says it is ready (it no longer has to act): the
    version after."""
    with store.game(game_id) as game:
        legal = game.legal_actions(seat)
    placed = {a["element"] for a in legal if a["type"] == "undeploy"}  # each element placed once, as a player does
    for action in deployment([a for a in legal if a.get("element") not in placed]):
        version = store.act(game_id, seat, version, action).version
    return store.act(game_id, seat, version, {"type": "ready"}).version
