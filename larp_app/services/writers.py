"""One writer at a time: a write that depends on what it reads reads it under the lock."""

from __future__ import annotations

from sqlalchemy.engine import Connection

from ..extensions import db
from ..keeping.driver import begin_immediate


def write_transaction() -> Connection:
    """The session's connection, SQLite's write transaction begun if none is (``BEGIN
    IMMEDIATE``: SQLite has one writer at a time, and another waits here for it to end).

    Whatever is read next is read as the last writer left it, and nobody writes under it
    until this transaction ends: on PostgreSQL, the ``FOR UPDATE`` of the rows read does the
    same, and nothing needs beginning.
    """
    connection = db.session.connection()
    if (
        connection.dialect.name == "sqlite"
        and not connection.connection.dbapi_connection.in_transaction
    ):
        begin_immediate(connection)
    return connection
