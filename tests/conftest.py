"""Fixtures shared by the test modules.

``db`` is a fresh database URL, once on SQLite and once on PostgreSQL (a throwaway server
of Debian's package, started once per session): the store, API and CLI tests ask for it
and so run on both. ``-m "not postgresql"`` leaves the PostgreSQL half out. Its database is
already migrated (a copy of one migrated once per test process); ``empty_db`` is not.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.affected import changed_files, select
from tests.browser_support import (
    CHROMIUM_ARGS,
    POLL_EVERY_MS,
    TEST_CHROMIUM,
    ContextPool,
    keeper_site,
    poll_pages_every,
)
from tests.bytecode import write_ahead
from tests.waiting import CEILING
from tests.webauthn_support import ORIGIN

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]


def pytest_xdist_auto_num_workers(config):
    """``-n auto``: one test process more than the machine has cores. Many tests wait part of the time (on a
    server starting, a socket, a worker's move), and the extra process takes the cores while they do: on a
    2-core machine the suite left a core idle a tenth of the time with two processes, and almost never with
    three (docs/performance.md, « The suite's own time »)."""
    return (os.cpu_count() or 1) + 1


def pytest_configure(config):
    """Once, before the test processes start: Kadesh and the tests' helpers compiled, the test modules rewritten by
    pytest, on every core (``tests/bytecode.py``). Where PYTHONDONTWRITEBYTECODE is set (as on the CI machine), every
    test process would do it again (some 6 s of CPU each), and every server, worker and check process the tests start
    would compile Kadesh's sources again (about 0.2 s each, some fifty seconds over the suite; docs/performance.md,
    « The suite's own time »). Python still reads bytecode that is there."""
    if not hasattr(config, "workerinput"):  # the controller, not each worker
        write_ahead(config)


def pytest_addoption(parser):
    parser.addoption("--changed", nargs="?", const="HEAD", default=None, metavar="REVISION",
                     help="only the tests that the files changed since REVISION (by default the last commit: what "
                          "is not committed yet) can affect (tests/affected.py); with -m 'not slow', the one-change "
                          "loop of CONTRIBUTING.md")


def pytest_collection_modifyitems(config, items):
    """A test that drives Chromium or a PostgreSQL server is marked so, whether or not its module says it:
    ``-m "not browser"`` and ``-m "not postgresql"`` leave out exactly what needs them. With ``--changed``, the
    tests the change cannot affect are left out."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        if fixtures & {"postgres", "own_postgres"}:
            item.add_marker(pytest.mark.postgresql)
    revision = config.getoption("changed")
    if revision:
        _keep_the_changes_tests(config, items, _selection(config, revision))


_SELECTION = pytest.StashKey()


def _selection(config, revision: str):
    """The change's selection, worked out once per process (the header and the collection both use it)."""
    if _SELECTION not in config.stash:
        config.stash[_SELECTION] = select(changed_files(revision))
    return config.stash[_SELECTION]


def _keep_the_changes_tests(config, items, selection) -> None:
    kept, left = [], []
    for item in items:
        module = item.nodeid.split("::", 1)[0]
        parameters = getattr(getattr(item, "callspec", None), "params", {})
        (kept if selection.keeps(module, parameters) else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


def pytest_report_header(config):
    revision = config.getoption("changed")
    if revision:
        selection = _selection(config, revision)
        return ["changed since " + revision + ": " + ("; ".join(selection.reasons) or "nothing a test checks")]
    return None


class WatchedBrowser:
    """Chromium, with every page's Content-Security-Policy violations kept (Chromium reports each one on
    the page's console): a browser test that meets one fails (``_no_csp_violation``). The pages a test opens
    are closed when it ends: none keeps its timers and sockets running through the next tests."""

    def __init__(self, browser, keeper_url: str) -> None:
        self._browser = browser
        self.violations: list[str] = []
        self._opened: list = []
        self._pool = ContextPool(self._pooled_context, keeper_url)

    def __getattr__(self, name: str):
        return getattr(self._browser, name)

    def _watch(self, context):
        context.on("console", lambda message: self._note(message.text))
        return context

    def _note(self, text: str) -> None:
        if "Content Security Policy" in text:
            self.violations.append(text)

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.set_default_timeout(CEILING * 1000)  # every wait of a page, on a busy machine too
        self._opened.append(context)
        return self._watch(context)

    def _pooled_context(self, **options):
        context = self._browser.new_context(**options)
        context.set_default_timeout(CEILING * 1000)
        return self._watch(context)

    def new_page(self, **options):
        """A page in a context of its own, kept for later tests once cleared (``ContextPool``)."""
        return self._pool.new_page(**options)

    def close_pages(self) -> None:
        """Close every context opened since the last call (already closed ones too: closing is idempotent), and
        give the pooled ones back, their pages closed."""
        opened, self._opened = self._opened, []
        for context in opened:
            context.close()
        self._pool.give_back()


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium driven by Playwright, one per test process: launching it costs more than a test."""
    from playwright.sync_api import sync_playwright

    poll_pages_every(POLL_EVERY_MS)
    with sync_playwright() as p, keeper_site() as keeper_url:
        chromium = p.chromium.launch(executable_path=TEST_CHROMIUM, args=CHROMIUM_ARGS)
        yield WatchedBrowser(chromium, keeper_url)
        chromium.close()


@pytest.fixture(scope="session")
def shared_server(tmp_path_factory):
    """A Kadesh server in a thread (``tests.browser_support.running_server``) shared by the browser modules whose tests
    each play in games of their own, once per test process: a server costs some 0.6 s of CPU to start and stop with its
    worker and checks' process, and Chromium keeps the pages' scripts of one origin compiled from test to test."""
    from tests.browser_support import running_server

    with running_server(str(tmp_path_factory.mktemp("shared") / "kadesh.sqlite3")) as (base, store):
        yield base, store


@pytest.fixture(autouse=True)
def _no_csp_violation(request):
    """Every browser test ends with no page having broken the server's Content-Security-Policy, and with the
    pages it opened closed."""
    if "browser" not in request.fixturenames:
        yield
        return
    watched = request.getfixturevalue("browser")
    watched.violations.clear()
    try:
        yield
        assert not watched.violations, "Content-Security-Policy violations: " + " | ".join(watched.violations[:3])
    finally:
        watched.close_pages()


@pytest.fixture(scope="session")
def postgres():
    """One private PostgreSQL server for the whole session."""
    from tests.pg_support import PostgresServer

    server = PostgresServer().start()
    yield server
    server.destroy()


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory) -> Path:
    """A SQLite file migrated to the newest schema once per test process: each test's database is a copy of it
    (migrating a new file costs some 0.1 s of CPU, copying it a hundredth of that)."""
    from kadesh.store import Store

    path = tmp_path_factory.mktemp("template") / "migrated.sqlite3"
    Store(f"sqlite:///{path}").close()  # the last connection closed, the WAL is in the file
    return path


def _database(request, folder, migrated: bool = True):
    if request.param == "sqlite":
        from tests.kadesh_http import migrated_url  # the app's modules, loaded once a test asks for a database

        path = folder / "kadesh.sqlite3"
        yield migrated_url(request.getfixturevalue("migrated_sqlite"), path) if migrated else f"sqlite:///{path}"
        return
    server = request.getfixturevalue("postgres")
    url = server.new_database(migrated=migrated)
    yield url
    server.drop_database(url)


def pytest_generate_tests(metafunc):
    """The tests of a database run on each backend, or on SQLite alone where their module is marked
    ``sqlite_only`` (what such a module checks is the same on both: CONTRIBUTING.md, « The suite's budget »)."""
    backends = ["sqlite"] if metafunc.definition.get_closest_marker("sqlite_only") else BACKENDS
    for name, scope in (("db", "function"), ("empty_db", "function"), ("module_db", "module")):
        if name in metafunc.fixturenames:
            metafunc.parametrize(name, backends, indirect=True, scope=scope)


@pytest.fixture
def db(request, tmp_path):
    """A fresh database URL, migrated to the newest schema and empty: SQLite file, then PostgreSQL database."""
    yield from _database(request, tmp_path)


@pytest.fixture
def empty_db(request, tmp_path):
    """The same, never migrated: no table at all."""
    yield from _database(request, tmp_path, migrated=False)


@pytest.fixture(scope="module")
def module_db(request, tmp_path_factory):
    """A database as ``db`` gives, shared by a module's tests."""
    yield from _database(request, tmp_path_factory.mktemp("db"))


@pytest.fixture
def served(db):
    """A server on ``db`` without rate limits and its store, and a way to open devices on it (each a client of its
    own: its own cookies, as a person's phone and computer), at the origin passkeys are made for."""
    from kadesh.server.app import create_app
    from kadesh.server.rates import RatePolicy
    from kadesh.store import Store
    from tests.asgi_client import TestClient

    store = Store(db)
    app = create_app(store=store, local_workers=0, rate_policy=RatePolicy.unlimited())
    with TestClient(app, base_url=ORIGIN):
        yield store, lambda: TestClient(app, base_url=ORIGIN)
    store.close()
