"""Import tabletop sheets into an event, all or nothing."""

from __future__ import annotations

import unicodedata
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import contains_eager, defer

from .. import rules
from ..extensions import db
from ..models import Character, Event, SheetChange, User
from .badges import ensure_badges
from .clock import now_utc
from .events import event_settings

MAX_SHEETS = 1000  # sheets in one import


def check_sheets(
    event: Event, sheets: list[Any], stored: list[Any] | None = None
) -> tuple[list[rules.LarpSheet], list, list]:
    """Convert every sheet; return larp sheets, errors and warnings, each path ``[row].field``.
    ``stored``: for each row, the sheet stored before for its character (None for a new one)."""
    if len(sheets) > MAX_SHEETS:
        raise rules.InvalidInput(
            [rules.Problem("sheets", "too_many", {"max": MAX_SHEETS, "got": len(sheets)})]
        )
    settings = event_settings(event)
    larp, errors, warnings = [], [], []
    for row, raw in enumerate(sheets):
        before = stored[row] if stored else None
        sheet, checker = rules.check_sheet(raw, settings, before)
        errors += [rules.Problem(f"[{row}].{p.path}", p.code, p.params) for p in checker.errors]
        warnings += [rules.Problem(f"[{row}].{p.path}", p.code, p.params) for p in checker.warnings]
        larp.append(sheet)
    return larp, errors, warnings


def import_sheets(event: Event, sheets: list[Any]) -> list[Character]:
    """Create a character per sheet, or none at all: InvalidInput lists every bad row and field."""
    if event.archived_at is not None:
        raise rules.InvalidInput([rules.Problem("event", "archived")])
    if not isinstance(sheets, list) or not sheets:
        raise rules.InvalidInput([rules.Problem("", "not_list")])
    larp, errors, _ = check_sheets(event, sheets)
    if errors:
        raise rules.InvalidInput(errors)
    now = now_utc()
    characters = [
        Character(
            event=event,
            player=sheet.player,
            name=sheet.character,
            faction=sheet.faction,
            tabletop=raw,
            larp=sheet.to_dict(),
            created_at=now,
            badges=[],  # known to be empty: issuing their badges needs no query
        )
        for raw, sheet in zip(sheets, larp, strict=True)
    ]
    db.session.add_all(characters)
    db.session.flush()
    ensure_badges(characters)
    return characters


# The character with its event, in one query built once: nearly every answer reads both
# (open or archived, the settings), and loading the event apart costs three times as much.
# The tabletop sheet (the largest column, read by few answers) and the badge colours come
# when asked.
CHARACTER_WITH_EVENT = (
    select(Character)
    .join(Character.event)
    .options(
        contains_eager(Character.event).defer(Event.faction_colours),
        defer(Character.tabletop),
    )
    .where(Character.id == bindparam("id"))
)


def character_with_event(character_id: int) -> Character | None:
    """The character and its event, read in one query (None: no such character)."""
    return db.session.scalars(CHARACTER_WITH_EVENT, {"id": character_id}).one_or_none()


def check_open(character: Character) -> None:
    """Refuse (RuleError) anything new for a withdrawn character or on an archived event."""
    if character.event.archived_at is not None:
        raise rules.RuleError("event_archived")
    if character.withdrawn_at is not None:
        raise rules.RuleError("character_withdrawn")


def record_change(
    character: Character, before: dict | None, user: User | None, source: str
) -> SheetChange:
    """Keep who changed the character's tabletop sheet, when, from where, before and after."""
    change = SheetChange(
        character_id=character.id,
        at=now_utc(),
        user_id=user.id if user else None,
        author=user.username if user else None,
        source=source,
        before=before,
        after=character.tabletop,
    )
    db.session.add(change)
    return change


def apply_sheet(character: Character, raw: dict, sheet: rules.LarpSheet) -> None:
    """Put a checked tabletop sheet and its larp sheet on the character (the log stays)."""
    character.player = sheet.player
    character.name = sheet.character
    character.faction = sheet.faction
    character.tabletop = raw
    character.larp = sheet.to_dict()


def edit_sheet(character: Character, raw: Any, user: User | None, source: str = "form") -> bool:
    """Replace the tabletop sheet, recompute the larp sheet, record the change.

    InvalidInput names every bad field as import does; False when nothing changed.
    """
    if character.event.archived_at is not None:
        raise rules.InvalidInput([rules.Problem("event", "archived")])
    sheet, checker = rules.check_sheet(raw, event_settings(character.event), character.tabletop)
    checker.raise_if_errors()
    if raw == character.tabletop:
        return False
    before = character.tabletop
    apply_sheet(character, raw, sheet)
    record_change(character, before, user, source)
    db.session.flush()
    return True


def sheet_history(character: Character) -> list[SheetChange]:
    return list(
        db.session.scalars(
            db.select(SheetChange)
            .where(SheetChange.character_id == character.id)
            .order_by(SheetChange.id.desc())
        )
    )


def field_changes(before: dict | None, after: dict) -> list[tuple[str, Any, Any]]:
    """(field, before, after) of each field of the sheet that differs, one level deep
    (``attributes.x``, ``skills.y``, ``weapons``...)."""
    before = before or {}
    changes = []
    for key in sorted(set(before) | set(after), key=lambda k: (k not in after, k)):
        old, new = before.get(key), after.get(key)
        if isinstance(old, dict) and isinstance(new, dict):
            changes += [
                (f"{key}.{k}", old.get(k), new.get(k))
                for k in sorted(set(old) | set(new))
                if old.get(k) != new.get(k)
            ]
        elif old != new:
            changes.append((key, old, new))
    return changes


def changed_fields(before: dict | None, after: dict) -> list[str]:
    """The sheet's fields that differ, one level deep (``attributes.x``, ``weapons``...)."""
    return [name for name, _old, _new in field_changes(before, after)]


def withdraw(character: Character, withdrawn: bool = True) -> None:
    """Withdraw a character from its event (kept with its log), or bring it back."""
    character.withdrawn_at = now_utc() if withdrawn else None
    db.session.flush()


def larp_sheet(character: Character) -> rules.LarpSheet:
    return rules.LarpSheet.from_dict(character.larp)


def folded(text: str) -> str:
    """Text as a search compares it: no accents, no case ("Niccolò" → "niccolo")."""
    return "".join(
        c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
    ).casefold()


def find_characters(event: Event, query: str = "", faction: str = "") -> list[Character]:
    """The event's characters whose name or player contains ``query`` (accents and case
    aside: SQLite and PostgreSQL would disagree on both), of one faction or all."""
    select = db.select(Character).where(Character.event_id == event.id)
    if faction:
        select = select.where(Character.faction == faction)
    found = db.session.scalars(select.order_by(Character.faction, Character.name))
    wanted = folded(query.strip())
    return [c for c in found if wanted in folded(f"{c.name}\n{c.player or ''}")]


def factions_of(event: Event) -> list[str]:
    names = db.select(Character.faction).where(Character.event_id == event.id).distinct()
    return sorted(f for f in db.session.scalars(names) if f)
