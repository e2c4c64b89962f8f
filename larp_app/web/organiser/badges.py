"""Badges: print runs with progress, faction colours, refused scans, one card, reissue."""

from __future__ import annotations

import re

from flask import (
    Response,
    abort,
    current_app,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    send_file,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext

from ... import badges as badge_art
from ...badges import LAYOUTS, PAPERS
from ...extensions import db
from ...messages import badge_labels
from ...models import BadgeLookup, Character, Event, PrintJob
from ...reads.words import badge_words
from ...services.badge_prints import (
    WORKER_STOPPED,
    badge_face,
    expire_stale_jobs,
    faction_colour,
    faction_colours,
    queue_print_job,
    shared_colours,
    start_print_job,
)
from ...services.badges import (
    ensure_badges,
    issued_elsewhere,
    issued_elsewhere_in,
    reissue_badge,
    rotate_player_link,
)
from ...services.characters import factions_of
from ..auth import login_required
from ..commits import commit_retrying
from ..display import public_base_url
from . import bp

COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")


def _job(event_id: int, job_id: int) -> PrintJob:
    _expire_stale_jobs()
    job = db.get_or_404(PrintJob, job_id)
    if job.event_id != event_id:
        abort(404)
    return job


def _expire_stale_jobs() -> None:
    if expire_stale_jobs():
        db.session.commit()


def issued_elsewhere_text(count: int | None = None) -> str:
    """Why one badge (or ``count`` of an event's) cannot be printed here, and what to do."""
    if count is None:
        return _(
            "This badge came from another database: reissue it to print, or print it where "
            "it was issued."
        )
    return ngettext(
        "%(num)d badge came from another database: reissue it to print, or print it where "
        "it was issued.",
        "%(num)d badges came from another database: reissue them to print, or print them "
        "where they were issued.",
        count,
    )


def job_left_out(job: PrintJob) -> str | None:
    """The badges a print left out, in words; None when it left none out."""
    if not job.skipped:
        return None
    return ngettext(
        "%(num)d badge left out of this print: it came from another database. Reissue it "
        "to print it, or print it where it was issued.",
        "%(num)d badges left out of this print: they came from another database. Reissue "
        "them to print them, or print them where they were issued.",
        job.skipped,
    )


def job_error(job: PrintJob) -> str | None:
    """Why a print failed, in the reader's language when the server knows the reason."""
    if job.error == WORKER_STOPPED:
        return _("its server process stopped before the end. Start it again.")
    return job.error


def _start(event: Event, options: dict):
    try:
        job, started = commit_retrying(lambda: queue_print_job(event, options))
    except ValueError as exc:
        flash(str(exc), "error")
        return redirect(url_for("organiser.badges", event_id=event.id))
    if started:
        start_print_job(current_app._get_current_object(), job)
    if not started:
        flash(_("The same badges are already being printed: here is that print."), "info")
    return redirect(url_for("organiser.print_job", event_id=event.id, job_id=job.id))


@bp.get("/events/<int:event_id>/badges")
@login_required("organiser")
def badges(event_id: int):
    event = db.get_or_404(Event, event_id)
    _expire_stale_jobs()
    jobs = db.session.scalars(
        db.select(PrintJob)
        .where(PrintJob.event_id == event.id)
        .order_by(PrintJob.id.desc())
        .limit(10)
    ).all()
    refused = db.session.scalars(
        db.select(BadgeLookup)
        .where(BadgeLookup.event_id == event.id)
        .order_by(BadgeLookup.id.desc())
        .limit(50)
    ).all()
    factions = factions_of(event)
    known = faction_colours(event)
    colours = {f: faction_colour(event, f, known) for f in factions}
    elsewhere = len(issued_elsewhere_in(event.id))
    return render_template(
        "organiser/badges.html",
        event=event,
        jobs=jobs,
        refused=refused,
        elsewhere=elsewhere and issued_elsewhere_text(elsewhere),
        layouts=LAYOUTS,
        papers=PAPERS,
        factions=factions,
        colours=colours,
        shared=shared_colours(colours),
    )


@bp.post("/events/<int:event_id>/badges/print")
@login_required("organiser")
def print_badges(event_id: int):
    event = db.get_or_404(Event, event_id)
    form = request.form
    options = {
        "layout": form.get("layout", "cr80-10up"),
        "paper": form.get("paper", "a4"),
        "faction": form.get("faction", ""),
        "only_new": form.get("only_new") == "on",
        "base": public_base_url(),
        "labels": badge_words(badge_labels(), event.ruleset),
    }
    return _start(event, options)


@bp.post("/events/<int:event_id>/badges/jobs/<int:job_id>/again")
@login_required("organiser")
def print_again(event_id: int, job_id: int):
    """Start a failed print again with the same choices."""
    job = _job(event_id, job_id)
    if job.status != "failed":
        abort(409)
    return _start(db.get_or_404(Event, event_id), dict(job.options))


@bp.get("/events/<int:event_id>/badges/jobs/<int:job_id>")
@login_required("organiser")
def print_job(event_id: int, job_id: int):
    job = _job(event_id, job_id)
    return render_template(
        "organiser/print_job.html",
        event=db.get_or_404(Event, event_id),
        job=job,
        error=job_error(job),
        left_out=job_left_out(job),
    )


@bp.get("/events/<int:event_id>/badges/jobs/<int:job_id>.json")
@login_required("organiser")
def print_job_status(event_id: int, job_id: int):
    job = _job(event_id, job_id)
    return jsonify(
        {
            "status": job.status,
            "done": job.done,
            "total": job.total,
            "error": job_error(job),
            "left_out": job_left_out(job),
            "download": url_for("organiser.print_download", event_id=event_id, job_id=job.id)
            if job.path
            else None,
        }
    )


@bp.get("/events/<int:event_id>/badges/jobs/<int:job_id>/badges.pdf")
@login_required("organiser")
def print_download(event_id: int, job_id: int):
    job = _job(event_id, job_id)
    if job.status != "done" or not job.path:
        abort(404)
    return send_file(
        job.path,
        mimetype="application/pdf",
        as_attachment=True,
        download_name=f"badges-{event_id}-{job.id}.pdf",
    )


@bp.post("/events/<int:event_id>/badges/colours")
@login_required("organiser")
def save_faction_colours(event_id: int):
    event = db.get_or_404(Event, event_id)
    colours = {}
    for faction in factions_of(event):
        value = request.form.get(f"colour.{faction}", "")
        if COLOUR.match(value):
            colours[faction] = value.lower()
    event.faction_colours = colours
    db.session.commit()
    flash(_("Faction colours saved."), "info")
    return redirect(url_for("organiser.badges", event_id=event.id))


@bp.get("/characters/<int:character_id>/badge-<side>.png")
@login_required("organiser")
def badge_png(character_id: int, side: str):
    if side not in ("front", "back"):
        abort(404)
    character = db.get_or_404(Character, character_id)
    ensure_badges([character])
    if issued_elsewhere(character):
        db.session.commit()
        return Response(issued_elsewhere_text(), status=409, mimetype="text/plain")
    labels = badge_words(badge_labels(), character.event.ruleset)
    face = badge_face(character, public_base_url(), labels)
    db.session.commit()
    return Response(
        badge_art.card_png(face, side), mimetype="image/png", headers={"Cache-Control": "no-store"}
    )


@bp.post("/characters/<int:character_id>/badge")
@login_required("organiser")
def reissue(character_id: int):
    """A lost badge: a new card and a new player link; the old ones stop working."""
    badge = commit_retrying(lambda: reissue_badge(character_id))
    if badge is None:
        abort(404)
    flash(
        _("New badge %(code)s issued: the old card no longer works.", code=badge.short_code), "info"
    )
    return redirect(url_for("organiser.character", character_id=character_id))


@bp.post("/events/<int:event_id>/badges/reissue-elsewhere")
@login_required("organiser")
def reissue_elsewhere(event_id: int):
    """New badges for every character whose badge came from another database, to print."""
    event = db.get_or_404(Event, event_id)
    characters = [c.id for c in issued_elsewhere_in(event.id)]
    for character_id in characters:
        commit_retrying(lambda character_id=character_id: reissue_badge(character_id))
    flash(
        ngettext(
            "%(num)d new badge issued: its old card no longer works. Print it now.",
            "%(num)d new badges issued: their old cards no longer work. Print them now.",
            len(characters),
        ),
        "info",
    )
    return redirect(url_for("organiser.badges", event_id=event.id))


@bp.post("/characters/<int:character_id>/player-link")
@login_required("organiser")
def rotate_link(character_id: int):
    """A player's link shared by mistake: a new one; the badge's QR for the player changes."""
    character = db.get_or_404(Character, character_id)
    rotate_player_link(character)
    db.session.commit()
    flash(_("New player link made: the old one no longer works. Print the badge again."), "info")
    return redirect(url_for("organiser.character", character_id=character.id))
