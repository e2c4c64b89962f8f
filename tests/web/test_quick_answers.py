"""Polls that changed nothing are answered before Flask (larp_app/web/quick.py), from what
the worker knows, checked against the database's marks (larp_app/keeping/known.py): the
same tag and headers as the full path's 304, no request context made, and never an answer
of what another worker has since changed — an entry, a token revoked, a session ended, a
referee taken off the event, a dismissal, a refusal."""

from __future__ import annotations

import contextvars
import json
import time
import uuid

import pytest
import sqlalchemy

from larp_app import rules
from larp_app.extensions import db
from larp_app.keeping.records import CAUGHT_UP, PLAYER_FACTS, RECORDS
from larp_app.messages import plugin_catalogue
from larp_app.models import ApiToken, Character, Mark, RefereeEvent, User, WebSession
from larp_app.reads import words
from larp_app.services.clock import now_utc
from larp_app.web import display

from .conftest import auth
from .helpers import data_sheet, log_in, make_user, post_form

pytestmark = pytest.mark.both_databases


@pytest.fixture
def secret(app, character_id):
    with app.app_context():
        return db.session.get(Character, character_id).player_secret


@pytest.fixture
def phone(app, client):
    """A referee logged in on a phone (the session cookie, as the console polls)."""
    make_user(app, "rita", "referee")
    browser = app.test_client()
    assert log_in(browser, "rita").status_code == 302
    return browser


@pytest.fixture
def board(app):
    """The organiser logged in at the laptop, for the board."""
    make_user(app, "olga", "organiser")
    browser = app.test_client()
    assert log_in(browser, "olga").status_code == 302
    return browser


def full_path_only(app):
    """The app without its quick answers: every request through Flask."""
    return app.wsgi_app.wsgi_app


class NoFlask:
    """Stand in for Flask behind the quick answers: any request that reaches it fails."""

    def __init__(self, app):
        self.app = app
        self.inner = app.wsgi_app.wsgi_app

    def __enter__(self):
        def refuse(environ, start_response):
            raise AssertionError(f"reached Flask: {environ['PATH_INFO']}")

        self.app.wsgi_app.wsgi_app = refuse

    def __exit__(self, *exc):
        self.app.wsgi_app.wsgi_app = self.inner


def again(client, url, first, headers=None, **kwargs):
    held = {**(headers or {}), "If-None-Match": first.headers["ETag"]}
    return client.get(url, headers=held, **kwargs)


def again_through_flask(app, client, url, first, headers=None):
    """``again``, answered by the full path alone (the quick answers set aside meanwhile)."""
    quick = app.wsgi_app
    app.wsgi_app = full_path_only(app)
    try:
        return again(client, url, first, headers)
    finally:
        app.wsgi_app = quick


def polls(event_id, character_id, secret, referee, phone, board, client):
    """Each kind of poll: (who asks, the URL, headers)."""
    return {
        "console state by token": (client, f"/api/v1/characters/{character_id}/state", referee),
        "console state by phone": (phone, f"/api/v1/characters/{character_id}/state", {}),
        "player page": (client, f"/p/{secret}/live.json", {}),
        "phone roster": (phone, "/api/v1/roster", {}),
        "board": (board, f"/events/{event_id}/board.json", {}),
    }


KINDS = ["console state by token", "console state by phone", "player page", "phone roster"]


def log(client, character_id, headers, **body):
    answer = client.post(
        f"/api/v1/characters/{character_id}/entries",
        json={"id": str(uuid.uuid4()), "at": rules.format_instant(now_utc()), **body},
        headers=headers,
    )
    assert answer.status_code == 201, answer.json
    return answer


