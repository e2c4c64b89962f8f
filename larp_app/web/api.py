"""JSON API under /api/v1: bearer tokens, errors as {"error", "message", "fields"}."""

from __future__ import annotations

from functools import wraps

from flask import Blueprint, g, jsonify, request
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf, validate_csrf
from werkzeug.exceptions import HTTPException
from wtforms import ValidationError

from .. import rules
from ..extensions import db
from ..messages import problem_message, refusal_message
from ..models import Character, Event
from ..services.badges import (
    BadgeRefused,
    resolve_badge,
    scan_url,
    status_url,
)
from ..services.badges import (
    reissue_badge as reissue_and_commit,
)
from ..services.characters import check_sheets, import_sheets
from ..services.clock import now_utc
from ..services.entries import log_of, record_entry, state_of
from ..services.events import create_event
from ..services.roster import phone_roster
from ..services.sync import sync_one
from ..services.users import user_for_token
from .display import public_base_url
from .hygiene import MAX_ID, api_error, http_api_error
from .openapi import OPENAPI

bp = Blueprint("api", __name__, url_prefix="/api/v1")


error = api_error


@bp.errorhandler(rules.InvalidInput)
def _invalid(exc: rules.InvalidInput):
    fields = {p.path: problem_message(p).split(": ", 1)[1] for p in exc.problems}
    return error(422, "invalid", "; ".join(problem_message(p) for p in exc.problems), fields)


@bp.errorhandler(rules.RuleError)
def _refused(exc: rules.RuleError):
    return error(409, exc.code, refusal_message(exc.code, exc.params), exc.params)


@bp.errorhandler(HTTPException)
def _http(exc: HTTPException):
    return http_api_error(exc)


