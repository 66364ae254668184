"""The ``kadesh`` command line."""

from __future__ import annotations

import gc
import json
import logging
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from kadesh.core import all_rulesets, load_game, new_game

app = typer.Typer(help="Kadesh: turn-based wargames, every die roll on the record.", no_args_is_help=True)
console = Console()


@app.callback()
def main() -> None:
    """Kadesh: turn-based wargames, every die roll on the record."""


def random_playout(game, rng: random.Random, max_actions: int = 100_000) -> None:
    """Play random legal actions (never resigning) until the game ends."""
    for _ in range(max_actions):
        if game.outcome is not None:
            return
        seat = game.to_act()[0]
        choices = [a for a in game.legal_actions(seat) if a["type"] != "resign"]
        game.act(seat, rng.choice(choices))


@app.command()
def simulate(
    ruleset: str = typer.Argument(..., help="Ruleset name, e.g. manoeuvre"),
    seed: int = typer.Option(0, help="Seed of the dice and of the random players"),
    lang: str = typer.Option("fr", help="Journal language: fr or en"),
    max_actions: int = typer.Option(5_000, min=1, help="Stop after this many actions (a campaign never ends alone)"),
    bot: Annotated[list[str] | None, typer.Option(
        help="royaumes: a computer kingdom, KINGDOM=LEVEL (repeat; '*=LEVEL' for every other kingdom); "
             "kingdoms without one send empty orders")] = None,
    turns: Annotated[int, typer.Option(min=1, max=1_000, help="royaumes: turns to adjudicate")] = 30,
    scenario: Annotated[str | None, typer.Option(
        help="royaumes: a shipped map by name (nil, delta) or a map of one's own, a TOML file")] = None,
    summary: Annotated[bool, typer.Option(help="Print the end only, not the whole journal")] = False,
) -> None:
    """Play a whole game and print its narrated journal: random players, or for royaumes a campaign
    of computer kingdoms (``--bot koush=vizir --bot '*=maladroit'``)."""
    if ruleset not in all_rulesets():
        raise typer.BadParameter(f"unknown ruleset {ruleset!r}; known: {', '.join(all_rulesets())}")
    if ruleset == "royaumes":
        game = _campaign(bot or ["*=maladroit"], turns, seed, _map_options(scenario))
    else:
        if bot:
            _fail("simulate: --bot is for royaumes; other rulesets are played by random players here (see duel)")
        game = new_game(ruleset, seed=seed)
        random_playout(game, random.Random(seed), max_actions)
    if not summary:
        for line in game.journal(None, lang=lang):
            console.print(line, highlight=False, soft_wrap=True)
    if ruleset == "royaumes":
        from kadesh.ai.royaumes import cities_held

        held = ", ".join(f"{game.state.scenario.kingdoms[k].names['en' if lang == 'en' else 'fr']} {n}"
                         for k, n in cities_held(game).items())
        console.print(f"[bold]{'Cities after' if lang == 'en' else 'Cités après'} {turns} "
                      f"{'turns' if lang == 'en' else 'tours'} : {held}[/bold]", highlight=False)
    else:
        console.print(f"[bold]{game.outcome}[/bold]")


def _map_options(scenario: str | None) -> dict:
    if scenario is None:
        return {}
    path = Path(scenario)
    if path.suffix == ".toml":
        if not path.is_file():
            _fail(f"simulate: no map file {scenario}")
        return {"scenario_toml": path.read_text(encoding="utf-8")}
    return {"scenario": scenario}


