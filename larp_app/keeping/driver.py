"""Statements sent on the database driver's own cursor, as SQLAlchemy compiles them.

The statements every entry runs (its character read under the lock, its insert, the
version its trigger gave) and the quick answers' reads (keeping/known.py ``Known.rows``)
are a row or a few each. Through SQLAlchemy's execution each cost about as much again in
Python as the driver's own work (its events, its execution context, its result objects),
on a worker where an entry or a changed poll is most of what a phone waits for. Here a
statement is compiled once for its database (``Compiled``), its values and its columns
converted by their own types: what is sent and read is what SQLAlchemy's execution sends
and reads. An entry's statements run on the session's own connection, in its transaction
(``DriverStatement``); the quick answers', on the worker's own connections (``Known``).

What an entry's statement skips: the engine's statement event (``before_execute``), where
keeping/versions.py watches writes past the session's objects; an entry's insert names its
character itself (``store_entry``), as it did before. The event of a statement sent on a
cursor (``before_cursor_execute``) is told, so whatever counts or traces the statements
sent (a test, a benchmark) sees these too. A driver's error is raised as SQLAlchemy raises it
(``sqlalchemy.exc.DBAPIError`` and its kinds: ``IntegrityError``, ``OperationalError``),
the connection given up when the database says it is gone, so every caller's handling of
a failed write is the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError, MultipleResultsFound, NoResultFound
from sqlalchemy.sql import ClauseElement


class Compiled:
    """A statement as its database's driver takes it: its text, its values in the driver's
    style (by position or by name) converted as its types convert them, and the rows it
    gives converted as its columns' types convert them (a date kept as SQLite's text, a
    date again). Compiled once for a database, by SQLAlchemy."""

    def __init__(self, statement: ClauseElement, dialect: Dialect):
        compiled = statement.compile(dialect=dialect)
        self.sql = compiled.string
        self.order = tuple(compiled.positiontup) if compiled.positional else None
        self._binds = tuple(
            (name, convert)
            for name, bind in compiled.binds.items()
            if (convert := bind.type.dialect_impl(dialect).bind_processor(dialect)) is not None
        )
        columns = tuple(
            column.type.dialect_impl(dialect).result_processor(dialect, None)
            for column in statement.exported_columns
        )
        self._columns = columns if any(columns) else None

    def values(self, params: dict[str, Any]) -> Sequence | dict:
        if self._binds:
            params = dict(params)
            for name, convert in self._binds:
                if name in params:
                    params[name] = convert(params[name])
        return params if self.order is None else tuple(params[name] for name in self.order)

    def converted(self, rows: list) -> list:
        """The driver's rows, each value as its column's type reads it."""
        columns = self._columns
        if columns is None:
            return rows
        return [
            tuple(v if c is None else c(v) for v, c in zip(row, columns, strict=True))
            for row in rows
        ]


class DriverStatement:
    """``statement`` (a select, or an insert with its values as bound parameters and a
    RETURNING), run on the driver's cursor of a SQLAlchemy connection, in its transaction."""

    def __init__(self, statement: ClauseElement):
        self.statement = statement
        self._compiled: dict[tuple[str, str], Compiled] = {}

    def rows(self, connection: Connection, params: dict[str, Any]) -> list[tuple]:
        """Every row the statement gives with ``params``, each value converted."""
        dialect = connection.dialect
        key = (dialect.name, dialect.driver)
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = self._compiled[key] = Compiled(self.statement, dialect)
        return compiled.converted(_sent(connection, compiled.sql, compiled.values(params)))

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
