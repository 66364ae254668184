"""Servers under a bounded load: one server on SQLite (the baseline), two servers on one PostgreSQL.

    python bench/bench_load.py [--seconds 30] [--games 16]

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
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from kadesh.load import LoadReport, check_load, run_load  # noqa: E402
from tests.pg_support import PostgresServer  # noqa: E402
from tests.server_support import start_servers  # noqa: E402


def measure(db: str, count: int, folder: Path, seconds: float, games: int) -> LoadReport:
    servers = start_servers(db, folder, count)
    try:
        report = run_load([s.url for s in servers], seconds, games)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--games", type=int, default=16)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="kadesh-load-"))
    sqlite = measure(f"sqlite:///{folder / 'load.sqlite3'}", 1, folder, args.seconds, args.games)
    postgres = PostgresServer(fast=False).start()
    try:
        two = measure(postgres.new_database(), 2, folder, args.seconds, args.games)
        one = measure(postgres.new_database(), 1, folder, args.seconds, args.games)
    finally:
        postgres.destroy()
    print(f"{args.games} games at once for {args.seconds:.0f} s; every acknowledged action checked afterwards")
    print(line("SQLite, 1 server (baseline)", sqlite, sqlite))
    print(line("PostgreSQL, 1 server", one, sqlite))
    print(line("PostgreSQL, 2 servers", two, sqlite))


if __name__ == "__main__":
    main()
