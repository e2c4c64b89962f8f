"""What a phone's own camera app opens when it reads a badge."""

from __future__ import annotations

from flask import Blueprint, g, redirect, render_template, url_for

from ..extensions import db
from ..services.assignments import out_of_reach
from ..services.badges import BadgeRefused, resolve_badge
from .console import not_your_event

bp = Blueprint("scan", __name__)


@bp.get("/b/<secret>")
def badge(secret: str):
    """Referees land on the character; anyone else sees nothing about it and is asked to log in."""
    if g.user is None:
        return render_template("scan/neutral.html")
    try:
        found = resolve_badge(secret, g.user)
    except BadgeRefused as refused:
        db.session.commit()  # the refused lookup is kept for the organiser
        status = 429 if refused.code == "too_many" else 404
        return render_template("scan/refused.html", code=refused.code), status
    if refused := out_of_reach(g.user, found.character.event):
        return not_your_event(found.character.event, refused)
    return redirect(url_for("console.console", character_id=found.character_id))
