"""Alembic environment, configured from code: see ``kadesh.store.migrating.alembic_config``.

The caller passes an open connection in ``config.attributes["connection"]``; without one,
an engine is made from the ``sqlalchemy.url`` option (for the ``alembic`` command line).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from kadesh.store.schema import metadata

config = context.config


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_offline() -> None:
    context.configure(url=config.get_main_option("sqlalchemy.url"), target_metadata=metadata,
                      literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = create_engine(config.get_main_option("sqlalchemy.url"))
    with engine.connect() as connection:
        _run(connection)
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
