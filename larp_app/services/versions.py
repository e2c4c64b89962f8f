"""Versions: an event's grows by one with every change to it, and each character keeps the
version of its own last change, so "what changed since version V" is a query on an index.

Every change to what the roster, the board or a state shows calls ``changed`` in the same
transaction: an entry stored, sheets imported or converted again, a badge issued, settings.
"""

from __future__ import annotations

from sqlalchemy import update

from ..extensions import db
from ..models import Character, Event


def changed(*characters: Character, event: Event | None = None) -> int:
    """Mark ``characters`` (of one event) changed: the event's version grows by one and they
    take it (``event`` alone: its settings changed). The event's row stays locked until the
    commit (PostgreSQL), so versions are committed in order: a reader that sees version V
    has every change up to V."""
    if not characters and event is None:
        return 0
    event_id = event.id if event is not None else characters[0].event_id
    version = db.session.execute(
        update(Event)
        .where(Event.id == event_id)
        .values(version=Event.version + 1)
        .returning(Event.version),
        execution_options={"synchronize_session": False},
    ).scalar_one()
    if characters:
        db.session.execute(
            update(Character)
            .where(Character.id.in_([c.id for c in characters]))
            .values(version=version),
            execution_options={"synchronize_session": False},
        )
    for character in characters:  # the objects of this session read it again when asked
        db.session.expire(character, ["version"])
    known = db.session.identity_map.get((Event, (event_id,), None))
    if known is not None:
        db.session.expire(known, ["version"])
    return version
