"""What an organiser reviews of an event's stored log: the characters whose outcome a rule
correction changes (a rule now applied as written: larp_app.rules.corrections), and the
entries stored with a field their kind does not declare (an archive, an earlier version, an
operator's SQL), which fold as they always did, the field unread."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from .. import rules
from ..extensions import db
from ..keeping.logs import log_of
from ..models import Character, Entry, Event
from ..rules.entries import known_kinds, undeclared
from ..services.events import event_settings


@dataclass(frozen=True)
class Unread:
    """A stored entry holding fields its kind does not declare (``fields``: their names)."""

    character: Character
    entry: rules.Entry
    fields: tuple[str, ...]


@dataclass(frozen=True)
class Corrected:
    character: Character
    change: rules.ChangedOutcome


@dataclass(frozen=True)
class Review:
    corrected: list[Corrected]
    unread: list[Unread]

    def __bool__(self) -> bool:
        return bool(self.corrected or self.unread)


def unread_fields(event: Event) -> list[Unread]:
    """The event's stored entries that hold a field no declaration of their kind names."""
    kinds = known_kinds(event.ruleset)
    characters = {c.id: c for c in event.characters}
    rows = db.session.execute(
        select(Entry.character_id, Entry.fields)
        .where(Entry.character_id.in_(list(characters)))
        .order_by(Entry.id)
    )
    found = []
    for character_id, fields in rows:
        kind = kinds.get(fields.get("kind"))
        if kind is None:
            continue
        extra = tuple(k for k in undeclared(fields, kind[0]) if k != "sent_at")
        if extra:
            entry = rules.entry_from_stored(fields, event.ruleset)
            found.append(Unread(characters[character_id], entry, extra))
    return found


def corrected_outcomes(event: Event, now: datetime) -> list[Corrected]:
    """The characters whose state now a rule correction of the event's rule system changes."""
    corrections = rules.get_ruleset(event.ruleset).corrections
    if not corrections:
        return []
    settings = event_settings(event)
    found = []
    for character in sorted(event.characters, key=lambda c: c.id):
        sheet = rules.LarpSheet.from_dict(character.larp)
        concerned = [c for c in corrections if c.concerns(sheet, settings)]
        if not concerned:
            continue
        log = log_of(character)
        at = max([now, *(e.at for e in log)])
        for correction in concerned:
            change = rules.changed_outcome(correction, sheet, settings, log, at)
            if change is not None:
                found.append(Corrected(character, change))
    return found


def event_review(event: Event, now: datetime) -> Review:
    return Review(corrected_outcomes(event, now), unread_fields(event))
