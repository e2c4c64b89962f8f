"""Versions: an event's grows by one with every change to it, and each character keeps the
version of its own last change, so "what changed since version V" is a query on an index.

The versions move in one place, here, whatever wrote the row: the session's own events see
every row that can change a state, a roster or a board written in its transaction (ORM
objects flushed: a character's sheet, name or marks, a badge, the event's settings; and
statements run past the ORM on the log, such as an entry's insert) and raise the versions
in the same transaction. No write path calls anything: one that did and forgot would let a
warm worker answer a kept fold of a log that is no more (services/snapshots.py).

What is watched, and whose version it moves:

- ``entry``, ``badge``: their character's;
- ``character`` (any column but ``version``): its own;
- ``event`` (any column but ``version``: settings, name, archived): every character's of
  the event (their folds and lines are of the old settings).

Left out, with why: a dismissed conflict is one referee's (its mark is in that referee's
answers: ``conflicts.dismissed_mark``); a refusal is the board's own list, with its own
mark; a sheet's history and who works an event change no state, roster line or board row
(a phone's roster names the events it holds: another set of events is a whole answer).

Who may read what moves a mark of its own, the ``accounts`` mark (``models.Mark``), in the
same transaction: any write made in a session, by its objects or by a statement, to an
account, a session, a token, the events a referee works or a referee's dismissed conflicts.
A worker that answers polls from what it holds (services/known.py) reads the mark and
forgets every caller it knew when it moved, so a session ended or a token revoked opens
nothing from then on.

Which stored entries count moves the ``conflicts`` mark, in the same way: an entry stored by
any means but stepped onto the log's latest fold (an undo, a late entry, an imported log:
the fold is done again and may void entries, or count them again), a new larp sheet, new
settings or another rule system. An entry stepped onto the latest fold counts or is refused
alone and changes no other entry's verdict; its writer says so (``stepped_on``) before its
insert, and an entry stored without saying so moves the mark. Each referee's "entries of
yours that stopped counting" is kept by every worker while the mark stays
(services/conflicts.py).
"""

from __future__ import annotations

import weakref
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Engine, bindparam, inspect, select, update
from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session
from sqlalchemy.sql.dml import Delete, Insert, Update

from ..extensions import db
from ..models import (
    ApiToken,
    Badge,
    Character,
    DismissedConflict,
    Entry,
    Event,
    Mark,
    RefereeEvent,
    User,
    WebSession,
)

# Built once (this runs with every entry); Core statements on the tables: no ORM objects
# are synchronised, the objects of this session are expired instead.
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
MARK_EVENT_CHARACTERS = (
    update(_CHARACTER)
    .where(_CHARACTER.c.event_id == bindparam("event"))
    .values(version=bindparam("version"))
    .returning(_CHARACTER.c.id)
)
EVENTS_OF = select(_CHARACTER.c.id, _CHARACTER.c.event_id).where(
    _CHARACTER.c.id.in_(bindparam("characters", expanding=True))
)
_MARK = Mark.__table__
RAISE_ACCOUNTS = update(_MARK).where(_MARK.c.name == "accounts").values(value=_MARK.c.value + 1)
RAISE_CONFLICTS = update(_MARK).where(_MARK.c.name == "conflicts").values(value=_MARK.c.value + 1)
OWN = frozenset(
    {
        RAISE_EVENT,
        MARK_CHARACTERS,
        MARK_EVENT_CHARACTERS,
        EVENTS_OF,
        RAISE_ACCOUNTS,
        RAISE_CONFLICTS,
    }
)

# Tables whose rows name a character (by ``character_id``): a write moves its version.
OF_A_CHARACTER = frozenset({Entry.__tablename__, Badge.__tablename__})
WATCHED = OF_A_CHARACTER | {Character.__tablename__, Event.__tablename__}
# Who may read what: a write to any of these moves the accounts mark.
ACCOUNTS = (User, ApiToken, WebSession, RefereeEvent, DismissedConflict)
OF_ACCOUNTS = frozenset(model.__tablename__ for model in ACCOUNTS)


