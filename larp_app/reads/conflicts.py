"""Entries that were acknowledged and later stopped counting, told to their authors.

With writes serialised per character an entry is never acknowledged against a stale log;
it can still stop counting afterwards, by the rules: an offline phone's entry dated earlier
arrives later (a kill before the hit), or an earlier entry is undone. Its author is told,
with the entry that caused it, until they dismiss it; the organiser's board lists them all.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import bindparam, func, select

from .. import rules
from ..extensions import db
from ..keeping.known import CONFLICTS, known
from ..keeping.lately import RECENT, KeptVoided, kept_conflicts, logged_lately
from ..keeping.records import records
from ..models import Character, DismissedConflict, Entry, User
from ..services.entries import judged_state, log_of


@dataclass(frozen=True)
class Voided:
    entry: rules.Entry
    character: Character | Named  # (Named in a kept list)
    code: str
    params: dict
    because: rules.Entry | None  # the entry that made it stop counting, when one did


def cause_of(log: list[rules.Entry], index: int) -> rules.Entry | None:
    """The first entry to arrive after ``log[index]`` that changed what came before it:
    dated no later than it, or undoing an entry that was."""
    voided = log[index]
    by_id = {e.id: e for e in log}
    for later in log[index + 1 :]:
        target = by_id.get(later.target) if later.kind == "undo" else None
        when = target.at if target is not None else later.at
        if when <= voided.at:
            return later
    return None


def voided_entries(character: Character, now: datetime) -> list[Voided]:
    """The character's stored entries that the fold does not count, with their causes."""
    if not records().record(character).folded.conflicts:
        # The kept fold judged every entry: with none refused, no log need be read.
        return []
    log = log_of(character)
    return _voided(character, log, judged_state(character, now, log))


def _voided(character: Character, log: list[rules.Entry], snapshot: rules.Snapshot):
    position = {e.id: i for i, e in enumerate(log)}
    return [
        Voided(log[position[c.id]], character, c.code, c.params, cause_of(log, position[c.id]))
        for c in snapshot.conflicts
        if c.id in position
    ]


def _dismissed(user: User) -> set[str]:
    return set(
        db.session.scalars(
            select(DismissedConflict.client_id).where(DismissedConflict.user_id == user.id)
        )
    )


def voided_for(user: User, characters: list[Character], now: datetime) -> list[Voided]:
    """``user``'s own entries on ``characters`` that stopped counting and are not dismissed."""
    return _not_dismissed(
        user,
        [voided for character in characters for voided in voided_entries(character, now)],
    )


def voided_in(user: User, character: Character, snapshot: rules.Snapshot) -> list[Voided]:
    """``voided_for`` one character whose whole log the caller has just folded into
    ``snapshot`` (an entry's answer): nothing folded again, and with no conflict (the usual
    answer) nothing read."""
    if not snapshot.conflicts:
        return []
    return _not_dismissed(user, _voided(character, log_of(character), snapshot))


def _mine(user: User, voided: list[Voided]) -> list[Voided]:
    return [v for v in voided if v.entry.author == user.username]


def _not_dismissed(user: User, voided: list[Voided]) -> list[Voided]:
    mine = _mine(user, voided)
    if not mine:
        return []  # the usual answer: no dismissals to read
    dismissed = _dismissed(user)
    return [v for v in mine if v.entry.id not in dismissed]


@dataclass(frozen=True)
class Named:
    """A character as a kept list names it: no database object outlives its request."""

    id: int
    name: str


def voided_lately(user: User, now: datetime) -> list[Voided]:
    """``voided_for`` the characters ``user`` logged entries for lately: as this worker
    found them while the conflicts mark has not moved since (keeping/lately.py), else found
    again (``_voided_lately``); those they dismissed left out."""
    marks = known()
    marks.current(versions=False)
    mark = marks.marks[CONFLICTS]
    kept = kept_conflicts()
    held = kept.under(user, mark)
    if held is None:
        voided = _voided_lately(user, now, mark)
        latest = dict(logged_lately().latest(user))
        named = [replace(v, character=Named(v.character.id, v.character.name)) for v in voided]
        held = KeptVoided(mark, named, latest)
        kept.keep(user, held)
    oldest = now - RECENT
    lately = [v for v in held.voided if held.latest.get(v.character.id, oldest) >= oldest]
    return _not_dismissed(user, lately)


def _voided_lately(user: User, now: datetime, mark: int | None) -> list[Voided]:
    """The user's own voided entries on the characters they logged entries for lately,
    dismissed or not. Only characters whose kept fold is not current, or has conflicts, are
    read."""
    ids = logged_lately().characters(user, now, mark)
    kept = records()
    needed = []
    for start in range(0, len(ids), CHUNK):
        for character_id, version in db.session.execute(
            select(Character.id, Character.version).where(
                Character.id.in_(ids[start : start + CHUNK])
            )
        ):
            record = kept.records.get(character_id)
            if record is None or record.version != version or record.folded.conflicts:
                needed.append(character_id)
    if not needed:
        return []
    characters = []
    for start in range(0, len(needed), CHUNK):
        characters += db.session.scalars(
            select(Character).where(Character.id.in_(needed[start : start + CHUNK]))
        )
    return _mine(
        user,
        [
            voided
            for character in sorted(characters, key=lambda c: c.id)
            for voided in voided_entries(character, now)
        ],
    )


CHUNK = 500  # character ids in one query


# Every state poll asks it: built once.
DISMISSED_MARK = select(func.max(DismissedConflict.id)).where(
    DismissedConflict.user_id == bindparam("user")
)


def dismissed_mark(user: User) -> int:
    """Grows with every dismissal of ``user``'s: a state's tag that includes it changes when
    the list of their conflicts does without a new entry."""
    return db.session.scalar(DISMISSED_MARK, {"user": user.id}) or 0


def dismiss(user: User, client_id: str, now: datetime) -> bool:
    """Mark one of ``user``'s voided entries as seen; False when there is no such entry."""
    fields = db.session.scalar(select(Entry.fields).where(Entry.client_id == client_id))
    if fields is None or fields.get("author") != user.username:
        return False
    seen = db.session.scalar(
        select(DismissedConflict.id).where(
            DismissedConflict.client_id == client_id, DismissedConflict.user_id == user.id
        )
    )
    if seen is None:
        db.session.add(DismissedConflict(client_id=client_id, user_id=user.id, at=now))
        db.session.flush()
    return True
