"""Which events a referee works: those an organiser assigned them to, or, with none
assigned, every open event (a small event, or the demo, needs no set-up). Organisers work
every event. A referee's phone keeps the roster of the events they work, and the badge
lookup, the console and entries refuse a character of any other event.

An archived event is out of every referee's reach: it is over, its log is the campaign's
record, and a lost or lent phone must not read it (who was where, who died) nor add to it.
Organisers still read it; nobody logs on it (the rules refuse: ``event_archived``)."""

from __future__ import annotations

from collections.abc import Iterable
from types import EllipsisType

from sqlalchemy import bindparam, delete, select

from .. import rules
from ..extensions import db
from ..keeping.known import Caller
from ..models import Event, RefereeEvent, User


class NotYourEvent(Exception):
    """The referee does not work the character's event (``code`` ``not_your_event``), or the
    event is archived (``event_archived``)."""

    def __init__(self, event: Event, code: str = "not_your_event"):
        super().__init__(f"{code}: event {event.id}")
        self.event = event
        self.code = code


# Read with every entry and console request: built once, run past the ORM (plain ids).
ASSIGNED = select(RefereeEvent.event_id).where(RefereeEvent.user_id == bindparam("user"))


def assigned_events(user: User | Caller) -> set[int] | frozenset[int] | None:
    """The ids of the events ``user`` works; None: every open event (an organiser, or a
    referee assigned to none). A ``Caller`` says it: nothing is read."""
    if isinstance(user, Caller):
        return user.worked
    if user.role == "organiser":
        return None
    ids = set(db.session.connection().execute(ASSIGNED, {"user": user.id}).scalars())
    return ids or None


def works(user: User, event: Event, worked: set[int] | EllipsisType | None = ...) -> bool:
    """Whether ``user`` works ``event``; ``worked``: their ``assigned_events``, when the
    caller has read them already (once for a whole batch)."""
    ids = assigned_events(user) if worked is ... else worked
    return ids is None or event.id in ids


def out_of_reach(user: User, event: Event) -> str | None:
    """Why ``user`` may not open ``event``: ``event_archived`` (a referee, an archived
    event), ``not_your_event`` (a referee who does not work it), or None."""
    return reach(user.role, assigned_events(user), event.id, event.archived_at is not None)


def reach(role: str, worked, event_id: int, archived: bool) -> str | None:
    """``out_of_reach`` from what is known of the user (their role and the events they work,
    ``assigned_events``) and of the event."""
    if role != "organiser" and archived:
        return "event_archived"
    return None if worked is None or event_id in worked else "not_your_event"


def require_event(user: User, event: Event, reading: bool = True) -> None:
    """Refuse (NotYourEvent) a referee who does not work ``event``, or who would read an
    archived one. A write to an archived event goes on, to be refused by the rules in
    words (``event_archived``) and kept for the organiser's board."""
    code = out_of_reach(user, event) if reading else None
    if code is None and not works(user, event):
        code = "not_your_event"
    if code is not None:
        raise NotYourEvent(event, code)


def referees_of(event: Event) -> set[int]:
    """The referees assigned to ``event`` (by user id)."""
    return set(
        db.session.scalars(select(RefereeEvent.user_id).where(RefereeEvent.event_id == event.id))
    )


def assign_referees(event: Event, user_ids: Iterable[int]) -> None:
    """The referees who work ``event`` are exactly ``user_ids`` (each a referee's account);
    InvalidInput names ``referees`` when one is not. Flushes; the caller commits."""
    wanted = set(user_ids)
    referees = set(
        db.session.scalars(select(User.id).where(User.id.in_(wanted), User.role == "referee"))
    )
    unknown = sorted(wanted - referees)
    if unknown:
        raise rules.InvalidInput([rules.Problem("referees", "not_found", {"got": unknown[0]})])
    db.session.execute(
        delete(RefereeEvent).where(
            RefereeEvent.event_id == event.id, RefereeEvent.user_id.not_in(wanted)
        )
    )
    kept = referees_of(event)
    db.session.add_all(RefereeEvent(user_id=u, event_id=event.id) for u in sorted(wanted - kept))
    db.session.flush()