def _campaign(bots: list[str], turns: int, seed: int, options: dict):
    from kadesh.ai.base import levels
    from kadesh.ai.royaumes import play_campaign
    from kadesh.core import get_ruleset
    from kadesh.core.errors import RuleError

    rules = get_ruleset("royaumes")
    try:
        options = rules.normalize_options(options)
    except RuleError as refused:
        _fail(f"simulate: {refused.en}")
    kingdoms = rules.bot_seats(options)
    chosen: dict[str, str] = {}
    for item in bots:
        seat, _, level = item.partition("=")
        if seat != "*" and seat not in kingdoms:
            _fail(f"simulate: unknown kingdom {seat!r}; kingdoms: {', '.join(kingdoms)}")
        if level not in levels("royaumes"):
            _fail(f"simulate: unknown level {level!r}; levels: {', '.join(levels('royaumes'))}")
        for kingdom in (kingdoms if seat == "*" else [seat]):
            if seat != "*" or kingdom not in chosen:
                chosen[kingdom] = level
    return play_campaign(chosen, turns, seed, options)


# The collector's generations for a server. A full pass goes through every object the server keeps (the games
# in its cache) and stalls every request under way, 10-30 ms with a busy cache. Python's young generation of
# 700 objects is collected so often that the objects of the requests in flight are taken for long-lived and
# bring the next full pass closer: every few seconds under load. At 10,000, a request's objects die young and
# full passes come minutes apart (docs/performance.md, "Through a real server").
SERVER_GC_THRESHOLDS = (10_000, 10, 10)

DbOption = typer.Option(None, "--db", envvar="KADESH_DB",
                        help="Database URL (sqlite:///path or postgresql+psycopg://...); "
                             "default: kadesh.sqlite3 in the user data folder")


LOOPBACK_OR_EVERYWHERE = frozenset({"127.0.0.1", "::1", "localhost", "0.0.0.0", "::"})


def address_to_open(host: str, port: int, public_url: str | None) -> str:
    """The address a person starting ``kadesh serve`` should open: ``KADESH_PUBLIC_URL`` where it is set (the
    origin the passkeys are made for, and the one the links in notices name); else ``localhost`` for a loopback
    or every-interface bind, since browsers make passkeys for a name, never for an address such as 127.0.0.1."""
    if public_url:
        return public_url.rstrip("/") + "/"
    shown = "localhost" if host in LOOPBACK_OR_EVERYWHERE else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


METRICS_DIRECTORY = "PROMETHEUS_MULTIPROC_DIR"  # the Prometheus client's setting: where each process writes
RUN_FOLDER = "kadesh-metrics-"  # followed by the server's process id, in the system's temporary folder


