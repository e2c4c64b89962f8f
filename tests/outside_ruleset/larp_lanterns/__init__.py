"""Lanterns: a tiny rule system of its own, installed with pip (tests/outside_ruleset), to show
that an outside package plugs into the app through its entry point alone, speaking in its own
words: its catalogues (translations/<language>/LC_MESSAGES/messages.mo) translate its kind, its
fields and its refusal.

A sheet: ``{"ruleset": "lanterns", "player", "character", "oil": 1-6}``; the larp sheet has
``oil`` points, no armour, no energy. A hit takes its damage off the oil. Its own kind ``roll``
(named like Sistema Athkri's, and another kind) relights the lantern by the flame rolled, up to
the oil it holds; a full lantern refuses it (``already_fresh``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from larp_app.rules import Ruleset
from larp_app.rules.entries import Entry
from larp_app.rules.kinds import CONSOLE_FORM, EntryKind
from larp_app.rules.problems import Checker, RuleError
from larp_app.rules.sheet import LarpSheet, read_who
from larp_app.rules.state import State
from larp_app.rules.statuses import parse_status_catalogue
from larp_app.rules.tables import TableSet

KEY = "lanterns"
OIL = (1, 6)
SHEET_KEYS = ("ruleset", "player", "character", "faction", "oil")


def N_(message: str) -> str:
    """A message id, translated by this package's own catalogues."""
    return message


@dataclass(frozen=True, slots=True, kw_only=True)
class Relight(Entry):
    """The flame rolled to relight the lantern: that much oil back, up to its maximum."""

    flame: int
    kind = "roll"


def read_relight(c: Checker, d: dict, p: str) -> dict:
    return {"flame": c.integer(d, "flame", p + "flame", lo=1, hi=6)}


def hit(state: State, entry, ctx) -> State:
    return state.evolve(hp=max(0, state.hp - entry.damage * entry.blows))


def relight(state: State, entry: Relight, ctx) -> State:
    if state.hp >= ctx.sheet.hp_max:
        raise RuleError("already_fresh", oil=state.hp)
    return state.evolve(hp=min(ctx.sheet.hp_max, state.hp + entry.flame))


ROLL = EntryKind(
    "roll",
    Relight,
    read_relight,
    label=N_("Lantern roll"),
    summary=lambda entry, _: f"+{entry.flame}",
    console=CONSOLE_FORM,
    field_labels={"flame": N_("Flame")},
)


def read_sheet(raw: Any, tables: TableSet, c: Checker) -> LarpSheet | None:
    who = read_who(raw, c, SHEET_KEYS)
    if who is None:
        return None
    player, character, faction = who
    oil = c.integer(raw, "oil", "oil", lo=OIL[0], hi=OIL[1])
    if c.errors:
        return None
    return LarpSheet(
        ruleset=KEY,
        player=player,
        character=character,
        faction=faction,
        hp_max=oil,
        ap_max=0,
        energy_max=0,
        energy_recovery_minutes=None,
        details={"oil": oil, "statuses": []},
        warnings=tuple(c.warnings),
        tables=dict(tables.sources),
    )


def wound(state: State, ctx) -> str:
    if state.died_at is not None:
        return "dead"
    return "ok" if state.hp > 0 else "grievous"


RULESET = Ruleset(
    key=KEY,
    language="en",
    tables={"statuses": parse_status_catalogue},
    read_sheet=read_sheet,
    tabletop_values=lambda raw, tables: {"oil": raw["oil"]},
    wound_handlers={"hit": hit, "roll": relight},
    entry_kinds=(ROLL,),
    wound=wound,
    advance_wounds=lambda state, t, ctx: state,
    package_dir=Path(__file__).resolve().parent,
    refusals={"already_fresh": N_("the lantern is already full: nothing to relight ({oil} oil)")},
)
