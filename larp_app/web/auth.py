"""Logging in and out, the current user, and who may see what."""

from __future__ import annotations

from functools import wraps
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _

from ..extensions import db
from ..models import User
from ..services.clock import now_utc
from ..services.logins import attempt_login

bp = Blueprint("auth", __name__)


@bp.before_app_request
def load_user() -> None:
    """Read the logged-in user; a disabled account or an ended session is logged out."""
    g.user = None
    uid = session.get("uid")
    if uid is None:
        return
    user = db.session.get(User, uid)
    if user is None or not user.active or session.get("epoch") != user.session_epoch:
        session.clear()
        return
    g.user = user


def login_required(*roles: str):
    """Send strangers to the login page; refuse users whose role is not in ``roles``."""

    def decorate(view):
        @wraps(view)
        def wrapped(*args, **kwargs):
            if g.user is None:
                return redirect(url_for("auth.login", next=request.full_path))
            if roles and g.user.role not in roles:
                abort(403)
            return view(*args, **kwargs)

        return wrapped

    return decorate


def safe_next(target: str | None) -> str:
    parts = urlsplit(target or "")
    if target and not parts.scheme and not parts.netloc and target.startswith("/"):
        return target
    return url_for("home.index")


@bp.route("/login", methods=["GET", "POST"])
def login():
    if request.method == "POST":
        username = request.form.get("username", "").strip()
        password = request.form.get("password", "")
        user, wait = attempt_login(username, password, request.remote_addr or "?", now_utc())
        if user is not None:
            chosen = session.get("lang")  # picked on the login page: keep it, and remember it
            if chosen and not user.language:
                user.language = chosen
            session.clear()
            session.permanent = True
            session["uid"], session["epoch"] = user.id, user.session_epoch
            if chosen:
                session["lang"] = chosen
        db.session.commit()
        if user is not None:
            return redirect(safe_next(request.args.get("next")))
        if wait:
            flash(
                _(
                    "Too many failed attempts. Try again in %(seconds)d seconds.",
                    seconds=max(1, round(wait.total_seconds())),
                ),
                "error",
            )
            return render_template("auth/login.html", username=username), 429
        flash(_("Wrong username or password."), "error")
        return render_template("auth/login.html", username=username), 401
    return render_template("auth/login.html", username="")


@bp.post("/logout")
def logout():
    session.clear()
    flash(_("You are logged out."), "info")
    return redirect(url_for("auth.login"))
