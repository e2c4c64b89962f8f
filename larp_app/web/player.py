"""The player's own page, reached only through the secret link on the back of the badge.

No login: the secret is the key. Read-only, this character only: no other character, no
log authors, no conflicts. An unknown secret gets a 404 that says nothing more.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from flask_babel import get_locale

from .. import rules
from ..keeping import tags
from ..keeping.records import records, settings_key_of, state_etag
from ..models import Character, Event
from ..services.badges import character_for_player
from ..services.characters import larp_sheet
from ..services.clock import now_utc
from ..services.entries import state_of
from ..services.events import status_catalogue
from ..tokens import SECRET_LENGTH
from . import answers
from .answers import live_data, player_answer
from .live_part import live_part
from .transfer import encoding_for

bp = Blueprint("player", __name__, url_prefix="/p")

POLL_SECONDS = 5


@bp.after_request
def _private(response):
    """Keep the page out of search engines and shared caches; ETags on the JSON twin."""
    response.headers["X-Robots-Tag"] = "noindex"
    response.headers["Cache-Control"] = "private, no-cache"
    if (
        request.method == "GET"
        and response.status_code == 200
        and response.is_json
        and "ETag" not in response.headers
    ):
        response.add_etag()
        response.make_conditional(request)
    return response


def status_names(event: Event) -> dict[str, str]:
    """Each catalogue status's name in the reader's language (else the rules' own)."""
    return answers.status_names(event.ruleset, event.settings, str(get_locale()))


def _character(secret: str) -> Character | None:
    if len(secret) > SECRET_LENGTH * 2:
        return None
    return character_for_player(secret)


def _not_found():
    return render_template("player/not_found.html", code=404), 404


def _live(character: Character, now=None) -> dict:
    return {
        "state": state_of(character, now or now_utc()),
        "status_names": status_names(character.event),
    }


@bp.get("/<secret>")
def page(secret: str):
    character = _character(secret)
    if character is None:
        return _not_found()
    return render_template(
        "player/page.html",
        character=character,
        secret=secret,
        sheet=larp_sheet(character),
        original=rules.get_ruleset(character.event.ruleset).language,
        catalogue=status_catalogue(character.event),
        poll_seconds=POLL_SECONDS,
        now=now_utc(),
        **_live(character),
    )


@bp.get("/<secret>/live.json")
def live(secret: str):
    """The page's twin: the live state as data, and as the HTML the page swaps in (rendered
    once per tag and language: web/answers.py, as the quick answers give it)."""
    now = now_utc()  # (an unchanged or changed state is answered before Flask: web/quick.py)
    character = _character(secret)
    if character is None:
        return jsonify({"error": "not_found"}), 404
    # Checked before any work: a poll that changed nothing costs no fold and no page.
    tag = state_etag(character, now)
    locale = str(get_locale())
    etag = tags.player(locale, tag)
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
        response.set_etag(etag, weak=True)
        return response
    record = records().record(character)
    if record.folded.last_at is not None and record.folded.last_at > now:
        return _live_answer(character, now, etag)  # an entry dated later: folded to now
    event = character.event

    def facts():
        who = {"name": character.name, "player": character.player, "faction": character.faction}
        return who, event.ruleset, settings_key_of(event.settings)

    encoding = encoding_for(request.headers.get("Accept-Encoding", ""))
    body, encoded = player_answer(current_app, record, tag, locale, now, encoding, facts)
    response = Response(body, mimetype="application/json")
    if encoded:
        response.headers["Content-Encoding"] = encoded
    response.set_etag(etag, weak=True)
    return response


def _live_answer(character: Character, now, etag: str):
    context = _live(character, now)
    response = jsonify(
        {
            "character": {
                "name": character.name,
                "player": character.player,
                "faction": character.faction,
            },
            "state": live_data(context["state"]),
            "html": live_part(context["state"], context["status_names"]),
        }
    )
    response.set_etag(etag, weak=True)
    return response
