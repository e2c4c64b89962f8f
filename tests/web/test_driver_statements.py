"""An entry's statements, sent on the database driver's own cursor (keeping/driver.py), send
and read what SQLAlchemy's execution sends and reads, fail as it fails, and are seen by
whatever counts the statements sent."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import event as sa_event
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from larp_app.extensions import db
from larp_app.keeping.driver import DriverStatement
from larp_app.keeping.versions import ENTRY_VALUES, INSERT_ENTRY
from larp_app.models import Character, Entry, Event
from larp_app.services.entries import LOCKED_CHARACTER

pytestmark = pytest.mark.both_databases

WHEN = datetime(2026, 8, 14, 21, 30, 5, 123456, tzinfo=UTC)


def row(character_id: int, client_id: str | None = None) -> dict:
    values = {
        "client_id": client_id or str(uuid.uuid4()),
        "character_id": character_id,
        "kind": "note",
        "at": WHEN,
        "sent_at": WHEN - timedelta(seconds=3),
        "received_at": WHEN + timedelta(microseconds=7),
        "author_id": None,
        "fields": {"kind": "note", "text": 'è "virgolette" e \' apici', "n": [1, 2.5, None]},
        "referee_at": WHEN - timedelta(hours=1),
        "stepped_on": True,
    }
    assert set(values) == set(ENTRY_VALUES)
    return values


def test_a_locked_read_gives_the_values_sqlalchemy_gives(app, event_id, character_id):
    with app.app_context():
        # Dates on both sides of the row (a withdrawn character of an archived event), and
        # an id seen in the log.
        db.session.execute(
            update(Character).where(Character.id == character_id).values(withdrawn_at=WHEN)
        )
        db.session.execute(update(Event).where(Event.id == event_id).values(archived_at=WHEN))
        client_id = str(uuid.uuid4())
        db.session.add(Entry(**row(character_id, client_id)))
        db.session.commit()
        connection = db.session.connection()
        params = {"id": character_id, "client_id": client_id}
        through_sqlalchemy = tuple(
            connection.execute(LOCKED_CHARACTER.statement, params).one_or_none()
        )
        on_the_driver = LOCKED_CHARACTER.one_or_none(connection, params)
        assert on_the_driver == through_sqlalchemy
        assert on_the_driver[3] == WHEN and on_the_driver[3].tzinfo is not None
        assert on_the_driver[-2] is not None  # the id found in the log
        assert LOCKED_CHARACTER.one_or_none(connection, {"id": 10**6, "client_id": None}) is None
        db.session.rollback()


def test_an_entry_inserted_on_the_driver_reads_back_as_sqlalchemy_stored_it(app, character_id):
    with app.app_context():
        inserted = DriverStatement(INSERT_ENTRY)
        mine, theirs = row(character_id), row(character_id)
        connection = db.session.connection()
        mine_id = inserted.scalar_one(connection, mine)
        theirs_id = connection.execute(INSERT_ENTRY, theirs).scalar_one()
        assert theirs_id == mine_id + 1
        db.session.commit()
        columns = [getattr(Entry, name) for name in ENTRY_VALUES]
        read = {
            id_: values
            for id_, *values in db.session.execute(
                select(Entry.id, *columns).where(Entry.id.in_([mine_id, theirs_id]))
            )
        }
        assert read[mine_id][1:] == read[theirs_id][1:]  # all but the client id
        assert read[mine_id] == [mine[name] for name in ENTRY_VALUES]
        # Stored alike, as the database itself keeps them (not only read back alike).
        raw = (
            db.session.connection()
            .exec_driver_sql(
                f"SELECT at, fields, stepped_on FROM entry WHERE id IN ({mine_id}, {theirs_id})"
                " ORDER BY id"
            )
            .all()
        )
        assert raw[0] == raw[1]


def test_a_failed_statement_fails_as_sqlalchemy_fails(app, character_id):
    with app.app_context():
        taken = row(character_id)
        db.session.add(Entry(**taken))
        db.session.commit()
        with pytest.raises(IntegrityError):
            DriverStatement(INSERT_ENTRY).scalar_one(db.session.connection(), taken)
        db.session.rollback()
        # The session goes on after it, as after SQLAlchemy's own IntegrityError.
        assert db.session.scalar(select(Entry.client_id).where(Entry.id > 0)) == taken["client_id"]


def test_the_statements_sent_on_the_driver_are_told_to_whatever_counts_them(app, character_id):
    with app.app_context():
        engine = db.engine
        seen = []

        def heard(_conn, _cursor, statement, parameters, _context, _many):
            seen.append((statement.split()[0].upper(), parameters))

        sa_event.listen(engine, "before_cursor_execute", heard)
        try:
            connection = db.session.connection()
            LOCKED_CHARACTER.one_or_none(connection, {"id": character_id, "client_id": None})
            DriverStatement(INSERT_ENTRY).scalar_one(connection, row(character_id))
            db.session.rollback()
        finally:
            sa_event.remove(engine, "before_cursor_execute", heard)
        assert [verb for verb, _ in seen] == ["SELECT", "INSERT"]
