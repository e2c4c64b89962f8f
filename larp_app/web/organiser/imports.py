"""Import tabletop sheets: upload or paste, preview every error and warning, then confirm.

Fields and columns are named in the page's language (``field_names``); the CSV template and
the sheet format come from the event's rule system's sheet schema."""

from __future__ import annotations

import json

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from ... import rules
from ...extensions import db
from ...models import Event
from ...services.reimport import ADDED, UNCHANGED, UPDATED, apply_import, plan_import
from ...services.sheet_files import read_sheet_bytes, read_sheet_file
from ..auth import login_required
from ..field_names import problem_line
from . import bp
from .sheet_format import template_response


def _by_row(problems: list[rules.Problem], ruleset: str) -> dict[int, list[str]]:
    """Group ``[row].field`` problems by row, each as a ``field: message`` line, the field
    named in the page's language."""
    rows: dict[int, list[str]] = {}
    for p in problems:
        row, _sep, rest = p.path.partition("].")
        rows.setdefault(int(row.lstrip("[")), []).append(
            problem_line(rules.Problem(rest, p.code, p.params), ruleset)
        )
    return rows


@bp.get("/events/<int:event_id>/import")
@login_required("organiser")
def import_form(event_id: int):
    return render_template(
        "organiser/import.html", event=db.get_or_404(Event, event_id), file_errors=[]
    )


@bp.get("/events/<int:event_id>/import/template.csv")
@login_required("organiser")
def import_template(event_id: int):
    """The event's rule system's spreadsheet template, headed in the page's language."""
    event = db.get_or_404(Event, event_id)
    schema = rules.get_ruleset(event.ruleset).schema()
    if schema is None:
        abort(404)
    return template_response(schema, event.ruleset)


@bp.post("/events/<int:event_id>/import/preview")
@login_required("organiser")
def import_preview(event_id: int):
    event = db.get_or_404(Event, event_id)
    upload = request.files.get("file")
    encoding = None
    locale = str(get_locale())
    short: list = []  # the spreadsheet's rows short of cells
    try:
        if upload and upload.filename:
            sheets, rows, encoding = read_sheet_bytes(
                upload.read(), upload.filename, event.ruleset, locale, short
            )
        else:
            text = request.form.get("pasted", "")
            sheets, rows = read_sheet_file(text, "", event.ruleset, locale, short)
        plan = plan_import(event, sheets, short)  # more than one import takes: refused whole
    except rules.InvalidInput as exc:
        return render_template(
            "organiser/import.html",
            event=event,
            file_errors=[problem_line(p, event.ruleset) for p in exc.problems],
        ), 422
    errors = [p for p in plan.errors if p.path.startswith("[")]
    whole = [p for p in plan.errors if not p.path.startswith("[")]
    if event.archived_at is not None:
        whole.insert(0, rules.Problem("event", "archived"))
    if whole:
        return render_template(
            "organiser/import.html",
            event=event,
            file_errors=[problem_line(p, event.ruleset) for p in whole],
        ), 422
    return render_template(
        "organiser/import_preview.html",
        event=event,
        encoding=encoding,
        sheets=sheets,
        plan=plan,
        larp=plan.larp,
        rows=rows,
        errors=_by_row(errors, event.ruleset),
        warnings=_by_row(plan.warnings, event.ruleset),
        error_count=len(errors),
        counts={k: plan.count(k) for k in (ADDED, UPDATED, UNCHANGED)},
        undoes=sum(1 for row in plan.rows for change in row.changes if change.web_edit),
        payload=json.dumps(sheets, ensure_ascii=False) if not errors else "",
    ), 422 if errors else 200


@bp.post("/events/<int:event_id>/import/confirm")
@login_required("organiser")
def import_confirm(event_id: int):
    event = db.get_or_404(Event, event_id)
    try:
        plan = apply_import(
            event, rules.strict_json_loads(request.form.get("sheets", "[]")), g.user
        )
    except (rules.InvalidInput, ValueError):
        db.session.rollback()
        flash(
            _("Nothing was imported: the sheets changed since the preview. Upload them again."),
            "error",
        )
        return redirect(url_for("organiser.import_form", event_id=event.id))
    db.session.commit()
    added, updated, unchanged = (plan.count(k) for k in (ADDED, UPDATED, UNCHANGED))
    if updated == unchanged == 0:  # a first import: only new characters
        said = ngettext("Imported %(num)d character.", "Imported %(num)d characters.", added)
    else:
        said = _(
            "Imported: %(added)d added, %(updated)d updated, %(unchanged)d unchanged.",
            added=added,
            updated=updated,
            unchanged=unchanged,
        )
    flash(said, "info")
    return redirect(url_for("organiser.event", event_id=event.id))
