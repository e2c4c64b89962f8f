"""After the event: the report with its charts, one character's timeline, the exports,
archiving, and the next event of the campaign."""

from __future__ import annotations

import json
from datetime import datetime
from functools import partial

from flask import Response, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import format_time, get_locale
from flask_babel import gettext as _

from ... import rules
from ...archive.campaign import continue_event, survivors_and_dead
from ...extensions import db
from ...messages import refusal_message
from ...models import Character, Event
from ...reads.exports import (
    SEPARATORS,
    Words,
    export_data,
    export_tables,
    separator_for,
    table_csv,
    tables_xlsx,
    time_zone,
)
from ...reads.report import event_report, timeline
from ...services.clock import now_utc
from ...services.events import archive_event
from ..auth import login_required
from ..charts import bar_chart, grouped_bars, line_chart
from ..display import entry_summary, kind_words
from ..fair import costly
from ..forms import field_errors
from ..player import status_names
from . import bp


def _hour(t: datetime) -> str:
    return format_time(t, "short")


def _cumulative(instants: list[datetime], start: datetime, end: datetime):
    """A running count: 0 at ``start``, one more at each instant, held until ``end``."""
    end = max([end, *instants])
    points = [(start, 0)]
    points += [(t, n) for n, t in enumerate(instants, start=1)]
    return [*points, (end, len(instants))]


def report_charts(report, event: Event) -> dict[str, str]:
    """The report's pictures, each an SVG, by name."""
    start = report.start or now_utc()
    end = report.end or start
    names = status_names(event)
    problems = [
        (refusal_message(code, params, event.ruleset), n) for code, params, n in report.conflicts
    ]
    problems += [("✖ " + message, n) for _code, message, n in report.refusals]
    return {
        "falls": line_chart(
            _("Deaths and knock-outs over time"),
            [
                (_("deaths"), _cumulative(report.deaths, start, end)),
                (_("knock-outs"), _cumulative(report.knock_outs, start, end)),
            ],
            _hour,
            step=True,
            chart_id="chart-falls",
        ),
        "per_hour": grouped_bars(
            _("Hits and heals per hour"),
            [_hour(h) for h, _counts in report.per_hour],
            [
                (_("hits"), [c.get("hit", 0) for _h, c in report.per_hour]),
                (_("heals"), [c.get("heal", 0) for _h, c in report.per_hour]),
            ],
            chart_id="chart-per-hour",
        ),
        "referees": bar_chart(
            _("The busiest referees (entries)"),
            report.referees,
            chart_id="chart-referees",
            empty=_("None."),
        ),
        "statuses": bar_chart(
            _("Statuses used"),
            [(names.get(key, key), n) for key, n in report.statuses],
            chart_id="chart-statuses",
            empty=_("None."),
        ),
        "problems": bar_chart(_("Conflicts and refusals"), problems, chart_id="chart-problems"),
    }


@bp.get("/events/<int:event_id>/report")
@login_required("organiser")
@costly()
def report(event_id: int):
    event = db.get_or_404(Event, event_id)
    data = event_report(event, now_utc())
    return render_template(
        "organiser/report.html",
        event=event,
        report=data,
        charts=report_charts(data, event),
        ended=[o for o in data.outcomes if o.final.wound != "ok"],
        separators=SEPARATORS,
        separator=separator_for(str(get_locale())),
        kind_words=partial(kind_words, ruleset=event.ruleset),
    )


@bp.get("/characters/<int:character_id>/timeline", endpoint="timeline")
@login_required("organiser")
def timeline_page(character_id: int):
    character = db.get_or_404(Character, character_id)
    points = timeline(character, now_utc())
    chart = line_chart(
        _("Points and energy over time"),
        [
            (_("points"), [(at, hp) for at, hp, _energy in points]),
            (_("energy"), [(at, energy) for at, _hp, energy in points]),
        ],
        _hour,
        chart_id="chart-timeline",
    )
    return render_template(
        "organiser/timeline.html", character=character, chart=chart, points=points
    )


def _download(content: str | bytes, mimetype: str, filename: str) -> Response:
    return Response(
        content.encode("utf-8") if isinstance(content, str) else content,
        mimetype=mimetype,
        headers={"Content-Disposition": f"attachment; filename={filename}"},
    )


XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _tables(event: Event):
    """The exports' tables in the reader's words, at the organiser's local time: the zone
    their browser sent (``tz``), else ``TIME_ZONE``, else this machine's."""
    zone = time_zone(request.args.get("tz")) or time_zone(current_app.config.get("TIME_ZONE"))
    kind = partial(kind_words, ruleset=event.ruleset)  # its rule system's kinds
    say = Words(kind=kind, summary=entry_summary, statuses=status_names(event))
    return export_tables(event, now_utc(), zone, say)


@bp.get("/events/<int:event_id>/export/<any(states, log):what>.csv")
@login_required("organiser")
@costly()
def export_csv(event_id: int, what: str):
    """A CSV that opens as columns in the reader's Excel (``sep``: another separator)."""
    event = db.get_or_404(Event, event_id)
    states, log = _tables(event)
    separator = separator_for(str(get_locale()), request.args.get("sep"))
    text = table_csv(states if what == "states" else log, separator)
    return _download(text, "text/csv", f"event-{event.id}-{what}.csv")


@bp.get("/events/<int:event_id>/export.xlsx")
@login_required("organiser")
@costly()
def export_xlsx(event_id: int):
    """Final states and the whole log as one Excel workbook, a sheet each."""
    event = db.get_or_404(Event, event_id)
    return _download(tables_xlsx(_tables(event)), XLSX, f"event-{event.id}.xlsx")


@bp.get("/events/<int:event_id>/export.json")
@login_required("organiser")
@costly()
def export_json(event_id: int):
    event = db.get_or_404(Event, event_id)
    text = "\ufeff" + json.dumps(export_data(event, now_utc()), ensure_ascii=False, indent=1)
    return _download(text, "application/json", f"event-{event.id}.json")


@bp.post("/events/<int:event_id>/archive")
@login_required("organiser")
def archive(event_id: int):
    event = db.get_or_404(Event, event_id)
    reopen = request.form.get("reopen") == "1"
    archive_event(event, archived=not reopen)
    db.session.commit()
    flash(
        _("The event is open again.")
        if reopen
        else _("The event is archived: read-only, out of the referees' roster."),
        "info",
    )
    return redirect(url_for("organiser.event", event_id=event.id))


@bp.route("/events/<int:event_id>/continue", methods=["GET", "POST"])
@login_required("organiser")
def continue_form(event_id: int):
    """The next event: the survivors carried over, the dead listed (ticked: brought back)."""
    event = db.get_or_404(Event, event_id)
    alive, dead = survivors_and_dead(event, now_utc())
    errors: dict[str, str] = {}
    if request.method == "POST":
        bring_back = [int(i) for i in request.form.getlist("bring_back") if i.isdigit()]
        try:
            carried = continue_event(
                event,
                request.form.get("name", ""),
                bring_back=bring_back,
                keep_badges=request.form.get("badges", "keep") == "keep",
                user=g.user,
            )
        except rules.InvalidInput as exc:
            db.session.rollback()
            errors = field_errors(exc.problems)
        else:
            db.session.commit()
            flash(
                _(
                    "%(count)d characters carried over; %(old)s is archived.",
                    count=len(carried.carried),
                    old=event.name,
                ),
                "info",
            )
            return redirect(url_for("organiser.event", event_id=carried.event.id))
    return render_template(
        "organiser/continue.html", event=event, alive=alive, dead=dead, errors=errors
    ), (422 if errors else 200)
