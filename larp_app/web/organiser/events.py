"""Events: list, create, roster with search and faction filter, settings."""

from __future__ import annotations

from typing import Any

from flask import current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import rules
from ...extensions import db
from ...models import Event, User
from ...services.assignments import assign_referees, referees_of
from ...services.characters import factions_of, find_characters
from ...services.events import change_settings, create_event, shipped_tables
from ..auth import login_required
from ..forms import field_errors, number_or_text
from ..rulesets import ruleset_template
from . import bp


@bp.get("/events")
@login_required("organiser")
def events():
    rows = db.session.scalars(db.select(Event).order_by(Event.created_at.desc())).all()
    return render_template(
        "organiser/events.html", events=rows, errors={}, rulesets=rules.ruleset_keys(), form={}
    )


@bp.post("/events")
@login_required("organiser")
def create():
    form = request.form
    try:
        event = create_event(form.get("name", ""), form.get("ruleset", ""))
    except rules.InvalidInput as exc:
        db.session.rollback()
        rows = db.session.scalars(db.select(Event).order_by(Event.created_at.desc())).all()
        return render_template(
            "organiser/events.html",
            events=rows,
            form=form,
            errors=field_errors(exc.problems),
            rulesets=rules.ruleset_keys(),
        ), 422
    db.session.commit()
    flash(_("Event created."), "info")
    return redirect(url_for("organiser.event", event_id=event.id))


@bp.get("/events/<int:event_id>")
@login_required("organiser")
def event(event_id: int):
    event = db.get_or_404(Event, event_id)
    query = request.args.get("q", "").strip()
    faction = request.args.get("faction", "")
    characters = find_characters(event, query, faction)
    factions = factions_of(event)
    return render_template(
        "organiser/event.html",
        event=event,
        characters=characters,
        factions=factions,
        query=query,
        faction=faction,
        referees=_referees(),
        assigned=referees_of(event),
    )


def _referees() -> list[User]:
    return db.session.scalars(
        db.select(User).where(User.role == "referee", User.active).order_by(User.username)
    ).all()


@bp.post("/events/<int:event_id>/referees")
@login_required("organiser")
def assign(event_id: int):
    """The referees who work the event: exactly those ticked. A referee ticked for no event
    works every open one."""
    event = db.get_or_404(Event, event_id)
    ticked = request.form.getlist("referee")
    if not all(t.isascii() and t.isdigit() and len(t) < 10 for t in ticked):
        flash(_("A ticked referee is not a referee: open the page again."), "error")
        return redirect(url_for("organiser.event", event_id=event.id)), 303
    # Disabled accounts are not listed: their assignments stay as they were.
    unlisted = referees_of(event) - {u.id for u in _referees()}
    try:
        assign_referees(event, {int(t) for t in ticked} | unlisted)
    except rules.InvalidInput:
        db.session.rollback()
        flash(_("A ticked referee is not a referee: open the page again."), "error")
        return redirect(url_for("organiser.event", event_id=event.id)), 303
    db.session.commit()
    flash(_("Referees of this event saved."), "info")
    return redirect(url_for("organiser.event", event_id=event.id)), 303


def _settings_from_form(form, ruleset: str) -> dict[str, Any]:
    """Build the settings from the form; a table equal to the house default is not stored."""
    defaults = shipped_tables(ruleset)
    raw: dict[str, Any] = {
        "turn_seconds": number_or_text(form.get("turn_seconds")),
        "roster_max_age_minutes": number_or_text(form.get("roster_max_age_minutes", "30")),
    }
    # Only the shared settings the rule system reads are on its form (and so read back).
    offered = rules.get_ruleset(ruleset).settings_offered
    if "armour_breaks" in offered:
        raw["optional_rules"] = {"armour_breaks": form.get("optional_rules.armour_breaks") == "on"}
    if "seed" in offered:
        raw["seed"] = form.get("seed", "").strip()
    if "saves" in offered:
        raw["saves"] = form.get("saves", "app")
    if form.get("entry_max_age_hours", "").strip():  # empty: the app's default
        raw["entry_max_age_hours"] = number_or_text(form.get("entry_max_age_hours"))
    tables = rules.get_ruleset(ruleset).form_tables(form, defaults)
    changed = {name: table for name, table in tables.items() if table != defaults[name]}
    if changed:
        raw["tables"] = changed
    return raw


@bp.route("/events/<int:event_id>/settings", methods=["GET", "POST"])
@login_required("organiser")
def settings(event_id: int):
    event = db.get_or_404(Event, event_id)
    errors: dict[str, str] = {}
    raw = event.settings
    if request.method == "POST":
        try:
            raw = _settings_from_form(request.form, event.ruleset)
            change_settings(event, raw)
        except rules.InvalidInput as exc:
            db.session.rollback()
            errors = field_errors(exc.problems)
        else:
            db.session.commit()
            flash(_("Settings saved; every larp sheet was recomputed."), "info")
            return redirect(url_for("organiser.settings", event_id=event.id))
    tables = {**shipped_tables(event.ruleset), **(raw.get("tables") or {})}
    return render_template(
        "organiser/settings.html",
        event=event,
        raw=raw,
        tables=tables,
        errors=errors,
        ruleset_fields=ruleset_template(event.ruleset, "settings.html"),
        default_entry_hours=current_app.config["ENTRY_MAX_AGE_HOURS"],
    ), (422 if errors else 200)
