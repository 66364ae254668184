"""The FastAPI application: JSON API, WebSocket, and the home page's static files."""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import text

from kadesh import __version__
from kadesh.core import all_rulesets
from kadesh.core.registry import broken_rulesets
from kadesh.server import (
    accounts_api,
    api,
    maps_api,
    messages_api,
    open_games_api,
    problems,
    subscriptions_api,
    table_api,
    ws,
)
from kadesh.server.action_path import ActionPath
from kadesh.server.broadcast import Broadcasts
from kadesh.server.checks import Answers, Checks
from kadesh.server.delivery import Settings
from kadesh.server.limits import MAX_BODY, RequestLimits
from kadesh.server.metrics import MetricsServer, RequestTimes
from kadesh.server.notifier import Notifier, PollingNotifier
from kadesh.server.rates import RateLimits, RatePolicy
from kadesh.server.security import SecurityHeaders, redact_logs
from kadesh.server.simulations import Simulations
from kadesh.server.socket_limits import OpenSockets, SocketLimits
from kadesh.server.watching import Watching
from kadesh.server.worker import LocalWorkers
from kadesh.store import Store

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
log = logging.getLogger(__name__)


def create_app(db_url: str | None = None, store: Store | None = None, notifier: Notifier | None = None,
               max_body: int = MAX_BODY, bot_budget: float | None = None, deadline_poll: float = 5.0,
               local_workers: int = 2, notice_settings: Settings | None = None,
               simulations: Simulations | None = None, rate_policy: RatePolicy | None = None,
               warm_checks: bool = False, metrics_at: tuple[str, int] | None = None,
               socket_limits: SocketLimits | None = None) -> FastAPI:
    """The Kadesh server on ``db_url`` (default: the SQLite file in the user data folder), migrated.

    The computer's moves and the deadlines are worked by worker processes (``kadesh.server.worker``), never
    here: ``local_workers`` of them are started on this machine at the first sign of such work (0: none,
    when ``kadesh worker`` processes run elsewhere). For them: ``bot_budget``, the ceiling on thinking time
    per action, in seconds, of the computer opponents that search (None: each bot's own default);
    ``deadline_poll``, how often, in seconds, games whose deadline has passed are looked for.
    ``notice_settings``: SMTP and webhooks (default: from the environment, as the workers read them);
    ``simulations``: how many simulations run and wait, and their ceiling (``kadesh.server.simulations``);
    ``rate_policy``: how many games, simulations, subscriptions… one address may ask for (default: from the
    environment, ``kadesh.server.rates``); ``warm_checks``, start the check process with the server rather than
    at the first check (``kadesh serve`` does: a page's first legal actions would wait for it); ``metrics_at``, the
    (host, port) where ``/metrics`` is served for Prometheus (``kadesh.server.metrics``; None: nowhere);
    ``socket_limits``: how many WebSockets one address and the whole server keep open (default: from the
    environment, ``kadesh.server.socket_limits``)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        redact_logs()  # uvicorn has configured its loggers by now: no token reaches a log line
        for broken in broken_rulesets():  # said at start-up, where the operator looks
            log.error("ruleset plugin %r (%s) is not served: %s", broken.entry_point, broken.target, broken.problem)
        app.state.notifier.start()
        app.state.watching.start()
        if app.state.metrics is not None:
            app.state.metrics.start()
        if warm_checks:  # every page asks the check process for its legal actions: started now, beside them
            threading.Thread(target=app.state.checks.warm, name="kadesh-checks-warm", daemon=True).start()
        if app.state.store.has_background_work():  # bots or deadlines waiting from before a restart
            app.state.workers.ensure()
        yield
        if app.state.metrics is not None:
            app.state.metrics.stop()
        await app.state.watching.stop()
        app.state.checks.close()
        app.state.workers.stop()
        app.state.notifier.stop()

    # telemetry: Kadesh's metrics are Prometheus's (kadesh.server.metrics); FastAPI's own OpenTelemetry would
    # otherwise look for configured providers on every request (1 % of an action's time).
    app = FastAPI(title="Kadesh", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Turn-based wargames over several visits; every die roll on the record.",
                  telemetry={"tracing": False, "metrics": False, "logs": False})
    app.state.store = store or Store(db_url)
    app.state.notifier = notifier or default_notifier(app.state.store)
    app.state.workers = LocalWorkers(app.state.store.url, local_workers, budget=bot_budget, deadline_poll=deadline_poll)
    app.state.notice_settings = notice_settings or Settings.from_environment()
    app.state.simulations = simulations or Simulations()
    app.state.checks = Checks(app.state.store.url)
    app.state.legal_answers = Answers()
    app.state.watching = Watching(app.state.store)
    app.state.broadcasts = Broadcasts(app.state.store, app.state.notifier)
    app.state.store.on_commit = app.state.notifier.publish  # at the commit; api.act announces it again, harmless
    app.state.metrics = MetricsServer(app.state.store, *metrics_at) if metrics_at is not None else None
    app.state.socket_origins = ws.socket_origins(dict(os.environ), app.state.notice_settings.public_url)
    rate_policy = rate_policy or RatePolicy.from_environment(os.environ)
    app.state.proxies = rate_policy.proxies  # the sockets are counted per client address as the requests are
    app.state.open_sockets = OpenSockets(socket_limits or SocketLimits.from_environment(os.environ))
    problems.install(app)
    # The routers' routes themselves, built once per process when their modules were imported: included
    # (``include_router``), each app rebuilt every route's dependencies and models at its first request, 25-30 ms
    # of CPU per app (the same paths, answers and /openapi.json; no router adds a prefix or dependency here).
    for router in (api.router, subscriptions_api.router, accounts_api.router, open_games_api.router,
                   table_api.router, messages_api.router, maps_api.router, ws.router):
        app.router.routes.extend(router.routes)
    views = ruleset_views()

    @app.get("/static/rules/{file_name}", include_in_schema=False)
    def ruleset_view(file_name: str) -> Response:
        """A ruleset's browser view, served from its own package (``Ruleset.web_folder``)."""
        path = views.get(file_name)
        if path is None:
            return Response("Not Found", status_code=404, media_type="text/plain")
        return FileResponse(path, media_type=VIEW_TYPES[path.suffix])

    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html", media_type="text/html; charset=utf-8")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")

    @app.get("/health", include_in_schema=False)
    def health() -> dict[str, Any]:
        """For a load balancer: 200 while the database answers, 503 (problem+json) when it does not."""
        with app.state.store.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
        listening = getattr(app.state.notifier, "listening", None)
        return {"status": "ok", "database": app.state.store.engine.dialect.name,
                "listening": listening.is_set() if listening is not None else None,
                "rulesets": list(all_rulesets()),
                "broken_rulesets": [{"name": b.entry_point, "target": b.target, "problem": b.problem}
                                    for b in broken_rulesets()]}

    @app.get("/account", include_in_schema=False)
    def account_page() -> FileResponse:
        """« Mon compte »: sign in or make an account; once signed in, the account (``accounts_api``)."""
        return FileResponse(WEB_DIR / "account.html", media_type="text/html; charset=utf-8",
                            headers={"Cache-Control": "no-store"})

    @app.get("/design", include_in_schema=False)
    def design_page() -> FileResponse:
        """The map designer (issue 61): a Front battle or a Royaumes map drawn, checked by the server, tried."""
        return FileResponse(WEB_DIR / "design.html", media_type="text/html; charset=utf-8")

    @app.get("/leaderboards", include_in_schema=False)
    def leaderboards_page() -> FileResponse:
        """The leaderboards, drawn from ``GET /api/leaderboards/{ruleset}``."""
        return FileResponse(WEB_DIR / "leaderboard.html", media_type="text/html; charset=utf-8")

    @app.get("/maps", include_in_schema=False)
    def maps_page() -> FileResponse:
        """The shelf of the players' maps, drawn from ``GET /api/maps``."""
        return FileResponse(WEB_DIR / "maps.html", media_type="text/html; charset=utf-8")

    @app.get("/watch", include_in_schema=False)
    def watch_page() -> FileResponse:
        """« Parties en cours », drawn from ``GET /api/watch``."""
        return FileResponse(WEB_DIR / "watch.html", media_type="text/html; charset=utf-8")

    @app.get("/players/{name}", include_in_schema=False)
    def player_page(name: str) -> FileResponse:
        """A player's public page, drawn from ``GET /api/players/{name}``."""
        return FileResponse(WEB_DIR / "player.html", media_type="text/html; charset=utf-8")

    @app.get("/play/{game_id}", include_in_schema=False)
    def play(game_id: str) -> FileResponse:
        """The game page. Its link carries the token in the fragment (``#token=…``), which browsers never
        send; an old link's ``?token=…`` comes here too, is never logged (``RedactTokens``), and the page
        moves it to its session storage and off the address bar before it loads anything else."""
        return FileResponse(WEB_DIR / "play.html", media_type="text/html; charset=utf-8",
                            headers={"Cache-Control": "no-store"})

    app.add_middleware(ActionPath)  # innermost: a move goes round FastAPI's routing, inside every limit
    app.add_middleware(RequestLimits, max_body=max_body)
    # Before the body is read: a client past its share costs the server nothing more.
    app.add_middleware(RateLimits, policy=rate_policy)
    app.add_middleware(SecurityHeaders)  # on every answer, the limits' refusals included
    if metrics_at is not None:  # outermost: every request's time, refused ones too; without a scraper, no cost
        app.add_middleware(RequestTimes)
    app.openapi = lambda: _openapi(app)  # type: ignore[method-assign]
    return app


