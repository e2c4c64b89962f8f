"""The referee's console for one character: a shell the browser fills from the JSON API."""

from __future__ import annotations

import json

from flask import Blueprint, g, render_template
from flask_babel import get_locale

from ..extensions import db
from ..models import Character
from ..services.events import event_settings, status_catalogue
from .auth import login_required

bp = Blueprint("console", __name__)


def _statuses(character: Character, locale: str) -> list[dict]:
    """The catalogue as the status picker shows it: name in the UI language, default time."""
    settings = event_settings(character.event)
    picker = []
    for status in status_catalogue(character.event).values():
        names = status.texts.get("name", {})
        seconds = None if status.turns is None else status.turns * settings.turn_seconds
        name = names.get(locale) or names.get("it") or status.key
        picker.append({"key": status.key, "name": name, "seconds": seconds})
    return picker


@bp.get("/console/<int:character_id>")
@login_required("referee", "organiser")
def console(character_id: int):
    character = db.get_or_404(Character, character_id)
    config = {
        "character": character.id,
        "state": f"/api/v1/characters/{character.id}/state",
        "entries": f"/api/v1/characters/{character.id}/entries",
        # Spending lists what costs energy; passive or free advancements need no entry.
        "advancements": [
            a
            for a in character.larp.get("advancements", [])
            if a.get("energy_cost", 0) > 0 and not a.get("passive")
        ],
        "statuses": _statuses(character, str(get_locale())),
        "me": g.user.username,
        "organiser": g.user.role == "organiser",
    }
    return render_template(
        "console/console.html", character=character, config=json.dumps(config, ensure_ascii=False)
    )
