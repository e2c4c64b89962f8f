"""While the database cannot be reached: 503 with Retry-After, one log line per request.

A phone's outbox sees the 503 and sends again later; nothing was stored, so nothing is
lost. The log says what failed in one line instead of a traceback for every request.
"""

from __future__ import annotations

import contextlib

from flask import Flask, current_app, g, jsonify, render_template, request
from flask_babel import gettext as _
from sqlalchemy.exc import InterfaceError, OperationalError

from ..extensions import db

RETRY_AFTER_SECONDS = 5


def register(app: Flask) -> None:
    app.register_error_handler(OperationalError, database_unreachable)
    app.register_error_handler(InterfaceError, database_unreachable)


def database_unreachable(error: Exception):
    reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0][:200]
    current_app.logger.warning(
        "database unreachable: %s %s answered 503: %s", request.method, request.path, reason
    )
    with contextlib.suppress(Exception):  # the connection may be gone: nothing to undo
        db.session.remove()  # rolls back whatever was begun; nothing was stored
    g.user = None  # the account cannot be read now: the page shows no menu
    message = _("The server cannot reach its database. Nothing was stored; try again shortly.")
    if request.path.startswith("/api/"):
        response = jsonify({"error": "unavailable", "message": message, "fields": {}})
    else:
        response = current_app.make_response(
            render_template("errors/error.html", code=503, message=message)
        )
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response.headers["Cache-Control"] = "no-store"
    return response
