"""Statements compiled once and run on the database driver: the action path's few queries without SQLAlchemy's
per-call work (about 30 µs a statement on SQLite, more than the query itself).

A ``Prepared`` statement keeps what SQLAlchemy would do on each call: the dialect's SQL, the order of its
parameters and each parameter's conversion (JSON to text, datetimes), so rows are written exactly as the
rest of the store writes them. Driver errors come out as SQLAlchemy's (``OperationalError`` when the
database is away, ``IntegrityError`` on a broken constraint), and a lost connection is dropped from the pool.

On SQLite it runs on the ``sqlite3`` cursor. On PostgreSQL it runs on libpq itself, through psycopg's ``pgconn``
(``_LibpqStatement``): a server-side prepared statement per connection, its parameters converted and its rows
read by psycopg's own adapters, with none of the cursor's per-call machinery (a cursor, the query's conversion,
the prepared statements' bookkeeping: 96 µs of CPU a statement against 42 µs, ``bench/bench_pg_statements.py``,
docs/performance.md). libpq waits for the server without the interpreter's lock, as psycopg does. A transaction's
BEGIN goes with its first statement, and ``run_together`` sends several statements, and COMMIT, in one round trip
(libpq's pipeline mode).
"""

from __future__ import annotations

import contextlib
import itertools
import re
import select
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from psycopg import errors as pg_errors
from psycopg.adapt import PyFormat, Transformer
from psycopg.pq import ExecStatus, PipelineStatus, TransactionStatus
from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql import ClauseElement

_NAMED = re.compile(r"%\((\w+)\)s")
_names = (f"kadesh_{number}".encode() for number in itertools.count())


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
        self.libpq = _LibpqStatement(self.sql) if dialect.name == "postgresql" else None

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        merged = dict(values)  # every parameter is named by the caller: these statements hold no literal
        for name, convert in self.converters.items():
            merged[name] = convert(merged[name])
        return tuple(merged[name] for name in self.order) if self.order is not None else merged

    def run(self, conn: Connection, **values: Any) -> Any:
        """Execute on ``conn``'s driver connection; rows as plain tuples (``fetchone``, ``fetchall``, ``rowcount``)."""
        parameters = self.parameters(values)
        driver = conn.connection.dbapi_connection
        cursor = None
        try:
            if self.libpq is not None:
                return self.libpq.run(driver, parameters)
            cursor = driver.cursor()
            cursor.execute(self.sql, parameters)
        except conn.dialect.loaded_dbapi.Error as error:
            raise _as_sqlalchemy_error(conn, self.sql, parameters, error, driver, cursor) from error
        return cursor


def run_together(conn: Connection, steps: Sequence[tuple[Prepared, Mapping[str, Any]]],
                 commit: bool = False) -> list[Rows]:
    """PostgreSQL: the statements of ``steps`` (each with its values) sent to the server at once, after BEGIN if
    no transaction is open and before COMMIT with ``commit``: one round trip for all (libpq's pipeline mode).
    Each statement's rows; the first error raised as ``Prepared.run`` raises it, nothing committed then."""
    driver = conn.connection.dbapi_connection
    parameters = [(prepared, prepared.parameters(values)) for prepared, values in steps]
    try:
        return _run_libpq(driver, [(prepared.libpq, values) for prepared, values in parameters], commit)
    except conn.dialect.loaded_dbapi.Error as error:
        raise _as_sqlalchemy_error(conn, "; ".join(prepared.sql for prepared, _ in parameters),
                                   [values for _, values in parameters], error, driver) from error


def _as_sqlalchemy_error(conn: Connection, sql: str, parameters: Any, error: Exception, driver: Any,
                         cursor: Any = None) -> DBAPIError:
    """The driver's ``error`` as SQLAlchemy raises it, a lost connection dropped from the pool."""
    lost = conn.dialect.is_disconnect(error, driver, cursor)
    if lost:
        conn.invalidate(error)
    return DBAPIError.instance(sql, parameters, error, conn.dialect.loaded_dbapi.Error,
                               connection_invalidated=lost, dialect=conn.dialect)


class Rows:
    """A PostgreSQL statement's answer, as much of a cursor as the store reads."""

    __slots__ = ("_rows", "rowcount")

    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int) -> None:
        self._rows, self.rowcount = rows, rowcount

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._rows

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self._rows)


class _Session:
    """What a psycopg connection keeps for ``_LibpqStatement``: its adapters and the statements it prepared."""

    __slots__ = ("prepared", "transformer")

    def __init__(self, driver: Any) -> None:
        self.transformer = Transformer(driver)
        self.prepared: set[bytes] = set()


_sessions: weakref.WeakKeyDictionary[Any, _Session] = weakref.WeakKeyDictionary()


