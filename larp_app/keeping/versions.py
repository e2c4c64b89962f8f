"""Versions and marks, moved by the database itself, whoever writes: the app, a command, an
operator's SQL, a restore.

An event's version grows by one with every change to it or to one of its characters, and
each character keeps the event's version at its own last change, so "what changed since
version V" is a query on an index (``ix_character_event_version_link``). The ``mark`` table
holds one counter per kind of change, which every worker reads with one tiny query to know
whether what it keeps still holds (keeping/known.py):

- ``epoch``: a random number, new with every ``backup restore``, and raised whenever the
  database's history is rewritten in place (an entry of the append-only log updated or
  deleted, a character or an event deleted, a character moved to another event). A worker
  that sees it move forgets everything it keeps;
- ``versions``: raised whenever an event's version moves, and when an event comes or goes;
- ``accounts``: who may read or write what (an account, its tokens and sessions changed or
  removed, the events a referee works, a referee's dismissed conflicts);
- ``refusals``: a refused entry kept, changed or removed (the board lists them);
- ``conflicts``: which stored entries count (an entry stored by any means but stepped onto
  its log's latest fold, an entry rewritten, a new larp sheet, new settings or rule system).

Triggers, created by migration 0017 (its docstring lists each), move them, in the writing
transaction, FOR EACH ROW on SQLite and PostgreSQL alike. Why triggers rather than the
listeners of the app's SQLAlchemy session (how it was done before): a listener sees only
the writes of that session, and an operator's ``UPDATE "user" SET active = false``, a
statement on a bare connection, textual SQL or a restored copy went unseen, so a worker
kept answering for a disabled referee. A trigger sees every write, costs no round trip,
and needs nothing of the ORM's internals.

An entry the app stepped onto its log's latest fold (rules.fold_on) changes no other
entry's verdict: the app stores it with ``stepped_on`` true and its insert leaves the
conflicts mark alone, the common path. Any other writer (an import, an operator) stores
false, and the mark moves.

What stays here is the app's own bookkeeping within one transaction, which the database
cannot do for it: the objects of the session whose version a trigger moved are read again
when next asked, and the characters this transaction changed are named (``uncommitted``),
so that nothing of theirs is kept before the commit (a version of a rolled-back
transaction is given again to the next change: keeping/records.py).
"""

from __future__ import annotations

import secrets
import weakref
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Engine, bindparam, insert, select, text
from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session, attributes
from sqlalchemy.sql.dml import Delete, Insert, Update
from sqlalchemy.sql.elements import TextClause

from ..extensions import db
from ..models import Badge, Character, Entry, Event
from .driver import DriverStatement

MARK_NAMES = ("epoch", "versions", "accounts", "refusals", "conflicts")
EPOCH_RANGE = 2**30  # a random epoch, raised by one at each rewrite, stays an integer

# The triggers migration 0017 creates, each of a table (services/database_health.py says
# which are missing: a later rebuild of a table on SQLite drops its triggers).
_ACCOUNT_TRIGGERS = [
    f"larp_{table}_{operation}"
    for table, operations in (
        ("user", ("update", "delete")),
        ("api_token", ("update", "delete")),
        ("web_session", ("update", "delete")),
        ("referee_event", ("insert", "update", "delete")),
        ("dismissed_conflict", ("insert", "update", "delete")),
        ("refused_entry", ("insert", "update", "delete")),
    )
    for operation in operations
]
TRIGGERS = frozenset(
    [
        *(f"larp_entry_{op}" for op in ("insert", "update", "delete")),
        *(f"larp_badge_{op}" for op in ("insert", "update", "delete")),
        "larp_character_insert",
        "larp_character_update",
        "larp_character_update_sheet",
        "larp_character_update_event",
        "larp_character_delete",
        "larp_event_insert",
        "larp_event_update",
        "larp_event_update_rules",
        "larp_event_update_version",
        "larp_event_delete",
        *_ACCOUNT_TRIGGERS,
    ]
)

# Tables whose writes the triggers turn into versions: what this transaction wrote there is
# not kept before it commits.
WATCHED = frozenset(m.__tablename__ for m in (Entry, Badge, Character, Event))

# The characters this transaction changed: {id: their record to keep once it commits, or
# None}, and whether it wrote past the objects (then every character counts as changed).
UNCOMMITTED = "larp_uncommitted"
FLUSHING = "larp_flushing"
TO_EXPIRE = "larp_versions_to_expire"

# An entry's insert, and the version its trigger gave the character (built once: this runs
# with every entry, on the driver's cursor: keeping/driver.py).
_ENTRY = Entry.__table__
ENTRY_VALUES = (
    "client_id",
    "character_id",
    "kind",
    "at",
    "sent_at",
    "received_at",
    "author_id",
    "fields",
    "referee_at",
    "stepped_on",
)
INSERT_ENTRY = (
    insert(_ENTRY)
    .values({name: bindparam(name, type_=_ENTRY.c[name].type) for name in ENTRY_VALUES})
    .returning(_ENTRY.c.id)
)
CHARACTER_VERSION = select(Character.version).where(Character.id == bindparam("character"))
_INSERT_ENTRY = DriverStatement(INSERT_ENTRY)
_CHARACTER_VERSION = DriverStatement(CHARACTER_VERSION)


class Written(dict):
    """This transaction's changed characters ({id: record or None}); ``everything``: it
    wrote past the objects (a statement on a watched table), so any character may have
    changed and none is kept before the commit."""

    everything = False

    def __contains__(self, character_id: object) -> bool:
        return self.everything or super().__contains__(character_id)

    def __bool__(self) -> bool:
        return self.everything or super().__len__() > 0


