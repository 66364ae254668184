"""Fixtures shared by the test modules.

``db`` is a fresh database URL, once on SQLite and once on PostgreSQL (a throwaway server
of Debian's package, started once per session): the store, API and CLI tests ask for it
and so run on both. ``-m "not postgresql"`` leaves the PostgreSQL half out.
"""

from __future__ import annotations

import pytest

from tests.browser_support import CHROMIUM, CHROMIUM_ARGS

BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright, one per browser test module."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def postgres():
    """One private PostgreSQL server for the whole session."""
    from tests.pg_support import PostgresServer

    server = PostgresServer().start()
    yield server
    server.destroy()


def _database(request, folder):
    if request.param == "sqlite":
        yield f"sqlite:///{folder / 'kadesh.sqlite3'}"
        return
    server = request.getfixturevalue("postgres")
    url = server.new_database()
    yield url
    server.drop_database(url)


@pytest.fixture(params=BACKENDS)
def db(request, tmp_path):
    """A fresh, empty database URL: SQLite file, then PostgreSQL database."""
    yield from _database(request, tmp_path)


@pytest.fixture(scope="module", params=BACKENDS)
def module_db(request, tmp_path_factory):
    """The same, shared by a module's tests."""
    yield from _database(request, tmp_path_factory.mktemp("db"))
