"""Statements that every entry runs, sent on the database driver's own cursor.

An entry's write runs three statements of a row each (its character read under the lock,
its insert, the version its trigger gave). Through SQLAlchemy's execution each cost about
as much again in Python as the driver's own work (its events, its execution context, its
result objects), on a worker where an entry is most of what a referee waits for. Here they
run on the cursor of the session's own connection, in its transaction, as SQLAlchemy
compiles them for that database, their values converted by the columns' own types (found
once per database): what is sent and read is what SQLAlchemy's execution sends and reads.

What is skipped: the engine's statement event (``before_execute``), where
keeping/versions.py watches writes past the session's objects; an entry's insert names its
character itself (``store_entry``), as it did before. The event of a statement sent on a
cursor (``before_cursor_execute``) is told, so whatever counts or traces the statements
sent (a test, a benchmark) sees these too. A driver's error is raised as SQLAlchemy raises it
(``sqlalchemy.exc.DBAPIError`` and its kinds: ``IntegrityError``, ``OperationalError``),
the connection given up when the database says it is gone, so every caller's handling of
a failed write is the same.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError, MultipleResultsFound, NoResultFound
from sqlalchemy.sql import ClauseElement


@dataclass(frozen=True)
class _Prepared:
    sql: str
    names: tuple[str, ...] | None  # the values' order (a positional driver), else by name
    binds: tuple[tuple[str, Callable], ...]  # (name, conversion) of the values converted
    results: tuple[Callable | None, ...]  # each column's conversion, in order


class DriverStatement:
    """``statement`` (a select, or an insert with its values as bound parameters and a
    RETURNING), run on the driver's cursor of a SQLAlchemy connection."""

    def __init__(self, statement: ClauseElement):
        self.statement = statement
        self._prepared: dict[tuple[str, str], _Prepared] = {}
        self._lock = threading.Lock()

    def _for(self, dialect: Dialect) -> _Prepared:
        key = (dialect.name, dialect.driver)
        found = self._prepared.get(key)
        if found is None:
            with self._lock:
                found = self._prepared.get(key) or self._prepare(dialect)
                self._prepared[key] = found
        return found

    def _prepare(self, dialect: Dialect) -> _Prepared:
        compiled = self.statement.compile(dialect=dialect)
        binds = []
        for name, bind in compiled.binds.items():
            convert = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if convert is not None:
                binds.append((name, convert))
        results = tuple(
            column.type.dialect_impl(dialect).result_processor(dialect, None)
            for column in self.statement.exported_columns
        )
        names = tuple(compiled.positiontup) if compiled.positional else None
        return _Prepared(compiled.string, names, tuple(binds), results)

    def rows(self, connection: Connection, params: dict[str, Any]) -> list[tuple]:
        """Every row the statement gives with ``params``, each value converted."""
        prepared = self._for(connection.dialect)
        values = dict(params)
        for name, convert in prepared.binds:
            if name in values:
                values[name] = convert(values[name])
        sent: Sequence | dict = (
            values if prepared.names is None else [values[n] for n in prepared.names]
        )
        found = _sent(connection, prepared.sql, sent)
        results = prepared.results
        if not any(results):
            return [tuple(row) for row in found]
        return [
            tuple(v if c is None else c(v) for v, c in zip(row, results, strict=True))
            for row in found
        ]

    def one_or_none(self, connection: Connection, params: dict[str, Any]) -> tuple | None:
        found = self.rows(connection, params)
        if len(found) > 1:
            raise MultipleResultsFound("more than one row where one or none was expected")
        return found[0] if found else None

    def scalar_one(self, connection: Connection, params: dict[str, Any]) -> Any:
        found = self.rows(connection, params)
        if len(found) > 1:
            raise MultipleResultsFound("more than one row where one was expected")
        if not found:
            raise NoResultFound("no row where one was expected")
        return found[0][0]


def begin_immediate(connection: Connection) -> None:
    """SQLite's ``BEGIN IMMEDIATE`` on the connection's driver (one writer at a time)."""
    _sent(connection, "BEGIN IMMEDIATE", ())


def _sent(connection: Connection, sql: str, sent: Sequence | dict) -> list[tuple]:
    """``sql`` sent with the values ``sent`` on a cursor of the connection's driver; the
    rows it gives, as the driver gives them."""
    raw = connection.connection  # the pool's proxy of the driver's connection
    cursor = raw.cursor()
    told = connection.dispatch.before_cursor_execute
    if told:  # whatever counts or traces the statements sent sees these too
        told(connection, cursor, sql, sent, None, False)
    try:
        cursor.execute(sql, sent)
        return cursor.fetchall() if cursor.description is not None else []
    except connection.dialect.loaded_dbapi.Error as failure:
        raise _failed(connection, raw, cursor, sql, sent, failure) from failure
    finally:
        cursor.close()


def _failed(connection, raw, cursor, sql, sent, failure) -> DBAPIError:
    """The driver's error as SQLAlchemy raises it; the connection given up when the
    database is gone (a server restarted), as SQLAlchemy does."""
    dialect = connection.dialect
    gone = dialect.is_disconnect(failure, raw.dbapi_connection, cursor)
    if gone:
        connection.invalidate(failure)
    return DBAPIError.instance(
        sql, sent, failure, dialect.loaded_dbapi.Error, connection_invalidated=gone, dialect=dialect
    )