@pytest.mark.parametrize("kind", [*KINDS, "board"])
def test_an_unchanged_poll_is_answered_before_flask_with_the_full_paths_tag_and_headers(
    app, client, referee, phone, board, event_id, character_id, secret, kind
):
    asker, url, headers = polls(event_id, character_id, secret, referee, phone, board, client)[kind]
    first = asker.get(url, headers=headers)
    assert first.status_code == 200
    full = again_through_flask(app, asker, url, first, headers)
    assert full.status_code == 304
    with NoFlask(app):
        answered = again(asker, url, first, headers)
    assert answered.status_code == 304
    assert answered.data == b""
    ignored = {"Set-Cookie", "Date"}  # the full path signs the cookie again: a fresh one
    assert {k: v for k, v in answered.headers.items() if k not in ignored} == {
        k: v for k, v in full.headers.items() if k not in ignored
    }


@pytest.mark.parametrize("encoding", ["identity", "gzip, deflate, br, zstd"])
@pytest.mark.parametrize(
    "kind", ["console state by token", "console state by phone", "player page"]
)
def test_a_changed_state_is_answered_before_flask_with_the_full_paths_tag_headers_and_body(
    app, client, other_worker, organiser, referee, phone, board, event_id, character_id,
    secret, kind, encoding,
):  # fmt: skip
    asker, url, headers = polls(event_id, character_id, secret, referee, phone, board, client)[kind]
    headers = {**headers, "Accept-Encoding": encoding}
    first = asker.get(url, headers=headers)
    assert first.status_code == 200
    # Another worker stores an entry: this one's record is behind, and is brought up to it.
    log(other_worker, character_id, organiser, kind="hit", damage=2, pierce=True)
    with NoFlask(app):
        quick = again(asker, url, first, headers)
    assert quick.status_code == 200
    full = again_through_flask(app, asker, url, first, headers)
    assert full.status_code == 200
    assert quick.data == full.data  # the same bytes, encoded alike
    ignored = {"Set-Cookie", "Date"}
    assert {k: v for k, v in quick.headers.items() if k not in ignored} == {
        k: v for k, v in full.headers.items() if k not in ignored
    }
    if encoding != "identity" and int(quick.headers["Content-Length"]) >= 500:
        assert quick.headers["Content-Encoding"] == "br"
    # And what it says is the state after the hit, as a fresh fold says it.
    with other_worker.application.app_context():
        from larp_app.services.entries import state_of

        state = state_of(db.session.get(Character, character_id), now_utc()).to_dict()
    if encoding == "identity":
        said = full.get_json()
        said = said["state"] if kind == "player page" else said
        assert (said["hp"], said["ap"]) == (state["hp"], state["ap"])


@pytest.mark.parametrize("kind", ["console state by token", "player page"])
def test_a_changed_state_whose_sheet_this_worker_no_longer_keeps_parsed_is_answered_before_flask(
    app, client, other_worker, organiser, referee, phone, board, event_id, character_id,
    secret, kind,
):  # fmt: skip
    """A worker keeps a few hundred sheets parsed, the most recently used; in a
    10,000-character event a player page's character is rarely among them. Its change is
    still answered before Flask (the sheet parsed from the text read with the entries),
    with the full path's bytes."""
    asker, url, headers = polls(event_id, character_id, secret, referee, phone, board, client)[kind]
    first = asker.get(url, headers=headers)
    assert first.status_code == 200
    app.extensions[RECORDS].contexts.clear()  # as hundreds of other characters would
    log(other_worker, character_id, organiser, kind="hit", damage=2, pierce=True)
    with NoFlask(app):
        quick = again(asker, url, first, headers)
    assert quick.status_code == 200
    assert character_id in app.extensions[RECORDS].contexts  # parsed, kept for what follows
    with NoFlask(app):
        assert again(asker, url, quick, headers).status_code == 304
    full = again_through_flask(app, asker, url, first, headers)
    assert full.status_code == 200
    assert quick.data == full.data
    assert quick.headers["ETag"] == full.headers["ETag"]


