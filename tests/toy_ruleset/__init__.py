"""A toy rule system that lives only in the tests: the app must run it end to end through the
same interface as EX Nihilo and Sistema Athkri, with nothing under larp_app/web, templates/ or
static/js naming it.

A toy sheet: ``{"ruleset": "toy", "player", "character", "vigour": 1-10, "knacks": [names]}``;
its larp sheet has ``vigour`` hit points, no armour, no energy. Wounds: ok above 0, grievous at
0, dead only through the shared ``kill``. Its own entry kind, ``rally`` (a battle cry and the
points it gives back), is offered by the console as a form.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from larp_app.rules import Ruleset
from larp_app.rules.entries import Entry
from larp_app.rules.kinds import CONSOLE_FORM, EntryKind
from larp_app.rules.problems import Checker, RuleError
from larp_app.rules.schema import WHO, columns, notes, words
from larp_app.rules.sheet import LarpSheet, read_who
from larp_app.rules.state import State
from larp_app.rules.statuses import parse_status_catalogue
from larp_app.rules.tables import TableSet

from .vocabulary import VOCABULARY

KEY = "toy"
VIGOUR = (1, 10)
KNACK_LENGTH, NOTES_LENGTH = 60, 500
# Its sheet, declared once: what the import, the spreadsheet, the form and the messages know.
SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Toy sheet",
    "x-labels": words("Scheda giocattolo", "Hoja de juguete", "Toy sheet"),
    "type": "object",
    "required": ["player", "character", "vigour"],
    "properties": {
        "ruleset": {"const": KEY},
        **WHO,
        "vigour": {
            "type": "integer",
            "minimum": VIGOUR[0],
            "maximum": VIGOUR[1],
            "title": "Vigour",
            "x-labels": words("Vigore", "Vigor", "Vigour"),
            "x-columns": columns(["vigore"], ["vigor"], ["vigour"]),
        },
        "knacks": {
            "type": "array",
            "title": "Knacks",
            "x-labels": words("Talenti", "Mañas", "Knacks"),
            "x-columns": columns(["talenti"], ["mañas"], ["knacks"]),
            "items": {
                "type": "string",
                "minLength": 1,
                "maxLength": KNACK_LENGTH,
                "title": "Knack",
                "x-labels": words("Talento", "Maña", "Knack"),
            },
        },
        "notes": notes(NOTES_LENGTH),
    },
    "examples": [
        {
            "ruleset": KEY,
            "player": "Ada",
            "character": "Brom",
            "vigour": 4,
            "knacks": ["juggling", "whistling"],
        }
    ],
}
SHEET_KEYS = tuple(SCHEMA["properties"])


@dataclass(frozen=True, slots=True, kw_only=True)
class Rally(Entry):
    """A battle cry: ``points`` hit points back, up to the maximum."""

    cry: str
    points: int = 1
    kind = "rally"


def read_rally(c: Checker, d: dict, p: str) -> dict:
    return {
        "cry": c.text(d, "cry", p + "cry", max_len=80),
        "points": c.integer(d, "points", p + "points", lo=1, hi=3, required=False, default=1),
    }


def hit(state: State, entry, ctx) -> State:
    """No armour in the toy: every blow takes its damage off the points, down to 0."""
    return state.evolve(hp=max(0, state.hp - entry.damage * entry.blows))


def rally(state: State, entry: Rally, ctx) -> State:
    if state.hp <= 0:
        raise RuleError("too_weak_to_rally")
    return state.evolve(hp=min(ctx.sheet.hp_max, state.hp + entry.points))


RALLY = EntryKind(
    "rally",
    Rally,
    read_rally,
    label={"en": "Rally", "it": "Riscossa", "es": "Arenga"},
    summary=lambda entry, _: f"+{entry.points} · {entry.cry}",
    console=CONSOLE_FORM,
    field_labels={"cry": {"en": "Battle cry"}, "points": {"en": "Points back"}},
)


def read_sheet(raw: Any, tables: TableSet, c: Checker) -> LarpSheet | None:
    who = read_who(raw, c, SHEET_KEYS)
    if who is None:
        return None
    player, character, faction = who
    vigour = c.integer(raw, "vigour", "vigour", lo=VIGOUR[0], hi=VIGOUR[1])
    knacks = [
        c.text({"k": k}, "k", f"knacks[{i}]", max_len=KNACK_LENGTH)
        for i, k in enumerate(c.listing(raw, "knacks", "knacks", required=False))
    ]
    c.text(raw, "notes", "notes", required=False, max_len=NOTES_LENGTH, multiline=True)
    if c.errors:
        return None
    return LarpSheet(
        ruleset=KEY,
        player=player,
        character=character,
        faction=faction,
        hp_max=vigour,
        ap_max=0,
        energy_max=0,
        energy_recovery_minutes=None,
        details={"vigour": vigour, "knacks": knacks, "statuses": []},
        warnings=tuple(c.warnings),
        tables=dict(tables.sources),
    )


def tabletop_values(raw: Any, tables: TableSet) -> dict[str, Any]:
    return {"vigour": raw["vigour"]}


def advance_wounds(state: State, t, ctx) -> State:
    return state


def wound(state: State, ctx) -> str:
    if state.died_at is not None:
        return "dead"
    return "ok" if state.hp > 0 else "grievous"


RULESET = Ruleset(
    key=KEY,
    language="en",
    tables={"statuses": parse_status_catalogue},
    read_sheet=read_sheet,
    tabletop_values=tabletop_values,
    wound_handlers={"hit": hit, "rally": rally},
    entry_kinds=(RALLY,),
    wound=wound,
    advance_wounds=advance_wounds,
    package_dir=Path(__file__).resolve().parent,
    sheet_schema=SCHEMA,
    vocabulary=VOCABULARY,
)
