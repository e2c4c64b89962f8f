"""The referee's console for one character: a page the browser fills from the phone's roster.

The page carries its character's data when the server renders it; offline, the service
worker answers any console address with the offline shell it keeps, and the browser fills
it from the roster in IndexedDB (static/js/console/main.js).
"""

from __future__ import annotations

import json
from functools import partial

from flask import Blueprint, g, render_template, url_for
from flask_babel import get_locale

from .. import rules
from ..extensions import db
from ..messages import refusal_templates
from ..models import Character
from ..reads.roster import character_kit, event_kit
from ..services.assignments import out_of_reach
from ..services.clock import now_utc
from .auth import login_required
from .display import kind_words
from .rulesets import ruleset_template

bp = Blueprint("console", __name__)


def console_parts(key: str | None = None) -> list[str]:
    """The rule system ``key``'s part of the console (``console.html`` in its templates), if
    any; every rule system's for the offline shell (``key`` None), which serves any character."""
    keys = rules.ruleset_keys() if key is None else [key]
    parts = (ruleset_template(k, "console.html") for k in keys)
    return [part for part in parts if part]


def console_modules() -> dict[str, str]:
    """Each rule system's script for its part of the console (``console.js`` in its static
    folder), by key: the console imports its character's; the service worker keeps them all."""
    found = {}
    for ruleset in rules.rulesets():
        folder = ruleset.static_dir()
        if folder is not None and (folder / "console.js").is_file():
            found[ruleset.key] = url_for("rulesets.static", key=ruleset.key, filename="console.js")
    return found


def _page(character: Character | None):
    config = {
        "api": url_for("api.openapi").rsplit("/", 1)[0],
        "me": g.user.username,
        "organiser": g.user.role == "organiser",
        "event": character and event_kit(character.event, str(get_locale())),
        "character": character and character_kit(character, now_utc()),
        # Where each rule system's offline fold is (KEY: the event's rule system), and why the
        # server would refuse an entry, in the page's language ({needs}: a parameter).
        "fold_module": url_for("rulesets.static", key="KEY", filename="fold.js"),
        # The script of each rule system's part of the console, where it ships one.
        "console_modules": console_modules(),
        "refusals": refusal_templates(character.event.ruleset if character else None),
    }
    # A character's console names its rule system's kinds (another's of the same name is
    # another kind); the offline shell, any character's, names every rule system's.
    ruleset = character.event.ruleset if character else None
    return render_template(
        "console/console.html",
        character=character,
        config=json.dumps(config, ensure_ascii=False),
        ruleset_parts=console_parts(ruleset),
        entry_kinds=lambda: rules.entry_kinds(ruleset),
        kind_words=partial(kind_words, ruleset=ruleset),
        # Only the actions its rules apply (the offline shell, for any character, has them all
        # and its script hides the others).
        coup_offered=ruleset is None
        or "coup_de_grace" in rules.kinds_handled(rules.get_ruleset(ruleset)),
    )


@bp.get("/console/<int:character_id>")
@login_required("referee", "organiser")
def console(character_id: int):
    character = db.get_or_404(Character, character_id)
    if refused := out_of_reach(g.user, character.event):
        return not_your_event(character.event, refused)
    return _page(character)


def not_your_event(event, code: str = "not_your_event"):
    """The page a referee sees for a character of an event they do not work, or of an
    archived event (``code``: services/assignments.py's ``out_of_reach``)."""
    return render_template("referee/not_your_event.html", event=event, code=code), 403


@bp.get("/console/offline")
@login_required("referee", "organiser")
def offline_shell():
    """The console with no character: the service worker answers any console address with
    it when there is no network, and the page fills itself from the phone's roster."""
    return _page(None)