def gather_metrics() -> Path:
    """The directory where this server and its children write their metrics for a scrape to add up: one made
    for this run, after removing those of servers no longer running (uvicorn ends on a signal by raising it again,
    so no exit hook of ours would run: a run's folder is left to the next start); or an operator's
    ``PROMETHEUS_MULTIPROC_DIR``, emptied of a previous run's files, which would be added up too. Children inherit
    it through the environment."""
    if "prometheus_client" in sys.modules:
        raise RuntimeError("the metrics' directory must be set before prometheus_client is imported")
    given = os.environ.get(METRICS_DIRECTORY)
    if given:
        folder = Path(given)
        folder.mkdir(parents=True, exist_ok=True)
        for stale in folder.glob("*.db"):
            stale.unlink()
        return folder
    temporary = Path(tempfile.gettempdir())
    for left in temporary.glob(f"{RUN_FOLDER}*"):
        number = left.name.removeprefix(RUN_FOLDER)
        if number.isdigit() and not _running(int(number)):
            shutil.rmtree(left, ignore_errors=True)
    folder = temporary / f"{RUN_FOLDER}{os.getpid()}"
    shutil.rmtree(folder, ignore_errors=True)  # a process id used again
    folder.mkdir(mode=0o700)
    os.environ[METRICS_DIRECTORY] = str(folder)
    return folder


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Interface to listen on"),
    port: int = typer.Option(8000, help="Port to listen on"),
    db: str | None = DbOption,
    log_level: str = typer.Option("info", help="critical, error, warning, info or debug"),
    access_log: bool = typer.Option(False, "--access-log/--no-access-log", envvar="KADESH_ACCESS_LOG",
                                    help="Log a line for each request, at --log-level info (default: off; a proxy "
                                         "in front logs them, and /metrics counts them)"),
    bot_budget: float | None = typer.Option(None, min=0.01, max=60.0,
                                            help="Seconds of thought per action for the bots that search "
                                                 "(default: each bot's own, Stratège's a budget per turn)"),
    workers: int = typer.Option(2, min=0, max=64, help="Worker processes this server starts for the computer's "
                                                        "moves and the deadlines (0: only those of kadesh worker)"),
    metrics_port: int | None = typer.Option(None, min=1, max=65535, envvar="KADESH_METRICS_PORT",
                                            help="Serve /metrics for Prometheus on this port, apart from the "
                                                 "public one (default: nowhere)"),
    metrics_host: str = typer.Option("127.0.0.1", envvar="KADESH_METRICS_HOST",
                                     help="Interface of the metrics port (default: loopback only)"),
) -> None:
    """Run the Kadesh server (HTTP API, WebSocket and home page), with a few local worker processes.

    Several servers may share one PostgreSQL database (see docs/operations.md)."""
    if metrics_port is not None:
        gather_metrics()  # before the server's modules are imported: the metrics library chooses its storage then
    import uvicorn

    from kadesh.server.app import create_app
    from kadesh.server.rates import BadLimits
    from kadesh.server.ws import MAX_FRAME

    try:
        application = create_app(db, bot_budget=bot_budget, local_workers=workers, warm_checks=True,
                                 metrics_at=(metrics_host, metrics_port) if metrics_port is not None else None)
    except BadLimits as error:
        _fail(f"serve: {error}")
    _open_files_as_allowed()
    url = application.state.store.engine.url.render_as_string(hide_password=True)
    shown = address_to_open(host, port, application.state.notice_settings.public_url)
    print(f"Kadesh: open {shown} (database {url})", flush=True)
    # What start-up made (modules, routes, tables) lives as long as the server: the garbage collector need
    # not go through it again. Its full passes otherwise stall every request under way for 30-80 ms
    # (docs/performance.md, "The action path").
    gc.collect()
    gc.freeze()
    gc.set_threshold(*SERVER_GC_THRESHOLDS)
    # No log line of the server says its source file and line: the logging module need not look for them on each
    # request's access line (the Logging HOWTO's « Optimization »; 1 % of an action's time, issue 60).
    logging._srcfile = None
    # ws_max_size: the WebSocket needs nothing from clients, so a big message is refused by uvicorn itself.
    # proxy_headers off: uvicorn would otherwise believe any loopback peer's X-Forwarded-For; whom to believe is
    # KADESH_TRUSTED_PROXIES's to say (kadesh.server.rates).
    # ws_per_message_deflate off: uvicorn's deflate keeps a compressor and a decompressor per socket, about 40 KiB of
    # a watching socket's 85, and compresses each push once per socket; an update is 3-4 KB of JSON, a push every
    # few seconds at most (docs/performance.md, "Push to watching sockets").
    # access_log off by default: a line per request cost 6 % of an action's server time (docs/performance.md, « The
    # action path again »); nginx in front writes its own, and /metrics counts requests by route and status.
    uvicorn.run(application, host=host, port=port, log_level=log_level, access_log=access_log, ws_max_size=MAX_FRAME,
                proxy_headers=False, ws_per_message_deflate=False)


def _open_files_as_allowed() -> None:
    """Raise this process's soft ceiling of open files to its hard one: each socket is a file, and the usual soft
    1024 would close a featured game's spectators long before ``KADESH_SOCKETS_PER_SERVER``."""
    if sys.platform == "win32":
        return
    import resource  # Unix only

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


