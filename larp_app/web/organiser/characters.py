"""A character: tabletop sheet beside larp sheet, live state, the log with undo; printing."""

from __future__ import annotations

import uuid
from functools import partial

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import rules
from ...extensions import db
from ...messages import problem_message, refusal_message
from ...models import Character, Event
from ...reads.character_log import annotated_log
from ...services.badges import issued_elsewhere
from ...services.characters import (
    changed_fields,
    field_changes,
    find_characters,
    sheet_history,
)
from ...services.clock import now_utc
from ...services.entries import record_entry
from ...services.events import event_settings, status_catalogue
from ..auth import login_required
from ..display import kind_words
from ..forms import number_or_text
from . import bp
from .badges import issued_elsewhere_text


@bp.get("/characters/<int:character_id>")
@login_required("organiser")
def character(character_id: int):
    character = db.get_or_404(Character, character_id)
    log = annotated_log(character, now_utc())
    ruleset = character.event.ruleset  # whose kinds and codes the log's are
    conflicts = {i: refusal_message(c.code, c.params, ruleset) for i, c in log.conflicts.items()}
    tabletop = rules.tabletop_values(character.tabletop, event_settings(character.event))
    return render_template(
        "organiser/character.html",
        character=character,
        sheet=rules.LarpSheet.from_dict(character.larp),
        original=rules.get_ruleset(character.event.ruleset).language,
        tabletop=tabletop,
        state=log.snapshot,
        entries=log.entries,
        undone=log.undone,
        conflicts=conflicts,
        history=sheet_history(character),
        changed_fields=changed_fields,
        field_changes=field_changes,
        issued_elsewhere=issued_elsewhere(character) and issued_elsewhere_text(),
        kind_words=partial(kind_words, ruleset=ruleset),
    )


def _log(character: Character, raw: dict, done: str):
    """Record an organiser's entry made now; flash what happened or why it was refused."""
    raw = {"id": str(uuid.uuid4()), "at": rules.format_instant(now_utc()), **raw}
    try:
        record_entry(character, raw, g.user)
    except rules.RuleError as exc:
        db.session.rollback()
        reason = refusal_message(exc.code, exc.params, character.event.ruleset)
        flash(_("Not recorded: %(reason)s", reason=reason), "error")
    except rules.InvalidInput as exc:
        db.session.rollback()
        flash(_("Not recorded: %(reason)s", reason=problem_message(exc.problems[0])), "error")
    else:
        db.session.commit()
        flash(done, "info")
    return redirect(url_for("organiser.character", character_id=character.id))


@bp.post("/characters/<int:character_id>/undo")
@login_required("organiser")
def undo(character_id: int):
    character = db.get_or_404(Character, character_id)
    return _log(
        character, {"kind": "undo", "target": request.form.get("target", "")}, _("Entry undone.")
    )


@bp.post("/characters/<int:character_id>/kill")
@login_required("organiser")
def kill(character_id: int):
    """Plot or end of session: dead now, with the reason in the log."""
    character = db.get_or_404(Character, character_id)
    return _log(
        character,
        {"kind": "kill", "reason": request.form.get("reason", "")},
        _("Recorded: the character is dead."),
    )


@bp.post("/characters/<int:character_id>/revive")
@login_required("organiser")
def revive(character_id: int):
    """Only organisers bring a dead character back, with the points they choose."""
    character = db.get_or_404(Character, character_id)
    raw = {"kind": "revive"}
    if request.form.get("hp", "").strip():
        raw["hp"] = number_or_text(request.form["hp"])
    return _log(character, raw, _("Recorded: the character lives again."))


@bp.get("/events/<int:event_id>/print")
@login_required("organiser")
def print_sheets(event_id: int):
    """Every larp sheet of the event (or of one faction), one per A4 page."""
    event = db.get_or_404(Event, event_id)
    faction = request.args.get("faction", "")
    characters = find_characters(event, faction=faction)
    one = request.args.get("character", type=int)
    if one is not None:  # one larp sheet, e.g. at the check-in desk
        characters = [c for c in characters if c.id == one]
    catalogue = status_catalogue(event)
    return render_template(
        "organiser/print.html",
        event=event,
        faction=faction,
        sheets=[rules.LarpSheet.from_dict(c.larp) for c in characters],
        original=rules.get_ruleset(event.ruleset).language,
        catalogue=catalogue,
    )
