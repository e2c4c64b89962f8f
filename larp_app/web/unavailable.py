"""While the database cannot be reached: 503 with Retry-After, one log line per request.

A phone's outbox sees the 503 and sends again later; nothing was stored, so nothing is
lost. A batch cut part way (``batch_cut_short``) answers what it stored and says so. The
log says what failed in one line instead of a traceback for every request.
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
    return _unavailable(response)


def _unavailable(response):
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response.headers["Cache-Control"] = "no-store"
    return response


def batch_cut_short(error: Exception, results: list[dict], total: int, in_commit: bool):
    """A batch the database failed part way through: the items committed before are
    answered (``results``), and the words say how many were stored and to send the rest again.

    ``in_commit``: the failure came while committing the next item, which may then have been
    stored; else nothing after ``results`` was. Sending again stores nothing twice.
    """
    reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0][:200]
    current_app.logger.warning(
        "database failed after %d of %d items: %s %s answered 503: %s",
        len(results),
        total,
        request.method,
        request.path,
        reason,
    )
    with contextlib.suppress(Exception):  # the connection may be gone: nothing to undo
        db.session.remove()  # rolls back the item being stored
    g.user = None  # its row went with the session
    stored = sum(1 for r in results if r.get("status") == "stored")
    words = {"stored": stored, "answered": len(results), "total": total}
    words["left"] = total - len(results)
    if in_commit and words["left"]:
        message = _(
            "The database failed part way: %(stored)s of these %(total)s entries were stored"
            " now (%(answered)s answered). The other %(left)s were not answered, and the first"
            " of them may have been stored. Send them again: nothing is stored twice.",
            **words,
        )
    else:
        message = _(
            "The database failed part way: %(stored)s of these %(total)s entries were stored"
            " now (%(answered)s answered). The other %(left)s were not stored."
            " Send them again: nothing is stored twice.",
            **words,
        )
    body = {"error": "cut_short", "message": message, "fields": {}, **words}
    return _unavailable(jsonify({**body, "results": results, "conflicts": []}))
