"""The check-in desk at the start of an event: scan or search, see what to hand out, mark
present. Works on a phone (the search box takes a scanner's or a typed code) or a laptop."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import rules
from ...extensions import db
from ...messages import problem_message
from ...models import Character, Event
from ...services.badges import active_badge, issued_elsewhere
from ...services.checkin import desk_counts, find_at_desk, mark_present, props_of
from ..auth import login_required
from . import bp


@bp.get("/events/<int:event_id>/checkin")
@login_required("organiser")
def checkin(event_id: int):
    event = db.get_or_404(Event, event_id)
    query = request.args.get("q", "")
    characters = find_at_desk(event, query)
    return render_template(
        "organiser/checkin.html",
        event=event,
        query=query,
        characters=characters,
        active_badge=active_badge,
        issued_elsewhere=issued_elsewhere,
        props_of=props_of,
        counts=desk_counts(event),
    )


@bp.post("/characters/<int:character_id>/present")
@login_required("organiser")
def present(character_id: int):
    character = db.get_or_404(Character, character_id)
    here = request.form.get("present", "1") == "1"
    try:
        mark_present(character, here)
    except rules.InvalidInput as exc:
        db.session.rollback()
        flash(problem_message(exc.problems[0]), "error")
    else:
        db.session.commit()
        flash(
            _("%(name)s is present.", name=character.name)
            if here
            else _("%(name)s is no longer marked present.", name=character.name),
            "info",
        )
    return redirect(
        url_for("organiser.checkin", event_id=character.event_id, q=request.form.get("q", ""))
    )
