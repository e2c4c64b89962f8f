"""The front page: what the app is, and the demo character's larp sheet."""

from __future__ import annotations

import json
from importlib import resources

from flask import Blueprint, render_template

from .. import rules

bp = Blueprint("home", __name__)


@bp.get("/")
def index():
    raw = json.loads(
        resources.files("larp_app")
        .joinpath("demo", "ex-nihilo-sheet.json")
        .read_text(encoding="utf-8")
    )
    return render_template("home/index.html", sheet=rules.convert_sheet(raw))
