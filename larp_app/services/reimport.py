"""Import sheets into an event that may already hold them: match, preview, then apply.

A row matches an existing character by its ``id`` (the event's character id) or else by the
same player and character name (case and surrounding spaces ignored). A matching row updates
that character's tabletop sheet (its log stays), a new row adds a character; every sheet
that changes is recorded in the character's history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import rules
from ..extensions import db
from ..models import Character, Event, User
from .badges import ensure_badges
from .characters import apply_sheet, changed_fields, check_sheets, record_change
from .clock import now_utc

ADDED, UPDATED, UNCHANGED = "added", "updated", "unchanged"


@dataclass
class RowPlan:
    kind: str  # added | updated | unchanged
    sheet: dict  # the tabletop sheet as it will be stored (no id)
    character: Character | None = None  # the matched character
    fields: list[str] = field(default_factory=list)  # what an update changes


@dataclass
class Plan:
    rows: list[RowPlan]
    larp: list[rules.LarpSheet | None]
    errors: list[rules.Problem]
    warnings: list[rules.Problem]

    def count(self, kind: str) -> int:
        return sum(1 for r in self.rows if r.kind == kind)


def _key(player: Any, name: Any) -> tuple[str, str]:
    return (str(player or "").strip().casefold(), str(name or "").strip().casefold())


def plan_import(event: Event, sheets: Any) -> Plan:
    """What importing ``sheets`` would do, row by row; nothing is saved."""
    if not isinstance(sheets, list) or not sheets:
        return Plan([], [], [rules.Problem("", "not_list")], [])
    existing = list(event.characters)
    by_id = {c.id: c for c in existing}
    by_name = {_key(c.player, c.name): c for c in existing}
    stripped, matched, errors = [], [], []
    for row, raw in enumerate(sheets):
        if isinstance(raw, dict) and "id" in raw:
            raw = dict(raw)
            wanted = raw.pop("id")
            character = by_id.get(wanted) if isinstance(wanted, int) else None
            if character is None:
                errors.append(rules.Problem(f"[{row}].id", "not_found", {"got": wanted}))
        elif isinstance(raw, dict):
            character = by_name.get(_key(raw.get("player"), raw.get("character")))
        else:
            character = None
        stripped.append(raw)
        matched.append(character)
    seen: set = set()
    for row, (raw, character) in enumerate(zip(stripped, matched, strict=True)):
        # Two rows for one character, existing or new: which one is right is not ours to guess.
        if character is not None:
            key, name = character.id, character.name
        elif isinstance(raw, dict):
            key, name = _key(raw.get("player"), raw.get("character")), raw.get("character")
        else:
            continue
        if key in seen:
            errors.append(rules.Problem(f"[{row}].character", "duplicate", {"got": name}))
        seen.add(key)
    larp, sheet_errors, warnings = check_sheets(event, stripped)
    rows = []
    for raw, character in zip(stripped, matched, strict=True):
        if character is None:
            rows.append(RowPlan(ADDED, raw))
        elif raw == character.tabletop:
            rows.append(RowPlan(UNCHANGED, raw, character))
        else:
            fields = changed_fields(character.tabletop, raw if isinstance(raw, dict) else {})
            rows.append(RowPlan(UPDATED, raw, character, fields))
    return Plan(rows, larp, errors + sheet_errors, warnings)


def apply_import(event: Event, sheets: Any, user: User | None) -> Plan:
    """Add and update as ``plan_import`` says, or nothing at all (InvalidInput lists why)."""
    if event.archived_at is not None:
        raise rules.InvalidInput([rules.Problem("event", "archived")])
    plan = plan_import(event, sheets)
    if plan.errors:
        raise rules.InvalidInput(plan.errors)
    now, added = now_utc(), []
    for row, sheet in zip(plan.rows, plan.larp, strict=True):
        if row.kind == UPDATED:
            before = row.character.tabletop
            apply_sheet(row.character, row.sheet, sheet)
            record_change(row.character, before, user, "import")
        elif row.kind == ADDED:
            character = Character(
                event=event,
                player=sheet.player,
                name=sheet.character,
                faction=sheet.faction,
                tabletop=row.sheet,
                larp=sheet.to_dict(),
                created_at=now,
                badges=[],
            )
            db.session.add(character)
            added.append(character)
            row.character = character
    db.session.flush()
    for character in added:
        record_change(character, None, user, "import")
    ensure_badges(added)
    db.session.flush()
    return plan