@pytest.mark.parametrize("kind", ["console state by token", "player page"])
def test_a_change_of_a_sheet_read_before_is_answered_with_the_records_own_sheet_unparsed(
    app, client, other_worker, organiser, referee, phone, board, event_id, character_id,
    secret, kind,
):  # fmt: skip
    """Once this worker has read a character's stored sheet, a change is folded on and
    answered with the sheet its record keeps (as a fold reads it), known by the stored
    text's digest: no sheet parsed, nothing added to the parsed sheets kept, the full
    path's bytes."""
    asker, url, headers = polls(event_id, character_id, secret, referee, phone, board, client)[kind]
    kept = app.extensions
    answered = asker.get(url, headers=headers)
    unhurt = _hp(answered)
    for n in range(3):
        kept[RECORDS].contexts.clear()  # as hundreds of other characters would
        log(other_worker, character_id, organiser, kind="hit", damage=1, pierce=True)
        with NoFlask(app):
            quick = again(asker, url, answered, headers)
        assert quick.status_code == 200
        # The first change reads the stored text and parses it; after it, the text is known.
        assert (character_id in kept[RECORDS].contexts) == (n == 0)
        full = again_through_flask(app, asker, url, answered, headers)
        assert (quick.data, quick.headers["ETag"]) == (full.data, full.headers["ETag"])
        answered = quick
    assert _hp(quick) == unhurt - 3  # each hit folded on


def _hp(answer) -> int:
    """The hit points a console's state or a player's page says."""
    data = answer.get_json()
    return data["state"]["hp"] if "html" in data else data["hp"]


def test_a_player_page_changed_elsewhere_is_made_from_the_one_read_that_brings_it_up_to_date(
    app, client, other_worker, organiser, event_id, character_id, secret
):
    """The character's name, player and faction are read with its entries since (an
    operator's rename here): the page is made from that read alone, with the full path's
    bytes, and says the new name."""
    url = f"/p/{secret}/live.json"
    first = client.get(url)
    assert first.status_code == 200
    with other_worker.application.app_context():
        db.session.execute(
            sqlalchemy.update(Character).where(Character.id == character_id).values(name="Nuova")
        )
        db.session.commit()
    known = app.wsgi_app.known
    read, rows = [], known.rows

    def counted(statement, params=None):
        read.append(statement)
        return rows(statement, params)

    known.rows = counted
    try:
        with NoFlask(app):
            quick = again(client, url, first)
    finally:
        del known.rows
    assert quick.status_code == 200
    assert quick.get_json()["character"]["name"] == "Nuova"
    assert CAUGHT_UP in read and PLAYER_FACTS not in read  # (besides what is known)
    full = again_through_flask(app, client, url, first)
    assert quick.data == full.data


def test_a_new_sheet_of_a_character_whose_sheet_is_not_kept_is_never_folded_with_the_old_one(
    app, client, other_worker, referee, character_id
):
    """Its sheet changed by another hand (an operator's SQL here) while this worker kept it
    no longer parsed: the record kept was folded with the old sheet, so the new state is
    folded again (the full path), never stepped on from it."""
    url = f"/api/v1/characters/{character_id}/state"
    first = client.get(url, headers=referee)
    assert first.status_code == 200
    hp_max = first.get_json()["hp_max"]
    assert first.get_json()["hp"] == hp_max  # unhurt: the new sheet's fold starts higher
    app.extensions[RECORDS].contexts.clear()
    with other_worker.application.app_context():
        character = db.session.get(Character, character_id)
        larp = {**character.larp, "hp_max": hp_max + 3}
        db.session.execute(
            db.text("UPDATE character SET larp = :larp WHERE id = :id"),
            {"larp": json.dumps(larp), "id": character_id},
        )
        db.session.commit()
    answered = again(client, url, first, referee)
    assert answered.status_code == 200
    assert (answered.get_json()["hp"], answered.get_json()["hp_max"]) == (hp_max + 3, hp_max + 3)


