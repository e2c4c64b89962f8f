"""A character's log as the pages and the API show it: in the log's order, each entry marked
undone or in conflict, with the state judged at the later of now and the last entry."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .. import rules
from ..keeping.logs import log_of
from ..models import Character
from ..services.entries import judged_state


@dataclass(frozen=True)
class AnnotatedLog:
    snapshot: rules.Snapshot  # judged at the later of now and the last entry's instant
    entries: list[rules.Entry]  # in the log's order
    undone: set[str]  # ids of entries an undo took back
    conflicts: dict  # entry id -> the fold's conflict (its code and params)


def annotated_log(character: Character, now: datetime) -> AnnotatedLog:
    entries = rules.order_log(log_of(character))
    snapshot = judged_state(character, now)
    undone, _refused = rules.resolve_undos(entries)
    return AnnotatedLog(snapshot, entries, undone, {c.id: c for c in snapshot.conflicts})
