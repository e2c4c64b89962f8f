"""The organiser's pages: events, settings, import, roster, characters, printing, referees."""

from flask import Blueprint

bp = Blueprint("organiser", __name__)

from . import (  # noqa: E402, F401  (they add routes)
    after,
    badges,
    board,
    characters,
    checkin,
    events,
    imports,
    refusals,
    review,
    sheet_format,
    sheets,
    users,
)
