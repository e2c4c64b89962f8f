"""Rule corrections: a rule a rule system applied otherwise than as written, now applied as
written. Its log entries are kept and judged again by the corrected rule (the state is always
folded from the log); a correction declares how the rule was applied before (the handlers it
had), so that each stored character whose outcome the correction changes can be listed for
the organiser to review, with the first entry judged otherwise and the state then and now.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime

from .entries import Entry
from .fold import Context, fold_log, order_log, snapshot_at
from .ruleset import RuleCorrection
from .settings import Settings
from .sheet import LarpSheet
from .state import Snapshot

# Entries a character's log may hold for the first entry judged otherwise to be looked for
# (one fold per instant); a longer log is said changed, and where is left to the organiser.
LOCATE_AT_MOST = 2000


@dataclass(frozen=True)
class ChangedOutcome:
    """A character's log judged otherwise by a correction: the first entry after which the
    states differ (None when the log is too long to look), and the state at the instant
    asked for, as judged before and as now."""

    correction: RuleCorrection
    entry: Entry | None
    was: Snapshot
    now: Snapshot


def _as_before(ctx: Context, correction: RuleCorrection) -> Context:
    handlers = {**ctx.ruleset.wound_handlers, **correction.before}
    return replace(ctx, ruleset=replace(ctx.ruleset, wound_handlers=handlers), memo={})


def _same(a: Snapshot, b: Snapshot) -> bool:
    return a.state == b.state and [(c.id, c.code) for c in a.conflicts] == [
        (c.id, c.code) for c in b.conflicts
    ]


def changed_outcome(
    correction: RuleCorrection,
    sheet: LarpSheet,
    settings: Settings,
    entries: Iterable[Entry],
    at: datetime,
) -> ChangedOutcome | None:
    """How ``correction`` changes the state of a character at ``at``; None when it does not
    (or cannot: the character is not of those it concerns)."""
    if not correction.concerns(sheet, settings):
        return None
    log = order_log(entries)
    now = Context.of(sheet, settings)
    before = _as_before(now, correction)
    judged = snapshot_at(fold_log(now, log, at), now, at)
    was = snapshot_at(fold_log(before, log, at), before, at)
    if _same(judged, was):
        return None
    first = None
    if len(log) <= LOCATE_AT_MOST:
        for entry in log:
            if entry.at > at:
                break
            a, b = fold_log(now, log, entry.at), fold_log(before, log, entry.at)
            if a.state != b.state or a.conflicts != b.conflicts:
                first = entry
                break
    return ChangedOutcome(correction, first, was, judged)
