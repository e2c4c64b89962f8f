"""Logging in and out, the current user, and who may see what."""

from __future__ import annotations

from functools import wraps
from urllib.parse import urlsplit

from flask import (
    Blueprint,
    abort,
    flash,
    g,
    has_request_context,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.ctx import _AppCtxGlobals
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf

from .. import rules
from ..extensions import db
from ..services.clock import now_utc
from ..services.logins import attempt_login
from ..services.users import change_own_password, end_session, session_user, start_session
from .forms import field_errors

bp = Blueprint("auth", __name__)


@bp.before_app_request
def forget_user() -> None:
    """The logged-in user is read when first asked for (``Globals``): a poll answered from
    what the worker knows loads no user."""
    g.pop("user", None)


def load_user():
    """Read the logged-in user; a disabled account or an ended session is logged out."""
    if not has_request_context():
        return None
    key = session.get("sid")
    if not isinstance(key, str):
        if "uid" in session:  # a cookie from before sessions were kept on the server
            session.clear()
        return None
    user = session_user(key)
    if user is None:  # logged out, ended from elsewhere, or the account disabled
        session.clear()
        return None
    return user


class Globals(_AppCtxGlobals):
    """``g``, whose ``user`` (the logged-in one, or None) is read when first asked for."""

    def __getattr__(self, name: str):
        if name == "user":
            self.user = load_user()
            return self.user
        return super().__getattr__(name)

    def get(self, name: str, default=None):
        if name == "user":
            return self.user
        return super().get(name, default)


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
            _log_in(user)
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


def _log_in(user) -> None:
    """A new session on the server, named in a fresh cookie."""
    session.clear()
    session.permanent = True
    session["sid"] = start_session(user)
    # The CSRF secret goes in the first cookie: pages loaded at once after login (a form and
    # the service worker's shells) would otherwise each make one, and the last cookie written
    # would refuse the others' forms.
    g.pop("csrf_token", None)
    generate_csrf()


@bp.post("/logout")
def logout():
    """End the session on the server too: a copy of the cookie opens nothing afterwards."""
    if isinstance(session.get("sid"), str):
        end_session(session["sid"])
        db.session.commit()
    session.clear()
    flash(_("You are logged out."), "info")
    return redirect(url_for("auth.login"))


@bp.route("/account/password", methods=["GET", "POST"])
@login_required()
def change_password():
    """Anyone logged in changes their own password; their other sessions and tokens end."""
    errors: dict[str, str] = {}
    if request.method == "POST":
        try:
            change_own_password(
                g.user, request.form.get("current", ""), request.form.get("new", "")
            )
        except rules.InvalidInput as exc:
            db.session.rollback()
            errors = field_errors(exc.problems)
        else:
            _log_in(g.user)
            db.session.commit()
            flash(_("Password changed: your other phones and API tokens are logged out."), "info")
            return redirect(url_for("home.index"))
    response = render_template("auth/password.html", errors=errors)
    return response, 422 if errors else 200
