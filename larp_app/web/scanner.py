"""The referee's scanner: the phone's camera reads a badge, and the console opens."""

from __future__ import annotations

from flask import Blueprint, current_app, g, render_template, request

from ..extensions import db
from ..models import Event
from ..services.assignments import out_of_reach
from .auth import login_required
from .console import not_your_event

bp = Blueprint("scanner", __name__)

# Browsers treat these as secure even over plain HTTP.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")


@bp.get("/scan")
@login_required("referee", "organiser")
def scan():
    """Read a badge with the camera, or take its short code typed by hand."""
    event_id = request.args.get("event", type=int)
    event = db.session.get(Event, event_id) if event_id and 0 < event_id < 2**31 else None
    if event is not None and (refused := out_of_reach(g.user, event)):
        return not_your_event(event, refused)
    return render_template(
        "referee/scan.html",
        event_id=event_id,
        insecure=not request.is_secure and request.host.split(":")[0] not in LOCAL_HOSTS,
        trust_url=current_app.config.get("TRUST_URL"),
    )
