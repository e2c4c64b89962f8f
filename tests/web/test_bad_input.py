"""Every bad input gets a 4xx naming what is wrong, and changes nothing."""

import json
import threading
import time
import uuid
from datetime import timedelta

import pytest

from larp_app.extensions import db
from larp_app.models import Badge, Character, Entry, Event, RefusedEntry
from larp_app.rules import format_instant
from larp_app.services.badges import reissue_badge
from larp_app.services.clock import now_utc

from .helpers import data_sheet, log_in, make_user, post_form
from .test_organiser_pages import settings_form as organiser_settings_form

pytestmark = pytest.mark.both_databases

SHEET = data_sheet()


@pytest.fixture
def browser(app, client):
    """A logged-in organiser's browser."""
    make_user(app, "boss", "organiser")
    log_in(client, "boss")
    return client


def settings_form(client, event_id, **changes):
    """The settings form as the page fills it in, with ``changes``."""
    return {**organiser_settings_form(client, f"/events/{event_id}"), **changes}


def entry(kind, seconds_ago=0, **fields):
    at = now_utc() - timedelta(seconds=seconds_ago)
    return {"id": str(uuid.uuid4()), "kind": kind, "at": format_instant(at), **fields}


def raw_post(client, url, text, headers):
    return client.post(url, data=text, headers={**headers, "Content-Type": "application/json"})


def count(app, model):
    with app.app_context():
        return db.session.query(model).count()


# 1. NaN and infinities


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "-inf", "1e999"])
def test_a_turn_length_of_nan_or_infinity_in_the_settings_form_is_refused(
    app, browser, event_id, value
):
    page = f"/events/{event_id}/settings"
    unchanged = post_form(browser, page, settings_form(browser, event_id), page=page)
    assert unchanged.status_code == 302
    form = settings_form(browser, event_id, turn_seconds=value)
    answer = post_form(browser, page, form, page=page)
    assert answer.status_code == 422
    with app.app_context():
        assert db.session.get(Event, event_id).settings["turn_seconds"] == 1


def test_nan_and_infinity_in_a_json_body_are_refused_and_the_roster_stays_valid_json(
    app, client, organiser, referee, event_id
):
    for constant in ("NaN", "Infinity", "-Infinity"):
        body = '{"name": "X", "ruleset": "ex-nihilo", "settings": {"turn_seconds": %s}}'
        answer = raw_post(client, "/api/v1/events", body % constant, organiser)
        assert answer.status_code == 422, constant
        assert answer.json["fields"] == {"body": answer.json["fields"]["body"]}
    assert count(app, Event) == 1
    roster = client.get("/api/v1/roster", headers=referee)
    json.loads(roster.get_data(as_text=True), parse_constant=pytest.fail)


# 2. lone surrogates, NUL and control characters


@pytest.mark.parametrize(
    "fields",
    [{"kind": "note", "text": "x\ud800"}, {"kind": "kill", "reason": "lost \udfff"}],
    ids=["note", "kill reason"],
)
def test_a_lone_surrogate_in_an_entry_is_refused_and_the_character_page_still_opens(
    app, client, browser, organiser, character_id, fields
):
    kind, rest = fields["kind"], {k: v for k, v in fields.items() if k != "kind"}
    body = json.dumps(entry(kind, **rest))  # the surrogate escaped, as a phone would send it
    answer = raw_post(client, f"/api/v1/characters/{character_id}/entries", body, organiser)
    assert answer.status_code == 422
    assert count(app, Entry) == 0
    assert browser.get(f"/characters/{character_id}").status_code == 200


def test_a_lone_surrogate_in_an_imported_sheets_notes_is_refused(app, client, organiser, event_id):
    body = json.dumps({**SHEET, "notes": "spy \ud800"})
    answer = raw_post(client, f"/api/v1/events/{event_id}/characters", body, organiser)
    assert answer.status_code == 422
    assert count(app, Character) == 0


def test_a_nul_or_control_character_in_a_name_is_refused(app, client, organiser):
    for name in ("Notte\x00", "Notte\x07", "Notte\nbis"):
        answer = client.post(
            "/api/v1/events", json={"name": name, "ruleset": "ex-nihilo"}, headers=organiser
        )
        assert answer.status_code == 422, name
    assert count(app, Event) == 0


def test_a_note_keeps_its_line_breaks_but_not_a_nul(app, client, organiser, character_id):
    url = f"/api/v1/characters/{character_id}/entries"
    assert (
        client.post(url, json=entry("note", text="a\nb\tc"), headers=organiser).status_code == 201
    )
    assert client.post(url, json=entry("note", text="a\x00b"), headers=organiser).status_code == 422
    assert client.post(url, json=entry("note", text="a\x1bb"), headers=organiser).status_code == 422
    assert count(app, Entry) == 1


