"""JSON API under /api/v1: bearer tokens, errors as {"error", "message", "fields"}."""

from __future__ import annotations

from functools import wraps

from flask import Blueprint, Response, abort, current_app, g, jsonify, request, session
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf, validate_csrf
from sqlalchemy.exc import InterfaceError, OperationalError
from werkzeug.exceptions import HTTPException
from wtforms import ValidationError

from .. import rules
from ..extensions import db
from ..keeping import tags
from ..keeping.known import Caller, known
from ..keeping.records import records, state_etag
from ..keeping.views import Since, views
from ..messages import problem_message, refusal_message
from ..models import Character, Event
from ..reads.character_log import annotated_log
from ..reads.conflicts import (
    Voided,
    dismiss,
    dismissed_mark,
    voided_for,
    voided_in,
    voided_lately,
)
from ..reads.exports import export_data
from ..reads.roster import phone_roster, roster_text
from ..rules.wire import state_to_wire
from ..services.assignments import NotYourEvent, assigned_events, require_event
from ..services.badges import BadgeRefused, resolve_badge, scan_url, status_url
from ..services.badges import reissue_badge as reissue
from ..services.characters import character_with_event, edit_sheet, withdraw
from ..services.clock import now_utc
from ..services.entries import record_entry, state_of
from ..services.events import archive_event, create_event
from ..services.reimport import ADDED, apply_import, plan_import
from ..services.sync import sync_one
from ..services.users import token_digest, user_for_token
from .answers import state_answer, state_data
from .commits import commit_retrying
from .display import entry_summary, public_base_url
from .fair import costly
from .hygiene import MAX_ID, api_error, http_api_error
from .openapi import document, query_names
from .transfer import encoding_for
from .unavailable import batch_cut_short

bp = Blueprint("api", __name__, url_prefix="/api/v1")


error = api_error


@bp.before_request
def _declared_query_only():
    """A query parameter the operation does not declare is refused (422), naming the
    nearest one it does: a misspelt ``sinec`` is never answered as if no ``since`` was
    asked."""
    if not request.args or request.url_rule is None:
        return
    declared = query_names(request.url_rule.rule, request.method)
    if declared is None:
        return
    checker = rules.Checker()
    for key in request.args:
        if key in declared:
            continue
        shown = key if len(key) <= 40 else key[:39] + "…"
        close = rules.nearest(key, declared)
        if not declared:
            checker.error(shown, "no_query")
        elif close is None:
            checker.error(shown, "unknown_field", allowed=sorted(declared))
        else:
            checker.error(shown, "unknown_field_near", nearest=close)
    checker.raise_if_errors()


@bp.errorhandler(rules.InvalidInput)
def _invalid(exc: rules.InvalidInput):
    fields = {p.path: problem_message(p).split(": ", 1)[1] for p in exc.problems}
    return error(422, "invalid", "; ".join(problem_message(p) for p in exc.problems), fields)


@bp.errorhandler(rules.RuleError)
def _refused(exc: rules.RuleError):
    status = 403 if exc.code == "not_the_author" else 409  # the caller's name, not the rules
    message = refusal_message(exc.code, exc.params, getattr(exc, "ruleset", None))
    return error(status, exc.code, message, exc.params)


@bp.errorhandler(HTTPException)
def _http(exc: HTTPException):
    return http_api_error(exc)


@bp.errorhandler(NotYourEvent)
def _not_your_event(exc: NotYourEvent):
    words = "archived_out_of_reach" if exc.code == "event_archived" else exc.code
    message = refusal_message(words, {"event": exc.event.name})
    return error(403, exc.code, message, {"event": exc.event.id})


def _known_caller(kind: str, secret: str) -> Caller | None:
    """The caller as this worker knows them (keeping/known.py), up to the marks read for
    this request (web/quick.py ``keep_up``): no account read."""
    if len(secret) > 200:
        return None
    return known().caller(kind, token_digest(secret))