@pytest.mark.parametrize("kind", ["console state by token", "player page"])
def test_a_poll_with_no_tag_held_is_answered_before_flask_as_the_full_path_answers_it(
    app, client, referee, phone, board, event_id, character_id, secret, kind
):
    asker, url, headers = polls(event_id, character_id, secret, referee, phone, board, client)[kind]
    full = asker.get(url, headers=headers)  # the first: the full path folds
    assert full.status_code == 200
    with NoFlask(app):
        quick = asker.get(url, headers=headers)
    assert quick.status_code == 200 and quick.data == full.data
    assert quick.headers["ETag"] == full.headers["ETag"]


@pytest.mark.parametrize("kind", [*KINDS, "board"])
def test_an_entry_through_another_worker_is_never_answered_unchanged(
    app, client, other_worker, referee, organiser, phone, board, event_id, character_id,
    secret, kind,
):  # fmt: skip
    asker, url, headers = polls(event_id, character_id, secret, referee, phone, board, client)[kind]
    first = asker.get(url, headers=headers)
    assert again(asker, url, first, headers).status_code == 304  # known here
    log(other_worker, character_id, organiser, kind="hit", damage=1, pierce=True)
    changed = again(asker, url, first, headers)
    assert changed.status_code == 200
    assert changed.headers["ETag"] != first.headers["ETag"]


def test_a_token_revoked_through_another_worker_opens_nothing_here(
    app, client, other_worker, tokens, character_id
):
    headers = auth(tokens["referee"])
    url = f"/api/v1/characters/{character_id}/state"
    first = client.get(url, headers=headers)
    assert again(client, url, first, headers).status_code == 304
    with other_worker.application.app_context():
        for token in db.session.scalars(db.select(ApiToken)):
            token.revoked_at = now_utc()
        db.session.commit()
    assert again(client, url, first, headers).status_code == 401


def test_a_phone_logged_out_through_another_worker_opens_nothing_here(
    app, phone, other_worker, character_id
):
    url = f"/api/v1/characters/{character_id}/state"
    first = phone.get(url)
    assert again(phone, url, first).status_code == 304
    with other_worker.application.app_context():
        rita = db.session.scalar(db.select(User).where(User.username == "rita"))
        from larp_app.services.users import end_sessions

        end_sessions(rita)
        db.session.commit()
    assert again(phone, url, first).status_code == 401


def test_a_referee_taken_off_the_event_through_another_worker_is_refused_here(
    app, client, other_worker, tokens, organiser, character_id
):
    headers = auth(tokens["referee"])
    url = f"/api/v1/characters/{character_id}/state"
    first = client.get(url, headers=headers)
    assert again(client, url, first, headers).status_code == 304
    other = other_worker.post(
        "/api/v1/events", json={"name": "Altra", "ruleset": "ex-nihilo"}, headers=organiser
    ).json["id"]
    with other_worker.application.app_context():
        referee = db.session.scalar(db.select(User).where(User.role == "referee"))
        db.session.add(RefereeEvent(user_id=referee.id, event_id=other))
        db.session.commit()
    refused = again(client, url, first, headers)
    assert refused.status_code == 403
    assert refused.json["error"] == "not_your_event"


def test_a_new_refusal_through_another_worker_changes_the_board_here(
    app, board, other_worker, referee, event_id, character_id
):
    url = f"/events/{event_id}/board.json"
    first = board.get(url)
    assert again(board, url, first).status_code == 304
    item = {
        "character": character_id,
        "id": str(uuid.uuid4()),
        "kind": "heal",
        "amount": 1,
        "at": "2001-01-01T00:00:00Z",  # too old: refused, and kept for the board
    }
    answer = other_worker.post("/api/v1/sync", json={"entries": [item]}, headers=referee)
    assert answer.json["results"][0]["status"] == "refused"
    assert again(board, url, first).status_code == 200


