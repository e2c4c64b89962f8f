"""The organiser's live board as data: every character's state now, who is dying (first to
die first), the recent entries, the conflicts to review and the refused entries. The view
only renders it (web/organiser/board.py).

Recent entries are the latest to arrive, listed in the order of their instants: one sent late
by a phone that was offline takes its place in time, marked with how late it arrived; one the
simultaneity rule placed at the entry before it keeps the instant its referee gave it; an undo
names what it undid."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from .. import rules
from ..extensions import db
from ..keeping.views import Row, View, views
from ..messages import refusal_message
from ..models import Character, Entry, Event, RefusedEntry
from ..models import User as UserRow
from ..services.sessions import dying_order

RECENT = 30  # entries shown under "recent entries", and refused ones
# The latest arrivals of an event are looked for first among the log's latest rows, of any
# event: an event in play has them there, found without sorting its whole log.
LATEST_ROWS = 2000
# An entry received this long after its instant arrived late (a phone offline, a slow sync).
LATE = timedelta(minutes=1)


@dataclass(frozen=True)
class BoardRow:
    character: Row  # id, name, player, faction, and its kept record
    snapshot: rules.Snapshot  # now


@dataclass(frozen=True)
class Logged:
    entry: rules.Entry
    character: Row
    conflict: Any  # the fold's conflict (code and params) when it skips the entry, else None
    received_at: datetime | None = None  # when the server got it
    referee_at: datetime | None = None  # its referee's instant, when moved to ``entry.at``
    target: rules.Entry | None = None  # for an undo: the entry it undid

    @property
    def minutes_late(self) -> int:
        """Whole minutes between its instant and its arrival, when it arrived late; else 0."""
        if self.received_at is None or self.received_at - self.entry.at < LATE:
            return 0
        return int((self.received_at - self.entry.at).total_seconds() // 60)


@dataclass(frozen=True)
class Refused:
    """An entry a phone sent that the server could not store."""

    row: RefusedEntry
    character: Row
    author: str | None


@dataclass(frozen=True)
class Board:
    rows: list[BoardRow]  # by name
    dying: list[BoardRow]  # the first to die first
    recent: list[Logged]  # the latest arrivals, the latest instant first
    conflicts: list[Logged]  # latest instant first
    refused: list[Refused]  # newest first


def conflict_words(conflict: Any) -> str | None:
    """A conflict in the reader's language (stored as its code and parameters)."""
    return None if conflict is None else refusal_message(conflict.code, conflict.params)


def board_data(
    event: Event, now: datetime, view: View | None = None, every_row: bool = True
) -> Board:
    """The board at ``now``: the event's kept view brought up to date. ``every_row`` False:
    its ``rows`` left empty (an answer with the changed rows only lists those)."""
    view = view or views().view(event, now)
    by_id = view.rows
    if every_row:
        every = sorted(
            (BoardRow(r, r.record.snapshot) for r in by_id.values()),
            key=lambda row: (row.character.name, row.character.id),
        )
    else:  # the view keeps who is dying and whose log has a refused entry
        every = [BoardRow(by_id[i], by_id[i].record.snapshot) for i in view.dying]
    conflicts = []
    for r in (by_id[i] for i in view.conflicted):
        record = r.record
        for c in record.folded.conflicts:  # judged with every entry, a phone's early one too
            conflicts.append(Logged(record.conflict_entries[c.id], r, c))
    in_conflict = {item.entry.id: item.conflict for item in conflicts}
    return Board(
        rows=every if every_row else [],
        dying=sorted(
            (r for r in every if r.snapshot.wound == "dying"),
            key=lambda r: dying_order(r.snapshot, r.character.name, now),
        ),
        recent=_recent(event, by_id, in_conflict),
        conflicts=sorted(conflicts, key=lambda c: c.entry.at, reverse=True),
        refused=_refused(event, by_id),
    )


def _newest(event: Event) -> list:
    """The event's latest ``RECENT`` arrivals (the log's rows, the newest first): among the
    log's latest ``LATEST_ROWS`` rows when it has that many there (a rowid range, 1.4 ms on
    a 10,000-character event's two million rows on SQLite); else from its whole log, sorted
    (14 ms there: every row of its characters)."""
    cast = select(Character.id).where(Character.event_id == event.id)
    newest = (
        select(Entry.fields, Entry.character_id, Entry.received_at, Entry.referee_at, Entry.id)
        .order_by(Entry.id.desc())  # arrival
        .limit(RECENT)
    )
    window = select(Entry.id).order_by(Entry.id.desc()).limit(LATEST_ROWS).subquery()
    oldest = select(func.min(window.c.id)).scalar_subquery()
    # (``+ 0``: the rows are read by their ids, not through the index of their characters)
    found = db.session.execute(
        newest.where(Entry.id >= oldest, (Entry.character_id + 0).in_(cast))
    ).all()
    if len(found) == RECENT:
        return found
    # (SQLite sorts far less than with a join)
    return db.session.execute(newest.where(Entry.character_id.in_(cast))).all()


def _recent(event: Event, by_id: dict, in_conflict: dict) -> list[Logged]:
    """The latest arrivals (an entry logged late still counts as recent), in time order."""
    newest = _newest(event)
    entries = [(rules.entry_from_stored(row.fields, event.ruleset), row) for row in newest]
    targets = _targets([e.target for e, _row in entries if e.kind == "undo"], event.ruleset)
    recent = [
        (
            Logged(
                entry,
                by_id[row.character_id],
                in_conflict.get(entry.id),
                row.received_at,
                row.referee_at,
                targets.get(entry.target) if entry.kind == "undo" else None,
            ),
            row.id,
        )
        for entry, row in entries
        if row.character_id in by_id
    ]
    # Their instants' order, the latest first; the same instant in the order they arrived.
    recent.sort(key=lambda pair: (pair[0].entry.at, pair[1]), reverse=True)
    return [item for item, _arrival in recent]


def _targets(ids: list[str], ruleset: str) -> dict[str, rules.Entry]:
    """The entries these undos undid, by id (one query)."""
    if not ids:
        return {}
    rows = db.session.scalars(select(Entry.fields).where(Entry.client_id.in_(ids)))
    return {e.id: e for e in (rules.entry_from_stored(fields, ruleset) for fields in rows)}


def _refused(event: Event, by_id: dict) -> list[Refused]:
    refused = db.session.execute(
        select(RefusedEntry, UserRow.username)
        .join(Character, RefusedEntry.character_id == Character.id)
        .outerjoin(UserRow, RefusedEntry.user_id == UserRow.id)
        .where(Character.event_id == event.id)
        .order_by(RefusedEntry.id.desc())
        .limit(RECENT)
    ).all()
    return [
        Refused(row, by_id[row.character_id], username)
        for row, username in refused
        if row.character_id in by_id
    ]