VIEW_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml"}


def ruleset_views() -> dict[str, Path]:
    """Every ruleset's view files by name (a name two rulesets both ship is the first's, and logged)."""
    views: dict[str, Path] = {}
    for name, ruleset in all_rulesets().items():
        folder = ruleset.web_folder()
        if folder is None:
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix not in VIEW_TYPES or not path.is_file():
                continue
            if path.name in views:
                log.error("ruleset %s: its view file %s is another ruleset's already: left out", name, path.name)
                continue
            views[path.name] = path
    return views


def default_notifier(store: Store) -> Notifier:
    """On PostgreSQL, hear every server and worker on the database; on a SQLite file, this process's actions
    at once and the workers' by reading the watched games' versions."""
    if store.announces:
        from kadesh.server.pg_notifier import PostgresNotifier

        return PostgresNotifier(store.url)
    return PollingNotifier(store.stamps)


def _openapi(app: FastAPI) -> dict[str, Any]:
    """FastAPI's schema, with every error documented as a problem+json document."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components["Problem"] = problems.Problem.model_json_schema(ref_template="#/components/schemas/{model}")
    reference = {"$ref": "#/components/schemas/Problem"}
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            for status, response in operation.get("responses", {}).items():
                if status.startswith("4") or status.startswith("5"):
                    response["content"] = {problems.PROBLEM_JSON: {"schema": reference}}
                    response["description"] = response.get("description") or "Problem"
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)
    app.openapi_schema = schema
    return schema