@pytest.mark.parametrize(
    "change",
    ["session ended", "token revoked", "account disabled", "referee assigned", "dismissal"],
)
def test_every_change_of_who_may_read_what_moves_the_accounts_mark(app, client, tokens, change):
    from larp_app.models import DismissedConflict, Event

    def mark():
        with app.app_context():
            return db.session.get(Mark, "accounts").value

    make_user(app, "rita", "referee")
    assert log_in(app.test_client(), "rita").status_code == 302
    before = mark()
    with app.app_context():
        rita = db.session.scalar(db.select(User).where(User.username == "rita"))
        if change == "session ended":
            from larp_app.services.users import end_session

            row = db.session.scalar(db.select(WebSession))
            row.ended_at = now_utc()
            end_session("no such key")  # a statement past the objects, too
        elif change == "token revoked":
            from larp_app.services.users import revoke_tokens

            revoke_tokens(rita)
        elif change == "account disabled":
            rita.active = False
        elif change == "referee assigned":
            event = Event(name="Notte", ruleset="ex-nihilo", created_at=now_utc())
            db.session.add(event)
            db.session.flush()
            db.session.add(RefereeEvent(user_id=rita.id, event_id=event.id))
        else:
            db.session.add(DismissedConflict(client_id="x", user_id=rita.id, at=now_utc()))
        db.session.commit()
    assert mark() > before


def test_a_session_cookie_signed_over_an_hour_ago_is_left_to_the_full_path_which_signs_it_again(
    app, phone, character_id, monkeypatch
):
    url = f"/api/v1/characters/{character_id}/state"
    first = phone.get(url)
    with NoFlask(app):
        assert again(phone, url, first).status_code == 304
    later = time.time() + 3601
    monkeypatch.setattr("larp_app.web.quick.time.time", lambda: later)
    answered = again(phone, url, first)
    assert answered.status_code == 304
    assert "session=" in answered.headers["Set-Cookie"]


def test_a_player_page_in_another_language_is_no_longer_the_one_held(client, secret):
    url = f"/p/{secret}/live.json"
    first = client.get(url, headers={"Accept-Language": "it"})
    assert again(client, url, first, {"Accept-Language": "it"}).status_code == 304
    spanish = again(client, url, first, {"Accept-Language": "es"})
    assert spanish.status_code == 200
    assert spanish.headers["ETag"] != first.headers["ETag"]


def test_a_browsers_languages_are_read_once_and_the_switchers_choice_still_comes_first(
    app, client, secret
):
    url = f"/p/{secret}/live.json"
    browser = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}
    first = client.get(url, headers=browser)
    assert '"player.es.' in first.headers["ETag"]
    with NoFlask(app):
        assert again(client, url, first, browser).status_code == 304  # the header's pick kept
    post_form(client, "/language", {"lang": "it", "next": url}, page=f"/p/{secret}")
    with NoFlask(app):
        chosen = again(client, url, first, browser)
    assert chosen.status_code == 200  # the same header, but Italian was chosen on this phone
    italian = client.get(url, headers={"Accept-Language": "it"})
    assert chosen.headers["ETag"] == italian.headers["ETag"] != first.headers["ETag"]
    assert chosen.json["html"] == italian.json["html"]


def forget_words():
    """The words a worker found once a rule system and language, forgotten."""
    for found in (display._live_words, plugin_catalogue, words._wound_shown):
        found.cache_clear()


# What puts words on a player's page, each rule system's own: a wound, figures, a status, a
# countdown, then death and its time of day.
WORDS_SHOWN = {
    "ex-nihilo": (
        "ex-nihilo-sheet.json",
        [{"kind": "hit", "blows": 10, "pierce": True}, {"kind": "status_on", "key": "paura"}],
    ),
    "athkri": (
        "athkri-sheet.json",
        [{"kind": "hit", "damage": 16, "pierce": True}, {"kind": "status_on", "key": "indefenso"}],
    ),
}