@app.command()
def worker(
    db: str | None = DbOption,
    bot_budget: float | None = typer.Option(None, min=0.01, max=60.0,
                                            help="Seconds of thought per action for the bots that search "
                                                 "(default: each bot's own, Stratège's a budget per turn)"),
    deadline_poll: float = typer.Option(5.0, min=0.01, help="Seconds between two looks for passed deadlines"),
    lease: float = typer.Option(60.0, min=0.5, help="Seconds a job stays this worker's; past them, another "
                                                    "worker takes it for abandoned and plays it"),
    nice: int = typer.Option(0, min=0, max=19, help="Run at this lower priority (kadesh serve's own workers: 10, "
                                                     "so that requests on the same machine come first)"),
    notice_threads: int = typer.Option(4, min=1, max=64, help="Notices (e-mails, webhooks) sent at once; the "
                                                              "settings come from the environment, see "
                                                              "docs/operations.md"),
    parent: int | None = typer.Option(None, hidden=True, help="Stop when this process is gone (kadesh serve's)"),
    beside_web: bool = typer.Option(False, hidden=True, help="Leave the web process its cores, as batch work "
                                                             "(kadesh serve's own workers)"),
) -> None:
    """Play the computer's moves, send due deadlines and the seats' notices, taking jobs from the database
    until stopped.

    Run as many as the bots need, on any machines that reach the database (see docs/operations.md)."""
    from kadesh.server.worker import run_worker, settle

    settle(nice=nice, beside_web=beside_web)
    run_worker(db, budget=bot_budget, deadline_poll=deadline_poll, parent=parent, lease=lease,
               notice_threads=notice_threads)


@app.command("new")
def new_command(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name, e.g. front")],
    scenario: Annotated[Path | None, typer.Option(
        "--scenario", dir_okay=False,
        help="A scenario of one's own, a TOML file: Front's (docs/scenarios.md) or a Royaumes map "
             "(docs/rules/royaumes.md)")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="An option as name=value (repeatable), e.g. -o scenario=mission_hold")] = None,
    db: str | None = DbOption,
    base_url: Annotated[str, typer.Option(help="The server's address, to write whole links")] = "http://127.0.0.1:8000",
) -> None:
    """Open a game in the database and print each seat's secret link, the spectators' and the owner's."""
    from kadesh.core.errors import RuleError, UnknownRuleset
    from kadesh.store import Store

    options = dict(_option(text) for text in option or [])
    if scenario is not None:
        if not scenario.is_file():
            _fail(f"new: no scenario file {scenario}")
        try:
            options["scenario_toml"] = scenario.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            _fail(f"new: {scenario} is not a text file in UTF-8")
    store = Store(db)
    try:
        created = store.create_game(ruleset, options)
    except UnknownRuleset:
        _fail(f"new: unknown ruleset {ruleset!r}; known: {', '.join(all_rulesets())}")
    except RuleError as refused:
        _fail(f"new: {refused.en}")
    finally:
        store.close()
    base = base_url.rstrip("/")
    console.print(f"Game {created.id} ({created.ruleset}); dice commitment {created.commitment}", highlight=False)
    for seat, token in created.seat_tokens.items():
        console.print(f"{seat}: {base}/play/{created.id}#token={token}", highlight=False, soft_wrap=True)
    console.print(f"spectators: {base}/play/{created.id}#token={created.spectator_token}", highlight=False,
                  soft_wrap=True)
    console.print(f"owner: {base}/play/{created.id}#token={created.owner_token}", highlight=False, soft_wrap=True)


def _option(text: str) -> tuple[str, object]:
    """``name=value``: the value as JSON where it reads as JSON (numbers, true), else as text."""
    name, equals, value = text.partition("=")
    if not equals or not name:
        _fail(f"new: an option is written name=value, not {text!r}")
    try:
        return name, json.loads(value)
    except ValueError:
        return name, value


