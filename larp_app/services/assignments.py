"""Which events a referee works: those an organiser assigned them to, or, with none
assigned, every open event (a small event, or the demo, needs no set-up). Organisers work
every event. A referee's phone keeps the roster of the events they work, and the badge
lookup, the console and entries refuse a character of any other event."""

from __future__ import annotations

from collections.abc import Iterable
from types import EllipsisType

from sqlalchemy import bindparam, delete, select

from .. import rules
from ..extensions import db
from ..models import Event, RefereeEvent, User


class NotYourEvent(Exception):
    """The referee does not work the character's event."""

    def __init__(self, event: Event):
        super().__init__(f"not assigned to event {event.id}")
        self.event = event


# Read with every entry and console request: built once, run past the ORM (plain ids).
ASSIGNED = select(RefereeEvent.event_id).where(RefereeEvent.user_id == bindparam("user"))


def assigned_events(user: User) -> set[int] | None:
    """The ids of the events ``user`` works; None: every open event (an organiser, or a
    referee assigned to none)."""
    if user.role == "organiser":
        return None
    ids = set(db.session.connection().execute(ASSIGNED, {"user": user.id}).scalars())
    return ids or None


def works(user: User, event: Event, worked: set[int] | EllipsisType | None = ...) -> bool:
    """Whether ``user`` works ``event``; ``worked``: their ``assigned_events``, when the
    caller has read them already (once for a whole batch)."""
    ids = assigned_events(user) if worked is ... else worked
    return ids is None or event.id in ids


def require_event(user: User, event: Event) -> None:
    """Refuse (NotYourEvent) a referee who does not work ``event``."""
    if not works(user, event):
        raise NotYourEvent(event)


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
