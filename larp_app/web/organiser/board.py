"""The organiser's live board, its JSON twin, and the end of session."""

from __future__ import annotations

from datetime import datetime

from flask import (
    Response,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import select

from ... import rules
from ...extensions import db
from ...keeping import tags
from ...keeping.views import Since, View, views
from ...messages import refusal_message
from ...models import Event, Mark
from ...reads.board import BoardRow, Logged, board_data, conflict_words
from ...services.clock import now_utc
from ...services.refusals import refusal_words
from ...services.sessions import (
    Decision,
    SessionRefused,
    dying_characters,
    end_session,
    ends_sessions,
)
from ..auth import login_required
from ..display import entry_summary, kind_words
from ..player import status_names
from . import bp

POLL_SECONDS = 3


def _rows_html(rows: list[BoardRow], names: dict[str, str]) -> list[str]:
    """Each character's line, rendered once per state and language (kept with its record):
    the template and its context are found once for all the lines of an answer, not once a
    line (a changed board's answer renders a hundred lines or more)."""
    locale = str(get_locale())
    template, context, lines = None, None, []
    for row in rows:
        kept = row.character.record.html
        if locale not in kept:
            if template is None:
                template = current_app.jinja_env.get_template("organiser/board_row.html")
                context = {"status_names": names}
                current_app.update_template_context(context)
            kept[locale] = template.render(context, r=row)
        lines.append(kept[locale])
    return lines


def _board(event: Event, now: datetime, view: View | None = None, every_row: bool = True) -> dict:
    """Everything the board shows at ``now`` (reads.board), its roster rendered once per
    state and language; ``every_row`` False: the lists without the roster."""
    data = board_data(event, now, view, every_row)
    names = status_names(event)
    return {
        "event": event,
        "rows": data.rows,
        "roster_html": Markup("".join(_rows_html(data.rows, names))),
        "dying": data.dying,
        "recent": data.recent,
        "conflicts": data.conflicts,
        "refused": data.refused,
        "status_names": names,
        "kind_words": lambda kind: kind_words(kind, event.ruleset),
        "conflict_words": conflict_words,
    }


def _refused_mark(event: Event) -> int:
    """The refusals mark: moves with every refused entry kept, changed or removed, whoever
    writes (keeping/versions.py). The board lists them, the version does not."""
    return db.session.scalar(select(Mark.value).where(Mark.name == "refusals")) or 0


def _logged_json(item: Logged) -> dict:
    target = item.target
    return {
        "id": item.entry.id,
        "character_id": item.character.id,
        "character": item.character.name,
        "kind": item.entry.kind,
        "at": rules.format_instant(item.entry.at),
        # the referee's own instant, when the simultaneity rule placed it at ``at``
        "referee_at": rules.format_instant(item.referee_at) if item.referee_at else None,
        "minutes_late": item.minutes_late,
        "author": item.entry.author,
        "summary": entry_summary(item.entry),
        "undid": target
        and {
            "id": target.id,
            "kind": target.kind,
            "at": rules.format_instant(target.at),
            "author": target.author,
            "summary": entry_summary(target),
        },
        "conflict": conflict_words(item.conflict),
    }


@bp.get("/events/<int:event_id>/board")
@login_required("organiser")
def board(event_id: int):
    event = db.get_or_404(Event, event_id)
    view = views().view(event, now_utc())
    return render_template(
        "organiser/board.html",
        **_board(event, view.at, view),
        version=_version(event, view),  # the page's first poll asks for changes since it
        poll_seconds=POLL_SECONDS,
        ends_sessions=ends_sessions(event),
    )


def _version(event: Event, view: View) -> str:
    """What the board shows: the view's version and instant, and the newest refusal."""
    return tags.board_version(view.token(), _refused_mark(event))


@bp.get("/events/<int:event_id>/board.json")
@login_required("organiser")
def board_live(event_id: int):
    """The board's twin: its data, and its live part as HTML for the page to swap in.

    Its ETag names the event's version, checked before anything is built: a poll that
    changed nothing gets a 304. With ``since`` (the ``version`` of an earlier answer), its
    ``characters`` are only those whose state changed after it, and instead of the whole
    live part it carries ``rows`` (those characters' lines of the roster, as HTML),
    ``sections_html`` (the lists above the roster) and ``count`` (how many characters the
    roster lists): the page replaces those lines and lists, and nothing else.
    """
    event = db.get_or_404(Event, event_id)
    view = views().view(event, now_utc())
    token = _version(event, view)
    etag = tags.board(str(get_locale()), token)
    if request.if_none_match.contains_weak(etag):
        return _not_modified(etag)
    held = request.if_none_match.as_set(include_weak=True)
    for tag in held:  # the same version, nothing changed since: the same answer
        parts = tag.split(".")
        if len(parts) == 5 and parts[:2] == ["board", str(get_locale())]:
            since = Since.read(f"{parts[2]}.{parts[3]}")
            if parts[4] == token.rsplit(".", 1)[1] and view.unchanged(since, event.version):
                return _not_modified(tag)
    since = Since.read(".".join(request.args.get("since", "").split(".")[:2]))
    if since is not None:
        return _changes(event, view, since, etag, token)
    context = _board(event, view.at, view)
    response = jsonify(
        {
            **_lists(context),
            "characters": [_character_json(r.character) for r in context["rows"]],
            "version": token,
            "full": True,
            "html": render_template("organiser/board_live.html", **context),
        }
    )
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(etag, weak=True)
    return response


def _changes(event: Event, view: View, since: Since, etag: str, token: str):
    """The board's answer to a page that holds it as of ``since``: the lists, and the rows
    of the characters changed since (kept rendered: only the changed ones are rendered)."""
    context = _board(event, view.at, view, every_row=False)
    changed = sorted(view.since(since), key=lambda r: r.id)
    lines = _rows_html([BoardRow(r, r.record.snapshot) for r in changed], context["status_names"])
    response = jsonify(
        {
            **_lists(context),
            "characters": [_character_json(r) for r in changed],
            "version": token,
            "full": False,
            "count": len(view.rows),
            "rows": [{"id": r.id, "html": html} for r, html in zip(changed, lines, strict=True)],
            "sections_html": render_template("organiser/board_sections.html", **context),
        }
    )
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(etag, weak=True)
    return response


def _character_json(row) -> dict:
    return {
        "id": row.id,
        "name": row.name,
        "player": row.player,
        "faction": row.faction,
        "present": row.present,
        "state": row.record.state_json,
    }


def _lists(context: dict) -> dict:
    """The board's lists as data: who is dying, recent entries, conflicts, refusals."""
    return {
        "event": {"id": context["event"].id, "name": context["event"].name},
        "dying": [
            {
                "id": r.character.id,
                "name": r.character.name,
                "death_at": rules.format_instant(r.snapshot.state.death_at),
            }
            for r in context["dying"]
        ],
        "recent": [_logged_json(item) for item in context["recent"]],
        "conflicts": [_logged_json(item) for item in context["conflicts"]],
        "refused": [
            {
                "id": r.row.client_id,
                "character_id": r.character.id,
                "character": r.character.name,
                "kind": r.row.fields.get("kind"),
                "at": r.row.fields.get("at"),
                "author": r.author,
                "code": r.row.code,
                "message": refusal_words(r.row),
            }
            for r in context["refused"]
        ],
    }


def _not_modified(etag: str):
    response = Response(status=304)
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(etag, weak=True)
    return response


def _problem_text(problem: rules.Problem) -> str:
    name = problem.params.get("character", "")
    if problem.code == "missing_decision":
        return _("%(name)s: no decision yet. Kill, or spare with a healer's name.", name=name)
    if problem.code == "missing_healer":
        return _("%(name)s: name the healer who spares them.", name=name)
    if problem.code == "healer_too_long":
        return _("%(name)s: the healer's name is too long.", name=name)
    if problem.code == "not_allowed":
        return _("%(name)s: choose kill or spare.", name=name)
    if problem.code == "not_dying":
        return _("%(name)s was not dying when the list was made: open the list again.", name=name)
    if problem.code == "unknown_character":
        return _("A decision names no character of this event: open the list again.")
    if problem.code == "refused":
        reason = refusal_message(problem.params["reason"], problem.params.get("detail", {}))
        return _("%(name)s: refused, %(reason)s.", name=name, reason=reason)
    if problem.code == "too_old":
        return _("The list is more than 24 hours old: open it again.")
    return _("The list's instant is in the future: open it again.")


def _decisions(form) -> dict[int, Decision]:
    decisions = {}
    for key, verdict in form.items():
        prefix, _sep, number = key.partition("-")
        if prefix == "decision" and number.isascii() and number.isdigit() and len(number) < 10:
            healer = " ".join(form.get(f"healer-{number}", "").split())
            decisions[int(number)] = Decision(verdict, healer if verdict == "spare" else "")
    return decisions


@bp.route("/events/<int:event_id>/end-session", methods=["GET", "POST"])
@login_required("organiser")
def end_session_form(event_id: int):
    """List everyone dying now; close the session once each is killed or spared by name."""
    event = db.get_or_404(Event, event_id)
    at, problems = now_utc(), []
    if request.method == "POST":
        try:
            at = rules.parse_instant(request.form.get("at", ""))
        except ValueError:
            flash(_("The list's instant is missing: open it again."), "error")
            return redirect(url_for("organiser.end_session_form", event_id=event.id))
        try:
            recorded = end_session(event, _decisions(request.form), at, g.user)
        except SessionRefused as refused:
            db.session.rollback()
            problems = refused.problems
        else:
            db.session.commit()
            killed = sum(1 for r in recorded if r.fields["kind"] == "kill")
            spared = sum(1 for r in recorded if r.fields["kind"] == "heal")
            flash(
                _(
                    "Session closed: %(killed)d killed, %(spared)d spared.",
                    killed=killed,
                    spared=spared,
                ),
                "info",
            )
            return redirect(url_for("organiser.board", event_id=event.id))
    errors: dict[int, str] = {}
    general = []
    for problem in problems:
        number = problem.path.removeprefix("decisions[").removesuffix("]")
        if number.isdigit():
            errors[int(number)] = _problem_text(problem)
        general.append(_problem_text(problem))
    return render_template(
        "organiser/end_session.html",
        event=event,
        at=at,
        dying=dying_characters(event, at),
        ends_sessions=ends_sessions(event),
        form=request.form,
        errors=errors,
        problems=general,
    ), (422 if problems else 200)
