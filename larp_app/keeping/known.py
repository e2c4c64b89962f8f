"""What a worker knows between requests of who may read what and of each character's
version, so that a poll that changed nothing is answered without asking the database more
than one tiny question (web/quick.py); and the one place every per-worker cache is
forgotten when the database's history is no longer what the worker knew.

The question is the database's *marks* (keeping/versions.py), moved by its triggers
whoever writes: the epoch, the versions mark (every change to a state, a roster line or a
board row), the accounts mark (who may read what), the refusals mark (the board lists
them) and the conflicts mark (which entries count: lately.py keeps each
referee's voided entries under it). Each request reads them once: the quick answers
themselves, else ``keep_up`` before Flask reads anything. While they read as they did,
everything known still holds; when one moved, what it covers is read again before
anything is answered from it:

- the versions mark: each event's version, and its characters whose version grew since,
  with their player links;
- the accounts mark: every caller is forgotten, and read again when next asked;
- the epoch moved, or any mark is lower than it was (a restore, or an older copy of the
  database put back by hand, caught before its marks overtake): everything is forgotten,
  here and in every cache of ``KEPT`` (the worker's folds and views, logs, voided
  entries), as by a restart.

Marks are compared so: the epoch for equality, the others for equality and for never
going down. A mark is a counter in the change's own transaction, so it never takes an old
value again within one epoch; a restore gives a new epoch.

Never older over newer: the marks are read first, then what they cover, so what is known is
always at least as new as the marks it is kept under; loads and refreshes take turns (one
lock), so a caller or a version read before a change is never stored after the change was
seen. Anything not known, or any doubt, is no answer here: the full path answers.

A cache: dropping it changes no answer, only the cost of the next polls.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import Engine, bindparam, create_engine, func, select
from sqlalchemy import event as sa_event
from sqlalchemy.pool import NullPool

from ..models import (
    ApiToken,
    Character,
    DismissedConflict,
    Event,
    Mark,
    RefereeEvent,
    User,
    WebSession,
)
from .driver import Compiled
from .versions import MARK_NAMES

MARKS = select(
    *(select(Mark.value).where(Mark.name == name).scalar_subquery() for name in MARK_NAMES)
)
EPOCH, VERSIONS, ACCOUNTS, REFUSALS, CONFLICTS = range(len(MARK_NAMES))  # in that order
# Every other per-worker cache of data, in the app's extensions, dropped whole when the
# epoch moves (each is made again, empty, when next asked):
KEPT = (
    "larp_records",  # each character's folded record, parsed sheets (keeping/records.py)
    "larp_views",  # each event's view (keeping/views.py)
    "larp_log_cache",  # each character's log as read (keeping/logs.py)
    "larp_kept_conflicts",  # each referee's voided entries, under the conflicts mark
    "larp_logged_lately",  # the characters each referee logged for lately
)
EVENTS = select(Event.id, Event.version, Event.archived_at.is_not(None))
CHARACTER_COLUMNS = (Character.id, Character.event_id, Character.version)
CHANGED = select(*CHARACTER_COLUMNS, Character.player_secret_hash).where(
    Character.event_id == bindparam("event"), Character.version > bindparam("since")
)
CHARACTER = select(*CHARACTER_COLUMNS, Character.player_secret_hash).where(
    Character.id == bindparam("character")
)
PLAYER = select(*CHARACTER_COLUMNS, Character.player_secret_hash).where(
    Character.player_secret_hash == bindparam("digest")
)


def _caller_query(credential, key) -> Any:
    user = (
        select(User.id, User.username, User.role, User.language)
        .join(credential, credential.user_id == User.id)
        .where(key, User.active.is_(True))
        .subquery()
    )
    return select(
        user.c.id,
        user.c.username,
        user.c.role,
        user.c.language,
        select(func.coalesce(func.max(DismissedConflict.id), 0))
        .where(DismissedConflict.user_id == user.c.id)
        .scalar_subquery(),
        RefereeEvent.event_id,
    ).select_from(user.outerjoin(RefereeEvent, RefereeEvent.user_id == user.c.id))


CALLERS = {
    "token": _caller_query(
        ApiToken, (ApiToken.token_hash == bindparam("digest")) & ApiToken.revoked_at.is_(None)
    ),
    "session": _caller_query(
        WebSession,
        (WebSession.key_hash == bindparam("digest")) & WebSession.ended_at.is_(None),
    ),
}


@dataclass(frozen=True)
class Caller:
    """An open session's or token's account, as a poll's answer needs it, and as the
    services read an author (``id``, ``username``, ``role``, ``language``)."""

    user_id: int
    username: str
    role: str
    language: str | None
    works: frozenset[int] | None  # the events assigned; None: every open event
    dismissed: int  # the newest of their dismissals (conflicts.dismissed_mark)

    @property
    def id(self) -> int:
        return self.user_id

    @property
    def worked(self) -> frozenset[int] | None:
        """services/assignments.py ``assigned_events``: None for every open event."""
        return None if self.role == "organiser" else self.works


def _rewound(marks: tuple, old: tuple) -> bool:
    """Whether the database is no longer the one ``old`` marks were read from: another
    epoch, or a mark gone down or gone (a copy put back by hand, before its marks overtake)."""
    if marks[EPOCH] != old[EPOCH]:
        return True
    return any(
        was is not None and (now is None or now < was) for now, was in zip(marks, old, strict=True)
    )


@dataclass(frozen=True)
class EventFacts:
    version: int
    archived: bool


class CharacterFacts(NamedTuple):
    id: int
    event_id: int
    version: int


class Known:
    """One worker's knowledge (see the module's words), read through its own connections:
    one per thread, in autocommit, closed with the engine."""

    def __init__(self, engine: Engine, forget: Callable[[], None] = lambda: None):
        """``forget``: drops every other cache of the worker (the app's ``KEPT``)."""
        self.engine = engine
        self._forgetting: list[Callable[[], None]] = [forget]
        self._accounts: list[Callable[[], None]] = []
        self.lock = threading.Lock()
        self._local = threading.local()
        self._opened: list = []
        self._generation = 0
        self.marks: tuple | None = None
        self.callers: dict[tuple[str, str], Caller] = {}
        self.events: dict[int, EventFacts] = {}
        self.seen: dict[int, int] = {}  # event id -> the version its known characters are of
        self.characters: dict[int, CharacterFacts] = {}
        self.players: dict[str, int] = {}  # player link digest -> character id
        self.player_of: dict[int, str] = {}
        self._marks_sql = str(
            MARKS.compile(dialect=engine.dialect, compile_kwargs={"literal_binds": True})
        )
        self._compiled: dict[Any, Compiled] = {}  # statement -> its text for the driver
        # Connections of its own, outside the app's pool: held by a thread for good, and
        # closed for good with the app's engine.
        self._own = create_engine(engine.url, poolclass=NullPool)
        sa_event.listen(engine, "engine_disposed", self.forget)

    def also_forget(self, forget: Callable[[], None], accounts: bool = False) -> None:
        """Call ``forget`` whenever everything is forgotten (the epoch moved), and, with
        ``accounts``, whenever the accounts mark moves too."""
        (self._accounts if accounts else self._forgetting).append(forget)

    # --- connections ------------------------------------------------------------------------

    def _connection(self):
        local = self._local
        if getattr(local, "generation", None) != self._generation:
            connection = self._own.connect().execution_options(isolation_level="AUTOCOMMIT")
            with self.lock:
                self._opened.append(connection)
            local.connection, local.generation = connection, self._generation
            local.cursor = None
        return local.connection

    def rows(self, statement, params: dict | None = None) -> list[tuple]:
        """``statement``'s rows, on this thread's connection of its own, straight through
        the driver (compiled once for the database: keeping/driver.py): a quick answer's
        reads after the marks (here, and keeping/records.py ``Records.caught_up``). JSON
        cast to text comes as text."""
        compiled = self._compiled.get(statement)
        if compiled is None:
            compiled = self._compiled[statement] = Compiled(statement, self.engine.dialect)
        cursor = self._cursor()
        cursor.execute(compiled.sql, compiled.values(params or {}))
        return compiled.converted(cursor.fetchall())

    def _cursor(self):
        connection = self._connection()
        local = self._local
        if local.cursor is None:
            local.cursor = connection.connection.driver_connection.cursor()
        return local.cursor

    def forget(self, _engine=None) -> None:
        """Drop every connection (after a database error, or with the app's engine): the
        next poll opens its own. What is known stays, under the marks it was read with:
        the next marks read are compared with those (a restore meanwhile is seen)."""
        with self.lock:
            opened, self._opened = self._opened, []
            self._generation += 1
        for connection in opened:
            with contextlib.suppress(Exception):  # already gone with its database
                connection.close()

    def _read_marks(self) -> tuple:
        cursor = self._cursor()
        cursor.execute(self._marks_sql)
        return tuple(cursor.fetchone())

    # --- keeping up -------------------------------------------------------------------------

    def current(self, versions: bool = True) -> None:
        """Bring what is known up to the database's marks (one tiny query when nothing
        moved); ``versions`` False: the callers and marks alone (an entry's answer), the
        versions read again when a poll next needs them. A connection the database ended
        (a restart of its server) is opened again once; any other error goes to the caller:
        nothing is answered from here then."""
        try:
            marks = self._read_marks()
        except Exception:
            self.forget()
            marks = self._read_marks()
        if marks != self.marks:
            with self.lock:
                if self.marks is not None and _rewound(marks, self.marks):
                    # Lower than those known: read before another thread's newer ones were
                    # taken in (a busy worker), or a restore. Read again, in turn: only
                    # marks still lower now are a database put back.
                    marks = self._read_marks()
                if marks != self.marks:
                    self._refresh(marks, versions)

    def _refresh(self, marks: tuple, versions: bool) -> None:
        old = self.marks
        if old is not None and _rewound(marks, old):
            self._forget_everything()
            old = None
        old = old or (None,) * len(marks)
        if marks[ACCOUNTS] != old[ACCOUNTS]:
            self.callers = {}
            for forget in self._accounts:
                forget()
        if marks[VERSIONS] != old[VERSIONS]:
            if versions:
                self._read_versions()
            else:  # what is known of versions stays of the marks it was read under
                marks = (*marks[:VERSIONS], old[VERSIONS], *marks[VERSIONS + 1 :])
        self.marks = marks  # last: a reader that sees these marks sees what they cover

    def forget_everything(self) -> None:
        """Forget everything now (the marks could not be read: whatever they say then)."""
        with self.lock:
            self._forget_everything()
            self.marks = None

    def _forget_everything(self) -> None:
        """As after a restart: nothing of the database as it was is answered again."""
        self.callers, self.events, self.seen = {}, {}, {}
        self.characters, self.players, self.player_of = {}, {}, {}
        for forget in (*self._forgetting, *self._accounts):
            forget()

    def _read_versions(self) -> None:
        events = {
            event_id: EventFacts(version, bool(archived))
            for event_id, version, archived in self.rows(EVENTS)
        }
        for event_id, seen in list(self.seen.items()):
            facts = events.get(event_id)
            if facts is None:  # an event deleted: forget its characters
                self._drop_event(event_id)
            elif facts.version != seen:
                for row in self.rows(CHANGED, {"event": event_id, "since": seen}):
                    self._keep_character(row)
                self.seen[event_id] = facts.version
        self.events = events

    def _drop_event(self, event_id: int) -> None:
        del self.seen[event_id]
        for character_id in [c for c, f in self.characters.items() if f.event_id == event_id]:
            del self.characters[character_id]
            self._keep_player(character_id, None)

    def _keep_character(self, row) -> CharacterFacts:
        facts = CharacterFacts(row[0], row[1], row[2])
        self.characters[facts.id] = facts
        self._keep_player(facts.id, row[3])
        return facts

    def _keep_player(self, character_id: int, digest: str | None) -> None:
        if digest is not None and self.players.get(digest) == character_id:
            return  # already its holder (a version moved, the link stayed)
        before = self.player_of.pop(character_id, None)
        if before is not None and self.players.get(before) == character_id:
            del self.players[before]
        if digest is not None:
            self.players[digest] = character_id
            self.player_of[character_id] = digest

    def _load(self, statement, params: dict) -> CharacterFacts | None:
        """A character read on first need, with its event known (under the lock)."""
        with self.lock:
            row = self._connection().execute(statement, params).first()
            if row is None:
                return None
            if row[1] not in self.events:
                self._read_versions()  # a new event since the last change of versions
            if row[1] not in self.events:
                return None
            # Its characters known from here are at least as new as its version known now.
            self.seen.setdefault(row[1], self.events[row[1]].version)
            return self._keep_character(row)

    def learn_open_events(self) -> None:
        """Every character of the open events known at once (a worker's warm-up), in one
        statement an event: the first poll of each phone after a restart reads nothing more
        than the marks. Call after ``current()``: the events' versions are read, and the
        characters read after them are at least as new."""
        with self.lock:
            for event_id, facts in self.events.items():
                if facts.archived or event_id in self.seen:
                    continue
                for row in self.rows(CHANGED, {"event": event_id, "since": -1}):
                    self._keep_character(row)
                self.seen[event_id] = facts.version

    # --- what a poll asks -------------------------------------------------------------------

    def character(self, character_id: int) -> CharacterFacts | None:
        known = self.characters.get(character_id)
        if known is not None and known.event_id in self.seen:
            return known
        return self._load(CHARACTER, {"character": character_id})

    def player(self, digest: str) -> CharacterFacts | None:
        """The character whose player link has this digest, or None (unknown)."""
        character_id = self.players.get(digest)
        if character_id is not None:
            known = self.characters.get(character_id)
            if known is not None and known.event_id in self.seen:
                return known
        return self._load(PLAYER, {"digest": digest})

    def event(self, event_id: int) -> EventFacts | None:
        return self.events.get(event_id)

    def caller(self, kind: str, digest: str) -> Caller | None:
        """The open session's or token's account (``kind`` ``session`` or ``token``, the
        digest of its key), or None: unknown, ended, revoked or the account disabled."""
        key = (kind, digest)
        known = self.callers.get(key)
        if known is not None:
            return known
        with self.lock:
            rows = self._connection().execute(CALLERS[kind], {"digest": digest}).all()
            if not rows:
                return None
            user_id, username, role, language, dismissed, _ = rows[0]
            works = frozenset(r[5] for r in rows if r[5] is not None)
            caller = Caller(user_id, username, role, language, works or None, dismissed)
            self.callers[key] = caller
            return caller

    @property
    def epoch(self) -> int | None:
        return None if self.marks is None else self.marks[EPOCH]


def known_for(app) -> Known:
    """The app's ``Known`` in this worker (made on first need)."""
    kept = app.extensions.get("larp_known")
    if kept is None:
        from ..extensions import db

        def forget() -> None:
            for name in KEPT:
                app.extensions.pop(name, None)

        with app.app_context():
            kept = app.extensions.setdefault("larp_known", Known(db.engine, forget))
    return kept


def known() -> Known:
    """``known_for`` the current app."""
    from flask import current_app

    return known_for(current_app._get_current_object())