def _caller(known_only: bool = False):
    """The bearer token's user; else the logged-in browser's, whose writes carry the CSRF
    token. ``known_only``: as this worker knows them when it does (a ``Caller``, which the
    services read as they read a user), the account read otherwise."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        caller = _known_caller("token", header[7:]) if known_only else None
        return caller or user_for_token(header[7:]), None
    key = session.get("sid")
    caller = _known_caller("session", key) if known_only and isinstance(key, str) else None
    if caller is None and g.get("user") is None:
        return None, None
    if request.method not in ("GET", "HEAD", "OPTIONS"):
        try:
            validate_csrf(request.headers.get("X-CSRFToken", ""))
        except ValidationError:
            return None, error(400, "csrf", "the page's CSRF token is missing or stale")
    return caller or g.user, None


def requires(*roles: str, known_only: bool = False):
    """Refuse a request without a valid bearer token or session of one of ``roles``.
    ``known_only``: the view reads its caller as a ``Caller`` (keeping/known.py)."""

    def decorate(view):
        @wraps(view)
        def wrapped(*args, **kwargs):
            user, refusal = _caller(known_only)
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
    """ETag on every JSON answer, so polling phones get a 304 when nothing changed; answers
    that carry their version's ETag were checked before any work (``versioned``)."""
    if request.method == "GET" and response.status_code in (200, 304):
        response.headers.setdefault("Cache-Control", "no-cache")
        if response.status_code == 200 and response.is_json and "ETag" not in response.headers:
            response.add_etag()
            response.make_conditional(request)
    return response


def not_modified(etag: str):
    """A 304 for a client that holds ``etag`` (weak: the same data, compressed or not)."""
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
        response.set_etag(etag, weak=True)
        return response
    return None


def versioned(data: dict, etag: str):
    response = jsonify(data)
    response.set_etag(etag, weak=True)
    return response


def _json_body():
    data = request.get_json(silent=True)
    if data is None:
        raise rules.InvalidInput([rules.Problem("body", "not_json", {"detail": "expected JSON"})])
    return data


def _character(character_id: int, reading: bool = True) -> Character:
    """The character, refused (403) to a referee who does not work its event, or who would
    read an archived one (services/assignments.py)."""
    character = character_with_event(character_id)
    if character is None:
        abort(404)
    require_event(g.user, character.event, reading)
    return character


def _at_param():
    text = request.args.get("at")
    if text is None:
        return now_utc()
    try:
        return rules.parse_instant(text, zone=True)
    except ValueError as wrong:
        problem = rules.Problem("at", rules.instant_problem(wrong), {"got": text[:40]})
        raise rules.InvalidInput([problem]) from None


def _state_json(snapshot: rules.Snapshot) -> dict:
    """The state (web/answers.py ``state_data``); asked for "now", without the instant."""
    return state_data(snapshot, instant="at" in request.args)


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
    if event_id is not None and not 0 < event_id <= MAX_ID:
        raise rules.InvalidInput([rules.Problem("event", "not_found", {"got": event_id})])
    if event_id is not None and db.session.get(Event, event_id) is None:
        return error(404, "not_found", f"no event {event_id}")  # well formed, names nothing
    if event_id is not None:
        require_event(g.user, db.session.get(Event, event_id))
    try:
        badge = resolve_badge(presented, g.user, event_id)
    except BadgeRefused as refused:
        db.session.commit()  # the refused lookup is kept for the organiser
        return _badge_refused(refused.code)
    character = badge.character
    require_event(g.user, character.event)
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
    badge = commit_retrying(lambda: reissue(character_id))
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
    return jsonify(document())


EVENT_FIELDS = ("name", "ruleset", "settings")  # what a new event's body may say


@bp.post("/events")
@requires("organiser")
def post_event():
    body = _json_body()
    if not isinstance(body, dict):
        raise rules.InvalidInput([rules.Problem("body", "not_object")])
    checker = rules.Checker()
    for key in body:
        if key not in EVENT_FIELDS:
            close = rules.nearest(key, EVENT_FIELDS)
            if close is None:
                checker.error(key[:40], "unknown_field", allowed=list(EVENT_FIELDS))
            else:
                checker.error(key[:40], "unknown_field_near", nearest=close)
    if "settings" in body and not isinstance(body["settings"], dict):
        checker.error("settings", "not_object")  # null too: left out, it is the defaults
    checker.raise_if_errors()
    event = create_event(body.get("name"), body.get("ruleset"), body.get("settings"))
    db.session.commit()
    return jsonify({"id": event.id, "name": event.name, "ruleset": event.ruleset}), 201


