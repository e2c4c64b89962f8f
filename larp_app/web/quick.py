"""Polls answered before Flask: what a stored answer costs.

A console's state, a player's page, a phone's roster and the board poll every few seconds
with the ETag of the answer they hold; nearly every poll changed nothing. This middleware in
front of the app answers those 304 Not Modified from what the worker already knows: who the
caller is and what they may read (keeping/known.py, checked against the database's marks
with one tiny query), the character's or the event's version, and the instant of its next
change by time alone (keeping/records.py, keeping/views.py). No request context, session,
user or ORM object is made, and nothing is folded.

A console's state that did change is answered here too (200): the worker's record of the
character is brought to its version with the entries stored since (one small query,
folded on: ``Records.caught_up``), and the answer is rendered once per tag and encoding
and served as bytes (web/answers.py), the full path's own.

The tag compared is the full path's own (web/api.py, web/player.py, web/organiser/board.py),
built from the same facts; the answer carries the full path's headers. Anything this does not
know for certain (a caller never seen, a state this worker has not folded at its version, a
tag that does not match, a session cookie signed over an hour ago, which the full path signs
again) goes to the full path, which answers in words.

Nothing is kept for a request that has not proven who it is: a session cookie is kept
(parsed, to skip its signature's check next time) only once its signature checked and its
session is known open, and an ``Accept-Language`` header only for a caller known, or a
player link found; what is kept is bounded in bytes, the oldest going first, and forgotten
with the callers whenever the accounts mark moves. Junk from a stranger costs its parse and
nothing after. Cookie lines sent repeated (a server joins them into one header) or longer
than any one line may be are refused before anything reads them: gunicorn's workers see
the lines themselves (larp_app/serving.py ``pre_request`` marks the request); any server
joins them with a comma, seen here; Flask answers 431 in the caller's words
(web/hygiene.py).

Every request reads the database's marks once (keeping/known.py): a quick answer reads
them itself, and ``keep_up`` reads them before Flask reads anything else for a request
left to it, so no cache is read under marks older than the request.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from urllib.parse import parse_qs

from flask import Flask, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie
from werkzeug.wsgi import ClosingIterator

from ..keeping import tags
from ..keeping.known import REFUSALS, Known, known_for
from ..keeping.records import PLAYER_FACTS, RECORDS, settings_key_of_text
from ..keeping.views import VIEWS, kept_view_token
from ..services import clock
from ..services.assignments import reach
from ..services.users import token_digest
from ..tokens import SECRET_LENGTH, digest
from .answers import player_answer, state_answer
from .health import request_log, serving_beat, write_request_line
from .hygiene import COOKIES_REFUSED as REFUSED
from .hygiene import MAX_ID
from .i18n import browser_locale, pick_locale
from .security import FRESH_COOKIE, security_headers
from .transfer import encoding_for

log = logging.getLogger(__name__)

# A session cookie signed longer ago than FRESH_COOKIE is left to the full path, which signs
# it again (a phone that only ever polls stays logged in: PERMANENT_SESSION_LIFETIME).
# What the proven cookie headers kept may take, and the language headers kept, in bytes
# (a phone's cookie header is a few hundred bytes: thousands of phones), and the longest
# header of either that is kept at all.
KEPT_COOKIE_BYTES = 2 * 1024 * 1024
KEPT_ACCEPT_BYTES = 128 * 1024
LONGEST_KEPT = 4096
OVERHEAD = 400  # bytes a kept header costs besides its text: its key, the parsed value
# One header line, at most (gunicorn's limit_request_field_size): a longer Cookie header is
# repeated lines joined by the server.
MAX_COOKIE = 8190
# Set in the environ: that this request read the database's marks already.
MARKS_READ = "larp.marks_read"
COOKIE_READ = "larp.cookie_read"  # the session cookie as this request read it
REFUSED_HEADER = "HTTP_LARP_COOKIES_REFUSED"  # set by serving.py's pre_request

STATE_PREFIX, STATE_SUFFIX = "/api/v1/characters/", "/state"
PLAYER_PREFIX, PLAYER_SUFFIX = "/p/", "/live.json"
BOARD_PREFIX, BOARD_SUFFIX = "/events/", "/board.json"
ROSTER = "/api/v1/roster"
VARY = "Accept-Encoding, Cookie"  # an answer in the language the session cookie may choose
STAFF = ("organiser", "referee")  # who may poll a state or a roster (web/api.py requires)


def _number(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and 0 < int(text) <= MAX_ID else None


def _holds(if_none_match: str, etag: str) -> bool:
    """Whether the client holds ``etag`` (compared weakly, as the full path does)."""
    return f'"{etag}"' in if_none_match


def cookies_refused(environ: dict, session_cookie: str) -> str | None:
    """Why the request's Cookie header is refused (``repeated``: lines sent more than once,
    each naming the session; ``too_large``: longer than one line may be), or None."""
    marked = environ.get(REFUSED_HEADER)
    if marked:
        return "too_large" if marked == "too_large" else "repeated"
    header = environ.get("HTTP_COOKIE")
    if not header:
        return None
    if len(header) > MAX_COOKIE:
        return "too_large"
    if "," in header:  # lines joined by the server (a browser sends one line)
        lines = [line for line in header.split(",") if session_cookie in parse_cookie(line)]
        if len(lines) > 1:
            return "repeated"
    return None


class Kept:
    """Parsed headers of requests that proved who they are, bounded in bytes: the oldest
    kept goes first. Read without a lock; kept under one."""

    def __init__(self, budget: int):
        self.budget = budget
        self.items: dict[str, tuple] = {}
        self.bytes = 0
        self._lock = threading.Lock()

    def get(self, key: str):
        found = self.items.get(key)
        return None if found is None else found[0]

    def keep(self, key: str, value) -> None:
        if len(key) > LONGEST_KEPT or key in self.items:
            return
        cost = 2 * len(key) + OVERHEAD
        with self._lock:
            while self.items and self.bytes + cost > self.budget:
                oldest = next(iter(self.items))
                self.bytes -= self.items.pop(oldest)[1]
            self.items[key] = (value, cost)
            self.bytes += cost

    def clear(self) -> None:
        with self._lock:
            self.items, self.bytes = {}, 0


class QuickAnswers:
    """The WSGI middleware (see the module's words)."""

    def __init__(self, app: Flask, wsgi_app: Callable):
        self.app = app
        self.wsgi_app = wsgi_app
        self._known: Known | None = None
        self._cookies = Kept(KEPT_COOKIE_BYTES)  # header -> (session data, signed at)
        self._accepts = Kept(KEPT_ACCEPT_BYTES)  # header -> the browser's best language

    @property
    def known(self) -> Known:
        if self._known is None:
            known = known_for(self.app)
            known.also_forget(self._cookies.clear, accounts=True)  # a session ended, ...
            self._known = known
        return self._known

    def kept_bytes(self) -> int:
        """What the kept headers take, in bytes, as they are counted against the bounds."""
        return self._cookies.bytes + self._accepts.bytes

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        refused = cookies_refused(environ, self.app.config["SESSION_COOKIE_NAME"])
        if refused is not None:  # nothing reads them: Flask refuses in words (431)
            environ.pop("HTTP_COOKIE", None)
            environ[REFUSED] = refused
            return self.wsgi_app(environ, start_response)
        if environ.get("REQUEST_METHOD") == "GET":
            started = time.perf_counter()
            try:
                answer = self._quick(environ)
            except Exception as failure:  # a cache: the full path answers, in words
                log.warning("quick answer left to the full path: %r", failure)
                answer = None
            if answer is not None:
                return self._answer(environ, start_response, started, *answer)
        return self.wsgi_app(environ, start_response)

    # --- which poll ---------------------------------------------------------------------

    def _quick(self, environ: dict) -> tuple | None:
        """The ETag and headers of a 304 for this request, and the body of a 200 with its
        headers where it changed and is known here; or None (the full path)."""
        path = environ.get("PATH_INFO", "")
        held = environ.get("HTTP_IF_NONE_MATCH", "")
        query = environ.get("QUERY_STRING", "")
        if path == ROSTER:
            return self._roster(environ, held, query)
        if "*" in held:
            return None
        if path.startswith(PLAYER_PREFIX) and path.endswith(PLAYER_SUFFIX):
            secret = path[len(PLAYER_PREFIX) : -len(PLAYER_SUFFIX)]
            if 0 < len(secret) <= SECRET_LENGTH * 2 and "/" not in secret and not query:
                return self._player(environ, held, secret)
        elif path.startswith(STATE_PREFIX) and path.endswith(STATE_SUFFIX) and not query:
            character_id = _number(path[len(STATE_PREFIX) : -len(STATE_SUFFIX)])
            if character_id is not None:
                return self._state(environ, held, character_id)
        elif path.startswith(BOARD_PREFIX) and path.endswith(BOARD_SUFFIX) and held:
            event_id = _number(path[len(BOARD_PREFIX) : -len(BOARD_SUFFIX)])
            if event_id is not None:
                return self._board(environ, held, event_id)
        return None

    # --- each poll, as its full path tags it --------------------------------------------

    def _state(self, environ, held, character_id):
        """web/api.py ``get_state``: the state's tag, the caller's id and dismissals; the
        state itself when it changed (rendered once, web/answers.py)."""
        caller = self._caller(environ)
        if caller is None or caller.role not in STAFF:
            return None
        known = self.known
        character = known.character(character_id)
        event = None if character is None else known.event(character.event_id)
        if event is None or reach(caller.role, caller.worked, character.event_id, event.archived):
            return None
        found = self._record(character_id, character.version)
        if found is None:
            return None
        record, tag, now = found
        etag = tags.console_state(tag, caller.user_id, caller.dismissed)
        # A bearer token's answer never read the session: it does not vary with the cookie.
        by_token = environ.get("HTTP_AUTHORIZATION", "").startswith("Bearer ")
        headers = [("Cache-Control", "no-cache"), ("Vary", "Accept-Encoding" if by_token else VARY)]
        if _holds(held, etag):
            return etag, headers
        if record.folded.conflicts:
            return None  # the caller's entries that stopped counting: the full path reads them
        encoding = encoding_for(environ.get("HTTP_ACCEPT_ENCODING", ""))
        body, encoded = state_answer(self.app, record, tag, now, encoding)
        return etag, [*headers, *_content("application/json", body, encoded)], body

    def _player(self, environ, held, secret):
        """web/player.py ``live``: the player's language and the character's state tag."""
        session = self._session(environ)
        if session is False:
            return None
        self._current(environ)
        character = self.known.player(digest(secret.upper()))
        if character is None:
            return None
        locale = self._locale(environ, session)
        if locale is None:
            return None
        found = self._record(character.id, character.version)
        if found is None:
            return None
        record, tag, now = found
        etag = tags.player(locale, tag)
        headers = [
            ("X-Robots-Tag", "noindex"),
            ("Cache-Control", "private, no-cache"),
            ("Vary", VARY),
        ]
        if _holds(held, etag):
            return etag, headers

        def facts():
            if record.who is not None:  # read with the record at its version
                (name, player, faction), ruleset = record.who, record.ctx.ruleset.key
                settings = record.settings  # (its key: the settings as JSON)
            else:
                name, player, faction, ruleset, text = self.known.rows(
                    PLAYER_FACTS, {"character": character.id}
                )[0]
                settings = settings_key_of_text(text)
            who = {"name": name, "player": player, "faction": faction}
            return who, ruleset, settings

        encoding = encoding_for(environ.get("HTTP_ACCEPT_ENCODING", ""))
        body, encoded = player_answer(self.app, record, tag, locale, now, encoding, facts)
        return etag, [*headers, *_content("application/json", body, encoded)], body

    def _record(self, character_id: int, version: int):
        """The record this worker keeps of a character at ``version`` (brought up to it when
        behind), its tag now, and now; None when not known here."""
        kept = self._records()
        record = None if kept is None else kept.records.get(character_id)
        if record is not None and record.version != version:
            record = kept.caught_up(self.known.rows, character_id, version)
        if record is None or record.version != version:
            return None
        now = clock.now_utc()
        tag = kept.poll_tag(record, now)
        return None if tag is None else (record, tag, now)

    def _roster(self, environ, held, query):
        """web/api.py ``get_phone_roster``: the caller's language and the views' tokens of
        the open events they work (or of those asked)."""
        asked = parse_qs(query, keep_blank_values=True)
        since = asked.pop("since", [None])
        events = asked.pop("event", [None])
        asked.pop("kits", None)  # the kits held: no 304 depends on them
        if asked or len(since) > 1 or len(events) > 1 or (since[0] is None and not held):
            return None
        caller = self._caller(environ)
        if caller is None or caller.role not in STAFF:
            return None
        known = self.known
        worked = sorted(
            event_id
            for event_id, facts in known.events.items()
            if not facts.archived and not reach(caller.role, caller.worked, event_id, False)
        )
        if events[0] is not None:
            ids = [_number(n) for n in events[0].split(",")]
            if None in ids or any(n not in worked for n in ids):
                return None  # not theirs, archived or unknown: the full path says so
            worked = sorted(set(ids))
        if not worked:
            return None
        now = clock.now_utc()
        kept = self._views()
        tokens = [kept_view_token(kept, n, known.events[n].version, now) for n in worked]
        if any(t is None for t in tokens):
            return None
        locale = self._locale(environ, self._session(environ) or {}, caller)
        token = tags.roster_version(locale, zip(worked, tokens, strict=True))
        etag = tags.roster(locale, token)
        if since[0] == token or (held and _holds(held, etag)):
            return etag, [("Cache-Control", "no-cache"), ("Vary", VARY)]
        return None

    def _board(self, environ, held, event_id):
        """web/organiser/board.py ``board_live``: the view's token and the newest refusal,
        for an organiser."""
        caller = self._caller(environ, cookie_only=True)
        if caller is None or caller.role != "organiser":
            return None
        known = self.known
        event = known.event(event_id)
        if event is None:
            return None
        token = kept_view_token(self._views(), event_id, event.version, clock.now_utc())
        if token is None:
            return None
        locale = self._locale(environ, self._session(environ) or {}, caller)
        etag = tags.board(locale, tags.board_version(token, known.marks[REFUSALS]))
        return (
            (etag, [("Cache-Control", "no-cache"), ("Vary", VARY)]) if _holds(held, etag) else None
        )

    # --- who asks, in which language ----------------------------------------------------

    def _records(self):
        return self.app.extensions.get(RECORDS)

    def _views(self):
        return self.app.extensions.get(VIEWS)

    def _current(self, environ) -> None:
        """What is known, brought up to the database's marks, once for this request."""
        self.known.current()
        environ[MARKS_READ] = True

    def _caller(self, environ, cookie_only: bool = False):
        """The caller of a bearer token or of the session cookie, with what is known
        brought up to the database's marks; None: unknown here (the full path answers)."""
        header = environ.get("HTTP_AUTHORIZATION", "")
        if header.startswith("Bearer ") and not cookie_only:
            kind, secret = "token", header[7:]
        else:
            session = self._session(environ)
            if not session or not isinstance(session.get("sid"), str):
                return None
            kind, secret = "session", session["sid"]
        if len(secret) > 200:
            return None
        self._current(environ)
        caller = self.known.caller(kind, token_digest(secret))
        if caller is not None and kind == "session":
            self._keep_cookie(environ)
        return caller

    def _session(self, environ) -> dict | bool:
        """The session cookie's data ({} without one); False when it cannot be trusted
        here (badly signed, expired, or signed too long ago: the full path decides). A
        cookie read here is kept only once its session is known open (``_keep_cookie``)."""
        header = environ.get("HTTP_COOKIE")
        if not header:
            return {}
        kept = self._cookies.get(header)
        if kept is None:
            kept = environ.get(COOKIE_READ)  # read before in this request
            if kept is None:
                kept = environ[COOKIE_READ] = self._read_cookie(header)
        if kept is False:
            return False
        data, signed = kept
        if signed and time.time() - signed > FRESH_COOKIE.total_seconds():
            return False
        return data

    def _keep_cookie(self, environ) -> None:
        """The request's cookie, read here, names an open session: kept from now on."""
        read = environ.get(COOKIE_READ)
        if read:  # (neither False nor kept already)
            self._cookies.keep(environ["HTTP_COOKIE"], read)

    def _read_cookie(self, header: str):
        return read_session_cookie(self.app, header)

    def _locale(self, environ, session: dict, caller=None) -> str | None:
        """web/i18n.py ``select_locale``: the switcher's choice, else the logged-in user's
        stored language, else the browser's. None: a session whose user is not known.
        Asked only once the request proved who it is (a caller, a player link)."""
        config = self.app.config
        if (
            caller is None
            and isinstance(session.get("sid"), str)
            and (session.get("lang") not in config["LANGUAGES"])
        ):
            caller = self.known.caller("session", token_digest(session["sid"]))
            if caller is None:
                return None  # an ended session: the full path clears the cookie
            self._keep_cookie(environ)
        language = None if caller is None else caller.language
        return pick_locale(
            session.get("lang"),
            language,
            lambda: self._browser_locale(environ),
            config["LANGUAGES"],
        )

    def _browser_locale(self, environ) -> str:
        """The language the request's ``Accept-Language`` picks, found once a header."""
        header = environ.get("HTTP_ACCEPT_LANGUAGE", "")
        browser = self._accepts.get(header)
        if browser is None:
            config = self.app.config
            accept = parse_accept_header(header, LanguageAccept)
            browser = browser_locale(accept, config["LANGUAGES"], config["BABEL_DEFAULT_LOCALE"])
            self._accepts.keep(header, browser)
        return browser

    # --- the answer ---------------------------------------------------------------------

    def _answer(self, environ, start_response, started, etag, headers, body=None):
        secure = environ.get("wsgi.url_scheme") == "https"
        headers = [
            ("ETag", f'W/"{etag}"'),
            *headers,
            *security_headers(secure, self.app.config.get("PUSH_URL")),
        ]
        status = 304 if body is None else 200
        start_response("304 NOT MODIFIED" if body is None else "200 OK", headers)
        if request_log.isEnabledFor(logging.INFO):
            path = environ.get("PATH_INFO", "")
            if path.startswith(PLAYER_PREFIX):  # the secret stays out of the log
                path = f"{PLAYER_PREFIX}…{PLAYER_SUFFIX}"
            took = (time.perf_counter() - started) * 1000
            write_request_line(environ.get("REMOTE_ADDR"), "GET", path, status, took)
        answer = [] if body is None else [body]
        due = serving_beat(self.app, self.known.engine)  # the worker says it serves
        return answer if due is None else ClosingIterator(answer, due)


def read_session_cookie(app: Flask, header: str):
    """The session cookie of a ``Cookie`` header, its signature checked: (its data, when it
    was signed), ({}, 0.0) without one; False when badly signed or expired."""
    value = parse_cookie(header).get(app.config["SESSION_COOKIE_NAME"])
    if value is None:
        return {}, 0.0
    serializer = app.session_interface.get_signing_serializer(app)
    if serializer is None:
        return False
    try:
        data, signed = serializer.loads(
            value,
            max_age=int(app.permanent_session_lifetime.total_seconds()),
            return_timestamp=True,
        )
    except Exception:  # badly signed or expired: the full path clears it
        return False
    return (data if isinstance(data, dict) else {}), signed.timestamp()


def _content(mimetype: str, body: bytes, encoding: str | None) -> list[tuple[str, str]]:
    """A body's headers as Flask and Flask-Compress give them."""
    headers = [("Content-Type", mimetype), ("Content-Length", str(len(body)))]
    return [*headers, ("Content-Encoding", encoding)] if encoding else headers


def keep_up() -> None:
    """Before Flask reads anything for a request the quick answers left to it: what the
    worker keeps, brought up to the database's marks (once a request; a failure to read
    them forgets everything, as their moving would)."""
    if request.environ.get(MARKS_READ) or request.endpoint == "static":
        return
    from ..keeping.known import known

    kept = known()
    try:
        kept.current(versions=False)
        request.environ[MARKS_READ] = True
    except Exception as failure:  # the request's own reads answer, and log, for the database
        log.debug("marks not read, everything kept forgotten: %r", failure)
        kept.forget_everything()