@pytest.mark.parametrize("url", ["/login?next=%00", "/p/AB%00CD", "/api/v1/roster?at=%00"])
def test_a_nul_byte_in_a_path_or_query_gets_400(client, url):
    assert client.get(url).status_code == 400


def test_a_nul_byte_in_the_login_form_gets_400(client):
    answer = post_form(client, "/login", {"username": "boss\x00", "password": "x"})
    assert answer.status_code == 400


# 4. 500s that become 4xx


@pytest.mark.parametrize("kind", [["hit"], {"a": 1}])
def test_an_entry_kind_given_as_a_list_or_object_is_refused_naming_kind(
    app, client, organiser, character_id, kind
):
    answer = client.post(
        f"/api/v1/characters/{character_id}/entries",
        json={**entry("hit"), "kind": kind},
        headers=organiser,
    )
    assert answer.status_code == 422
    assert "kind" in answer.json["fields"]
    assert count(app, Entry) == 0


@pytest.mark.parametrize("number", [2**31, 2**63, 10**30])
def test_an_id_too_large_for_the_database_is_not_found(client, browser, organiser, number):
    for url in (f"/api/v1/characters/{number}", f"/api/v1/characters/{number}/state"):
        answer = client.get(url, headers=organiser)
        assert (answer.status_code, answer.json["error"]) == (404, "not_found"), url
    assert browser.get(f"/events/{number}").status_code == 404
    assert browser.get(f"/characters/{number}").status_code == 404


EDGE = "0001-01-01T00:00:00+01:00"


def test_an_instant_at_the_edge_of_the_calendar_is_refused_naming_the_field(
    app, client, organiser, character_id
):
    url = f"/api/v1/characters/{character_id}/entries"
    answer = client.post(url, json={**entry("hit"), "at": EDGE}, headers=organiser)
    assert (answer.status_code, set(answer.json["fields"])) == (422, {"at"})
    answer = client.post(url, json={**entry("hit"), "sent_at": EDGE}, headers=organiser)
    assert answer.status_code == 422
    answer = client.post(
        url, json={**entry("hit"), "sent_at": "9999-12-31T23:59:59-01:00"}, headers=organiser
    )
    assert answer.status_code == 422
    assert (
        client.get(f"{url[:-8]}/state?at={EDGE.replace('+', '%2B')}", headers=organiser).status_code
        == 422
    )
    assert count(app, Entry) == 0


def test_one_edge_instant_in_a_sync_batch_refuses_that_item_only(
    app, client, organiser, character_id
):
    good = {**entry("hit"), "character": character_id}
    bad = {**entry("hit"), "at": EDGE, "character": character_id}
    answer = client.post("/api/v1/sync", json={"entries": [bad, good]}, headers=organiser)
    assert answer.status_code == 200
    assert [r["status"] for r in answer.json["results"]] == ["refused", "stored"]


def test_json_nested_a_thousand_levels_is_refused(app, client, organiser):
    body = '{"name": ' + "[" * 1000 + "]" * 1000 + ', "ruleset": "ex-nihilo"}'
    answer = raw_post(client, "/api/v1/events", body, organiser)
    assert answer.status_code == 422
    assert count(app, Event) == 0


@pytest.mark.parametrize("rows", ["abc", "100000", "-1"])
def test_the_settings_form_with_a_bad_row_count_is_refused(app, browser, event_id, rows):
    page = f"/events/{event_id}/settings"
    answer = post_form(browser, page, settings_form(browser, event_id, rows=rows), page=page)
    assert answer.status_code == 422
    with app.app_context():
        assert db.session.get(Event, event_id).settings.get("rows") is None


def test_an_end_of_session_field_with_a_superscript_number_is_ignored(browser, event_id):
    page = f"/events/{event_id}/end-session"
    form = {"at": format_instant(now_utc()), "decision-²": "kill", "decision-٣": "kill"}
    assert post_form(browser, page, form, page=page).status_code < 500


def test_an_end_of_session_at_the_edge_of_the_calendar_is_refused(app, browser, event_id):
    page = f"/events/{event_id}/end-session"
    answer = post_form(browser, page, {"at": EDGE}, page=page)
    assert answer.status_code == 302  # back to the list, which says to open it again
    assert "open it again" in browser.get(answer.headers["Location"]).get_data(as_text=True)
    assert count(app, Entry) == 0