@bp.post("/events/<int:event_id>/characters")
@requires("organiser")
def post_characters(event_id: int):
    """Import sheets as the web and the command line do: a sheet with the same player and
    character name as one of the event's (or an ``id`` naming it) updates it, a new one adds
    a character, two rows for one character are refused; all or nothing."""
    event = db.get_or_404(Event, event_id)
    body = _json_body()
    plan = apply_import(event, body if isinstance(body, list) else [body], g.user)
    # The answer is built before the commit, which would expire every row just written.
    answer = {
        "characters": [
            {**_character_json(row.character, warnings=True), "import": row.kind}
            | ({"changed": row.fields} if row.fields else {})
            for row in plan.rows
        ]
    }
    db.session.commit()
    return jsonify(answer), 201 if plan.count(ADDED) else 200


@bp.post("/events/<int:event_id>/characters/check")
@requires("organiser")
def check_characters(event_id: int):
    """Preview an import: every error and warning per row (two rows for one character
    included), nothing saved."""
    event = db.get_or_404(Event, event_id)
    body = _json_body()
    plan = plan_import(event, body if isinstance(body, list) else [body])
    errors, warnings = plan.errors, plan.warnings
    return jsonify(
        {
            "errors": [p.to_dict() | {"message": problem_message(p)} for p in errors],
            "warnings": [p.to_dict() | {"message": problem_message(p)} for p in warnings],
        }
    )


