"""An event's final states and whole log: JSON for programs (keys, UTC instants), and for
any spreadsheet, CSV and .xlsx in the reader's words, at the organiser's local time.

One row per character for the campaign's records: alive or dead, points lost, energy,
active statuses, when it died and by which entry. The CSV opens as columns in the reader's
Excel: Italian and Spanish Excel split on ``;`` (their decimal comma takes ``,``), English on
``,``; a separator can be chosen. Instants are local and whole seconds, wound levels and
kinds of entry words, each entry's details a few words rather than its fields as JSON.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, tzinfo
from typing import Any
from zoneinfo import ZoneInfo

from flask_babel import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell

from .. import rules
from ..messages import refusal_message
from ..models import Event
from .report import Outcome, Report, event_report
from .words import quantity_name, tracks, wound_shown

BOM = "\ufeff"

STATE_COLUMNS = (
    "character_id",
    "player",
    "character",
    "faction",
    "withdrawn",
    "wound",
    "wound_words",
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
        # The same in the rule system's words, in the reader's language.
        "wound_words": wound_words(final.wound, final.sheet.ruleset, final.extra.get("level")),
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


# --- For spreadsheets: words, local instants, a separator by language, .xlsx -------------

# The separator Excel splits a CSV on, by the reader's language (its list separator): where
# the decimal mark is a comma, Excel expects ";".
SEPARATORS = {"semicolon": ";", "comma": ",", "tab": "\t"}
SEMICOLON_LANGUAGES = ("it", "es")


def separator_for(language: str, chosen: str | None = None) -> str:
    """The chosen separator (a key of SEPARATORS), else the reader's language's."""
    if chosen in SEPARATORS:
        return SEPARATORS[chosen]
    return ";" if language in SEMICOLON_LANGUAGES else ","


def time_zone(name: str | None) -> tzinfo | None:
    """The IANA zone ``name`` (e.g. Europe/Rome), or None (this machine's own) when unknown."""
    try:
        return ZoneInfo(name) if name else None
    except (ValueError, KeyError, OSError):  # bad, missing or unreadable zone data
        return None


def local(instant: datetime | None, zone: tzinfo | None) -> datetime | None:
    """An instant as a wall clock in ``zone`` (None: this machine's), to the second."""
    if instant is None:
        return None
    return instant.astimezone(zone).replace(microsecond=0, tzinfo=None)


def wound_words(wound: str, ruleset: str | None, level: str | None = None) -> str:
    """A wound level in the reader's words, as its rule system calls it (its own wound
    track's ``level`` first): the one place exports name wound levels."""
    return wound_shown(wound, ruleset, level).word


@dataclass(frozen=True)
class Words:
    """What the reader's page calls things the engine keeps as keys (web.display's helpers)."""

    kind: Callable[[str], str]  # an entry kind's label
    summary: Callable[[rules.Entry], str]  # a few words on what an entry did
    statuses: Mapping[str, str]  # each status's name


@dataclass(frozen=True)
class Table:
    """A sheet of a spreadsheet: its title, column headings and typed cells."""

    title: str
    columns: tuple[str, ...]
    rows: list[list[Any]]  # str, int, bool, a local datetime, or None


def export_tables(event: Event, now: datetime, zone: tzinfo | None, say: Words) -> list[Table]:
    """The final states and the whole log, for a spreadsheet in the reader's language."""
    report = event_report(event, now)
    return [_states_table(report, zone, say), _log_table(report, zone, say)]


def _states_table(report: Report, zone: tzinfo | None, say: Words) -> Table:
    """One row per character; a quantity its rule system does not track has no columns."""
    key = report.event.ruleset
    hp, ap, energy = (quantity_name(key, q) for q in ("hp", "ap", "energy"))
    at_most = _("%(name)s at most", name=hp)
    cells: list[tuple[str, Callable[[Outcome], Any]]] = [
        (_("Character id"), lambda o: o.character.id),
        (_("Player"), lambda o: o.character.player),
        (_("Character"), lambda o: o.character.name),
        (_("Faction"), lambda o: o.character.faction or ""),
        (_("Withdrawn"), lambda o: o.character.withdrawn_at is not None),
        (
            _("Wound"),
            lambda o: wound_words(o.final.wound, o.final.sheet.ruleset, o.final.extra.get("level")),
        ),
        (_("Alive"), lambda o: o.final.wound != "dead"),
        (hp, lambda o: o.final.state.hp),
        (at_most, lambda o: o.final.sheet.hp_max),
        (_("Points lost"), lambda o: o.points_lost),
    ]
    if tracks(key, "ap"):
        cells += [
            (ap, lambda o: o.final.state.ap),
            (_("%(name)s at most", name=ap), lambda o: o.final.sheet.ap_max),
        ]
    if tracks(key, "energy"):
        cells += [
            (energy, lambda o: o.final.state.energy),
            (_("%(name)s at most", name=energy), lambda o: o.final.sheet.energy_max),
        ]
    cells += [
        (
            _("Statuses"),
            lambda o: ", ".join(say.statuses.get(s.key, s.key) for s in o.final.state.statuses),
        ),
        (_("Knock-outs"), lambda o: len(o.knocked_out)),
        (_("Died at"), lambda o: local(o.died_at, zone)),
        (_("Died by (entry)"), lambda o: o.died_by.id if o.died_by else None),
        (_("Died by (what)"), lambda o: _what(o.died_by, say) if o.died_by else None),
        (_("Died by (who)"), lambda o: o.died_by.author if o.died_by else None),
    ]
    rows = [[cell(o) for _name, cell in cells] for o in report.outcomes]
    return Table(_("Final states"), tuple(name for name, _cell in cells), rows)


def _what(entry: rules.Entry, say: Words) -> str:
    details = say.summary(entry)
    return f"{say.kind(entry.kind)} {details}".strip()


def _log_table(report: Report, zone: tzinfo | None, say: Words) -> Table:
    columns = (
        _("Character id"),
        _("Character"),
        _("Entry id"),
        _("At"),
        _("What"),
        _("Details"),
        _("Logged by"),
        _("Undone"),
        _("Conflict"),
    )
    rows = []
    for o in report.outcomes:
        conflicts = {c.id: c for c in o.final.conflicts}
        for e in o.log:
            conflict = conflicts.get(e.id)
            rows.append(
                [
                    o.character.id,
                    o.character.name,
                    e.id,
                    local(e.at, zone),
                    say.kind(e.kind),
                    say.summary(e),
                    e.author,
                    e.id in o.undone,
                    refusal_message(conflict.code, conflict.params, o.character.event.ruleset)
                    if conflict
                    else None,
                ]
            )
    return Table(_("Whole log"), columns, rows)


# A cell a spreadsheet would run as a formula (a name typed as "=HYPERLINK(...)").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_safe(text: str) -> str:
    """Text that would start a formula starts with ' instead: Excel and LibreOffice show it
    as typed and never run it (the OWASP advice for CSV files)."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _shown(value: Any) -> Any:
    """A cell as a spreadsheet shows it: yes/no in words, instants to the second."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S")
    return value


