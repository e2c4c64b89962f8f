"""Record referees' entries in the append-only log, and fold it into states."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from .. import rules
from ..extensions import db
from ..models import Character, Entry, User
from .characters import larp_sheet
from .clock import now_utc
from .events import event_settings
from .snapshots import state_of
from .versions import changed


@dataclass(frozen=True)
class Recorded:
    fields: dict[str, Any]  # the entry as stored
    snapshot: rules.Snapshot
    created: bool  # False: the same id was stored before, nothing stored twice


class LogCache:
    """Entries already read, by row id, for the characters most recently asked about.

    The log is append-only, so an entry read once never changes: each request reads only
    the ids of a character's log and the rows this worker has not seen yet. Ids, not a
    "last id seen", because PostgreSQL may commit a lower id after a higher one; each with
    its client id, because SQLite gives a rolled-back row's id to the next row.
    """

    def __init__(self, characters: int = 2000):
        self.characters = characters
        self.known: OrderedDict[int, dict[int, rules.Entry]] = OrderedDict()

    def log(self, character_id: int) -> list[rules.Entry]:
        known = self.known.pop(character_id, None) or {}
        self.known[character_id] = known
        if len(self.known) > self.characters:
            self.known.popitem(last=False)
        stored = db.session.execute(
            select(Entry.id, Entry.client_id)
            .where(Entry.character_id == character_id)
            .order_by(Entry.id)
        ).all()
        ids = [row_id for row_id, _ in stored]
        missing = [i for i, client_id in stored if i not in known or known[i].id != client_id]
        if missing:
            rows = db.session.execute(select(Entry.id, Entry.fields).where(Entry.id.in_(missing)))
            known.update((row_id, rules.entry_from_stored(fields)) for row_id, fields in rows)
        return [known[i] for i in ids]


def log_of(character: Character) -> list[rules.Entry]:
    """The character's entries in arrival order, as the engine reads them."""
    cache = current_app.extensions.setdefault("larp_log_cache", LogCache())
    return cache.log(character.id)


def _placed(entry: rules.Entry, raw: dict[str, Any], now: datetime, limits) -> datetime:
    """Shift ``at`` by the phone's clock error, then refuse instants out of the live window."""
    at = entry.at
    if raw.get("sent_at") is not None:
        try:
            at += now - rules.parse_instant(raw["sent_at"])
        except ValueError:
            raise rules.InvalidInput(
                [rules.Problem("sent_at", "not_instant", {"got": str(raw["sent_at"])[:40]})]
            ) from None
    future, age = limits
    if at > now + future:
        raise rules.InvalidInput(
            [rules.Problem("at", "in_future", {"got": rules.format_instant(at)})]
        )
    if at < now - age:
        raise rules.InvalidInput(
            [rules.Problem("at", "too_old", {"got": rules.format_instant(at)})]
        )
    return at


def _answer_again(character: Character, client_id: str, now: datetime) -> Recorded:
    """The first answer to an id stored before; refused when it was another character's."""
    first = db.session.scalar(select(Entry).where(Entry.client_id == client_id))
    if first.character_id != character.id:
        raise rules.InvalidInput([rules.Problem("id", "duplicate", {"got": client_id})])
    return Recorded(first.fields, state_of(character, max(now, first.at)), created=False)


UNDO_WINDOW = timedelta(minutes=10)


def _check_undo_allowed(
    undo: rules.Entry, log: list[rules.Entry], author: User | None, now: datetime
) -> None:
    """Referees undo their own entries of the last 10 minutes; organisers undo any."""
    if author is None or author.role == "organiser":
        return
    target = next((e for e in log if e.id == undo.target), None)
    if target is None:
        return  # the fold refuses it as unknown_target
    if target.author != author.username or now - target.at > UNDO_WINDOW:
        raise rules.RuleError("undo_not_allowed", minutes=10)


def record_entry(
    character: Character,
    raw: Any,
    author: User | None,
    *,
    limits=(timedelta(seconds=10), timedelta(hours=24)),
) -> Recorded:
    """Store one entry if the state at its instant allows it; RuleError says why not."""
    now = now_utc()
    entry = rules.read_entry(raw)
    log = log_of(character)
    if any(e.id == entry.id for e in log):
        return _answer_again(character, entry.id, now)
    if entry.kind == "undo":
        _check_undo_allowed(entry, log, author, now)
    at = _placed(entry, raw, now, limits)
    fields = {**rules.entry_to_dict(entry), "at": rules.format_instant(at)}
    if author is not None:
        fields["author"] = author.username
    entry = rules.read_entry(fields)
    snapshot = rules.state_at(
        larp_sheet(character),
        event_settings(character.event),
        [*log, entry],
        max(now, at),
    )
    refusal = next((c for c in snapshot.conflicts if c.id == entry.id), None)
    if refusal is not None:
        raise rules.RuleError(refusal.code, **refusal.params)
    row = {
        "client_id": entry.id,
        "character_id": character.id,
        "kind": entry.kind,
        "at": at,
        "sent_at": rules.parse_instant(raw["sent_at"]) if raw.get("sent_at") else None,
        "received_at": now,
        "author_id": author.id if author else None,
        "fields": fields,
    }
    try:
        # A plain INSERT: the log is append-only, no object needs tracking afterwards.
        db.session.execute(insert(Entry), [row])
    except IntegrityError:  # the same id from another request a moment ago, or another's
        db.session.rollback()  # only reads came before: nothing else is lost
        return _answer_again(character, entry.id, now)
    changed(character)  # the event's version grows: rosters and boards learn of it
    return Recorded(fields, snapshot, created=True)
