"""The referee's console for one character: a shell the browser fills from the JSON API."""

from __future__ import annotations

import json

from flask import Blueprint, g, render_template
from flask_babel import get_locale

from ..extensions import db
from ..models import Character
from ..rules import get_ruleset
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


def _in(texts: dict, locale: str, fallback: str) -> str:
    """A text in the UI language, else in the ruleset's own language, else any."""
    texts = {k: v for k, v in texts.items() if isinstance(v, str)}
    return texts.get(locale) or texts.get(fallback) or next(iter(texts.values()), "")


def _checks(character: Character, locale: str) -> list[dict]:
    """The catalogue entries with a random check the app rolls on demand (Athkri conditions).

    Each: key, name, die; a d100 ``table`` of rows {from, to, text} (and a ``note``), or
    ``fails_at_or_below`` with ``text``, what a failure means. Texts in the UI language, else
    in the ruleset's own (Spanish for Athkri).
    """
    fallback = get_ruleset(character.event.ruleset).language
    checks = []
    for status in status_catalogue(character.event).values():
        check = status.texts.get("check")
        if not isinstance(check, dict):
            continue
        item = {
            "key": status.key,
            "name": _in(status.texts.get("name", {}), locale, fallback) or status.key,
            "die": check.get("die", "d100"),
        }
        if "table" in check:
            item["table"] = [
                {"from": row["from"], "to": row["to"], "text": _in(row, locale, fallback)}
                for row in check["table"]
            ]
            item["note"] = _in(check.get("note") or {}, locale, fallback)
        else:
            item["fails_at_or_below"] = check.get("fails_at_or_below")
            item["text"] = _in({k: v for k, v in check.items() if k != "die"}, locale, fallback)
        checks.append(item)
    return checks


@bp.get("/console/<int:character_id>")
@login_required("referee", "organiser")
def console(character_id: int):
    character = db.get_or_404(Character, character_id)
    locale = str(get_locale())
    config = {
        "character": character.id,
        "ruleset": character.event.ruleset,
        "state": f"/api/v1/characters/{character.id}/state",
        "entries": f"/api/v1/characters/{character.id}/entries",
        # Spending lists what costs energy; passive or free advancements need no entry.
        "advancements": [
            a
            for a in character.larp.get("advancements", [])
            if a.get("energy_cost", 0) > 0 and not a.get("passive")
        ],
        "statuses": _statuses(character, locale),
        # Random checks rolled on demand, and who rolls the wound track's saves (Athkri).
        "checks": _checks(character, locale),
        "saves": event_settings(character.event).saves,
        "me": g.user.username,
        "organiser": g.user.role == "organiser",
    }
    return render_template(
        "console/console.html", character=character, config=json.dumps(config, ensure_ascii=False)
    )
