"""Two ``kadesh serve`` processes on one PostgreSQL database: a WebSocket on either server
sees every action played through the other, once and in order (LISTEN/NOTIFY)."""

from __future__ import annotations

import asyncio
import json
import random

import httpx
import pytest
import websockets

from tests.server_support import start_servers
from tests.waiting import in_a_thread_of_its_own

ACTIONS_PER_GAME = 40
GAMES = 3


@pytest.fixture(scope="module")
def two_servers(postgres, tmp_path_factory):
    """Two servers shared by the module's tests: each plays in games and accounts of its own, and no test stops
    a server (starting two, a forkserver each, costs about 6 s of CPU)."""
    db = postgres.new_database(migrated=True)
    servers = start_servers(db, tmp_path_factory.mktemp("two_servers"), 2)
    try:
        yield servers
    finally:
        for server in servers:
            server.kill()
        postgres.drop_database(db)


async def _listen(url: str, frames: list[dict], ready: asyncio.Event) -> None:
    async with websockets.connect(url) as socket:
        ready.set()
        async for text in socket:
            frames.append(json.loads(text))


async def _play(http: httpx.AsyncClient, server: str, game: dict, rng: random.Random) -> int:
    """Random legal actions through ``server`` only; returns the final version."""
    version = 0
    for _ in range(ACTIONS_PER_GAME):
        for link in rng.sample(list(game["seats"].values()), 2):
            headers = {"Authorization": f"Bearer {link['token']}"}
            legal = (await http.get(f"{server}/api/games/{game['id']}/legal", headers=headers)).json()
            choices = [a for a in legal["actions"] if a["type"] != "resign"]
            if choices:
                answer = await http.post(f"{server}/api/games/{game['id']}/actions", headers=headers,
                                         json={"expected_version": legal["version"], "action": rng.choice(choices)})
                assert answer.status_code == 200, answer.text
                version = answer.json()["version"]
                break
    return version


async def _scenario(urls: list[str]) -> None:
    rng = random.Random(7)
    async with httpx.AsyncClient(timeout=30) as http:
        games = [(await http.post(f"{urls[0]}/api/games", json={"ruleset": "manoeuvre"})).json()
                 for _ in range(GAMES)]
        sockets = []  # (game, seat, server, frames)
        listeners = []
        for game in games:
            for seat, link in [*game["seats"].items(), (None, game["spectator"])]:
                for server in urls:
                    frames: list[dict] = []
                    ready = asyncio.Event()
                    ws = server.replace("http", "ws") + f"/ws/games/{game['id']}?token={link['token']}"
                    listeners.append(asyncio.create_task(_listen(ws, frames, ready)))
                    await ready.wait()
                    sockets.append((game, seat, link["token"], frames))
        # Each game is played through one server only: the other server's sockets hear it from PostgreSQL.
        finals = await asyncio.gather(*(_play(http, urls[i % 2], game, rng) for i, game in enumerate(games)))
        final = {game["id"]: version for game, version in zip(games, finals, strict=True)}
        assert all(version > 10 for version in finals)
        for _ in range(200):
            if all(frames and frames[-1]["version"] == final[game["id"]] for game, _, _, frames in sockets):
                break
            await asyncio.sleep(0.05)
        for task in listeners:
            task.cancel()
        for game, seat, token, frames in sockets:
            versions = [frame["version"] for frame in frames]
            assert versions == sorted(set(versions)), f"{seat}: versions out of order or repeated: {versions}"
            assert versions[-1] == final[game["id"]], f"{seat} never saw the last action"
            heard = [(entry["version"], entry["line"]) for frame in frames for entry in frame["journal"]]
            journal = (await http.get(f"{urls[0]}/api/games/{game['id']}/journal", params={"token": token})).json()
            assert heard == [(entry["version"], entry["line"]) for entry in journal], f"{seat}: journal differs"
            assert all(frame["view"] is not None for frame in frames)


@pytest.mark.slow
@pytest.mark.postgresql
def test_every_socket_sees_every_action_of_the_other_server_once_and_in_order(two_servers):
    in_a_thread_of_its_own(asyncio.run, _scenario([server.url for server in two_servers]))


@pytest.mark.slow
@pytest.mark.postgresql
def test_a_session_made_on_one_server_opens_the_other_and_signing_out_everywhere_ends_both(two_servers):
    """Issue 41: sessions live in the database. A passkey account made through the first server is signed in on
    the second with the same cookie; a seat kept there is played through either; signing out everywhere on the
    second ends the session on both."""
    from tests.webauthn_support import make_account

    first, second = (server.url for server in two_servers)
    with httpx.Client(base_url=first, timeout=30) as one, httpx.Client(base_url=second, timeout=30) as other:
        make_account(one, "Sénènmout", first)
        other.cookies.set("kadesh_session", one.cookies["kadesh_session"])
        assert other.get("/api/account").json()["name"] == "Sénènmout"
        game = other.post("/api/games", json={"ruleset": "manoeuvre"}).json()
        kept = other.post(f"/api/games/{game['id']}/claim",
                          headers={"Authorization": f"Bearer {game['seats']['north']['token']}"})
        assert kept.status_code == 200
        assert one.get(f"/api/games/{game['id']}").json()["seat"] == "north"
        assert other.delete("/api/sessions").status_code == 204
        assert one.get("/api/account").status_code == 401
        assert other.get("/api/account").status_code == 401


