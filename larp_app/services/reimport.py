"""Import sheets into an event that may already hold them: match, preview, then apply.

A row matches an existing character by its ``id`` (the event's character id) or else by the
same player and character name (case and surrounding spaces ignored). A matching row updates
that character's tabletop sheet (its log stays), a new row adds a character; every sheet
that changes is recorded in the character's history. The plan says, field by field, what an
update changes (before → after), and which of those fields were changed on the web (the edit
form, the API) since the character's last import: importing would undo that change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .. import rules
from ..extensions import db
from ..models import Character, Event, SheetChange, User
from .badges import ensure_badges
from .characters import apply_sheet, changed_fields, check_sheets, field_changes, record_change
from .clock import now_utc
from .events import event_settings
from .sheet_csv import ShortRow, short_rows_said

ADDED, UPDATED, UNCHANGED = "added", "updated", "unchanged"
WEB_SOURCES = ("form", "api")  # changes made on the web, not brought by a file
BASELINES = ("import", "continue")  # changes that bring a whole sheet from a file or an event


@dataclass
class FieldChange:
    """One field an update changes; ``web_edit`` the change made on the web since the last
    import that importing would undo."""

    path: str
    before: Any
    after: Any
    web_edit: SheetChange | None = None


@dataclass
class RowPlan:
    kind: str  # added | updated | unchanged
    sheet: dict  # the tabletop sheet as it will be stored (no id)
    character: Character | None = None  # the matched character
    fields: list[str] = field(default_factory=list)  # what an update changes
    changes: list[FieldChange] = field(default_factory=list)  # the same, with values


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


def web_edits(characters: list[Character]) -> dict[int, dict[str, SheetChange]]:
    """For each character, the fields changed on the web since its last import (or since it
    was carried from another event), each with the latest such change."""
    ids = [c.id for c in characters if c.id is not None]
    if not ids:
        return {}
    history = db.session.scalars(
        db.select(SheetChange)
        .where(SheetChange.character_id.in_(ids))
        .order_by(SheetChange.id.desc())
    )
    found: dict[int, dict[str, SheetChange]] = {}
    done: set[int] = set()
    for change in history:  # newest first, back to each character's last import
        if change.character_id in done:
            continue
        if change.source in BASELINES or change.before is None:
            done.add(change.character_id)
        elif change.source in WEB_SOURCES:
            edited = found.setdefault(change.character_id, {})
            for name in changed_fields(change.before, change.after):
                edited.setdefault(name, change)
    return found


def plan_import(event: Event, sheets: Any, short: list[ShortRow] = ()) -> Plan:
    """What importing ``sheets`` would do, row by row; nothing is saved. ``short``: the
    spreadsheet's rows with fewer cells than its header (``sheet_csv.read_csv``), whose
    problems are said as that."""
    if not isinstance(sheets, list) or not sheets:
        return Plan([], [], [rules.Problem("", "not_list")], [])
    existing = list(event.characters)
    by_id = {c.id: c for c in existing}
    by_name = {_key(c.player, c.name): c for c in existing}
    stripped, matched, errors = [], [], []
    schema = rules.get_ruleset(event.ruleset).schema()
    if schema is not None:  # a choice or a table's name as the rule system writes it
        tables = event_settings(event).tables
        sheets = [schema.canonical(raw, tables) for raw in sheets]
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
    stored = [c.tabletop if c is not None else None for c in matched]
    larp, sheet_errors, warnings = check_sheets(event, stripped, stored)
    edited = web_edits([c for c in matched if c is not None])
    rows = []
    for raw, character in zip(stripped, matched, strict=True):
        if character is None:
            rows.append(RowPlan(ADDED, raw))
        elif raw == character.tabletop:
            rows.append(RowPlan(UNCHANGED, raw, character))
        else:
            on_web = edited.get(character.id, {})
            changes = [
                FieldChange(name, old, new, on_web.get(name))
                for name, old, new in field_changes(
                    character.tabletop, raw if isinstance(raw, dict) else {}
                )
            ]
            fields = [c.path for c in changes]
            rows.append(RowPlan(UPDATED, raw, character, fields, changes))
    return Plan(rows, larp, short_rows_said(errors + sheet_errors, list(short)), warnings)


def apply_import(event: Event, sheets: Any, user: User | None, short: list[ShortRow] = ()) -> Plan:
    """Add and update as ``plan_import`` says, or nothing at all (InvalidInput lists why)."""
    if event.archived_at is not None:
        raise rules.InvalidInput([rules.Problem("event", "archived")])
    plan = plan_import(event, sheets, short)
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
