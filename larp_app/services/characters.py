"""Import tabletop sheets into an event, all or nothing."""

from __future__ import annotations

from typing import Any

from .. import rules
from ..extensions import db
from ..models import Character, Event
from .badges import ensure_badges
from .clock import now_utc
from .events import event_settings

MAX_SHEETS = 1000  # sheets in one import


def check_sheets(event: Event, sheets: list[Any]) -> tuple[list[rules.LarpSheet], list, list]:
    """Convert every sheet; return larp sheets, errors and warnings, each path ``[row].field``."""
    if len(sheets) > MAX_SHEETS:
        raise rules.InvalidInput(
            [rules.Problem("sheets", "too_many", {"max": MAX_SHEETS, "got": len(sheets)})]
        )
    settings = event_settings(event)
    larp, errors, warnings = [], [], []
    for row, raw in enumerate(sheets):
        sheet, checker = rules.check_sheet(raw, settings)
        errors += [rules.Problem(f"[{row}].{p.path}", p.code, p.params) for p in checker.errors]
        warnings += [rules.Problem(f"[{row}].{p.path}", p.code, p.params) for p in checker.warnings]
        larp.append(sheet)
    return larp, errors, warnings


def import_sheets(event: Event, sheets: list[Any]) -> list[Character]:
    """Create a character per sheet, or none at all: InvalidInput lists every bad row and field."""
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


def larp_sheet(character: Character) -> rules.LarpSheet:
    return rules.LarpSheet.from_dict(character.larp)


def find_characters(event: Event, query: str = "", faction: str = "") -> list[Character]:
    """The event's characters whose name or player contains ``query``, of one faction or all."""
    select = db.select(Character).where(Character.event_id == event.id)
    if query:
        pattern = f"%{query}%"
        select = select.where(Character.name.ilike(pattern) | Character.player.ilike(pattern))
    if faction:
        select = select.where(Character.faction == faction)
    return list(db.session.scalars(select.order_by(Character.faction, Character.name)))


def factions_of(event: Event) -> list[str]:
    names = db.select(Character.faction).where(Character.event_id == event.id).distinct()
    return sorted(f for f in db.session.scalars(names) if f)
