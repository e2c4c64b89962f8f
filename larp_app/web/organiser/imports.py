"""Import tabletop sheets: upload or paste, preview every error and warning, then confirm."""

from __future__ import annotations

import json

from flask import Response, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from ... import rules
from ...extensions import db
from ...messages import problem_message
from ...models import Event
from ...services.reimport import ADDED, UNCHANGED, UPDATED, apply_import, plan_import
from ...services.sheet_files import decode_upload, read_sheet_file
from ..auth import login_required
from . import bp


def _by_row(problems: list[rules.Problem]) -> dict[int, list[str]]:
    """Group ``[row].field`` problems by row, each as a ``field: message`` line."""
    rows: dict[int, list[str]] = {}
    for p in problems:
        row, _sep, rest = p.path.partition("].")
        rows.setdefault(int(row.lstrip("[")), []).append(
            problem_message(rules.Problem(rest, p.code, p.params))
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
    event = db.get_or_404(Event, event_id)
    template_csv = rules.get_ruleset(event.ruleset).template_csv
    if template_csv is None:
        abort(404)
    return Response(
        template_csv(),
        mimetype="text/csv",
        headers={"Content-Disposition": "attachment; filename=larp-sheets-template.csv"},
    )


@bp.post("/events/<int:event_id>/import/preview")
@login_required("organiser")
def import_preview(event_id: int):
    event = db.get_or_404(Event, event_id)
    upload = request.files.get("file")
    encoding = None
    try:
        if upload and upload.filename:
            text, encoding = decode_upload(upload.read())
            name = upload.filename
        else:
            text, name = request.form.get("pasted", ""), ""
        sheets, rows = read_sheet_file(text, name, event.ruleset)
        plan = plan_import(event, sheets)  # more sheets than one import takes: refused whole
    except rules.InvalidInput as exc:
        return render_template(
            "organiser/import.html",
            event=event,
            file_errors=[problem_message(p) for p in exc.problems],
        ), 422
    errors = [p for p in plan.errors if p.path.startswith("[")]
    whole = [p for p in plan.errors if not p.path.startswith("[")]
    if event.archived_at is not None:
        whole.insert(0, rules.Problem("event", "archived"))
    if whole:
        return render_template(
            "organiser/import.html",
            event=event,
            file_errors=[problem_message(p) for p in whole],
        ), 422
    return render_template(
        "organiser/import_preview.html",
        event=event,
        encoding=encoding,
        sheets=sheets,
        plan=plan,
        larp=plan.larp,
        rows=rows,
        errors=_by_row(errors),
        warnings=_by_row(plan.warnings),
        error_count=len(errors),
        counts={k: plan.count(k) for k in (ADDED, UPDATED, UNCHANGED)},
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
