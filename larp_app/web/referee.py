"""Referees' pages: the events and each character's live state, read-only here."""

from __future__ import annotations

from flask import Blueprint, g, render_template

from ..extensions import db
from ..models import Character, Event
from ..services.assignments import assigned_events, out_of_reach
from ..services.clock import now_utc
from ..services.entries import state_of
from .auth import login_required
from .console import not_your_event
from .fair import costly

bp = Blueprint("referee", __name__, url_prefix="/referee")


@bp.get("/")
@login_required("referee", "organiser")
def events():
    """The events the referee works (every open event, for one assigned to none); an
    archived event is off a referee's list (services/assignments.py says why)."""
    query = db.select(Event).order_by(Event.created_at.desc())
    worked = assigned_events(g.user)
    if worked is not None:
        query = query.where(Event.id.in_(worked))
    if g.user.role != "organiser":
        query = query.where(Event.archived_at.is_(None))
    return render_template("referee/events.html", events=db.session.scalars(query).all())


@bp.get("/events/<int:event_id>")
@login_required("referee", "organiser")
@costly()
def roster(event_id: int):
    event = db.get_or_404(Event, event_id)
    if refused := out_of_reach(g.user, event):
        return not_your_event(event, refused)
    now = now_utc()
    characters = db.session.scalars(
        db.select(Character).where(Character.event_id == event.id).order_by(Character.name)
    )
    return render_template(
        "referee/roster.html", event=event, rows=[(c, state_of(c, now)) for c in characters]
    )
