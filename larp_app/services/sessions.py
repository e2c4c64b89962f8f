"""End of session: every dying character is decided, killed or spared, all or nothing."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from .. import rules
from ..extensions import db
from ..models import Character, Event, User
from .characters import larp_sheet
from .clock import now_utc
from .entries import Recorded, lock_character, log_of, record_entry, state_of
from .events import event_settings, status_catalogue

# The words of the end of session (larp_app/rules/README.md, "End of session"), stored as data
# in the log (like a code), whatever the language of the organiser's screen: the log is read
# back by programs and by people of both languages.
KILL_REASON = "end of session"
SPARED_NOTE = "spared by {healer} at end of session"
VERDICTS = ("kill", "spare")
DEADLY = "deadly_at_end_of_session"  # a catalogue status's flag
MAX_HEALER = 120
# The live window of record_entry: the instant the list was made must still be inside it.
LIMITS = (timedelta(seconds=10), timedelta(hours=24))


@dataclass(frozen=True)
class Dying:
    character: Character
    snapshot: rules.Snapshot


@dataclass(frozen=True)
class Decision:
    verdict: str  # kill | spare
    healer: str = ""  # who spares the character (spare only)


class SessionRefused(Exception):
    """The session cannot close; each problem names the character it is about."""

    def __init__(self, problems: list[rules.Problem]):
        super().__init__("; ".join(f"{p.path}: {p.code}" for p in problems))
        self.problems = problems


def dying_order(snapshot: rules.Snapshot, name: str, at: datetime) -> tuple:
    """How dying characters are listed: the first to die first (those with no countdown
    last), then by name."""
    death_at = snapshot.state.death_at
    return (death_at is None, death_at or at, name)


def dying_characters(event: Event, at: datetime) -> list[Dying]:
    """The event's characters dying at ``at``, the first to die first, then those with a
    status whose catalogue says ending the session with it is death (a knock-out, where the
    rule system's README says so). None where the event's rule system does
    not declare that ending a session so is death (``Ruleset.end_of_session_is_death``)."""
    if not ends_sessions(event):
        return []
    deadly = {k for k, s in status_catalogue(event).items() if s.texts.get(DEADLY)}
    dying = []
    for character in event.characters:
        snapshot = state_of(character, at)  # the kept fold, advanced to ``at``
        alive = snapshot.wound != "dead"
        if snapshot.wound == "dying" or (
            alive and deadly & {s.key for s in snapshot.state.statuses}
        ):
            dying.append(Dying(character, snapshot))
    return sorted(dying, key=lambda d: dying_order(d.snapshot, d.character.name, at))


def ends_sessions(event: Event) -> bool:
    """Whether the event's rule system says ending a session dying with no healer is death."""
    return rules.get_ruleset(event.ruleset).end_of_session_is_death


def planned_entries(decision: Decision, at: datetime) -> list[dict[str, Any]]:
    """The entries a decision records, with ids made here (uuid4)."""
    stamp = rules.format_instant(at)
    if decision.verdict == "kill":
        return [{"id": str(uuid.uuid4()), "kind": "kill", "at": stamp, "reason": KILL_REASON}]
    # Our own reading of "spared by a named healer" (larp_app/rules/README.md): the
    # note alone would leave the countdown running and the character would die at death_at
    # anyway, so sparing also records a heal of 1. Counting from −1, that brings the character
    # to 0 points, gravely wounded and no longer dying: alive, and still needing care.
    return [
        {
            "id": str(uuid.uuid4()),
            "kind": "note",
            "at": stamp,
            "text": SPARED_NOTE.format(healer=decision.healer),
        },
        {"id": str(uuid.uuid4()), "kind": "heal", "at": stamp, "amount": 1},
    ]


def _check_instant(at: datetime, now: datetime) -> list[rules.Problem]:
    future, age = LIMITS
    if at > now + future:
        return [rules.Problem("at", "in_future", {"got": rules.format_instant(at)})]
    if at < now - age:
        return [rules.Problem("at", "too_old", {"got": rules.format_instant(at)})]
    return []


def _check_decisions(
    event: Event, dying: list[Dying], decisions: Mapping[int, Decision]
) -> list[rules.Problem]:
    problems = []
    listed = {d.character.id for d in dying}
    for item in dying:
        character = item.character
        path, who = f"decisions[{character.id}]", {"character": character.name}
        decision = decisions.get(character.id)
        if decision is None or not decision.verdict:
            problems.append(rules.Problem(path, "missing_decision", who))
        elif decision.verdict not in VERDICTS:
            problems.append(rules.Problem(path, "not_allowed", {**who, "got": decision.verdict}))
        elif decision.verdict == "spare" and not decision.healer:
            problems.append(rules.Problem(path, "missing_healer", who))
        elif decision.verdict == "spare" and len(decision.healer) > MAX_HEALER:
            problems.append(rules.Problem(path, "healer_too_long", {**who, "max": MAX_HEALER}))
    names = {c.id: c.name for c in event.characters}
    for character_id in sorted(set(decisions) - listed):
        if character_id in names:
            # Decided on a list made at this instant, but no longer dying then (an entry that
            # arrived late): killing them now would decide something nobody saw.
            who = {"character": names[character_id]}
            problems.append(rules.Problem(f"decisions[{character_id}]", "not_dying", who))
        else:
            got = {"got": character_id}
            problems.append(rules.Problem(f"decisions[{character_id}]", "unknown_character", got))
    return problems


def _check_entries(item: Dying, entries: list[dict], author: User, now: datetime):
    """Fold the planned entries as record_entry would: a refusal is a problem, not a write."""
    character = item.character
    ruleset = character.event.ruleset
    planned = [rules.read_entry({**raw, "author": author.username}, ruleset) for raw in entries]
    ids = {e.id for e in planned}
    log = [*log_of(character), *planned]
    at = max(now, *(e.at for e in planned))
    snapshot = rules.state_at(larp_sheet(character), event_settings(character.event), log, at)
    return [
        rules.Problem(
            f"decisions[{character.id}]",
            "refused",
            {"character": character.name, "reason": c.code, "detail": c.params},
        )
        for c in snapshot.conflicts
        if c.id in ids
    ]


def end_session(
    event: Event, decisions: Mapping[int, Decision], at: datetime, organiser: User
) -> list[Recorded]:
    """Decide every character dying at ``at`` (the instant the list was made), or none.

    ``decisions`` maps character ids to a Decision. Every character dying at ``at`` needs
    one, and only they may have one; otherwise SessionRefused names each character, and
    nothing is stored. The entries are dated ``at`` and authored by ``organiser``. Flushes;
    the caller commits.
    """
    now = now_utc()
    problems = _check_instant(at, now)
    if problems:
        raise SessionRefused(problems)
    dying = dying_characters(event, at)
    problems = _check_decisions(event, dying, decisions)
    if problems:
        raise SessionRefused(problems)
    plans = [(item, planned_entries(decisions[item.character.id], at)) for item in dying]
    for item, entries in plans:
        problems += _check_entries(item, entries, organiser, now)
    if problems:
        raise SessionRefused(problems)
    recorded: list[Recorded] = []
    character = None
    # Every character's lock first, in id order, before any entry raises the event's
    # version (which locks the event): a referee's entry on one of them, holding its
    # character and waiting for the event, can then never wait on this request in turn.
    for item in sorted(dying, key=lambda d: d.character.id):
        lock_character(item.character)
    try:
        for item, entries in plans:
            character = item.character
            for raw in entries:
                recorded.append(record_entry(character, raw, organiser, limits=LIMITS))
    except (rules.RuleError, rules.InvalidInput) as exc:
        # Only a race gets here (another request logged on the character meanwhile): undo
        # the rows already written.
        db.session.rollback()
        reason = exc.code if isinstance(exc, rules.RuleError) else exc.problems[0].code
        detail = exc.params if isinstance(exc, rules.RuleError) else exc.problems[0].params
        raise SessionRefused(
            [
                rules.Problem(
                    f"decisions[{character.id}]",
                    "refused",
                    {"character": character.name, "reason": reason, "detail": detail},
                )
            ]
        ) from exc
    return recorded
