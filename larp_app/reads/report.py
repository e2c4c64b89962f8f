"""What happened at an event, read back from the log: for the report and the exports.

Every figure is folded from the append-only log as the live pages fold it; nothing here is
stored. Times are UTC instants; the pages show them in the reader's words.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from .. import rules
from ..extensions import db
from ..models import Character, Event, RefusedEntry
from ..services.characters import larp_sheet
from ..services.entries import log_of
from ..services.events import event_settings


@dataclass
class Outcome:
    """One character at the end: final state, when it was knocked out or died, and by what."""

    character: Character
    final: rules.Snapshot
    log: list[rules.Entry]  # ordered as the fold reads it
    undone: set[str]
    knocked_out: list[datetime] = field(default_factory=list)  # each time it fell dying
    died_at: datetime | None = None
    died_by: rules.Entry | None = None  # the last entry at or before the death

    @property
    def points_lost(self) -> int:
        return max(0, self.final.sheet.hp_max - self.final.state.hp)


def _end(logs: list[list[rules.Entry]], now: datetime) -> datetime:
    return max([now, *(e.at for log in logs for e in log)])


def outcome_of(character: Character, now: datetime) -> Outcome:
    sheet, settings = larp_sheet(character), event_settings(character.event)
    log = rules.order_log(log_of(character))
    undone, _refused = rules.resolve_undos(log)
    final = rules.state_at(sheet, settings, log, _end([log], now))
    outcome = Outcome(character, final, log, undone)
    wound = "ok"
    for at, _state, level in rules.states_at(sheet, settings, log, {e.at for e in log}):
        if level == "dying" and wound != "dying":
            outcome.knocked_out.append(at)
        wound = level
    died = final.state.died_at
    if died is not None:
        outcome.died_at = died
        counted = [e for e in log if e.at <= died and e.id not in undone and e.kind != "undo"]
        outcome.died_by = counted[-1] if counted else None
    return outcome


TIMELINE_TAIL = timedelta(hours=1)


def timeline(character: Character, now: datetime) -> list[tuple[datetime, int, int]]:
    """Points and energy after each instant of the log, and at the end: (at, hp, energy).

    Entries undone later count as never made (``rules.states_at``)."""
    sheet, settings = larp_sheet(character), event_settings(character.event)
    log = rules.order_log(log_of(character))
    instants = sorted({e.at for e in log})
    if not instants:
        return []
    points = [(instants[0] - timedelta(seconds=1), sheet.hp_max, sheet.energy_max)]
    # The end: now, or an hour after the last entry when the event is long over.
    end = max(instants[-1], min(now, instants[-1] + TIMELINE_TAIL))
    for at, state, _wound in rules.states_at(sheet, settings, log, [*instants, end]):
        points.append((at, state.hp, state.energy))
    return points


@dataclass
class Report:
    event: Event
    outcomes: list[Outcome]
    start: datetime | None
    end: datetime | None
    deaths: list[datetime]
    knock_outs: list[datetime]
    per_hour: list[tuple[datetime, dict[str, int]]]  # hour, {"hit": n, "heal": n}
    referees: list[tuple[str, int]]
    statuses: list[tuple[str, int]]
    conflicts: list[tuple[str, dict[str, Any], int]]  # code, params of one, count
    refusals: list[tuple[str, str, int]]  # code, message, count


PER_HOUR_KINDS = ("hit", "heal")


def event_report(event: Event, now: datetime) -> Report:
    characters = db.session.scalars(
        select(Character).where(Character.event_id == event.id).order_by(Character.name)
    ).all()
    outcomes = [outcome_of(c, now) for c in characters]
    entries = [e for o in outcomes for e in o.log if e.id not in o.undone]
    instants = sorted(e.at for e in entries)
    hours: dict[datetime, Counter] = {}
    referees, statuses, conflicts, params = Counter(), Counter(), Counter(), {}
    for entry in entries:
        if entry.kind in PER_HOUR_KINDS:
            hour = entry.at.replace(minute=0, second=0, microsecond=0)
            hours.setdefault(hour, Counter())[entry.kind] += 1
        if entry.author and entry.kind != "undo":
            referees[entry.author] += 1
        if entry.kind == "status_on":
            statuses[entry.key] += 1
    for outcome in outcomes:
        for c in outcome.final.conflicts:
            conflicts[c.code] += 1
            params.setdefault(c.code, c.params)
    refused = db.session.execute(
        select(RefusedEntry.code, func.min(RefusedEntry.message), func.count())
        .join(Character, RefusedEntry.character_id == Character.id)
        .where(Character.event_id == event.id)
        .group_by(RefusedEntry.code)
        .order_by(func.count().desc())
    ).all()
    if hours:
        first, last = min(hours), max(hours)
        span = int((last - first).total_seconds() // 3600) + 1
        filled = [first + timedelta(hours=i) for i in range(span)]
        per_hour = [(h, dict(hours.get(h, Counter()))) for h in filled]
    else:
        per_hour = []
    return Report(
        event=event,
        outcomes=outcomes,
        start=instants[0] if instants else None,
        end=instants[-1] if instants else None,
        deaths=sorted(o.died_at for o in outcomes if o.died_at),
        knock_outs=sorted(at for o in outcomes for at in o.knocked_out),
        per_hour=per_hour,
        referees=referees.most_common(10),
        statuses=statuses.most_common(),
        conflicts=[(code, params[code], n) for code, n in conflicts.most_common()],
        refusals=[(code, message, n) for code, message, n in refused],
    )
