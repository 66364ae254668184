"""The watchers of ``bench_push.py``: one process opening its share of the sockets and noting when each update
arrives. Not run by hand.

stdin: a JSON line ``{"sockets": [[url, token, game], ...], "connecting": n}``, later a line ``stop``.
stdout: ``open <opened> <failed>`` once every socket has its first update, then, after ``stop``, a JSON line:
for each socket its game and the (version, monotonic time) of each update it got after the first.
"""

from __future__ import annotations

import asyncio
import gc
import json
import resource
import sys
import time

from websockets.asyncio.client import connect

SUBPROTOCOL, BEARER = "kadesh", "kadesh.bearer."


async def watch(url: str, token: str, ready: asyncio.Event, gate: asyncio.Semaphore, record: dict,
                opened: list[int]) -> None:
    try:
        async with gate:
            socket = await connect(url, subprotocols=[SUBPROTOCOL, BEARER + token], max_size=None,
                                   open_timeout=120, ping_interval=None, close_timeout=1)
            first = json.loads(await socket.recv())
        record["first"] = first.get("version")
        opened[0] += 1
    except Exception as error:  # noqa: BLE001 - counted and told
        record["error"] = repr(error)
        opened[1] += 1
        return
    finally:
        if opened[0] + opened[1] == opened[2]:
            ready.set()
    async for text in socket:
        now = time.monotonic()
        version = update_version(text)
        if version is not None:
            record["got"].append((version, now))
        else:
            record.setdefault("other", []).append(json.loads(text).get("type"))


UPDATE_HEAD = '{"type":"update","version":'  # as both servers write an update: its version first


def update_version(text: str) -> int | None:
    """An update's version, read from its head: parsing 10,000 views of 4 KB per push would make these processes,
    not the servers, what is measured when one game has all the sockets."""
    if not text.startswith(UPDATE_HEAD):
        return None
    return int(text[len(UPDATE_HEAD):text.index(",", len(UPDATE_HEAD))])


async def main() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    order = json.loads(sys.stdin.readline())
    ready, gate = asyncio.Event(), asyncio.Semaphore(order["connecting"])
    records = [{"game": game, "got": []} for _, _, game in order["sockets"]]
    opened = [0, 0, len(records)]
    tasks = [asyncio.create_task(watch(url, token, ready, gate, record, opened))
             for (url, token, _), record in zip(order["sockets"], records, strict=True)]
    await ready.wait()
    # The collector's full passes over thousands of sockets stall this process for 100-350 ms: counted as the
    # servers' latency. What the measure allocates from here on is a few tuples per update.
    gc.collect()
    gc.freeze()
    gc.disable()
    print(f"open {opened[0]} {opened[1]}", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)  # "stop"
    print(json.dumps(records), flush=True)
    for task in tasks:
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main())
