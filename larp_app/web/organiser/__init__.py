"""The organiser's pages: events, settings, import, roster, characters, printing, referees."""

from flask import Blueprint

bp = Blueprint("organiser", __name__)

from . import after, badges, board, characters, checkin, events, imports, sheets, users  # noqa: E402, F401  (they add routes)