# The characters this transaction changed: {id: their record to keep once it commits, or
# None}. What is read of them before the commit is at a version that a rollback would give
# again to another change, so nothing of theirs is kept until then (services/snapshots.py).
UNCOMMITTED = "larp_uncommitted"
# {character id: the version this transaction gave it}
MARKED = "larp_marked"
# Objects whose version this flush moved, expired once the flush is over.
TO_EXPIRE = "larp_versions_to_expire"
# The client ids of the entries this transaction stepped onto their log's latest fold.
STEPPED_ON = "larp_stepped_on"
# What moves which entries count: the columns of an event and of a character.
COUNTING_EVENT = frozenset({"settings", "ruleset"})
COUNTING_CHARACTER = frozenset({"larp"})


def uncommitted() -> dict[int, Any]:
    """This transaction's changed characters (see ``UNCOMMITTED``)."""
    return db.session.info.setdefault(UNCOMMITTED, {})


def version_given(character: Character) -> int:
    """The version this transaction gave ``character`` (its write was seen here)."""
    return db.session.info[MARKED][character.id]


def stepped_on(client_id: str) -> None:
    """The entry about to be stored is stepped onto its log's latest fold (rules.fold_on):
    it changes no other entry's verdict, so its insert leaves the conflicts mark alone."""
    db.session.info.setdefault(STEPPED_ON, set()).add(client_id)


class Changes:
    """What one flush or statement changed: characters by event, events changed whole."""

    def __init__(self) -> None:
        self.characters: dict[int | None, set[int]] = defaultdict(set)
        self.events: set[int] = set()
        self.counting = False  # which stored entries count may have changed

    def character(self, character_id: int | None, event_id: int | None = None) -> None:
        if character_id is not None:
            self.characters[event_id].add(character_id)

    def __bool__(self) -> bool:
        return bool(self.events or self.characters)


def _apply(session: Session, connection, changes: Changes) -> None:
    """Raise each changed event's version once and give it to its changed characters."""
    unknown = changes.characters.pop(None, set())
    if unknown:  # characters named by id alone: their events from the identity map or a query
        missing = []
        for character_id in unknown:
            known = session.identity_map.get((Character, (character_id,), None))
            if known is not None and known.event_id is not None:
                changes.characters[known.event_id].add(character_id)
            else:
                missing.append(character_id)
        if missing:
            for character_id, event_id in connection.execute(EVENTS_OF, {"characters": missing}):
                changes.characters[event_id].add(character_id)
    marked = session.info.setdefault(MARKED, {})
    waiting = session.info.setdefault(UNCOMMITTED, {})
    expire = session.info.setdefault(TO_EXPIRE, set())
    for event_id in sorted(changes.events | set(changes.characters)):
        version = connection.execute(RAISE_EVENT, {"event": event_id}).scalar_one()
        expire.add((Event, event_id))
        if event_id in changes.events:
            ids = connection.execute(
                MARK_EVENT_CHARACTERS, {"event": event_id, "version": version}
            ).scalars()
        else:
            ids = sorted(changes.characters[event_id])
            connection.execute(MARK_CHARACTERS, {"characters": ids, "version": version})
        for character_id in ids:
            marked[character_id] = version
            waiting.setdefault(character_id, None)
            expire.add((Character, character_id))


def _expire(session: Session) -> None:
    """The objects of this session read their version again when asked."""
    for model, key in session.info.pop(TO_EXPIRE, ()):
        known = session.identity_map.get((model, (key,), None))
        if known is not None:
            session.expire(known, ["version"])


def _changed_columns(obj: Any) -> set[str]:
    """The columns but ``version`` of a flushed object that changed."""
    state = inspect(obj)
    return {
        attr.key
        for attr in state.attrs
        if attr.key != "version" and attr.key in state.mapper.columns and attr.history.has_changes()
    }