@bp.get("/events/<int:event_id>/roster")
@requires("organiser", "referee")
@costly(when=lambda: "at" in request.args or "since" not in request.args)
def roster(event_id: int):
    """The event's characters and states; with ``since`` (the ``version`` of an earlier
    answer) only those whose state changed after it, a 304 when none did."""
    event = db.get_or_404(Event, event_id)
    require_event(g.user, event)
    head = {"id": event.id, "name": event.name, "ruleset": event.ruleset}
    if "at" in request.args:
        at = _at_param()
        characters = sorted(event.characters, key=lambda c: c.id)
        return jsonify(
            {
                "event": head,
                "characters": [
                    {
                        "id": c.id,
                        "character": c.name,
                        "player": c.player,
                        "faction": c.faction,
                        "state": _state_json(state_of(c, at)),
                    }
                    for c in characters
                ],
            }
        )
    view = views().view(event, now_utc())
    since = Since.read(request.args.get("since"))
    etag = f"event-roster.{view.token().text()}"
    if view.unchanged(since, event.version):
        response = Response(status=304)
        response.set_etag(etag, weak=True)
        return response
    answer = not_modified(etag)
    if answer is not None:
        return answer
    rows = sorted(view.since(since), key=lambda r: r.id)
    return versioned(
        {
            "event": head,
            "version": view.token().text(),
            "full": since is None,
            "characters": [
                {
                    "id": r.id,
                    "character": r.name,
                    "player": r.player,
                    "faction": r.faction,
                    "state": r.record.state_json,
                }
                for r in rows
            ],
        },
        etag,
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


def _entry_json(entry: rules.Entry) -> dict:
    return {
        "id": entry.id,
        "kind": entry.kind,
        "at": rules.format_instant(entry.at),
        "author": entry.author,
        "summary": entry_summary(entry),
    }


def voided_json(item: Voided) -> dict:
    """One of the caller's entries that stopped counting, why, and because of which entry."""
    return {
        **_entry_json(item.entry),
        "character": {"id": item.character.id, "name": item.character.name},
        "code": item.code,
        "message": refusal_message(item.code, item.params),
        "because": None if item.because is None else _entry_json(item.because),
    }


def _your_conflicts(character: Character) -> list[dict]:
    return [voided_json(v) for v in voided_for(g.user, [character], now_utc())]


@bp.put("/characters/<int:character_id>/sheet")
@requires("organiser")
def put_sheet(character_id: int):
    """Replace the tabletop sheet: checked as an import, the larp sheet recomputed, the log kept,
    the change recorded."""
    character = _character(character_id)
    changed = edit_sheet(character, _json_body(), g.user, source="api")
    answer = {**_character_json(character, warnings=True), "changed": changed}
    db.session.commit()
    return jsonify(answer)


@bp.post("/characters/<int:character_id>/withdraw")
@requires("organiser")
def post_withdraw(character_id: int):
    """Withdraw from the event (``{"withdrawn": false}`` brings the character back)."""
    character = _character(character_id)
    body = request.get_json(silent=True) or {}
    withdrawn = body.get("withdrawn", True) if isinstance(body, dict) else True
    if not isinstance(withdrawn, bool):
        raise rules.InvalidInput([rules.Problem("withdrawn", "not_bool", {"got": withdrawn})])
    withdraw(character, withdrawn)
    db.session.commit()
    return jsonify({"id": character.id, "withdrawn": withdrawn})


@bp.post("/events/<int:event_id>/archive")
@requires("organiser")
def post_archive(event_id: int):
    """Archive the event (read-only, out of the roster); ``{"archived": false}`` reopens it."""
    event = db.get_or_404(Event, event_id)
    body = request.get_json(silent=True) or {}
    archived = body.get("archived", True) if isinstance(body, dict) else True
    if not isinstance(archived, bool):
        raise rules.InvalidInput([rules.Problem("archived", "not_bool", {"got": archived})])
    archive_event(event, archived)
    db.session.commit()
    return jsonify({"id": event.id, "archived": archived})


@bp.get("/events/<int:event_id>/export")
@requires("organiser")
@costly()
def get_export(event_id: int):
    """Final states, one per character, and the whole log."""
    response = jsonify(export_data(db.get_or_404(Event, event_id), now_utc()))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/characters/<int:character_id>/state")
@requires("organiser", "referee")
def get_state(character_id: int):
    """The state now (or ``at``), with ``your_conflicts``: the caller's entries here that
    stopped counting, until dismissed. Polled with If-None-Match: an unchanged state is
    answered before Flask (web/quick.py), and here a 304 costs no fold (an entry voided
    here raises the character's version: the tag changes with it)."""
    character = _character(character_id)
    if "at" in request.args:
        state = state_of(character, _at_param())
        return jsonify({**_state_json(state), "your_conflicts": _your_conflicts(character)})
    now = now_utc()
    # The conflicts are the caller's: their dismissals change the answer too.
    tag = state_etag(character, now)
    etag = tags.console_state(tag, g.user.id, dismissed_mark(g.user))
    if (unchanged := not_modified(etag)) is not None:
        return unchanged
    record = records().record(character)
    conflicts = _your_conflicts(character)
    if conflicts or (record.folded.last_at is not None and record.folded.last_at > now):
        state = _state_json(state_of(character, now))
        return versioned({**state, "your_conflicts": conflicts}, etag)
    # The answer every caller gets, rendered once (web/answers.py): as the quick answers do.
    encoding = encoding_for(request.headers.get("Accept-Encoding", ""))
    body, encoded = state_answer(current_app, record, tag, now, encoding)
    response = Response(body, mimetype="application/json")
    if encoded:
        response.headers["Content-Encoding"] = encoded
    response.set_etag(etag, weak=True)
    return response


@bp.get("/conflicts")
@requires("organiser", "referee")
def get_conflicts():
    """The caller's entries of the last day that stopped counting and are not dismissed."""
    now = now_utc()
    voided = voided_lately(g.user, now)
    return jsonify({"conflicts": [voided_json(v) for v in voided]})


@bp.post("/conflicts/<client_id>/dismiss")
@requires("organiser", "referee")
def dismiss_conflict(client_id: str):
    """The caller has seen that one of their entries stopped counting."""
    if not dismiss(g.user, client_id, now_utc()):
        return error(404, "not_found", "no entry of yours has this id")
    db.session.commit()
    return "", 204


@bp.get("/characters/<int:character_id>/entries")
@requires("organiser", "referee")
def get_entries(character_id: int):
    log = annotated_log(_character(character_id), now_utc())
    return jsonify(
        {
            "entries": [
                {
                    **rules.entry_to_dict(e),
                    "undone": e.id in log.undone,
                    "conflict": log.conflicts[e.id].code if e.id in log.conflicts else None,
                }
                for e in log.entries
            ]
        }
    )


@bp.post("/characters/<int:character_id>/entries")
@requires("organiser", "referee")
def post_entry(character_id: int):
    character = _character(character_id, reading=False)
    body = _json_body()
    if isinstance(body, dict) and not rules.may_log(body.get("kind"), g.user.role):
        return error(403, "forbidden", refusal_message("only_organisers", {}))
    try:
        recorded = record_entry(character, body, g.user)
    except rules.RuleError:
        db.session.commit()  # the refusal is kept for the organiser's board, once per id
        raise
    if recorded.whole:  # the whole log was just folded: its conflicts are known
        voided = voided_in(g.user, character, recorded.snapshot)
        your_conflicts = [voided_json(v) for v in voided]
    else:
        your_conflicts = _your_conflicts(character)
    answer = {
        "entry": recorded.fields,
        "state": {
            **recorded.snapshot.to_dict(),
            "fold": state_to_wire(recorded.snapshot.state),
        },
        "your_conflicts": your_conflicts,
    }
    db.session.commit()
    return jsonify(answer), 201 if recorded.created else 200


@bp.get("/me")
@requires("organiser", "referee")
def me():
    """Who is logged in, and a fresh CSRF token: a page cached for hours has a stale one."""
    return jsonify(
        {"username": g.user.username, "role": g.user.role, "csrf_token": generate_csrf()}
    )


MAX_KITS = 64  # kits a phone names as held, at most (more are not read)


@bp.get("/roster")
@requires("organiser", "referee")
@costly(when=lambda: "since" not in request.args)
def get_phone_roster():
    """Everything a referee's phone keeps to scan and log offline (badges hashed), for the
    events the referee works (services/assignments.py).

    ``event`` (ids, comma-separated) limits it to those events (403 for one not worked);
    ``since`` (the ``version`` of an earlier answer) asks for what changed after it: a 304
    when nothing did (a phone whose roster is current is answered before Flask:
    web/quick.py); ``kits`` (digests, comma-separated) names the events' kits the phone
    holds: a change answers each of those with its id and digest alone.
    """
    locale = str(get_locale())
    events = request.args.get("event")
    event_ids = None
    if events is not None:  # given, it names events: empty names none, and is refused
        try:
            event_ids = [int(n) for n in events.split(",")]
        except ValueError:
            raise rules.InvalidInput(
                [rules.Problem("event", "not_int", {"got": events[:40]})]
            ) from None
        if any(not 0 < n <= MAX_ID for n in event_ids):  # beyond the database's integers
            raise rules.InvalidInput([rules.Problem("event", "not_found", {"got": events[:40]})])
    worked = assigned_events(g.user)  # None: every open event
    if event_ids is None:
        event_ids = None if worked is None else sorted(worked)
    else:
        for event_id in event_ids:
            if event := db.session.get(Event, event_id):
                require_event(g.user, event)
    since = request.args.get("since")
    kits = frozenset(request.args.get("kits", "").split(",")[:MAX_KITS])
    token, data = phone_roster(locale, now_utc(), since, event_ids, kits)
    etag = tags.roster(locale, token)
    if data is None:
        response = Response(status=304)
        response.set_etag(etag, weak=True)
        return response
    if (unchanged := not_modified(etag)) is not None:
        return unchanged
    response = Response(roster_text(data), mimetype="application/json")
    response.set_etag(etag, weak=True)
    return response


MAX_SYNC = 200  # outbox items in one request


@bp.post("/sync")
@requires("organiser", "referee", known_only=True)
def post_sync():
    """A phone's outbox, oldest first: each entry stored once, or refused in words.

    Each item is committed on its own, so a batch cut short has stored what it answered.
    """
    body = _json_body()
    items = body.get("entries") if isinstance(body, dict) else None
    if not isinstance(items, list):
        raise rules.InvalidInput([rules.Problem("entries", "not_list")])
    # The batch's shape first (its document's): an item that is no object refuses it whole,
    # before anything is stored; each object is then answered on its own.
    shapeless = [
        rules.Problem(f"entries[{row}]", "not_object")
        for row, item in enumerate(items)
        if not isinstance(item, dict)
    ]
    if shapeless:
        raise rules.InvalidInput(shapeless)
    # Entries the phone holds for another user: reported, so the organiser sees them, and
    # answered ``held`` (never stored under the caller's name: each must name its author).
    held = body.get("held", [])
    if not isinstance(held, list):
        raise rules.InvalidInput([rules.Problem("held", "not_list")])
    for row, item in enumerate(held):
        if not isinstance(item, dict) or not isinstance(item.get("author"), str):
            raise rules.InvalidInput([rules.Problem(f"held[{row}].author", "required")])
    items = [*items, *held]
    if len(items) > MAX_SYNC:
        raise rules.InvalidInput(
            [rules.Problem("entries", "too_many", {"max": MAX_SYNC, "got": len(items)})]
        )
    results: list[dict] = []
    in_commit = False
    try:
        worked = assigned_events(g.user)  # read once for the batch
        for item in items:
            result = sync_one(g.user, item, worked)
            in_commit = True
            db.session.commit()
            in_commit = False
            results.append(result)
        now = now_utc()
        voided = voided_lately(g.user, now)
    except (OperationalError, InterfaceError) as failure:  # some were stored: say how many
        return batch_cut_short(failure, results, len(items), in_commit)
    return jsonify({"results": results, "conflicts": [voided_json(v) for v in voided]})
