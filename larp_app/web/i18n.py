"""The interface language: the one chosen with the switcher, else the browser's.

A choice made while logged in is stored on the user too, so it follows them to every device
they log in on. A page asked with ``?lang=`` is rendered in that language without changing
anyone's choice: the phone's service worker keeps the pages it shows offline in every
language (templates/pwa/sw.js), and every page says its language (``Content-Language``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from flask import (
    Blueprint,
    Response,
    current_app,
    g,
    has_request_context,
    redirect,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from werkzeug.datastructures import LanguageAccept

from ..extensions import db
from .auth import safe_next

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    """The switcher's choice on this device, else the user's stored one, else the browser's."""
    if not has_request_context():  # the command line speaks the default language
        return current_app.config["BABEL_DEFAULT_LOCALE"]
    asked = request.args.get("lang") if request.method == "GET" else None
    if asked in current_app.config["LANGUAGES"]:
        return asked
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
        lambda: browser_locale(
            request.accept_languages, config["LANGUAGES"], config["BABEL_DEFAULT_LOCALE"]
        ),
        config["LANGUAGES"],
    )


def pick_locale(
    chosen: Any, user_language: str | None, browser: Callable[[], str], languages
) -> str:
    """The switcher's ``chosen`` language on this device, else the user's stored one, else
    the browser's (``browser``: found only then, ``browser_locale``)."""
    if chosen in languages:
        return chosen
    if user_language in languages:
        return user_language
    return browser()


def browser_locale(accept: LanguageAccept, languages, default: str) -> str:
    """The best of ``languages`` for the browser's ``Accept-Language`` (``accept``), else
    ``default``."""
    return accept.best_match(languages) or default


@bp.app_template_global()
def this_page() -> str:
    """This page's address as the switcher returns to it: without a ``?lang=`` that asked
    it in a language (the new choice would not show)."""
    query = urlencode([(k, v) for k, v in request.args.items(multi=True) if k != "lang"])
    return f"{request.path}?{query}" if query else request.path


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


@bp.after_app_request
def say_the_language(response: Response) -> Response:
    """A page tells its language: the service worker keeps it under that language."""
    page = response.status_code == 200 and response.mimetype == "text/html"
    if page and "Content-Language" not in response.headers:
        response.headers["Content-Language"] = str(get_locale())
    return response
