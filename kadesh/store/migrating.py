"""Alembic's migrations, run when a database is behind the newest one (``kadesh.store.db.migrate``)."""

from __future__ import annotations

import threading

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

SCRIPT_LOCATION = "kadesh.store:migrations"


def alembic_config(engine: Engine) -> Config:
    """Alembic configured from code: the scripts live in the package, no alembic.ini is read."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    config.set_main_option("sqlalchemy.url", engine.url.render_as_string(hide_password=False).replace("%", "%%"))
    return config


def head_revision() -> str:
    """The newest migration's revision, read from the package's scripts."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head


MIGRATION_LOCK = 0x6B616465  # PostgreSQL advisory lock key ("kade"): one server migrates at a time
_migrating = threading.Lock()  # Alembic's command state is per process, not per thread


def upgrade(engine: Engine) -> None:
    """Bring the database up to the newest migration.

    Servers starting together on one database take turns, the first migrates and the others
    then find nothing to do: on PostgreSQL through an advisory lock held until the migration
    commits, on SQLite by taking the file's write lock first (BEGIN IMMEDIATE)."""
    config = alembic_config(engine)
    with _migrating, engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        elif engine.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