@app.command()
def export(
    game_id: str | None = typer.Argument(None, help="Game id (or --all)"),
    db: str | None = DbOption,
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Output file (default: stdout)")] = None,
    force: bool = typer.Option(False, "--force", help="Operator only: export an unfinished game, seed included. "
                               "Anyone who sees that file can predict every future roll."),
    all_games: bool = typer.Option(False, "--all", help="Operator's backup of every game (JSON Lines, secret: "
                                   "seeds and token hashes); restore it with `kadesh import`"),
) -> None:
    """Write a finished game's full record (seed, actions, stored events) as JSON, for `kadesh verify`."""
    from kadesh.store import GameNotFound, GameNotOver, Store

    if all_games == (game_id is not None):
        _fail("Give a game id, or --all for a backup of every game.")
    store = Store(db)
    try:
        if all_games:
            _backup(store, output)
            return
        data = store.export(game_id, force=force)
    except GameNotFound:
        _fail(f"No game {game_id!r} in this database.")
    except GameNotOver:
        _fail(f"Game {game_id!r} is not over: its export would reveal the dice seed. "
              "Use --force only if you are the operator and mean it.")
    finally:
        store.close()
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if output is None:
        sys.stdout.write(text + "\n")
    else:
        output.write_text(text + "\n", encoding="utf-8")
        console.print(f"Wrote {output}", highlight=False)


def _backup(store, output: Path | None) -> None:
    from kadesh.store.backup import write_backup

    if output is None:
        write_backup(store, sys.stdout)
        return
    partial = output.with_name(output.name + ".partial")  # a backup cut short never looks whole
    with partial.open("w", encoding="utf-8") as out:
        games = write_backup(store, out)
    partial.replace(output)
    console.print(f"Wrote {games} games to {output}", highlight=False)


@app.command("import")
def import_games(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="A backup from `kadesh export --all`")],
    db: str | None = DbOption,
) -> None:
    """Restore a backup: every game not yet in the database, each checked by replaying it first."""
    from kadesh.store import Store
    from kadesh.store.backup import read_backup, restore

    store = Store(db)
    try:
        with file.open(encoding="utf-8") as lines:
            report = restore(store, read_backup(lines))
    except (ValueError, KeyError) as error:
        _fail(f"import: {file} is not a Kadesh backup ({error})")
    finally:
        store.close()
    console.print(f"Restored {len(report.restored)} games; {len(report.already_there)} were already there. "
                  f"Restored {len(report.players)} player{'' if len(report.players) == 1 else 's'}. "
                  f"Restored {len(report.maps)} map{'' if len(report.maps) == 1 else 's'}.", highlight=False)
    for game_id, why in report.refused.items():
        console.print(f"Refused {game_id}: {why}", highlight=False)
    if report.refused:
        raise typer.Exit(1)


@app.command()
def ratings(
    db: str | None = DbOption,
    write: bool = typer.Option(False, "--write", help="Replace the stored ratings by the recomputed ones"),
) -> None:
    """Recompute every rating from scratch, replaying each rated game's record in the order they were rated,
    and compare with the stored ratings (exit 1 on a difference, unless --write replaced them)."""
    from kadesh.store import Store
    from kadesh.store.ratings import differences

    store = Store(db)
    try:
        computed = store.recompute_ratings()
        differing = differences(computed, store.ratings.stored())
        if write and differing:
            store.ratings.replace(computed)
    finally:
        store.close()
    players = len({player for player, _ in computed})
    console.print(f"Recomputed {len(computed)} rating{'' if len(computed) == 1 else 's'} of {players} "
                  f"player{'' if players == 1 else 's'}: {len(differing) or 'none'} differ from the stored ones"
                  f"{' (replaced)' if write and differing else ''}.", highlight=False)
    for (player, ruleset), (stored, recomputed) in sorted(differing.items()):
        console.print(f"  {player} {ruleset}: stored {stored}, recomputed {recomputed}", highlight=False)
    if differing and not write:
        raise typer.Exit(1)


