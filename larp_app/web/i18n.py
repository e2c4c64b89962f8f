"""The interface language: the one chosen with the switcher, else the browser's.

A choice made while logged in is stored on the user too, so it follows them to every device
they log in on.
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    current_app,
    g,
    has_request_context,
    redirect,
    request,
    session,
    url_for,
)
from werkzeug.datastructures import LanguageAccept

from ..extensions import db
from .auth import safe_next

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The switcher's choice on this device, else the user's stored one, else the browser's."""
    if not has_request_context():  # the command line speaks the default language
        return current_app.config["BABEL_DEFAULT_LOCALE"]
    if session.get("lang") in current_app.config["LANGUAGES"]:
        return session["lang"]
    user = g.get("user")
    return locale_for(None if user is None else user.language)


def locale_for(user_language: str | None) -> str:
    """``select_locale`` for a user whose stored language is known (no user read)."""
    config = current_app.config
    return pick_locale(
        session.get("lang"),
        user_language,
        request.accept_languages,
        config["LANGUAGES"],
        config["BABEL_DEFAULT_LOCALE"],
    )


def pick_locale(
    chosen: Any, user_language: str | None, accept: LanguageAccept, languages, default: str
) -> str:
    """The switcher's ``chosen`` language on this device, else the user's stored one, else
    the best of the browser's ``accept``, else ``default``."""
    if chosen in languages:
        return chosen
    if user_language in languages:
        return user_language
    return accept.best_match(languages) or default


@bp.post("/language")
def choose_language():
    lang = request.form.get("lang")
    if lang in current_app.config["LANGUAGES"]:
        session["lang"] = lang
        user = g.get("user")
        if user is not None and user.language != lang:
            user.language = lang
            db.session.commit()
    return redirect(safe_next(request.form.get("next") or url_for("home.index")))
