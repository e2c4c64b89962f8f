"""Accounts: create referees; disable, enable, reset the password of referees and of other
organisers (never the last active one); list and revoke API tokens."""

from __future__ import annotations

from flask import abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ... import rules
from ...extensions import db
from ...models import User
from ...services.users import (
    LastOrganiser,
    create_user,
    end_sessions,
    reset_password,
    revoke_token,
    set_active,
    tokens_of,
)
from ..auth import login_required
from ..forms import field_errors
from . import bp


def _page(**context):
    users = db.session.scalars(db.select(User).order_by(User.role, User.username)).all()
    context.setdefault("errors", {})
    context.setdefault("form", {})
    status = context.pop("status", 200)
    tokens = {u.id: tokens_of(u) for u in users}
    page = render_template("organiser/users.html", users=users, tokens=tokens, **context)
    # A page with a new password is kept by no cache, not even the browser's history.
    headers = {"Cache-Control": "no-store"} if context.get("shown") else {}
    return page, status, headers


@bp.get("/users")
@login_required("organiser")
def users():
    return _page()


@bp.post("/users")
@login_required("organiser")
def create_referee():
    try:
        user, password, _token = create_user(
            request.form.get("username", ""), "referee", token_label=None
        )
    except rules.InvalidInput as exc:
        db.session.rollback()
        return _page(errors=field_errors(exc.problems), form=request.form, status=422)
    db.session.commit()
    return _page(shown=(user.username, password))


def _referee(user_id: int) -> User:
    """Another account: an organiser manages referees and the other organisers, not
    themselves (their own password: the change-password page)."""
    user = db.get_or_404(User, user_id)
    if user.id == g.user.id:
        abort(403)
    return user


@bp.post("/users/<int:user_id>/active")
@login_required("organiser")
def toggle_active(user_id: int):
    user = _referee(user_id)
    try:
        set_active(user, request.form.get("active") == "1")
    except LastOrganiser:
        flash(_("%(name)s is the last active organiser.", name=user.username), "error")
        return redirect(url_for("organiser.users"))
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


@bp.post("/users/<int:user_id>/tokens/<int:token_id>/revoke")
@login_required("organiser")
def revoke_user_token(user_id: int, token_id: int):
    """A leaked API token: it stops working at once."""
    user = db.get_or_404(User, user_id)
    if not revoke_token(user, token_id):
        abort(404)
    db.session.commit()
    flash(_("The API token of %(name)s is revoked.", name=user.username), "info")
    return redirect(url_for("organiser.users"))