@app.command("map-reports")
def map_reports(
    db: str | None = DbOption,
    withdraw: Annotated[list[str] | None, typer.Option(
        "--withdraw", help="Take this published map off the shelf (its id; may be given again), whoever wrote it: "
        "a report upheld")] = None,
) -> None:
    """The maps of the shelf that players reported to the installation's moderators (its operators), the latest
    first; with --withdraw, take maps off the shelf (a draft of their author's again; games keep their copy)."""
    from kadesh.store import Store

    store = Store(db)
    try:
        for map_id in withdraw or []:
            done = store.maps.withdraw(map_id)
            console.print(f"{map_id}: {'withdrawn' if done else 'not on the shelf'}", highlight=False)
        reports = store.maps.reports()
    finally:
        store.close()
    for report in reports:
        console.print(f"{report.created_at} {report.map_id} « {report.map_name} » reported by {report.reporter_id}: "
                      f"{report.reason}", highlight=False, markup=False)
    if not reports:
        console.print("No map reported.", highlight=False)


@app.command()
def load(
    servers: Annotated[list[str], typer.Argument(help="Base URLs of the servers, e.g. http://127.0.0.1:8000")],
    seconds: Annotated[float, typer.Option(min=1, help="How long to play")] = 30,
    games: Annotated[int, typer.Option(min=1, help="Games played at once, each by random bots over HTTP")] = 16,
    ruleset: Annotated[str, typer.Option(help="Ruleset of the games")] = "manoeuvre",
    db: str | None = typer.Option(None, "--db", help="The servers' database: check afterwards that every "
                                  "acknowledged action is stored once and every game replays to the servers' state"),
) -> None:
    """Measure servers under a bounded load (loopback or a test deployment, never players' servers)."""
    from kadesh.load import check_load, run_load

    report = run_load(servers, seconds, games, ruleset)
    console.print_json(data=report.summary())
    if db is not None:
        problems = check_load(report, db, servers)
        for problem in problems:
            console.print(problem, highlight=False)
        console.print("check: " + ("FAILED" if problems else "every acknowledged action stored once; replays match"))
        if problems:
            raise typer.Exit(1)
    if report.server_errors:
        raise typer.Exit(1)


@app.command()
def replay(
    source: str = typer.Argument(..., help="A game id in the database, or an export / record JSON file"),
    lang: str = typer.Option("fr", help="Journal language: fr or en"),
    db: str | None = DbOption,
) -> None:
    """Print the public narrated journal of a game (what a spectator reads)."""
    if lang not in ("fr", "en"):
        raise typer.BadParameter("lang is fr or en")
    path = Path(source)
    if path.is_file():
        data = json.loads(path.read_text(encoding="utf-8"))
        game = load_game(data.get("record", data))
    else:
        from kadesh.store import GameNotFound, Store

        store = Store(db)
        try:
            game = store.rebuild(source)
        except GameNotFound:
            _fail(f"No game {source!r} in this database, and no such file.")
        finally:
            store.close()
    for line in game.journal(None, lang=lang):  # plain lines, never wrapped: made to be piped
        typer.echo(line)
    if game.outcome is not None:
        typer.echo(json.dumps(game.outcome, ensure_ascii=False))


@app.command()
def verify(file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="An export JSON file")]) -> None:
    """Check an export: seed against commitment, every roll re-derived, every action's events replayed."""
    from kadesh.store.verify import verify_export

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        typer.echo(f"MISMATCH: not a JSON file ({error})")
        raise typer.Exit(1) from None
    verdict = verify_export(data) if isinstance(data, dict) else verify_export({})
    if verdict.ok:
        typer.echo(verdict.message)
        return
    typer.echo(f"MISMATCH: {verdict.message}")
    raise typer.Exit(1)


