"""The referee's scanner: the phone's camera reads a badge, and the console opens."""

from __future__ import annotations

from flask import Blueprint, render_template, request

from .auth import login_required

bp = Blueprint("scanner", __name__)


@bp.get("/scan")
@login_required("referee", "organiser")
def scan():
    """Read a badge with the camera, or take its short code typed by hand."""
    return render_template("referee/scan.html", event_id=request.args.get("event", type=int))