@pytest.mark.parametrize("language", ["it", "es", "en"])
@pytest.mark.parametrize("ruleset", sorted(WORDS_SHOWN))
def test_a_player_page_made_before_flask_says_what_the_page_says_in_every_language(
    app, client, other_worker, organiser, ruleset, language
):
    """The live part made with no request around it (web/answers.py, which the full path's
    twin serves too) finds its words in the page's language as the page itself does, through
    Flask-Babel: the rule system's, the interface's, a time of day."""
    event = client.post("/api/v1/events", json={"name": "Notte", "ruleset": ruleset},
                        headers=organiser).json["id"]  # fmt: skip
    sheet, hurt = WORDS_SHOWN[ruleset]
    made = client.post(f"/api/v1/events/{event}/characters", json=data_sheet(sheet),
                       headers=organiser)  # fmt: skip
    character_id = made.json["characters"][0]["id"]
    with app.app_context():
        page = f"/p/{db.session.get(Character, character_id).player_secret}"
    headers = {"Accept-Language": language}
    held = client.get(f"{page}/live.json", headers=headers)
    for entries in (hurt, [{"kind": "kill", "reason": "plot"}]):
        for entry in entries:
            log(other_worker, character_id, organiser, **entry)
        forget_words()  # as a worker that never showed a page in this language
        with NoFlask(app):  # asked as a worker serves it, with no app context around
            quick = contextvars.Context().run(again, client, f"{page}/live.json", held, headers)
        assert quick.status_code == 200
        forget_words()  # (the page finds its own)
        shown = client.get(page, headers=headers)
        assert shown.headers["Content-Language"] == language
        assert quick.json["html"] in shown.get_data(as_text=True)
        held = quick
    assert quick.json["state"]["wound"] == "dead"


def test_an_unknown_player_link_is_left_to_the_full_path_which_says_not_found(client, secret):
    unknown = "Z" * len(secret)
    answered = client.get(f"/p/{unknown}/live.json", headers={"If-None-Match": 'W/"x"'})
    assert answered.status_code == 404


def test_a_database_server_that_ended_the_workers_connections_is_reached_again(
    app, client, referee, event_id, character_id
):
    import sqlalchemy

    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("a file of SQLite has no server to end its connections")
    url = f"/api/v1/characters/{character_id}/state"
    first = client.get(url, headers=referee)
    assert again(client, url, first, referee).status_code == 304  # its own connection, known
    with app.app_context(), db.engine.connect() as conn:  # as a server's restart ends them
        conn.execute(
            sqlalchemy.text(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        )
    item = {"character": character_id, "id": str(uuid.uuid4()), "kind": "note", "text": "x",
            "at": rules.format_instant(now_utc())}  # fmt: skip
    answer = client.post("/api/v1/sync", json={"entries": [item]}, headers=referee)
    assert answer.status_code == 200, answer.json
    assert answer.json["results"][0]["status"] == "stored"
    changed = again(client, url, first, referee)
    assert changed.status_code == 200
    assert again(client, url, changed, referee).status_code == 304


def test_a_path_with_other_digits_than_ascii_is_left_to_the_full_path(client, referee, caplog):
    answered = client.get(  # the byte 0xB2 as WSGI gives it (latin-1): a superscript two
        "/api/v1/characters/2/state",
        headers={**referee, "If-None-Match": 'W/"x"'},
        environ_overrides={"PATH_INFO": "/api/v1/characters/\xb2/state"},
    )
    assert answered.status_code == 404
    assert "left to the full path" not in caplog.text  # read as no id, not as a failure


@pytest.mark.parametrize("debug", [False, True])
def test_an_answer_kept_as_bytes_is_the_body_flask_gives_the_same_data(app, debug):
    from larp_app.web.answers import json_body

    data = {"character": {"name": "Ilaria «la Rossa»"}, "state": {"hp": 3, "ok": None}}
    app.debug = debug
    try:
        with app.app_context():
            assert json_body(app, data) == app.json.response(data).get_data()
    finally:
        app.debug = False
