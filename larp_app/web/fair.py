"""Costly reads take their turn (services/fair_share.py): a view marked ``@costly`` runs one
at a time per account, rests after, and waits for a free slot; else 429 with Retry-After, in
words (the API's JSON error; a page's own)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path

from flask import current_app, g
from werkzeug.exceptions import TooManyRequests

from ..messages import refusal_message
from ..services import fair_share


class Refused(TooManyRequests):
    """429 for a costly read that must wait; ``code``: fair_share or server_busy."""

    def __init__(self, busy: fair_share.Busy):
        self.code_name = "fair_share" if busy.account else "server_busy"
        message = refusal_message(self.code_name, {"seconds": busy.retry_after})
        super().__init__(message, retry_after=busy.retry_after)


def _folder() -> Path:
    app = current_app
    configured = app.config.get("FAIR_SHARE_FOLDER")
    if configured:
        return Path(configured)
    return fair_share.folder_for(Path(app.instance_path), app.config["SQLALCHEMY_DATABASE_URI"])


def costly(when: Callable[[], bool] = lambda: True):
    """Mark a view whose answer costs much (``when``: only for some of its requests); it
    runs below the login check, for the logged-in account."""

    def decorate(view):
        @wraps(view)
        def wrapped(*args, **kwargs):
            config = current_app.config
            user = g.get("user")
            if not config.get("FAIR_SHARE", True) or user is None or not when():
                return view(*args, **kwargs)
            try:
                with fair_share.costly(
                    _folder(),
                    user.id,
                    burst=float(config.get("FAIR_SHARE_BURST", 2)),
                    part=float(config.get("FAIR_SHARE_PART", 0.25)),
                    slots=int(config.get("FAIR_SHARE_SLOTS", 2)),
                ):
                    return current_app.make_response(view(*args, **kwargs))
            except fair_share.Busy as busy:
                raise Refused(busy) from None

        return wrapped

    return decorate
