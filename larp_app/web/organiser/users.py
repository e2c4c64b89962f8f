"""Referees' accounts: create, disable, enable, reset the password."""

from __future__ import annotations

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import rules
from ...extensions import db
from ...models import User
from ...services.users import create_user, end_sessions, reset_password, set_active
from ..auth import login_required
from ..forms import field_errors
from . import bp


def _page(**context):
    users = db.session.scalars(db.select(User).order_by(User.role, User.username)).all()
    context.setdefault("errors", {})
    context.setdefault("form", {})
    return render_template("organiser/users.html", users=users, **context)


@bp.get("/users")
@login_required("organiser")
def users():
    return _page()


@bp.post("/users")
@login_required("organiser")
def create_referee():
    try:
        user, password, _token = create_user(request.form.get("username", ""), "referee")
    except rules.InvalidInput as exc:
        db.session.rollback()
        return _page(errors=field_errors(exc.problems), form=request.form), 422
    db.session.commit()
    return _page(shown=(user.username, password))


def _referee(user_id: int) -> User:
    user = db.get_or_404(User, user_id)
    if user.role != "referee" or user.id == g.user.id:
        abort(403)
    return user


@bp.post("/users/<int:user_id>/active")
@login_required("organiser")
def toggle_active(user_id: int):
    user = _referee(user_id)
    set_active(user, request.form.get("active") == "1")
    db.session.commit()
    flash(
        _("%(name)s is enabled.", name=user.username)
        if user.active
        else _("%(name)s is disabled and logged out.", name=user.username),
        "info",
    )
    return redirect(url_for("organiser.users"))


@bp.post("/users/<int:user_id>/reset")
@login_required("organiser")
def reset(user_id: int):
    user = _referee(user_id)
    password = reset_password(user)
    db.session.commit()
    return _page(shown=(user.username, password))


@bp.post("/users/<int:user_id>/sessions/end")
@login_required("organiser")
def end_user_sessions(user_id: int):
    """A lost phone: its session ends, and at its next contact it forgets its roster."""
    user = _referee(user_id)
    end_sessions(user)
    db.session.commit()
    flash(_("Every phone of %(name)s is logged out.", name=user.username), "info")
    return redirect(url_for("organiser.users"))
