"""The event's review page: the characters whose outcome a rule correction changes, and the
entries stored with a field their kind does not declare (reads/review.py)."""

from __future__ import annotations

from flask import render_template

from ...extensions import db
from ...models import Event
from ...reads.review import event_review
from ...services.clock import now_utc
from ..auth import login_required
from ..display import words
from ..fair import costly
from . import bp


@bp.get("/events/<int:event_id>/review")
@login_required("organiser")
@costly()
def review(event_id: int):
    event = db.get_or_404(Event, event_id)
    return render_template(
        "organiser/review.html", event=event, review=event_review(event, now_utc()), words=words
    )
