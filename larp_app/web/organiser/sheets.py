"""Edit one character's tabletop sheet in a form; withdraw a character or bring it back.

The form shows every field of the sheet as stored, whatever its rule system: text and
numbers as inputs, a group of them (``attributes``, ``armour``...) one input each, lists as
JSON. The same check as import; each error is shown at its field.
"""

from __future__ import annotations

import json
from typing import Any

from flask import flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import rules
from ...extensions import db
from ...models import Character
from ...services.characters import edit_sheet, withdraw
from ..auth import login_required
from ..forms import field_errors, number_or_text
from . import bp

FIXED = ("ruleset",)  # kept as stored, never edited


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def form_fields(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    """The inputs of the form, in the sheet's order: {name, label, value, kind}."""
    fields = []
    for key, value in sheet.items():
        if key in FIXED:
            continue
        if _is_scalar(value):
            fields.append({"name": key, "label": key, "value": value, "kind": "input"})
        elif isinstance(value, dict) and all(_is_scalar(v) for v in value.values()):
            fields += [
                {"name": f"{key}.{sub}", "label": f"{key} · {sub}", "value": v, "kind": "input"}
                for sub, v in value.items()
            ]
        else:
            text = json.dumps(value, ensure_ascii=False, indent=1)
            fields.append({"name": key, "label": key, "value": text, "kind": "json"})
    return fields


def _read(text: str | None, old: Any) -> Any:
    """A typed value: text stays text where the sheet had text, else a number when it is one."""
    if isinstance(old, str):
        return (text or "").strip() or None
    return number_or_text(text)


def sheet_from_form(sheet: dict[str, Any], form) -> tuple[dict[str, Any], list[rules.Problem]]:
    """The sheet as the form changes it (an emptied input drops its field)."""
    raw: dict[str, Any] = {k: sheet[k] for k in FIXED if k in sheet}
    problems = []
    for key, value in sheet.items():
        if key in FIXED:
            continue
        if _is_scalar(value):
            new = _read(form.get(key), value)
            if new is not None:
                raw[key] = new
        elif isinstance(value, dict) and all(_is_scalar(v) for v in value.values()):
            group = {sub: _read(form.get(f"{key}.{sub}"), v) for sub, v in value.items()}
            raw[key] = {sub: v for sub, v in group.items() if v is not None}
        else:
            text = form.get(key, "").strip()
            if not text:
                continue
            try:
                raw[key] = json.loads(text)
            except json.JSONDecodeError as exc:
                problems.append(rules.Problem(key, "not_json", {"detail": exc.msg}))
    return raw, problems


def _at_field(errors: dict[str, str], names: set[str]) -> dict[str, str]:
    """Put each error on its input: the exact name, else the group or list that holds it."""
    placed: dict[str, str] = {}
    for path, message in errors.items():
        name = path
        while name not in names and name:
            cut = max(name.rfind("."), name.rfind("["))
            name = name[:cut] if cut > 0 else ""
        target = name or path
        extra = "" if target == path else f"{path.removeprefix(target).lstrip('.')}: "
        placed[target] = (placed[target] + "; " if target in placed else "") + extra + message
    return placed


@bp.route("/characters/<int:character_id>/sheet", methods=["GET", "POST"])
@login_required("organiser")
def edit(character_id: int):
    character = db.get_or_404(Character, character_id)
    fields = form_fields(character.tabletop)
    errors: dict[str, str] = {}
    if request.method == "POST":
        raw, problems = sheet_from_form(character.tabletop, request.form)
        try:
            if problems:
                raise rules.InvalidInput(problems)
            changed = edit_sheet(character, raw, g.user)
        except rules.InvalidInput as exc:
            db.session.rollback()
            errors = _at_field(field_errors(exc.problems), {f["name"] for f in fields})
        else:
            db.session.commit()
            flash(
                _("Sheet saved; the larp sheet was recomputed, the log is unchanged.")
                if changed
                else _("Nothing changed."),
                "info",
            )
            return redirect(url_for("organiser.character", character_id=character.id))
        for f in fields:
            f["value"] = request.form.get(f["name"], f["value"])
    return render_template(
        "organiser/sheet_edit.html", character=character, fields=fields, errors=errors
    ), (422 if errors else 200)


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