@app.command()
def duel(
    ruleset: Annotated[str, typer.Argument(help="Ruleset name, e.g. manoeuvre")],
    a: Annotated[str, typer.Option("--a", help="First bot, a level of the ruleset: random, maladroit, "
                                                "stratege (Manœuvre), etat_major (Front)")] = "stratege",
    b: Annotated[str, typer.Option("--b", help="Second bot")] = "maladroit",
    games: Annotated[int, typer.Option(min=1, help="Number of games; sides alternate")] = 200,
    seed: Annotated[int, typer.Option(help="Seed of the dice and of the bots")] = 0,
    budget: Annotated[float | None, typer.Option(help="Stratège's thinking time per action, seconds "
                                                              "(default: its own budget per turn)")] = None,
    jobs: Annotated[int, typer.Option(min=1, help="Processes playing games at once")] = 1,
) -> None:
    """Play a tournament between two bots and print win rates with 95 % confidence intervals."""
    from rich.progress import Progress

    from kadesh.ai.base import levels
    from kadesh.ai.duel import duel as run_duel
    from kadesh.ai.duel import percentile

    if ruleset not in all_rulesets():
        raise typer.BadParameter(f"unknown ruleset {ruleset!r}; known: {', '.join(all_rulesets())}")
    for level in (a, b):
        if level not in levels(ruleset):
            raise typer.BadParameter(f"no bot {level!r} for {ruleset}; known: {', '.join(levels(ruleset))}")

    with Progress(console=console) as progress:
        task = progress.add_task(f"{a} – {b}", total=games)
        result = run_duel(ruleset, a, b, games, seed=seed, budget=budget, jobs=jobs,
                          progress=lambda r: progress.update(task, completed=r.games))
    rate, low, high = result.rate()
    console.print(f"{a}: {result.a_wins} wins, {b}: {result.b_wins} wins, unfinished: {result.unfinished} "
                  f"(of {result.games})")
    console.print(f"{a} win rate {rate:.1%} (95 % CI {low:.1%}–{high:.1%}); "
                  f"{b} {1 - rate:.1%} (95 % CI {1 - high:.1%}–{1 - low:.1%})")
    console.print(f"{a} won {result.a_first_wins} of {result.a_first_games} games with the first seat, "
                  f"{result.a_wins - result.a_first_wins} of {result.games - result.a_first_games} with the second")
    if result.a_turns:
        console.print(f"{a}'s whole turns: {len(result.a_turns)}, median {percentile(result.a_turns, 0.5):.2f} s, "
                      f"95th percentile {percentile(result.a_turns, 0.95):.2f} s, longest {max(result.a_turns):.2f} s")


ODDS_TEXT = {
    "fr": {"north": "Nord", "south": "Sud", "nobody": "personne", "held": "Tient le terrain", "lost": "Hommes perdus",
           "reason": "Comment elles finissent", "mean": "pertes moyennes", "battles": "batailles",
           "own_field": "un champ à soi", "custom": "sur mesure"},
    "en": {"north": "North", "south": "South", "nobody": "nobody", "held": "Holds the field", "lost": "Men lost",
           "reason": "How they end", "mean": "mean losses", "battles": "battles",
           "own_field": "a field of one's own", "custom": "custom"},
}


def _percent(share: float, lang: str) -> str:
    text = f"{100 * share:.1f} %"
    return text.replace(".", ",") if lang == "fr" else text


def _odds_title(games: int, field: str | None, north: str, south: str, lang: str) -> str:
    """« 1 000 batailles : La plaine de Kadesh », "10,000 battles: Archers – Spearmen": names, not ids."""
    from kadesh.rules.bataille.data import RULES

    count = f"{games:,}".replace(",", "\u202f" if lang == "fr" else ",")
    if field is None:
        what = " – ".join(RULES.troops[t].names[lang] if t in RULES.troops else ODDS_TEXT[lang]["custom"]
                          for t in (north, south))
    else:
        what = RULES.fields[field][lang] if field in RULES.fields else ODDS_TEXT[lang]["own_field"]
    return f"{count} {ODDS_TEXT[lang]['battles']}{' : ' if lang == 'fr' else ': '}{what}"


