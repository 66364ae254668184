"""Database engines and start-up migrations, for SQLite (the default) and PostgreSQL."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import platformdirs
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import ConnectionPoolEntry, QueuePool

from kadesh.store.metrics import POOL_WAIT


def default_db_path() -> Path:
    return Path(platformdirs.user_data_dir("kadesh")) / "kadesh.sqlite3"


def default_url() -> str:
    return f"sqlite:///{default_db_path()}"


def normalize_url(url: str | None) -> str:
    """The SQLAlchemy URL for ``url``: None is the default SQLite file, a bare path is a SQLite file."""
    if url is None:
        return default_url()
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


WAL_SWITCH_SECONDS = 30.0  # how long a new file's switch to WAL is tried while other processes open it too


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # A committed action must survive a kill -9 (and a power cut): WAL with a full sync.
    cursor = dbapi_connection.cursor()
    _switch_to_wal(cursor)
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


def _switch_to_wal(cursor) -> None:
    """WAL mode, kept by the file once set. Several processes opening a new file at once may find it locked
    without SQLite waiting (the switch needs the file to itself): try again until it is free."""
    deadline = time.monotonic() + WAL_SWITCH_SECONDS
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _create_privately(path: Path) -> None:
    """The SQLite file (and the folders made for it) readable by the server's user alone: it holds every
    seat's link and the seeds of unfinished games. SQLite gives its WAL and shared-memory files the same
    mode as the database's. An existing file is left as its owner set it."""
    missing = [folder for folder in (path.parent, *path.parent.parents) if not folder.exists()]
    for folder in reversed(missing):
        folder.mkdir(mode=0o700, exist_ok=True)
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))


class TimedPool(QueuePool):
    """SQLAlchemy's pool for both databases, timing each wait for a connection (``kadesh_db_pool_wait_seconds``).
    Its ``checkout`` event comes after the wait, with nothing of when it began: the wait is timed around the
    pool's own take."""

    def _do_get(self) -> ConnectionPoolEntry:
        started = time.perf_counter()
        try:
            return super()._do_get()
        finally:
            POOL_WAIT.observe(time.perf_counter() - started)


def make_engine(url: str | None = None) -> Engine:
    """An engine for ``url``; a SQLite file and its folder are created on first use."""
    url = normalize_url(url)
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database
        if not database or database == ":memory:":
            raise ValueError("the store needs a SQLite file, not an in-memory database")
        _create_privately(Path(database).expanduser())
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, poolclass=TimedPool)
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    # psycopg prepares none of its own statements: it would deallocate them all, and the action path's with them
    # (kadesh.store.prepared), at every rollback.
    return create_engine(url, pool_pre_ping=True, poolclass=TimedPool, connect_args={"prepare_threshold": None})


NEWEST_REVISION = "0020"  # the last migration's: kadesh/store/migrations/versions/ (a test checks they agree)


def migrate(engine: Engine) -> None:
    """Bring the database up to the newest migration.

    A database already there is left alone without loading Alembic: importing it (with Mako and Pygments)
    and reading the migration scripts cost every server, worker and command some 0.3 s of CPU at start.
    Servers starting together on one database take turns, the first migrates and the others then find nothing
    to do (``kadesh.store.migrating``)."""
    if _revision(engine) == NEWEST_REVISION:
        return
    from kadesh.store.migrating import upgrade  # only a database behind needs Alembic: see above

    upgrade(engine)


def _revision(engine: Engine) -> str | None:
    """The database's migration revision, or None if it has none yet."""
    try:
        with engine.connect() as connection:
            return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
    except SQLAlchemyError:
        return None
