"""Whether the live database is the one the code expects (its tables, columns and the
triggers that move its marks), and whether it accepts a write.

A revision stamp can say "current" over a schema that lacks columns (a database made while
a migration was numbered differently): what counts is what exists. Used by /healthz and by
the answer given when a query meets a schema it does not know.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ..extensions import db
from ..keeping.versions import TRIGGERS
from ..models import Heartbeat
from .clock import now_utc

# SQLite's words, and PostgreSQL's codes, for a table or column the query names but the
# database does not have (undefined_column, undefined_table).
SQLITE_SCHEMA_WORDS = ("no such column", "no such table", "has no column named")
POSTGRES_SCHEMA_CODES = {"42703", "42P01"}


def schema_problems() -> list[str]:
    """What the live schema lacks of the models' tables and columns, and any column of its own
    that a write would have to fill (NOT NULL, no default), in words; empty when it fits."""
    inspector = sa.inspect(db.engine)
    # One query for every table's columns (PostgreSQL answers each table's own query slowly).
    live_columns = {
        table: columns for (_schema, table), columns in inspector.get_multi_columns().items()
    }
    problems = []
    for table in db.metadata.sorted_tables:
        if table.name not in live_columns:
            problems.append(f"table {table.name} is missing")
            continue
        live = {column["name"]: column for column in live_columns[table.name]}
        problems += [
            f"column {table.name}.{name} is missing" for name in table.columns.keys() - live.keys()
        ]
        problems += [
            f"column {table.name}.{name} is not in the code and must be filled"
            for name, column in live.items()
            if name not in table.columns
            and not column.get("nullable", True)
            and column.get("default") is None
            and column.get("autoincrement") is not True
        ]
    return problems + missing_triggers()


def missing_triggers() -> list[str]:
    """The triggers that move the versions and marks (keeping/versions.py) the database
    lacks, in words: without them a write would go unseen by every worker."""
    if db.engine.dialect.name == "postgresql":
        query = "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
    else:
        query = "SELECT name FROM sqlite_master WHERE type = 'trigger'"
    with db.engine.connect() as conn:
        live = set(conn.execute(sa.text(query)).scalars())
    return [f"trigger {name} is missing" for name in sorted(TRIGGERS - live)]


def beat(engine, name: str) -> bool:
    """Rewrite the heartbeat row ``name`` with the time now, in a transaction of its own;
    False when the database refused it (left to /healthz to name)."""
    table = Heartbeat.__table__
    stamp = {"name": name, "at": now_utc()}
    try:
        with engine.begin() as conn:
            updated = conn.execute(
                table.update().where(table.c.name == name).values(at=stamp["at"])
            )
            if updated.rowcount == 0:
                conn.execute(table.insert().values(**stamp))
    except SQLAlchemyError:  # another worker wrote the first row meanwhile, or no write
        return False
    return True


# The heartbeat a worker writes as it serves (web/health.py ``serving_beat``), /healthz's
# requests included. Not /healthz's own row: the migrations wrote one as they ran (0014),
# and a database just made is served by no one.
SERVING = "serving"


def last_beat() -> datetime | None:
    """The latest heartbeat of a worker serving; None when none ever did."""
    try:
        return db.session.scalar(sa.select(Heartbeat.at).where(Heartbeat.name == SERVING))
    except SQLAlchemyError:  # a database from before the heartbeat
        db.session.rollback()
        return None


def write_problem() -> str | None:
    """Rewrite the heartbeat row and commit it; None when the database took it, else what the
    driver said (a full disk, a read-only file, a standby)."""
    try:
        with db.engine.begin() as conn:
            stamp = {"name": "healthz", "at": now_utc()}
            table = Heartbeat.__table__
            updated = conn.execute(
                table.update().where(table.c.name == stamp["name"]).values(at=stamp["at"])
            )
            if updated.rowcount == 0:
                conn.execute(table.insert().values(**stamp))
    except IntegrityError:  # another worker wrote the first row at the same moment
        return None
    except SQLAlchemyError as exc:
        return f"{type(exc).__name__}: {getattr(exc, 'orig', None) or exc!s}"[:300]
    return None


def is_schema_error(error: BaseException) -> bool:
    """True for a query naming a table or column the database lacks: the database needs
    ``flask db upgrade``; it is reachable."""
    orig = getattr(error, "orig", None) or error
    if getattr(orig, "sqlstate", None) in POSTGRES_SCHEMA_CODES:
        return True
    text = str(orig).lower()
    return any(words in text for words in SQLITE_SCHEMA_WORDS)
