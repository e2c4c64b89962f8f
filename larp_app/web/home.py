"""The front door: each role lands on its own pages."""

from __future__ import annotations

from flask import Blueprint, g, redirect, url_for

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    if g.user is None:
        return redirect(url_for("auth.login"))
    if g.user.role == "organiser":
        return redirect(url_for("organiser.events"))
    return redirect(url_for("scanner.scan"))  # a referee's first move is to scan a badge
