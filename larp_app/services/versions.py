"""Versions: an event's grows by one with every change to it, and each character keeps the
version of its own last change, so "what changed since version V" is a query on an index.

Every change to what the roster, the board or a state shows calls ``changed`` in the same
transaction: an entry stored, sheets imported or converted again, a badge issued, settings.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import bindparam, update

from ..extensions import db
from ..models import Character, Event

# Built once (this runs with every entry); Core statements on the tables: no ORM objects
# are synchronised, the objects of this session are expired below instead.
_EVENT, _CHARACTER = Event.__table__, Character.__table__
RAISE_EVENT = (
    update(_EVENT)
    .where(_EVENT.c.id == bindparam("event"))
    .values(version=_EVENT.c.version + 1)
    .returning(_EVENT.c.version)
)
MARK_CHARACTERS = (
    update(_CHARACTER)
    .where(_CHARACTER.c.id.in_(bindparam("characters", expanding=True)))
    .values(version=bindparam("version"))
)


# The characters this transaction changed: {id: their record to keep once it commits, or
# None}. What is read of them before the commit is at a version that a rollback would give
# again to another change, so nothing of theirs is kept until then (services/snapshots.py).
UNCOMMITTED = "larp_uncommitted"


def uncommitted() -> dict[int, Any]:
    """This transaction's changed characters (see ``UNCOMMITTED``)."""
    return db.session.info.setdefault(UNCOMMITTED, {})


def changed(*characters: Character, event: Event | None = None) -> int:
    """Mark ``characters`` (of one event) changed: the event's version grows by one and they
    take it (``event`` alone: its settings changed). The event's row stays locked until the
    commit (PostgreSQL), so versions are committed in order: a reader that sees version V
    has every change up to V."""
    if not characters and event is None:
        return 0
    event_id = event.id if event is not None else characters[0].event_id
    # Core statements on the session's connection: no ORM object is synchronised by them.
    connection = db.session.connection()
    version = connection.execute(RAISE_EVENT, {"event": event_id}).scalar_one()
    if characters:
        connection.execute(
            MARK_CHARACTERS, {"characters": [c.id for c in characters], "version": version}
        )
    marked = uncommitted()
    for character in characters:  # the objects of this session read it again when asked
        db.session.expire(character, ["version"])
        marked.setdefault(character.id, None)
    known = db.session.identity_map.get((Event, (event_id,), None))
    if known is not None:
        db.session.expire(known, ["version"])
    return version
