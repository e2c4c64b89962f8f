"""What a phone needs to fold a character's log on its own, as plain JSON data.

The phone's fold (static/js/lib/fold.js, with each rule system's own wound rules) continues
from the server's last state: the state's inner values (the ruleset's wound track
included), the sheet's figures and the event's settings and catalogue. Instants are written
as the state's JSON writes them. Shared by every rule system: nothing here names one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from .entries import PHYSICAL
from .registry import get_ruleset
from .settings import Settings
from .sheet import Advancement, LarpSheet
from .state import State
from .statuses import TEXTS
from .timeutil import format_instant

# A status's random check: what a fold reads of it (its texts stay with the catalogue).
CHECK_KEYS = ("die", "attribute", "skill", "ends_on_success")


def to_wire(value: Any) -> Any:
    """Any value of a state as JSON data: a dataclass as an object of its fields, an instant
    as ISO-8601 text, a tuple as a list."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_wire(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, datetime):
        return format_instant(value)
    if isinstance(value, list | tuple):
        return [to_wire(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): to_wire(v) for k, v in value.items()}
    return value


def state_to_wire(state: State) -> dict[str, Any]:
    """A state's inner values, from which a phone's fold goes on."""
    return to_wire(state)


def _fold_details(sheet: LarpSheet) -> Mapping[str, Any]:
    """The details of ``sheet`` its rule system's fold reads (``Ruleset.fold_details``)."""
    wanted = get_ruleset(sheet.ruleset).fold_details
    if wanted is None:
        return sheet.details
    return {k: sheet.details[k] for k in wanted if k in sheet.details}


def fold_sheet(sheet: LarpSheet) -> LarpSheet:
    """The sheet as a fold reads it, as a phone's fold has it (``sheet_to_wire``): its
    figures, its advancements' names and costs, the details its rule system's fold reads;
    no advancement's text, no warnings, no tables. Folded with it, a log's states, snapshots
    and changes are those of the whole sheet (tests/unit/test_fold_sheet.py): what a worker
    keeps of every character to answer its polls, with no sheet parsed again."""
    return dataclasses.replace(
        sheet,
        advancements=tuple(
            Advancement(a.name, a.energy_cost, a.passive) for a in sheet.advancements
        ),
        details=_fold_details(sheet),
        warnings=(),
        tables={},
    )


def sheet_to_wire(sheet: LarpSheet) -> dict[str, Any]:
    """The sheet's figures a fold reads: maxima, energy recovery, costs, and the details its
    rule system's fold reads (``Ruleset.fold_details``); and what a break of the armour
    leaves (``Ruleset.armour_kept``), which the console says."""
    ruleset = get_ruleset(sheet.ruleset)
    details = _fold_details(sheet)
    return {
        "ruleset": sheet.ruleset,
        "hp_max": sheet.hp_max,
        "ap_max": sheet.ap_max,
        "energy_max": sheet.energy_max,
        "energy_recovery_minutes": sheet.energy_recovery_minutes,
        "advancements": [
            {"name": a.name, "energy_cost": a.energy_cost} for a in sheet.advancements
        ],
        "details": to_wire(details),
        "armour_kept": [dict(part) for part in ruleset.armour_kept(sheet)],
    }


def settings_to_wire(settings: Settings, catalogue: Mapping[str, Any]) -> dict[str, Any]:
    """The event's settings a fold reads, and its status catalogue (no texts, no dice seed)."""
    statuses = []
    for status in catalogue.values():
        item = {"key": status.key, "turns": status.turns, "ends_on_hit": status.ends_on_hit}
        for figure, value in status.texts.items():  # shared figures and its rule system's
            if figure not in TEXTS and value is not None:
                item[figure] = value
        check = status.texts.get("check")
        if isinstance(check, Mapping):
            item["check"] = {k: check[k] for k in CHECK_KEYS if k in check}
        statuses.append(item)
    return {
        "ruleset": settings.ruleset,
        "turn_seconds": settings.turn_seconds,
        "armour_breaks": settings.armour_breaks,
        "saves": settings.saves,
        # The damage types a hit may name beyond physical (larp_app/rules/damage.py).
        "damage_types": [k for k in get_ruleset(settings.ruleset).damage_types if k != PHYSICAL],
        "catalogue": statuses,
    }