def table_csv(table: Table, separator: str) -> str:
    """The table as CSV with a BOM (Excel then reads UTF-8), split on ``separator``."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, delimiter=separator, lineterminator="\r\n")
    writer.writerow(table.columns)
    for row in table.rows:
        writer.writerow([_csv_cell(value) for value in row])
    return BOM + out.getvalue()


def _csv_cell(value: Any) -> Any:
    """A number stays a number, negative or not; a text never starts a formula."""
    shown = _shown(value)
    return formula_safe(shown) if isinstance(shown, str) else shown


def tables_xlsx(tables: list[Table]) -> bytes:
    """The tables as one workbook, a sheet each: numbers as numbers, instants as dates, and
    every text a text (never a formula, whatever it begins with)."""
    book = Workbook(write_only=True)
    for table in tables:
        sheet = book.create_sheet(_sheet_title(table.title))
        sheet.append(table.columns)
        for row in table.rows:
            sheet.append([_xlsx_cell(sheet, value) for value in row])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _xlsx_cell(sheet, value: Any) -> Any:
    shown = _shown(value) if not isinstance(value, datetime) else value
    if isinstance(shown, str):
        cell = WriteOnlyCell(sheet, value=shown)
        cell.data_type = "s"  # "=..." stays text: openpyxl would take it for a formula
        return cell
    if isinstance(shown, datetime):
        cell = WriteOnlyCell(sheet, value=shown)
        cell.number_format = "yyyy-mm-dd hh:mm:ss"
        return cell
    return shown


def _sheet_title(title: str) -> str:
    """A worksheet's name: at most 31 characters, none of []:*?/\\."""
    return "".join(ch for ch in title if ch not in "[]:*?/\\")[:31] or "Sheet"