@pytest.mark.slow
@pytest.mark.postgresql
def test_the_last_open_seat_taken_at_the_same_instant_through_two_servers_goes_to_exactly_one(two_servers):
    """Issue 42: eight takers, four through each server, released together: one gets the seat and a link that
    opens it, the seven others 409 ``seat_not_open``, and the game leaves the open games."""
    import threading

    first, second = (server.url for server in two_servers)
    made = httpx.post(f"{first}/api/games", json={"ruleset": "manoeuvre", "open": {"south": "anyone"}}).json()
    gid = made["id"]
    start, answers = threading.Barrier(8), []

    def take(url: str) -> None:
        with httpx.Client(base_url=url, timeout=30) as http:
            http.get("/health")  # connected before the start
            start.wait()
            answers.append(http.post(f"/api/games/{gid}/seats/south/take"))

    takers = [threading.Thread(target=take, args=(url,)) for url in (first, second) * 4]
    for taker in takers:
        taker.start()
    for taker in takers:
        taker.join(60)
    assert sorted(answer.status_code for answer in answers) == [200] + [409] * 7
    winner = next(answer for answer in answers if answer.status_code == 200).json()["token"]
    seen = httpx.get(f"{second}/api/games/{gid}", headers={"Authorization": f"Bearer {winner}"}).json()
    assert seen["seat"] == "south"
    assert gid not in [game["id"] for game in httpx.get(f"{first}/api/open-games").json()]


@pytest.mark.slow
@pytest.mark.postgresql
def test_accounts_looking_for_an_opponent_at_once_through_two_servers_are_each_paired_once(two_servers):
    """Issue 42: eight accounts ask « Trouver un adversaire » at the same instant, four through each server, and
    look again as their pages do: four games, each between two of them, and no account in two."""
    import threading
    import time

    from tests.webauthn_support import make_account

    urls = [server.url for server in two_servers]
    clients = [httpx.Client(base_url=urls[n % 2], timeout=30) for n in range(8)]
    try:
        for number, client in enumerate(clients):
            make_account(client, f"Nomarque {number}", urls[number % 2])
        start, games = threading.Barrier(len(clients)), {}

        def seek(number: int, client: httpx.Client) -> None:
            start.wait()
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:  # the first ask, then the page looking again until it is paired
                answer = client.post("/api/pairing", json={"ruleset": "manoeuvre", "days_per_move": 1}).json()
                if answer["status"] == "paired":
                    games[number] = answer["game"]
                    return
                time.sleep(0.2)

        seekers = [threading.Thread(target=seek, args=pair) for pair in enumerate(clients)]
        for seeker in seekers:
            seeker.start()
        for seeker in seekers:
            seeker.join(120)
        assert len(games) == len(clients), games  # every one paired
        players = {game: sorted(n for n, g in games.items() if g == game) for game in set(games.values())}
        assert len(players) == 4 and all(len(pair) == 2 for pair in players.values())  # pairs, none twice
        for number, game in games.items():
            assert clients[number].get(f"/api/games/{game}").json()["seat"] in ("north", "south")
    finally:
        for client in clients:
            client.close()