def _caller():
    """The bearer token's user; else the logged-in browser's, whose writes carry the CSRF token."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return user_for_token(header[7:]), None
    if g.get("user") is None:
        return None, None
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        try:
            validate_csrf(request.headers.get("X-CSRFToken", ""))
        except ValidationError:
            return None, error(400, "csrf", "the page's CSRF token is missing or stale")
    return g.user, None


def requires(*roles: str):
    """Refuse a request without a valid bearer token or session of one of ``roles``."""

    def decorate(view):
        @wraps(view)
        def wrapped(*args, **kwargs):
            user, refusal = _caller()
            if refusal is not None:
                return refusal
            if user is None:
                return error(401, "unauthorized", "a valid bearer token is required")
            if user.role not in roles:
                return error(403, "forbidden", f"only {' or '.join(roles)} may do this")
            g.user = user
            return view(*args, **kwargs)

        return wrapped

    return decorate


@bp.after_request
def _conditional(response):
    """ETag on every JSON answer, so polling phones get a 304 when nothing changed."""
    if request.method == "GET" and response.status_code == 200 and response.is_json:
        response.add_etag()
        response.headers["Cache-Control"] = "no-cache"
        response.make_conditional(request)
    return response


def _json_body():
    data = request.get_json(silent=True)
    if data is None:
        raise rules.InvalidInput([rules.Problem("body", "not_json", {"detail": "expected JSON"})])
    return data


def _character(character_id: int) -> Character:
    return db.get_or_404(Character, character_id)


def _at_param():
    text = request.args.get("at")
    if text is None:
        return now_utc()
    try:
        return rules.parse_instant(text)
    except ValueError:
        raise rules.InvalidInput([rules.Problem("at", "not_instant", {"got": text[:40]})]) from None


def _state_json(snapshot: rules.Snapshot) -> dict:
    """The state; asked for "now", without the instant, so its ETag changes only with it."""
    data = snapshot.to_dict()
    if "at" not in request.args:
        del data["at"]
    return data


def _character_json(character: Character, warnings: bool = False) -> dict:
    data = {"id": character.id, "event_id": character.event_id, "larp_sheet": character.larp}
    if warnings:
        data["warnings"] = character.larp.get("warnings", [])
    return data


def _badge_refused(code: str):
    if code == "too_many":
        answer, status = error(429, code, refusal_message(code, {}))
        answer.headers["Retry-After"] = "60"
        return answer, status
    return error(404, code, refusal_message(code, {}))


@bp.get("/badges/<path:presented>")
@requires("organiser", "referee")
def get_badge(presented: str):
    """The character a scanned secret or a typed short code names."""
    event_id = request.args.get("event", type=int)
    if event_id is not None and (
        not 0 < event_id <= MAX_ID or db.session.get(Event, event_id) is None
    ):
        raise rules.InvalidInput([rules.Problem("event", "not_found", {"got": event_id})])
    try:
        badge = resolve_badge(presented, g.user, event_id)
    except BadgeRefused as refused:
        db.session.commit()  # the refused lookup is kept for the organiser
        return _badge_refused(refused.code)
    character = badge.character
    return jsonify(
        {
            "character": {
                **_character_json(character),
                "name": character.name,
                "player": character.player,
                "faction": character.faction,
            },
            "badge": {
                "short_code": badge.short_code,
                "issued_at": rules.format_instant(badge.issued_at),
            },
        }
    )


@bp.post("/characters/<int:character_id>/badge")
@requires("organiser")
def reissue_badge(character_id: int):
    """Reissue a lost badge: the old card is refused from now on."""
    badge = reissue_and_commit(character_id)
    if badge is None:
        return error(404, "not_found", "no such character")
    base = public_base_url()
    answer = {
        "secret": badge.secret,
        "short_code": badge.short_code,
        "scan_url": scan_url(base, badge),
        "status_url": status_url(base, badge.character),
    }
    response = jsonify(answer)
    response.headers["Cache-Control"] = "no-store"
    return response, 201


@bp.get("/openapi.json")
def openapi():
    return jsonify(OPENAPI)


@bp.post("/events")
@requires("organiser")
def post_event():
    body = _json_body()
    if not isinstance(body, dict):
        raise rules.InvalidInput([rules.Problem("body", "not_object")])
    event = create_event(body.get("name"), body.get("ruleset"), body.get("settings"))
    db.session.commit()
    return jsonify({"id": event.id, "name": event.name, "ruleset": event.ruleset}), 201


@bp.post("/events/<int:event_id>/characters")
@requires("organiser")
def post_characters(event_id: int):
    event = db.get_or_404(Event, event_id)
    body = _json_body()
    characters = import_sheets(event, body if isinstance(body, list) else [body])
    # The answer is built before the commit, which would expire every row just written.
    answer = {"characters": [_character_json(c, warnings=True) for c in characters]}
    db.session.commit()
    return jsonify(answer), 201


@bp.post("/events/<int:event_id>/characters/check")
@requires("organiser")
def check_characters(event_id: int):
    """Preview an import: every error and warning per row, nothing saved."""
    event = db.get_or_404(Event, event_id)
    body = _json_body()
    _, errors, warnings = check_sheets(event, body if isinstance(body, list) else [body])
    return jsonify(
        {
            "errors": [p.to_dict() | {"message": problem_message(p)} for p in errors],
            "warnings": [p.to_dict() | {"message": problem_message(p)} for p in warnings],
        }
    )


@bp.get("/events/<int:event_id>/roster")
@requires("organiser", "referee")
def roster(event_id: int):
    event = db.get_or_404(Event, event_id)
    at = _at_param()
    return jsonify(
        {
            "event": {"id": event.id, "name": event.name, "ruleset": event.ruleset},
            "characters": [
                {
                    "id": c.id,
                    "character": c.name,
                    "player": c.player,
                    "faction": c.faction,
                    "state": _state_json(state_of(c, at)),
                }
                for c in event.characters
            ],
        }
    )


@bp.get("/characters/<int:character_id>")
@requires("organiser", "referee")
def get_character(character_id: int):
    """The larp sheet; the tabletop sheet (with the organisers' notes) only for organisers."""
    character = _character(character_id)
    data = _character_json(character, warnings=True)
    if g.user.role == "organiser":
        data["tabletop"] = character.tabletop
    return jsonify(data)


@bp.get("/characters/<int:character_id>/state")
@requires("organiser", "referee")
def get_state(character_id: int):
    return jsonify(_state_json(state_of(_character(character_id), _at_param())))


@bp.get("/characters/<int:character_id>/entries")
@requires("organiser", "referee")
def get_entries(character_id: int):
    character = _character(character_id)
    entries = log_of(character)
    snapshot = state_of(character, max([now_utc(), *(e.at for e in entries)]))
    conflicts = {c.id: c for c in snapshot.conflicts}
    undone, _ = rules.resolve_undos(rules.order_log(entries))
    return jsonify(
        {
            "entries": [
                {
                    **rules.entry_to_dict(e),
                    "undone": e.id in undone,
                    "conflict": conflicts[e.id].code if e.id in conflicts else None,
                }
                for e in rules.order_log(entries)
            ]
        }
    )


@bp.post("/characters/<int:character_id>/entries")
@requires("organiser", "referee")
def post_entry(character_id: int):
    character = _character(character_id)
    body = _json_body()
    if isinstance(body, dict) and body.get("kind") == "revive" and g.user.role != "organiser":
        return error(403, "forbidden", "only organisers may revive")
    recorded = record_entry(character, body, g.user)
    answer = {"entry": recorded.fields, "state": recorded.snapshot.to_dict()}
    db.session.commit()
    return jsonify(answer), 201 if recorded.created else 200


@bp.get("/me")
@requires("organiser", "referee")
def me():
    """Who is logged in, and a fresh CSRF token: a page cached for hours has a stale one."""
    return jsonify(
        {"username": g.user.username, "role": g.user.role, "csrf_token": generate_csrf()}
    )


@bp.get("/roster")
@requires("organiser", "referee")
def get_phone_roster():
    """Everything a referee's phone keeps to scan and log offline (badges hashed)."""
    return jsonify(phone_roster(str(get_locale()), now_utc()))


MAX_SYNC = 200  # outbox items in one request


@bp.post("/sync")
@requires("organiser", "referee")
def post_sync():
    """A phone's outbox, oldest first: each entry stored once, or refused in words.

    Each item is committed on its own, so a batch cut short has stored what it answered.
    """
    body = _json_body()
    items = body.get("entries") if isinstance(body, dict) else None
    if not isinstance(items, list):
        raise rules.InvalidInput([rules.Problem("entries", "not_list")])
    if len(items) > MAX_SYNC:
        raise rules.InvalidInput(
            [rules.Problem("entries", "too_many", {"max": MAX_SYNC, "got": len(items)})]
        )
    results = []
    for item in items:
        results.append(sync_one(g.user, item))
        db.session.commit()
    return jsonify({"results": results})