def _of_objects(session: Session, objects: Iterable[Any], changes: Changes, new=False) -> None:
    for obj in objects:
        if isinstance(obj, Event):
            changed = set() if new else _changed_columns(obj)  # a new event has no character
            if changed:
                changes.events.add(obj.id)
                changes.counting |= bool(changed & COUNTING_EVENT)
        elif isinstance(obj, Character):
            changed = _changed_columns(obj)
            if new or changed:
                changes.character(obj.id, obj.event_id)
                changes.counting |= not new and bool(changed & COUNTING_CHARACTER)
        elif isinstance(obj, Entry | Badge):
            changes.character(obj.character_id)
            changes.counting |= isinstance(obj, Entry)  # stored past record_entry's fold


def _of_accounts(objects: Iterable[Any]) -> bool:
    return any(isinstance(obj, ACCOUNTS) for obj in objects)


@sa_event.listens_for(Session, "after_flush")
def _flushed(session: Session, _context) -> None:
    changes = Changes()
    dirty = [o for o in session.dirty if session.is_modified(o)]
    _of_objects(session, session.new, changes, new=True)
    _of_objects(session, dirty, changes)
    _of_objects(session, session.deleted, changes)
    if changes:
        _apply(session, session.connection(), changes)
    if changes.counting:
        session.connection().execute(RAISE_CONFLICTS)
    if _of_accounts(session.new) or _of_accounts(dirty) or _of_accounts(session.deleted):
        session.connection().execute(RAISE_ACCOUNTS)


@sa_event.listens_for(Session, "after_flush_postexec")
def _after_flush(session: Session, _context) -> None:
    _expire(session)


# Statements run past the ORM (an entry's Core insert; an ORM bulk insert) go to the
# connection the session began its transaction on: that connection names its session.
_SESSIONS: weakref.WeakKeyDictionary[Any, weakref.ref[Session]] = weakref.WeakKeyDictionary()


@sa_event.listens_for(Session, "after_begin")
def _began(session: Session, _transaction, connection) -> None:
    _SESSIONS[connection] = weakref.ref(session)


@sa_event.listens_for(Session, "after_commit")
@sa_event.listens_for(Session, "after_rollback")
def _ended(session: Session) -> None:
    session.info.pop(MARKED, None)
    session.info.pop(TO_EXPIRE, None)
    session.info.pop(STEPPED_ON, None)


@sa_event.listens_for(Engine, "after_execute")
def _executed(connection, statement, multiparams, params, _options, _result) -> None:
    if statement in OWN or not isinstance(statement, Insert | Update | Delete):
        return
    table = getattr(statement.table, "name", None)
    if table in OF_ACCOUNTS:
        found = _SESSIONS.get(connection)
        session = found() if found is not None else None
        if session is not None and not session._flushing:  # (a flush's own: seen by _flushed)
            connection.execute(RAISE_ACCOUNTS)  # in the write's own transaction
        return
    if table not in WATCHED:
        return
    found = _SESSIONS.get(connection)
    session = found() if found is not None else None
    if session is None or session._flushing:  # the flush's own statements: seen by _flushed
        return
    rows = multiparams or [params]
    rows = [row for group in rows for row in (group if isinstance(group, list) else [group])]
    changes = Changes()
    if isinstance(statement, Insert) and table in OF_A_CHARACTER:
        values = {**dict(statement._values or {})}  # an insert(...).values(...) of one row
        stepped = session.info.get(STEPPED_ON, ())
        for row in rows or [{}]:
            character_id = (row or {}).get("character_id")
            if character_id is None and "character_id" in values:
                character_id = getattr(values["character_id"], "value", None)
            if character_id is None:
                raise RuntimeError(f"a write to {table} names no character: versions unknown")
            changes.character(character_id)
            if table == Entry.__tablename__:
                client_id = (row or {}).get("client_id")
                changes.counting |= client_id is None or client_id not in stepped
    else:
        raise RuntimeError(
            f"{type(statement).__name__} of {table} past the ORM: write it through the "
            "session's objects, so that the versions move (services/versions.py)"
        )
    _apply(session, connection, changes)
    if changes.counting:
        connection.execute(RAISE_CONFLICTS)
    _expire(session)
