"""Statements compiled once and run on the database driver's cursor: the action path's few queries without
SQLAlchemy's per-call work (about 30 µs a statement on SQLite, more than the query itself).

A ``Prepared`` statement keeps what SQLAlchemy would do on each call: the dialect's SQL, the order of its
parameters and each parameter's conversion (JSON to text, datetimes), so rows are written exactly as the
rest of the store writes them. Driver errors come out as SQLAlchemy's (``OperationalError`` when the
database is away, ``IntegrityError`` on a broken constraint), and a lost connection is dropped from the pool.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import ClauseElement


class Prepared:
    def __init__(self, statement: ClauseElement, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = compiled.string
        # Positional paramstyles (SQLite's "?") take a tuple in this order; named ones (psycopg's) a dict.
        self.order: Sequence[str] | None = compiled.positiontup
        self.converters: dict[str, Callable[[Any], Any]] = {}
        for name, bind in compiled.binds.items():
            convert = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if convert is not None:
                self.converters[name] = convert

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        merged = dict(values)  # every parameter is named by the caller: these statements hold no literal
        for name, convert in self.converters.items():
            merged[name] = convert(merged[name])
        return tuple(merged[name] for name in self.order) if self.order is not None else merged

    def run(self, conn: Connection, **values: Any) -> Any:
        """Execute on ``conn``'s driver connection; the driver's cursor (its rows are plain tuples)."""
        parameters = self.parameters(values)
        driver = conn.connection.dbapi_connection
        cursor = driver.cursor()
        try:
            cursor.execute(self.sql, parameters)
        except conn.dialect.loaded_dbapi.Error as error:
            lost = conn.dialect.is_disconnect(error, driver, cursor)
            if lost:
                conn.invalidate(error)
            raise DBAPIError.instance(self.sql, parameters, error, conn.dialect.loaded_dbapi.Error,
                                      connection_invalidated=lost, dialect=conn.dialect) from error
        return cursor