def test_six_simultaneous_badge_reissues_leave_one_active_badge(app, organiser, character_id):
    answers = []

    def reissue():
        with app.test_client() as client:
            for _ in range(3):
                url = f"/api/v1/characters/{character_id}/badge"
                answers.append(client.post(url, headers=organiser).status_code)

    threads = [threading.Thread(target=reissue) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [201] * 18
    with app.app_context():
        active = db.session.query(Badge).filter(Badge.revoked_at.is_(None)).count()
        assert (active, db.session.query(Badge).count()) == (1, 19)  # the import issued the first


def test_a_reissue_reads_the_badges_after_the_one_that_holds_them_has_committed(app, character_id):
    """A reissue that comes while another holds the character waits for it, then revokes
    the badge that one made: it never finds the badge it read already replaced."""
    first_flushed, second_started = threading.Event(), threading.Event()
    errors = []

    def first():
        with app.app_context():
            reissue_badge(character_id)
            first_flushed.set()
            second_started.wait(5)
            time.sleep(0.3)  # the second is waiting for the character meanwhile
            db.session.commit()

    def second():
        first_flushed.wait(5)
        with app.app_context():
            second_started.set()
            try:
                reissue_badge(character_id)
                db.session.commit()
            except Exception as exc:  # the collision, as it would reach the organiser
                errors.append(exc)
                db.session.rollback()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with app.app_context():
        active = db.session.query(Badge).filter(Badge.revoked_at.is_(None)).count()
        assert (active, db.session.query(Badge).count()) == (1, 3)


# 3. sizes: refused entries are kept small


def test_a_refused_sync_item_with_a_huge_note_is_kept_small(app, client, organiser, character_id):
    item = {**entry("note", text="x" * 100_000), "character": character_id, "junk": ["y"] * 99}
    answer = client.post("/api/v1/sync", json={"entries": [item]}, headers=organiser)
    assert answer.json["results"][0]["status"] == "refused"
    with app.app_context():
        row = db.session.query(RefusedEntry).one()
        assert len(json.dumps(row.fields)) < 1000
        assert "junk" not in row.fields


# 6. API errors are JSON


@pytest.mark.parametrize(
    ("method", "url", "status"),
    [
        ("get", "/api/v1/nothing-here", 404),
        ("get", "/api/v1/characters/abc", 404),
        ("delete", "/api/v1/events", 405),
        ("put", "/api/v1/sync", 405),
    ],
)
def test_unmatched_api_paths_and_wrong_methods_answer_the_json_error(
    client, organiser, method, url, status
):
    answer = getattr(client, method)(url, headers=organiser)
    assert answer.status_code == status
    assert answer.is_json
    assert set(answer.json) == {"error", "message", "fields"}


# 7. the player's link is rotated


def test_a_reissued_badge_rotates_the_player_link(app, client, browser, organiser, character_id):
    first = client.post(f"/api/v1/characters/{character_id}/badge", headers=organiser).json
    second = client.post(f"/api/v1/characters/{character_id}/badge", headers=organiser).json
    assert first["status_url"] != second["status_url"]
    old, new = (urls["status_url"].split("/p/", 1)[1] for urls in (first, second))
    assert client.get(f"/p/{old}").status_code == 404
    assert client.get(f"/p/{new}").status_code == 200


def test_an_organiser_can_rotate_the_player_link_alone(app, client, browser, character_id):
    with app.app_context():
        character = db.session.get(Character, character_id)
        from larp_app.services.badges import ensure_badges

        ensure_badges([character])
        db.session.commit()
        old, badge = character.player_secret, character.badges[0].secret
    page = f"/characters/{character_id}"
    answer = post_form(browser, f"/characters/{character_id}/player-link", {}, page=page)
    assert answer.status_code == 302
    assert client.get(f"/p/{old}").status_code == 404
    with app.app_context():
        character = db.session.get(Character, character_id)
        assert character.player_secret != old
        assert [b.secret for b in character.badges if b.revoked_at is None] == [badge]
        new = character.player_secret
    # The new link is only in the badge's back, an image no cache keeps; not in the page.
    assert new not in browser.get(answer.location).get_data(as_text=True)
    back = browser.get(f"/characters/{character_id}/badge-back.png")
    assert back.status_code == 200 and back.headers["Cache-Control"] == "no-store"


# 14. referees see the larp sheet, organisers everything


def test_a_referee_gets_the_larp_sheet_without_the_tabletop_sheet(
    client, organiser, referee, character_id
):
    as_referee = client.get(f"/api/v1/characters/{character_id}", headers=referee).json
    as_organiser = client.get(f"/api/v1/characters/{character_id}", headers=organiser).json
    assert "tabletop" not in as_referee
    assert "larp_sheet" in as_referee
    assert as_organiser["tabletop"]["notes"] == SHEET["notes"]
