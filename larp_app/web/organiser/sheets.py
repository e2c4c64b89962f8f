"""Edit one character's tabletop sheet in a form drawn from its rule system's sheet schema
(``sheet_form``); withdraw a character or bring it back.

The same check as import; each error is shown at its input, in the page's language. Adding or
removing an item of a list (a skill, a power) draws the form again with what was typed, and saves
nothing.
"""

from __future__ import annotations

from typing import Any

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _

from ... import rules
from ...extensions import db
from ...messages import problem_words
from ...models import Character
from ...services.characters import edit_sheet, withdraw
from ...services.events import event_settings
from ..auth import login_required
from ..field_names import problem_line
from . import bp
from .sheet_form import changed_by, form_path, form_tree, input_names, sheet_from_form


def _at_inputs(
    problems: list[rules.Problem], draft: dict[str, Any], schema, names: set[str], ruleset: str
) -> tuple[dict[str, str], list[str]]:
    """Each problem at its input (or the group or list holding it); the rest, each named in
    words, for the top of the form."""
    placed: dict[str, str] = {}
    rest: list[str] = []
    for problem in problems:
        name = form_path(problem.path, draft, schema)
        while name and name not in names:
            cut = max(name.rfind("."), name.rfind("["))
            name = name[:cut] if cut > 0 else ""
        if not name:
            rest.append(problem_line(problem, ruleset))
            continue
        words = problem_words(problem)
        placed[name] = f"{placed[name]}; {words}" if name in placed else words
    return placed, rest


@bp.route("/characters/<int:character_id>/sheet", methods=["GET", "POST"])
@login_required("organiser")
def edit(character_id: int):
    character = db.get_or_404(Character, character_id)
    event = character.event
    schema = rules.get_ruleset(event.ruleset).schema()
    locale = str(get_locale())
    stored = character.tabletop
    draft: dict[str, Any] = stored
    errors: dict[str, str] = {}
    general: list[str] = []
    if schema is not None and request.method == "POST":
        action = request.form.get("action", "save")
        draft, _problems = sheet_from_form(schema, request.form, stored, drafting=True)
        if action != "save":
            draft = changed_by(schema, draft, action)
        else:
            raw, problems = sheet_from_form(schema, request.form, stored)
            try:
                if problems:  # with the rule system's own, to show every problem at once
                    checked = rules.check_sheet(raw, event_settings(event), stored)[1].errors
                    raise rules.InvalidInput(problems + checked)
                changed = edit_sheet(character, raw, g.user)
            except rules.InvalidInput as exc:
                db.session.rollback()
                tree = form_tree(schema, draft, locale, event_settings(event).tables)
                errors, general = _at_inputs(
                    exc.problems, draft, schema, input_names(tree), event.ruleset
                )
            else:
                db.session.commit()
                flash(
                    _("Sheet saved; the larp sheet was recomputed, the log is unchanged.")
                    if changed
                    else _("Nothing changed."),
                    "info",
                )
                return redirect(url_for("organiser.character", character_id=character.id))
    tree = (
        form_tree(schema, draft, locale, event_settings(event).tables) if schema is not None else []
    )
    return render_template(
        "organiser/sheet_edit.html",
        character=character,
        tree=tree,
        errors=errors,
        general=general,
    ), (422 if errors or general else 200)


@bp.post("/characters/<int:character_id>/withdraw")
@login_required("organiser")
def withdraw_character(character_id: int):
    """Withdraw from the event (kept, log and all; its badge refused), or bring back."""
    character = db.get_or_404(Character, character_id)
    back = request.form.get("back") == "1"
    withdraw(character, withdrawn=not back)
    db.session.commit()
    flash(
        _("The character is back in the event.")
        if back
        else _("The character was withdrawn: kept with its log, its badge refused."),
        "info",
    )
    return redirect(url_for("organiser.character", character_id=character.id))
