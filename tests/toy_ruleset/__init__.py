"""A toy rule system that lives only in the tests: the app must run it end to end through the
same interface as EX Nihilo and Sistema Athkri, with nothing under larp_app/web, templates/ or
static/js naming it.

A toy sheet: ``{"ruleset": "toy", "player", "character", "vigour": 1-10, "knacks": [names]}``;
its larp sheet has ``vigour`` hit points, no armour, no energy. Wounds: ok above 0, grievous at
0, dead only through the shared ``kill``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from larp_app.rules import Ruleset
from larp_app.rules.problems import Checker
from larp_app.rules.sheet import LarpSheet, read_who
from larp_app.rules.state import State
from larp_app.rules.statuses import parse_status_catalogue
from larp_app.rules.tables import TableSet

KEY = "toy"
SHEET_KEYS = ("ruleset", "player", "character", "faction", "vigour", "knacks", "notes")


def read_sheet(raw: Any, tables: TableSet, c: Checker) -> LarpSheet | None:
    who = read_who(raw, c, SHEET_KEYS)
    if who is None:
        return None
    player, character, faction = who
    vigour = c.integer(raw, "vigour", "vigour", lo=1, hi=10)
    knacks = [
        c.text({"k": k}, "k", f"knacks[{i}]", max_len=60)
        for i, k in enumerate(c.listing(raw, "knacks", "knacks", required=False))
    ]
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
    wound_handlers={},
    wound=wound,
    advance_wounds=advance_wounds,
    package_dir=Path(__file__).resolve().parent,
)