def _group(text: str) -> dict:
    """A catalogue troop id, or a JSON object ({"troop": "custom", "strength": 120, ...})."""
    return json.loads(text) if text.lstrip().startswith("{") else {"troop": text}


@app.command()
def odds(
    ruleset: Annotated[str, typer.Argument(help="bataille")],
    north: Annotated[str, typer.Option(help="North's troop (catalogue id) or a JSON group")] = "archers",
    south: Annotated[str, typer.Option(help="South's troop (catalogue id) or a JSON group")] = "spearmen",
    north_general: Annotated[str, typer.Option(help="North's policy: bold, careful or random")] = "careful",
    south_general: Annotated[str, typer.Option(help="South's policy: bold, careful or random")] = "careful",
    games: Annotated[int, typer.Option(min=1, help="Battles to simulate")] = 10_000,
    shelter: Annotated[bool, typer.Option(help="Shelter at hand for a fleeing group")] = False,
    events: Annotated[bool, typer.Option(help="Events may end a pursuit")] = False,
    field: Annotated[str | None, typer.Option(help="A battle on a field: a shipped field's name (kadesh, gue) or "
                                                   "a JSON field; --north, --south, --shelter, --events are then "
                                                   "the field's")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the simulated dice")] = 0,
    png: Annotated[Path | None, typer.Option(help="Write the outcome chart to this PNG file")] = None,
    lang: Annotated[str, typer.Option(help="fr or en")] = "fr",
) -> None:
    """Simulate a battle set-up many times and print who holds the field and the losses."""
    from rich.progress import Progress
    from rich.table import Table

    from kadesh.ai.bataille import battle_odds, odds_chart
    from kadesh.core.errors import RuleError
    from kadesh.rules.bataille.narration import ending

    if ruleset != "bataille":
        _fail(f"odds: only bataille can be simulated this way (not {ruleset!r})")
    words = ODDS_TEXT["en" if lang == "en" else "fr"]
    try:
        if field is not None:
            options = {"field": json.loads(field) if field.lstrip().startswith("{") else field}
        else:
            options = {"north": _group(north), "south": _group(south), "shelter": shelter, "events": events}
        with Progress(console=console) as progress:
            task = progress.add_task(ruleset, total=games)
            result = battle_odds(options, {"north": north_general, "south": south_general}, games, seed,
                                 progress=lambda done: progress.update(task, completed=done))
    except (RuleError, LookupError, json.JSONDecodeError) as error:
        _fail(f"odds: {error}")
    lang = "en" if lang == "en" else "fr"
    console.print(_odds_title(games, field, north, south, lang))  # a line of its own: a table's title wraps
    table = Table()
    table.add_column(words["held"])
    table.add_column("%", justify="right")
    for key in ("north", "south", "nobody"):
        table.add_row(words[key], _percent(result.share(key), lang))
    console.print(table)
    console.print(f"{words['reason']} :" if lang == "fr" else f"{words['reason']}:")
    for (reason, holds), count in result.endings.most_common():
        line = ending(reason, holds, lang, on_field=field is not None)
        console.print(f"  {_percent(count / result.games, lang)}{' : ' if lang == 'fr' else ': '}{line}")
    mean = result.to_dict()["mean_losses"]
    losses = (" ; " if lang == "fr" else "; ").join(f"{words[side]} {_percent(mean[side] / 100, lang)[:-2]}"
                                                    for side in ("north", "south"))
    console.print(f"{words['mean']}{' : ' if lang == 'fr' else ': '}{losses}")
    if png is not None:
        odds_chart(result, words, str(png))
        console.print(f"→ {png}")


def _fail(message: str) -> None:
    typer.echo(message, err=True)
    raise typer.Exit(1)


if __name__ == "__main__":
    app()
