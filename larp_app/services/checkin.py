"""The check-in desk: find a player by a scanned badge, its code or a name; mark them present."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from .. import rules, tokens
from ..extensions import db
from ..models import Badge, Character, Event
from .badges import badge_named_by
from .characters import find_characters
from .clock import now_utc

# The tabletop sheet's fields that name things to hand out, when a rule system has them.
PROP_FIELDS = ("armour", "weapons", "props")


def find_at_desk(event: Event, text: str) -> list[Character]:
    """The event's characters a scanned badge, a typed short code, or part of a name names."""
    text = text.strip()
    if not text:
        return find_characters(event)
    where = badge_named_by(text) if "/b/" in text or tokens.looks_like_short_code(text) else None
    if where is not None:
        character = db.session.scalar(
            select(Character)
            .join(Badge, Badge.character_id == Character.id)
            .where(where, Badge.revoked_at.is_(None), Character.event_id == event.id)
        )
        if character is not None:
            return [character]
    return find_characters(event, text)


def props_of(character: Character) -> list[str]:
    """What the sheet says the player carries: each prop's name."""
    names = []
    for key in PROP_FIELDS:
        value = character.tabletop.get(key)
        items = value if isinstance(value, list) else [value] if value else []
        for item in items:
            name = item.get("name") if isinstance(item, dict) else item
            if isinstance(name, str) and name.strip():
                names.append(name.strip())
    return names


def mark_present(character: Character, present: bool = True) -> None:
    """Mark the player present (or not); InvalidInput on an archived event."""
    if character.event.archived_at is not None:
        raise rules.InvalidInput([rules.Problem("event", "archived")])
    character.present_at = now_utc() if present else None
    db.session.flush()


def desk_counts(event: Event) -> dict[str, Any]:
    characters = [c for c in event.characters if c.withdrawn_at is None]
    present = sum(1 for c in characters if c.present_at is not None)
    return {"present": present, "expected": len(characters)}
