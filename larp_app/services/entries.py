"""Record referees' entries in the append-only log, and fold it into states."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from .. import rules
from ..extensions import db
from ..models import Character, Entry, User
from .characters import larp_sheet
from .clock import now_utc
from .events import event_settings


@dataclass(frozen=True)
class Recorded:
    row: Entry
    snapshot: rules.Snapshot
    created: bool  # False: the same id was stored before, nothing stored twice


def log_of(character: Character) -> list[rules.Entry]:
    """The character's entries in arrival order, as the engine reads them."""
    stored = db.session.scalars(
        select(Entry.fields).where(Entry.character_id == character.id).order_by(Entry.id)
    )
    return [rules.entry_from_stored(fields) for fields in stored]


def state_of(character: Character, at: datetime) -> rules.Snapshot:
    return rules.state_at(
        larp_sheet(character), event_settings(character.event), log_of(character), at
    )


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


def _existing(client_id: str) -> Entry | None:
    return db.session.scalar(select(Entry).where(Entry.client_id == client_id))


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
    first = _existing(entry.id)
    if first is not None:
        if first.character_id != character.id:
            raise rules.InvalidInput([rules.Problem("id", "duplicate", {"got": entry.id})])
        return Recorded(first, state_of(character, max(now, first.at)), created=False)
    at = _placed(entry, raw, now, limits)
    fields = {**rules.entry_to_dict(entry), "at": rules.format_instant(at)}
    if author is not None:
        fields["author"] = author.username
    entry = rules.read_entry(fields)
    snapshot = rules.state_at(
        larp_sheet(character),
        event_settings(character.event),
        [*log_of(character), entry],
        max(now, at),
    )
    refusal = next((c for c in snapshot.conflicts if c.id == entry.id), None)
    if refusal is not None:
        raise rules.RuleError(refusal.code, **refusal.params)
    row = Entry(
        client_id=entry.id,
        character_id=character.id,
        kind=entry.kind,
        at=at,
        sent_at=rules.parse_instant(raw["sent_at"]) if raw.get("sent_at") else None,
        received_at=now,
        author_id=author.id if author else None,
        fields=fields,
    )
    try:
        with db.session.begin_nested():
            db.session.add(row)
    except IntegrityError:  # the same id from another referee's request, a moment ago
        first = _existing(entry.id)
        return Recorded(first, state_of(character, max(now, first.at)), created=False)
    return Recorded(row, snapshot, created=True)
