"""Servers under a bounded load: one server on SQLite (the baseline), two servers on one PostgreSQL.

    python bench/bench_load.py [--seconds 30] [--games 16]
    python bench/bench_load.py --notices [--rounds 3]   # SQLite, without and with a webhook that never answers

Real ``kadesh serve`` processes on loopback; ``kadesh.load`` plays ``--games`` Manœuvre games
at once with random bots over HTTP (a GET of the legal actions, then the action), spread
over every server, for ``--seconds``. Both databases sync every commit to disk (SQLite
WAL with synchronous=FULL; PostgreSQL with fsync on). Afterwards every acknowledged
action is checked to be stored once and every game to replay to the servers' state.
Client, servers and database share this machine's cores, so the ratio, not the absolute
figure, is what carries over to another machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kadesh.load import LoadReport, check_load, run_load  # noqa: E402
from tests.notice_support import BlackHole  # noqa: E402
from tests.pg_support import PostgresServer  # noqa: E402
from tests.server_support import start_servers  # noqa: E402


def measure(db: str, count: int, folder: Path, seconds: float, games: int, webhook: str | None = None,
            ruleset: str = "manoeuvre", options: dict | None = None) -> LoadReport:
    servers = start_servers(db, folder, count)
    try:
        report = run_load([s.url for s in servers], seconds, games, ruleset, options, webhook=webhook)
        problems = check_load(report, db, [s.url for s in servers])
    finally:
        for server in servers:
            server.kill()
    if problems or report.server_errors:
        raise SystemExit(f"load check failed: {problems[:5]} {report.summary()}")
    return report


def line(name: str, report: LoadReport, baseline: LoadReport) -> str:
    s = report.summary()
    ratio = report.actions_per_second / baseline.actions_per_second
    return (f"{name:<28} {s['actions_per_second']:>7.1f} actions/s ({ratio:.2f}×)  requests p50 {s['p50_ms']:.1f} ms"
            f"  p99 {s['p99_ms']:.1f} ms  actions p50 {s['action_p50_ms']:.1f} ms  p99 {s['action_p99_ms']:.1f} ms"
            f"  ({s['actions']} actions, {s['requests']} requests, statuses {s['statuses']})")


def notices(seconds: float, games: int, rounds: int) -> None:
    """Issue 25's check: every seat subscribed to a webhook that accepts connections and never answers (each
    notice holds a worker's sending thread for its whole timeout) against the same load without subscriptions,
    in alternating rounds (ABBA) on fresh SQLite files; the medians of the action rate and of the actions' p99.
    Battles on the plain of Kadesh: random players change turns there often (a random Manœuvre rarely
    leaves its deployment), so many notices are due."""
    os.environ["KADESH_WEBHOOKS_PRIVATE"] = "allow"  # the black hole is on loopback
    hole = BlackHole()
    runs: dict[str, list[LoadReport]] = {"without": [], "with": []}
    try:
        for index in range(rounds):
            for mode in ("without", "with") if index % 2 == 0 else ("with", "without"):  # neither always first
                folder = Path(tempfile.mkdtemp(prefix="kadesh-notices-"))
                db = f"sqlite:///{folder / 'load.sqlite3'}"
                runs[mode].append(measure(db, 1, folder, seconds, games, hole.url if mode == "with" else None,
                                          "bataille", {"field": "kadesh"}))
                queued = _notices_queued(db)
                print(f"round {index + 1} {mode:<7} subscriptions: {runs[mode][-1].actions_per_second:7.1f} actions/s, "
                      f"action p99 {runs[mode][-1].summary()['action_p99_ms']:.1f} ms, notices queued {queued}")
    finally:
        hole.close()
    rate = {mode: statistics.median(r.actions_per_second for r in reports) for mode, reports in runs.items()}
    p99 = {mode: statistics.median(r.summary()["action_p99_ms"] for r in reports) for mode, reports in runs.items()}
    print(f"medians over {rounds} rounds: without {rate['without']:.1f} actions/s, p99 {p99['without']:.1f} ms; "
          f"with {rate['with']:.1f} actions/s ({rate['with'] / rate['without']:.2f}×), "
          f"p99 {p99['with']:.1f} ms ({p99['with'] / p99['without']:.2f}×)")


def _notices_queued(db: str) -> int:
    from sqlalchemy import func, select

    from kadesh.store import Store, schema

    store = Store(db)
    try:
        with store.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(schema.jobs)
                                .where(schema.jobs.c.kind != "bot")).scalar_one()
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--notices", action="store_true", help="compare with and without a silent webhook")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.notices:
        notices(args.seconds, args.games, args.rounds)
        return
    folder = Path(tempfile.mkdtemp(prefix="kadesh-load-"))
    sqlite = measure(f"sqlite:///{folder / 'load.sqlite3'}", 1, folder, args.seconds, args.games)
    postgres = PostgresServer(fast=False).start()
    try:
        two = measure(postgres.new_database(migrated=True), 2, folder, args.seconds, args.games)
        one = measure(postgres.new_database(migrated=True), 1, folder, args.seconds, args.games)
    finally:
        postgres.destroy()
    print(f"{args.games} games at once for {args.seconds:.0f} s; every acknowledged action checked afterwards")
    print(line("SQLite, 1 server (baseline)", sqlite, sqlite))
    print(line("PostgreSQL, 1 server", one, sqlite))
    print(line("PostgreSQL, 2 servers", two, sqlite))


if __name__ == "__main__":
    main()
