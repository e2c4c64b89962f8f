"""What an unchanged poll needs to know, in one small query past the ORM: whether its caller
may still read the character (the session or token still open, the account active, the
event theirs and not archived for a referee) and the versions its answer's tag is made of.

The answer itself comes from what the worker keeps (services/snapshots.py): a poll that
changed nothing loads no session, user or character object and folds nothing. Any doubt
(no such row, not allowed) leaves the poll to the full path, which answers in words.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import bindparam, exists, func, select, true

from ..extensions import db
from ..models import (
    ApiToken,
    Character,
    DismissedConflict,
    Event,
    RefereeEvent,
    User,
    WebSession,
)
from ..tokens import digest
from .users import token_digest

_BY_TOKEN = (
    select(User.id, User.role, User.language)
    .join(ApiToken, ApiToken.user_id == User.id)
    .where(
        ApiToken.token_hash == bindparam("digest"),
        ApiToken.revoked_at.is_(None),
        User.active.is_(True),
    )
    .subquery()
)
_BY_SESSION = (
    select(User.id, User.role, User.language)
    .join(WebSession, WebSession.user_id == User.id)
    .where(
        WebSession.key_hash == bindparam("digest"),
        WebSession.ended_at.is_(None),
        User.active.is_(True),
    )
    .subquery()
)


def _facts(statement, params: dict) -> list:
    """The rows of one small read on a pooled connection of its own, past the ORM session: a
    poll answered from them opens no session (nor closes one at the request's end)."""
    with db.engine.connect() as connection:
        return connection.execute(statement, params).all()


def _fact(statement, params: dict):
    """The one row of ``_facts``, or None."""
    rows = _facts(statement, params)
    return rows[0] if len(rows) == 1 else None


def _state_facts(caller):
    return (
        select(
            caller.c.id,
            caller.c.role,
            Character.version,
            Event.archived_at,
            exists().where(RefereeEvent.user_id == caller.c.id).label("assigned_any"),
            exists()
            .where(RefereeEvent.user_id == caller.c.id, RefereeEvent.event_id == Event.id)
            .label("assigned_here"),
            select(func.max(DismissedConflict.id))
            .where(DismissedConflict.user_id == caller.c.id)
            .scalar_subquery()
            .label("dismissed"),
        )
        .select_from(caller.join(Character, true()).join(Event, Character.event_id == Event.id))
        .where(Character.id == bindparam("character"))
    )


STATE_FACTS = {"token": _state_facts(_BY_TOKEN), "session": _state_facts(_BY_SESSION)}
PLAYER_FACTS = select(Character.id, Character.version).where(
    Character.player_secret_hash == bindparam("digest")
)


@dataclass(frozen=True)
class StatePoll:
    """A caller allowed to read a character's state, and what its tag is made of."""

    user_id: int
    version: int  # the character's
    dismissed: int  # the caller's dismissals' mark (conflicts.dismissed_mark)


def state_poll(kind: str, secret: str, character_id: int) -> StatePoll | None:
    """The caller of ``kind`` ``token`` or ``session`` (its secret key) may read the
    character's state now: the versions its tag needs; None when not (or not known)."""
    if len(secret) > 200:
        return None
    row = _fact(STATE_FACTS[kind], {"digest": token_digest(secret), "character": character_id})
    if row is None or row.role not in ("organiser", "referee"):
        return None
    if row.role == "referee" and (
        row.archived_at is not None or (row.assigned_any and not row.assigned_here)
    ):
        return None
    return StatePoll(row.id, row.version, row.dismissed or 0)


def player_poll(secret: str) -> tuple[int, int] | None:
    """The character (id, version) a player's secret link names, or None."""
    row = _fact(PLAYER_FACTS, {"digest": digest(secret.upper())})
    return None if row is None else (row.id, row.version)


def _roster_facts(caller):
    return (
        select(
            caller.c.role,
            caller.c.language,
            Event.id,
            Event.version,
            exists().where(RefereeEvent.user_id == caller.c.id).label("assigned_any"),
            exists()
            .where(RefereeEvent.user_id == caller.c.id, RefereeEvent.event_id == Event.id)
            .label("assigned_here"),
        )
        .select_from(caller.join(Event, true()))
        .where(Event.archived_at.is_(None))
        .order_by(Event.id)
    )


ROSTER_FACTS = {"token": _roster_facts(_BY_TOKEN), "session": _roster_facts(_BY_SESSION)}


@dataclass(frozen=True)
class RosterPoll:
    """A caller's phone roster: their language, and the open events they work (id, version)."""

    language: str | None
    events: list[tuple[int, int]]


def roster_poll(kind: str, secret: str, asked: list[int] | None) -> RosterPoll | None:
    """The open events (``asked``, else every one) the caller works, with their versions;
    None when the caller is unknown, works none, or asked for one they may not read."""
    if len(secret) > 200:
        return None
    rows = _facts(ROSTER_FACTS[kind], {"digest": token_digest(secret)})
    if not rows or rows[0].role not in ("organiser", "referee"):
        return None
    worked = [
        (r.id, r.version)
        for r in rows
        if r.role == "organiser" or not r.assigned_any or r.assigned_here
    ]
    if asked is not None:
        known = dict(worked)
        if any(event_id not in known for event_id in asked):
            return None  # not theirs, archived or unknown: said so in words by the full path
        worked = [(event_id, known[event_id]) for event_id in sorted(set(asked))]
    return RosterPoll(rows[0].language, worked)
