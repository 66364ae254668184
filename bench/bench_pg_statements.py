"""The interpreter's time a statement of the action path costs on PostgreSQL: ``kadesh.store.prepared`` (a
statement prepared once per connection, run on libpq through psycopg's ``pgconn``) against the same SQL through
a psycopg cursor (what the store did before, and what any psycopg code does), in the same run, on one
throwaway PostgreSQL server (tests/pg_support.py).

Two statements of an action: a writer's group's entries (the games' versions and the tokens, their rows
locked) and the version's bump with the action's row, its announcement and the game's watchers (at a version
the game is not at: the whole statement runs and writes nothing, so that it can run again); each way on a game
of its own (the entries lock its row). Figures: CPU time of this process a statement (``time.process_time``: the
server's own work is not counted, the interpreter's and the driver's are) and wall time, best of ``--repeat``
runs of ``--count``.

    python bench/bench_pg_statements.py [--count 3000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from kadesh.store import Store  # noqa: E402
from kadesh.store import store as store_module  # noqa: E402
from kadesh.store.prepared import Prepared  # noqa: E402
from tests.pg_support import PostgresServer  # noqa: E402


def best(run: Callable[[], None], count: int, repeat: int, end: Callable[[], None]) -> tuple[float, float]:
    """Best CPU and wall microseconds a call over ``repeat`` runs of ``count`` calls, each run one transaction
    (``end`` rolls it back, untimed)."""
    cpu, wall = [], []
    for _ in range(repeat):
        started_cpu, started = time.process_time(), time.perf_counter()
        for _ in range(count):
            run()
        cpu.append((time.process_time() - started_cpu) / count * 1e6)
        wall.append((time.perf_counter() - started) / count * 1e6)
        end()
    return min(cpu), min(wall)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    postgres = PostgresServer(fast=False).start()
    try:
        store = Store(postgres.new_database())
        entries = Prepared(store_module._GROUP_ENTRIES, store.engine.dialect)
        bump = Prepared(store_module._bump_record_notify_watchers(), store.engine.dialect)

        def statements() -> dict[str, tuple[Prepared, dict[str, Any]]]:
            """The two statements' parameters on a new game."""
            created = store.create_game("manoeuvre")
            hashed = store_module.token_hash(created.seat_tokens["north"])
            return {
                "a group's entries": (entries, {"game_ids": [created.id], "tokens": [hashed]}),
                "bump, record, announce, watchers": (bump, {
                    "game_id": created.id, "current": 7, "next": 8, "new_outcome": None, "new_due": None,
                    "seq": 8, "seat": "north", "action": {"type": "deploy", "unit": "n1", "cell": "c3"},
                    "events": [{"type": "deployed", "data": {"unit": "n1", "cell": "c3"}}],
                    "created_at": datetime.now(UTC), "channel": store_module.NOTIFY_CHANNEL,
                    "payload": f"{created.id} 8"}),
            }

        print("| statement | way | CPU µs | wall µs | CPU ratio to the cursor |\n|---|---|---|---|---|")
        # The cursor on a connection of its own, psycopg's defaults (a statement prepared at its fifth run): a
        # rollback there deallocates its prepared statements, which would take the store's with them.
        plain = psycopg.connect(store.engine.url.render_as_string(hide_password=False).replace("+psycopg", ""))
        with store.engine.connect() as conn:
            for (label, (prepared, mine)), (_, theirs) in zip(statements().items(), statements().values(), strict=True):
                def libpq(prepared: Prepared = prepared, values: dict[str, Any] = mine) -> None:
                    prepared.run(conn, **values).fetchall()

                def cursor(prepared: Prepared = prepared, values: dict[str, Any] = theirs) -> None:
                    with plain.cursor() as opened:
                        opened.execute(prepared.sql, prepared.parameters(values))
                        opened.fetchall()

                for _ in range(6):
                    libpq(), cursor()  # prepared on each connection before the runs
                baseline = best(cursor, args.count, args.repeat, plain.commit)
                measured = best(libpq, args.count, args.repeat, conn.commit)
                print(f"| {label} | psycopg's cursor | {baseline[0]:.1f} | {baseline[1]:.1f} | 1.00 |")
                print(f"| {label} | libpq (Prepared) | {measured[0]:.1f} | {measured[1]:.1f} | "
                      f"{measured[0] / baseline[0]:.2f} |", flush=True)
        plain.close()
        store.close()
    finally:
        postgres.destroy()


if __name__ == "__main__":
    main()
