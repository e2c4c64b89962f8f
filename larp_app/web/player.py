"""The player's own page, reached only through the secret link on the back of the badge.

No login: the secret is the key. Read-only, this character only: no other character, no
log authors, no conflicts. An unknown secret gets a 404 that says nothing more.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template, request
from flask_babel import get_locale

from .. import rules
from ..keeping import tags
from ..keeping.records import state_etag
from ..models import Character, Event
from ..reads.roster import in_language
from ..rules import get_ruleset
from ..services.badges import character_for_player
from ..services.characters import larp_sheet
from ..services.clock import now_utc
from ..services.entries import state_of
from ..services.events import status_catalogue
from ..tokens import SECRET_LENGTH

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
    locale, original = str(get_locale()), get_ruleset(event.ruleset).language
    return {
        key: in_language(status.texts.get("name") or {}, locale, original) or key
        for key, status in status_catalogue(event).items()
    }


def live_state(snapshot: rules.Snapshot) -> dict:
    """The snapshot as data, without the instant asked for, so that an unchanged state keeps
    its ETag from one poll to the next."""
    data = snapshot.to_dict()
    data.pop("at")
    return data


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
    """The page's twin: the live state as data, and as the HTML the page swaps in."""
    now = now_utc()  # (an unchanged state is answered before Flask: web/quick.py)
    character = _character(secret)
    if character is None:
        return jsonify({"error": "not_found"}), 404
    # Checked before any work: a poll that changed nothing costs no fold and no page.
    etag = tags.player(str(get_locale()), state_etag(character, now))
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
        response.set_etag(etag, weak=True)
        return response
    context = _live(character, now)
    state = live_state(context["state"])
    state.pop("conflicts")  # the organisers' business, not the player's
    response = jsonify(
        {
            "character": {
                "name": character.name,
                "player": character.player,
                "faction": character.faction,
            },
            "state": state,
            "html": render_template("player/live.html", **context),
        }
    )
    response.set_etag(etag, weak=True)
    return response
