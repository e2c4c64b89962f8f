"""An event's final states and whole log, as CSV (UTF-8 with BOM, for Excel) and JSON.

One row per character for the campaign's records: alive or dead, points lost, energy,
active statuses, when it died and by which entry.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from typing import Any

from .. import rules
from ..models import Event
from .report import Outcome, event_report

BOM = "\ufeff"

STATE_COLUMNS = (
    "character_id",
    "player",
    "character",
    "faction",
    "withdrawn",
    "wound",
    "alive",
    "hp",
    "hp_max",
    "points_lost",
    "armour",
    "armour_max",
    "energy",
    "energy_max",
    "statuses",
    "knocked_out",
    "died_at",
    "died_by_entry",
    "died_by_kind",
    "died_by_author",
)
LOG_COLUMNS = (
    "character_id",
    "character",
    "entry_id",
    "kind",
    "at",
    "author",
    "undone",
    "conflict",
    "fields",
)


def state_row(outcome: Outcome) -> dict[str, Any]:
    c, final, by = outcome.character, outcome.final, outcome.died_by
    return {
        "character_id": c.id,
        "player": c.player,
        "character": c.name,
        "faction": c.faction or "",
        "withdrawn": c.withdrawn_at is not None,
        "wound": final.wound,
        "alive": final.wound != "dead",
        "hp": final.state.hp,
        "hp_max": final.sheet.hp_max,
        "points_lost": outcome.points_lost,
        "armour": final.state.ap,
        "armour_max": final.sheet.ap_max,
        "energy": final.state.energy,
        "energy_max": final.sheet.energy_max,
        "statuses": [s.key for s in final.state.statuses],
        "knocked_out": len(outcome.knocked_out),
        "died_at": rules.format_instant(outcome.died_at),
        "died_by_entry": by.id if by else None,
        "died_by_kind": by.kind if by else None,
        "died_by_author": by.author if by else None,
    }


def log_rows(outcome: Outcome) -> list[dict[str, Any]]:
    conflicts = {c.id: c.code for c in outcome.final.conflicts}
    return [
        {
            "character_id": outcome.character.id,
            "character": outcome.character.name,
            "entry_id": e.id,
            "kind": e.kind,
            "at": rules.format_instant(e.at),
            "author": e.author,
            "undone": e.id in outcome.undone,
            "conflict": conflicts.get(e.id),
            "fields": rules.entry_to_dict(e),
        }
        for e in outcome.log
    ]


def export_data(event: Event, now: datetime) -> dict[str, Any]:
    report = event_report(event, now)
    return {
        "event": {
            "id": event.id,
            "name": event.name,
            "ruleset": event.ruleset,
            "archived": event.archived_at is not None,
            "exported_at": rules.format_instant(now),
        },
        "characters": [state_row(o) for o in report.outcomes],
        "log": [row for o in report.outcomes for row in log_rows(o)],
    }


def _csv(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> str:
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row[c]) for c in columns])
    return BOM + out.getvalue()


# A cell a spreadsheet would run as a formula (a name typed as "=HYPERLINK(...)").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_safe(text: str) -> str:
    """Text that would start a formula starts with ' instead: Excel and LibreOffice show it
    as typed and never run it (the OWASP advice for CSV files)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return str(value)  # a number, negative or not, stays a number
    if isinstance(value, list):
        return formula_safe(" | ".join(map(str, value)))
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return formula_safe(str(value))


def states_csv(data: dict[str, Any]) -> str:
    return _csv(STATE_COLUMNS, data["characters"])


def log_csv(data: dict[str, Any]) -> str:
    return _csv(LOG_COLUMNS, data["log"])