@pytest.mark.slow
@pytest.mark.postgresql
def test_two_accounts_taking_the_last_seat_at_once_through_two_servers_get_it_once(two_servers):
    """Issue 42's acceptance: a rated game's last seat, open to accounts, taken at the same instant by two
    accounts, one through each server: one keeps it in their account, the other is told it is gone."""
    import threading

    from tests.webauthn_support import make_account

    urls = [server.url for server in two_servers]
    opener, *takers = [httpx.Client(base_url=urls[n % 2], timeout=30) for n in range(3)]
    try:
        for number, client in enumerate([opener, *takers]):
            make_account(client, f"Vizir {number}", urls[number % 2])
        made = opener.post("/api/games", json={"ruleset": "manoeuvre", "rated": True, "clock": {"days_per_move": 1},
                                               "open": {"south": "accounts"}})
        assert made.status_code == 201, made.text
        gid, start, answers = made.json()["id"], threading.Barrier(2), {}

        def take(number: int, client: httpx.Client) -> None:
            start.wait()
            answers[number] = client.post(f"/api/games/{gid}/seats/south/take")

        threads = [threading.Thread(target=take, args=pair) for pair in enumerate(takers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(answer.status_code for answer in answers.values()) == [200, 409]
        winner = next(number for number, answer in answers.items() if answer.status_code == 200)
        assert takers[winner].get(f"/api/games/{gid}").json()["seat"] == "south"  # kept in the account
        assert takers[1 - winner].get(f"/api/games/{gid}").json()["role"] == "spectator"  # a public game: watched
    finally:
        for client in [opener, *takers]:
            client.close()


async def _messages_scenario(urls: list[str]) -> None:
    """Messages written through both servers at once; each socket on the other hears its own, once, in order."""
    async with httpx.AsyncClient(timeout=30) as http:
        game = (await http.post(f"{urls[0]}/api/games", json={"ruleset": "royaumes"})).json()
        seats = game["seats"]
        readers = {"koush": [], "libye": []}  # koush reads the table and its pair with Upper Egypt; libye the table
        listeners = []
        for seat, frames in readers.items():
            ready = asyncio.Event()
            ws = urls[1].replace("http", "ws") + f"/ws/games/{game['id']}?token={seats[seat]['token']}"
            listeners.append(asyncio.create_task(_listen(ws, frames, ready)))
            await ready.wait()

        async def write(server: str, seat: str, channel: str, count: int) -> None:
            for n in range(count):
                answer = await http.post(f"{server}/api/games/{game['id']}/messages",
                                         json={"channel": channel, "text": f"{seat} {n}"},
                                         headers={"Authorization": f"Bearer {seats[seat]['token']}"})
                assert answer.status_code == 201, answer.text

        # Within the default limit of messages per address and server (20 a minute).
        await asyncio.gather(write(urls[0], "haute_egypte", "pair:haute_egypte,koush", 10),
                             write(urls[0], "basse_egypte", "table", 9), write(urls[1], "libye", "table", 6))
        everything = (await http.get(f"{urls[0]}/api/games/{game['id']}/messages",
                                     headers={"Authorization": f"Bearer {seats['koush']['token']}"})).json()
        expected = {"koush": [m["seq"] for m in everything["messages"]],
                    "libye": [m["seq"] for m in everything["messages"] if m["channel"] == "table"]}
        assert len(expected["koush"]) == 25 and len(expected["libye"]) == 15
        for _ in range(400):
            heard = {seat: [m["seq"] for f in frames if f["type"] == "messages" for m in f["messages"]]
                     for seat, frames in readers.items()}
            if heard == expected:
                break
            await asyncio.sleep(0.05)
        for task in listeners:
            task.cancel()
        assert heard == expected  # every message, once, in order; Libya never the pair's


@pytest.mark.slow
@pytest.mark.postgresql
def test_a_message_written_through_one_server_arrives_live_on_the_others_sockets_in_order(two_servers):
    in_a_thread_of_its_own(asyncio.run, _messages_scenario([server.url for server in two_servers]))


async def _revocation_scenario(urls: list[str]) -> None:
    """A link replaced through the first server closes its socket on the second at once, with no action played
    (the replacement's NOTIFY, issue 46); the game's other sockets there go on."""
    async with httpx.AsyncClient(timeout=30) as http:
        game = (await http.post(f"{urls[0]}/api/games", json={"ruleset": "manoeuvre"})).json()
        base = urls[1].replace("http", "ws") + f"/ws/games/{game['id']}?token="
        async with websockets.connect(base + game["seats"]["north"]["token"]) as old, \
                websockets.connect(base + game["spectator"]["token"]) as watcher:
            for socket in (old, watcher):
                assert json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] == "update"
            answer = await http.post(f"{urls[0]}/api/games/{game['id']}/tokens/north",
                                     headers={"Authorization": f"Bearer {game['owner']['token']}"})
            assert answer.status_code == 200, answer.text
            message = json.loads(await asyncio.wait_for(old.recv(), 10))
            assert message["type"] == "error" and message["problem"]["code"] == "token_revoked"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(old.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
            new = answer.json()["token"]
            legal = (await http.get(f"{urls[0]}/api/games/{game['id']}/legal",
                                    headers={"Authorization": f"Bearer {new}"})).json()
            played = await http.post(f"{urls[0]}/api/games/{game['id']}/actions",
                                     headers={"Authorization": f"Bearer {new}"},
                                     json={"expected_version": 0, "action": legal["actions"][0]})
            assert played.status_code == 200, played.text
            assert json.loads(await asyncio.wait_for(watcher.recv(), 10))["version"] == 1


@pytest.mark.slow
@pytest.mark.postgresql
def test_a_link_replaced_through_one_server_closes_its_socket_on_the_other_at_once(two_servers):
    in_a_thread_of_its_own(asyncio.run, _revocation_scenario([server.url for server in two_servers]))