class _LibpqStatement:
    """One statement prepared on each PostgreSQL connection that runs it, run by libpq's ``PQexecPrepared``."""

    def __init__(self, sql: str) -> None:
        order: list[str] = []

        def numbered(match: re.Match[str]) -> str:
            if match.group(1) not in order:
                order.append(match.group(1))
            return f"${order.index(match.group(1)) + 1}"

        self.query = _NAMED.sub(numbered, sql.replace("%%", "%")).encode()
        self.order = order
        self.formats = [PyFormat.TEXT] * len(order)  # text: the server's types, inferred at the prepare, read it
        self.name = next(_names)

    def run(self, driver: Any, parameters: Mapping[str, Any]) -> Rows:
        return _run_libpq(driver, [(self, parameters)])[0]


def _run_libpq(driver: Any, steps: Sequence[tuple[_LibpqStatement, Mapping[str, Any]]],
               commit: bool = False) -> list[Rows]:
    """The statements of ``steps`` on ``driver``'s connection, prepared there first if they are not yet. As psycopg
    does outside autocommit, the first statement opens the transaction: BEGIN goes with it, and several
    statements (or COMMIT) go at once, in libpq's pipeline mode."""
    session = _sessions.get(driver)
    if session is None:
        session = _sessions[driver] = _Session(driver)
    pgconn = driver.pgconn
    for statement, _ in steps:
        if statement.name not in session.prepared:
            _checked(pgconn.prepare(statement.name, statement.query), driver)
            session.prepared.add(statement.name)
    transformer = session.transformer
    sent = [(statement.name, transformer.dump_sequence([parameters[name] for name in statement.order],
                                                       statement.formats)) for statement, parameters in steps]
    begin = not driver.autocommit and pgconn.transaction_status == TransactionStatus.IDLE
    try:
        if begin or commit or len(sent) > 1:
            results = _pipelined(pgconn, sent, begin, commit, driver)
        else:
            results = [_checked(pgconn.exec_prepared(*sent[0]), driver)]
    except pg_errors.InvalidSqlStatementName:  # deallocated by someone else (DISCARD ALL): prepared again next time
        session.prepared.clear()
        raise
    rows = []
    for result in results:
        transformer.set_pgresult(result)
        rows.append(Rows(transformer.load_rows(0, result.ntuples, tuple) if result.ntuples else [],
                         result.command_tuples if result.command_tuples is not None else -1))
    return rows


def _pipelined(pgconn: Any, sent: list[tuple[bytes, Sequence[Any]]], begin: bool, commit: bool,
               driver: Any) -> list[Any]:
    """The prepared statements ``sent`` (name, values) in one pipeline, after BEGIN and before COMMIT if asked;
    the statements' results, or the first error raised (what follows it in the pipeline is not run)."""
    pgconn.enter_pipeline_mode()
    try:
        if begin:
            pgconn.send_query_params(b"BEGIN", None)  # the extended protocol: the only one a pipeline takes
        for name, values in sent:
            pgconn.send_query_prepared(name, values)
        if commit:
            pgconn.send_query_params(b"COMMIT", None)
        pgconn.pipeline_sync()
        results = _pipeline_results(pgconn)
    except BaseException:
        with contextlib.suppress(Exception):  # a connection lost meanwhile cannot leave it: the error says why
            pgconn.exit_pipeline_mode()
        if pgconn.pipeline_status != PipelineStatus.OFF:  # answers left unread: the connection is not reused
            driver.close()
        raise
    pgconn.exit_pipeline_mode()
    for result in results:
        _checked(result, driver)  # the first error, before the aborted statements after it
    return results[int(begin):int(begin) + len(sent)]


def _pipeline_results(pgconn: Any) -> list[Any]:
    """The results of a pipeline up to its sync, one per statement, waited for without the interpreter's lock
    (libpq's ``PQgetResult`` would keep it while it waits)."""
    results: list[Any] = []
    waiting: select.poll | None = None
    while True:
        while pgconn.is_busy():
            if waiting is None:
                waiting = select.poll()
                waiting.register(pgconn.socket, select.POLLIN)
            waiting.poll()
            pgconn.consume_input()
        result = pgconn.get_result()
        if result is None:  # the end of one statement's results
            continue
        if result.status == ExecStatus.PIPELINE_SYNC:
            return results
        results.append(result)


def _checked(result: Any, driver: Any) -> Any:
    """``result``, or its error raised as psycopg raises it (``UniqueViolation``, ``OperationalError``…)."""
    if result.status in (ExecStatus.COMMAND_OK, ExecStatus.TUPLES_OK):
        return result
    if result.status == ExecStatus.FATAL_ERROR:
        raise pg_errors.error_from_result(result, encoding=driver.info.encoding)
    raise pg_errors.OperationalError(f"unexpected answer from the server: {result.status.name}")