def uncommitted() -> Written:
    """This transaction's changed characters (see ``Written``)."""
    return _written(db.session)


def _written(session: Session) -> Written:
    written = session.info.get(UNCOMMITTED)
    if written is None:
        written = session.info[UNCOMMITTED] = Written()
    return written


def store_entry(row: dict[str, Any], character: Character) -> tuple[int, int]:
    """Insert one entry (``row``: each of ``ENTRY_VALUES``, with ``stepped_on`` as its
    writer judged it) for ``character`` (loaded, or a ``CharacterRow`` read past the ORM:
    keeping/records.py), in the session's transaction; return its row id and the version
    its insert gave the character (the trigger raised it)."""
    connection = db.session.connection()
    row_id = _INSERT_ENTRY.scalar_one(connection, row)
    version = _CHARACTER_VERSION.scalar_one(connection, {"character": character.id})
    if isinstance(character, Character):  # as loaded: not a change to flush
        attributes.set_committed_value(character, "version", version)
    else:  # a row read past the ORM (keeping/records.py CharacterRow)
        character.version = version
    event = db.session.identity_map.get((Event, (character.event_id,), None))
    if event is not None:
        db.session.expire(event, ["version"])
    uncommitted().setdefault(character.id, None)
    return row_id, version


def new_epoch(connection) -> bool:
    """Give the database a new epoch (after a restore): every worker forgets what it kept.
    False when the database has no epoch yet (a backup from before it: ``flask db upgrade``
    makes one)."""
    moved = connection.execute(
        text("UPDATE mark SET value = :epoch WHERE name = 'epoch'"),
        {"epoch": 1 + secrets.randbelow(EPOCH_RANGE)},
    )
    return moved.rowcount == 1


# --- the session's own bookkeeping -----------------------------------------------------------


def _changed(objects: Iterable[Any], written: Written, expire: set) -> None:
    for obj in objects:
        if isinstance(obj, Entry | Badge):
            written.setdefault(obj.character_id, None)
            expire.add(("character", obj.character_id))
        elif isinstance(obj, Character):
            written.setdefault(obj.id, None)
            expire.add(("character", obj.id))
        elif isinstance(obj, Event):
            written.everything = True  # its characters' versions all moved
            expire.add(("event", obj.id))


@sa_event.listens_for(Session, "after_transaction_create")
def _flush_begins(session: Session, transaction) -> None:
    """A flush runs its statements in a transaction inside the session's own (made only
    when it has work): while it runs, its statements are the flush's (seen by ``_flushed``)."""
    if transaction.parent is not None and not transaction.nested:
        session.info[FLUSHING] = transaction


@sa_event.listens_for(Session, "after_transaction_end")
def _flush_ends(session: Session, transaction) -> None:
    if session.info.get(FLUSHING) is transaction:
        del session.info[FLUSHING]


@sa_event.listens_for(Session, "after_flush")
def _flushed(session: Session, _context) -> None:
    written = _written(session)
    expire = session.info.setdefault(TO_EXPIRE, set())
    dirty = [obj for obj in session.dirty if session.is_modified(obj)]
    for objects in (session.new, dirty, session.deleted):
        _changed(objects, written, expire)


@sa_event.listens_for(Session, "after_flush_postexec")
def _after_flush(session: Session, _context) -> None:
    """The versions the triggers moved are read again when next asked: the changed
    characters' and every event's in the session (an event's moves with any of its own)."""
    expire = session.info.pop(TO_EXPIRE, set())
    if expire:
        _expire_versions(session, expire)


def _expire_versions(session: Session, expire: set | None = None) -> None:
    events = {key for kind, key in expire or () if kind == "event"}
    for obj in list(session.identity_map.values()):
        if isinstance(obj, Event) or (
            isinstance(obj, Character)
            and (expire is None or ("character", obj.id) in expire or obj.event_id in events)
        ):
            session.expire(obj, ["version"])


# Statements run past the objects (a bulk insert, a Core update) go to the connection the
# session began its transaction on: that connection names its session.
_SESSIONS: weakref.WeakKeyDictionary[Any, weakref.ref[Session]] = weakref.WeakKeyDictionary()


@sa_event.listens_for(Session, "after_begin")
def _began(session: Session, _transaction, connection) -> None:
    _SESSIONS[connection] = weakref.ref(session)


@sa_event.listens_for(Session, "after_commit")
@sa_event.listens_for(Session, "after_rollback")
def _ended(session: Session) -> None:
    session.info.pop(TO_EXPIRE, None)


@sa_event.listens_for(Engine, "before_execute")
def _executing(connection, statement, _multiparams, _params, _options) -> None:
    """A write past the objects on a watched table (or any textual write) in a session's
    transaction: every character counts as changed until it ends. (An entry's own insert is
    sent on the driver, past this: ``store_entry`` names its character.)"""
    if isinstance(statement, Insert | Update | Delete):
        if getattr(statement.table, "name", None) not in WATCHED:
            return
    elif isinstance(statement, TextClause | str):
        words = str(statement).lstrip()[:6].upper()
        if words not in ("INSERT", "UPDATE", "DELETE"):
            return
    else:
        return
    found = _SESSIONS.get(connection)
    session = found() if found is not None else None
    if session is None or session.info.get(FLUSHING):  # a flush's own: seen by _flushed
        return
    _written(session).everything = True
    _expire_versions(session)
