"""The JSON API round-trips sheets, entries and states; every refusal has a code and fields."""

import uuid
from datetime import timedelta

import pytest

from larp_app.extensions import db
from larp_app.models import Entry
from larp_app.rules import format_instant
from larp_app.services.clock import now_utc

from .conftest import auth
from .helpers import data_sheet

SHEET = data_sheet()

pytestmark = pytest.mark.both_databases


def entry(kind, seconds_ago=0, **fields):
    at = now_utc() - timedelta(seconds=seconds_ago)
    return {"id": str(uuid.uuid4()), "kind": kind, "at": format_instant(at), **fields}


def test_a_request_without_a_valid_token_is_refused(client, tokens):
    assert client.post("/api/v1/events", json={}).status_code == 401
    answer = client.post("/api/v1/events", json={}, headers=auth("forged"))
    assert (answer.status_code, answer.json["error"]) == (401, "unauthorized")


def test_a_referee_cannot_create_events_or_import_sheets(client, referee, event_id):
    assert (
        client.post(
            "/api/v1/events", json={"name": "x", "ruleset": "ex-nihilo"}, headers=referee
        ).status_code
        == 403
    )
    answer = client.post(f"/api/v1/events/{event_id}/characters", json=SHEET, headers=referee)
    assert (answer.status_code, answer.json["error"]) == (403, "forbidden")


def test_an_event_with_bad_fields_is_refused_naming_them(client, organiser):
    answer = client.post("/api/v1/events", json={"name": "", "ruleset": "d&d"}, headers=organiser)
    assert answer.status_code == 422
    assert set(answer.json["fields"]) == {"name", "ruleset"}


def test_a_sheet_round_trips_through_the_api(client, organiser, character_id):
    answer = client.get(f"/api/v1/characters/{character_id}", headers=organiser)
    assert answer.status_code == 200
    assert answer.json["tabletop"] == SHEET
    assert (answer.json["larp_sheet"]["hp_max"], answer.json["larp_sheet"]["ap_max"]) == (3, 3)
    assert answer.json["warnings"] == []


def test_a_list_with_one_bad_sheet_creates_nothing_and_names_the_row_and_field(
    client, organiser, event_id
):
    bad = {**SHEET, "character": "Bruno", "attributes": {**SHEET["attributes"], "corpo": 25}}
    answer = client.post(
        f"/api/v1/events/{event_id}/characters",
        json=[SHEET, bad, {**SHEET, "character": "Ciro"}],
        headers=organiser,
    )
    assert answer.status_code == 422
    assert answer.json["fields"] == {"[1].attributes.corpo": "must be 8–22, got 25"}
    roster = client.get(f"/api/v1/events/{event_id}/roster", headers=organiser)
    assert roster.json["characters"] == []


def test_an_entry_is_stored_and_answered_with_the_new_state(client, referee, character_id):
    answer = client.post(
        f"/api/v1/characters/{character_id}/entries", json=entry("hit", blows=4), headers=referee
    )
    assert answer.status_code == 201, answer.json
    assert (answer.json["state"]["ap"], answer.json["state"]["hp"]) == (0, 2)
    assert answer.json["entry"]["author"] == "referee-1"


def test_the_same_entry_id_twice_is_stored_once_and_answered_the_same(
    app, client, referee, character_id
):
    hit = entry("hit", pierce=True)
    first = client.post(f"/api/v1/characters/{character_id}/entries", json=hit, headers=referee)
    again = client.post(f"/api/v1/characters/{character_id}/entries", json=hit, headers=referee)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json["entry"] == first.json["entry"]
    assert again.json["state"]["hp"] == 2
    with app.app_context():
        assert db.session.query(Entry).count() == 1


def test_an_entry_the_rules_refuse_is_answered_409_with_its_code_and_not_stored(
    app, client, referee, character_id
):
    answer = client.post(
        f"/api/v1/characters/{character_id}/entries",
        json=entry("spend_energy", amount=5),
        headers=referee,
    )
    assert answer.status_code == 409
    assert answer.json == {
        "error": "not_enough_energy",
        "message": "needs 5 energy, has 3",
        "fields": {"needs": 5, "has": 3},
    }
    with app.app_context():
        assert db.session.query(Entry).count() == 0


def test_a_malformed_entry_is_answered_422_naming_the_field(client, referee, character_id):
    answer = client.post(
        f"/api/v1/characters/{character_id}/entries", json=entry("hit", damage=0), headers=referee
    )
    assert answer.status_code == 422
    assert answer.json["fields"] == {"damage": "must be 1–100, got 0"}


def test_an_entry_from_the_future_is_invalid_and_one_older_than_a_day_is_refused_as_too_old(
    client, referee, character_id
):
    future = client.post(
        f"/api/v1/characters/{character_id}/entries",
        json=entry("note", -120, text="x"),
        headers=referee,
    )
    assert (future.status_code, list(future.json["fields"])) == (422, ["at"])
    old = client.post(
        f"/api/v1/characters/{character_id}/entries",
        json=entry("note", 25 * 3600, text="x"),
        headers=referee,
    )
    assert (old.status_code, old.json["error"], old.json["fields"]["hours"]) == (
        409,
        "too_old",
        24,
    )


def test_a_phone_clock_three_minutes_fast_has_its_entry_placed_by_the_server_clock(
    client, referee, character_id
):
    phone_now = now_utc() + timedelta(minutes=3)
    sent = {
        **entry("hit", pierce=True),
        "at": format_instant(phone_now - timedelta(seconds=30)),
        "sent_at": format_instant(phone_now),
    }
    answer = client.post(f"/api/v1/characters/{character_id}/entries", json=sent, headers=referee)
    assert answer.status_code == 201, answer.json
    placed = answer.json["entry"]["at"]
    assert placed < format_instant(now_utc() - timedelta(seconds=25))


def test_only_organisers_may_revive(client, organiser, referee, character_id):
    url = f"/api/v1/characters/{character_id}/entries"
    assert client.post(url, json=entry("kill", 5), headers=referee).status_code == 201
    assert client.post(url, json=entry("revive", hp=2), headers=referee).status_code == 403
    answer = client.post(url, json=entry("revive", hp=2), headers=organiser)
    assert (answer.status_code, answer.json["state"]["wound"]) == (201, "ok")


def test_the_state_can_be_asked_for_an_instant(client, referee, character_id):
    client.post(
        f"/api/v1/characters/{character_id}/entries",
        json=entry("spend_energy", 60, amount=1),
        headers=referee,
    )
    later = format_instant(now_utc() + timedelta(minutes=20))
    now = client.get(f"/api/v1/characters/{character_id}/state", headers=referee)
    then = client.get(
        f"/api/v1/characters/{character_id}/state", query_string={"at": later}, headers=referee
    )
    assert (now.json["energy"], then.json["energy"]) == (2, 3)


def test_the_log_marks_undone_entries(client, referee, character_id):
    url = f"/api/v1/characters/{character_id}/entries"
    hit = entry("hit", 10)
    client.post(url, json=hit, headers=referee)
    client.post(url, json=entry("undo", 5, target=hit["id"]), headers=referee)
    log = client.get(url, headers=referee).json["entries"]
    assert [(e["kind"], e["undone"], e["conflict"]) for e in log] == [
        ("hit", True, None),
        ("undo", False, None),
    ]


def test_the_roster_lists_every_character_with_its_state(client, referee, event_id, character_id):
    roster = client.get(f"/api/v1/events/{event_id}/roster", headers=referee).json
    assert [(c["id"], c["state"]["hp"]) for c in roster["characters"]] == [(character_id, 3)]


def test_the_openapi_document_describes_every_route(client):
    doc = client.get("/api/v1/openapi.json").json
    assert doc["openapi"].startswith("3.")
    assert {
        "/events",
        "/events/{id}/characters",
        "/characters/{id}/entries",
        "/characters/{id}/state",
        "/events/{id}/roster",
    } <= set(doc["paths"])


def test_an_entry_id_already_used_for_another_character_is_refused(
    client, organiser, referee, event_id, character_id
):
    other = client.post(
        f"/api/v1/events/{event_id}/characters",
        json={**SHEET, "character": "Bruno"},
        headers=organiser,
    ).json["characters"][0]["id"]
    hit = entry("hit")
    client.post(f"/api/v1/characters/{character_id}/entries", json=hit, headers=referee)
    answer = client.post(f"/api/v1/characters/{other}/entries", json=hit, headers=referee)
    assert (answer.status_code, answer.json["error"]) == (409, "id_reused")
    assert answer.json["fields"]["stored_character"] == character_id
    state = client.get(f"/api/v1/characters/{other}/state", headers=referee).json
    assert state["ap"] == 3


def test_a_referee_undoes_only_their_own_recent_entries(
    app, client, organiser, referee, character_id
):
    url = f"/api/v1/characters/{character_id}/entries"
    mine = entry("hit", 60)
    old = entry("note", 11 * 60, text="long ago")
    theirs = entry("note", 30, text="the organiser's")
    client.post(url, json=mine, headers=referee)
    client.post(url, json=old, headers=referee)
    client.post(url, json=theirs, headers=organiser)
    for target in (old, theirs):
        refused = client.post(url, json=entry("undo", target=target["id"]), headers=referee)
        assert (refused.status_code, refused.json["error"]) == (409, "undo_not_allowed")
    assert (
        client.post(url, json=entry("undo", target=mine["id"]), headers=referee).status_code == 201
    )
    assert (
        client.post(url, json=entry("undo", target=old["id"]), headers=organiser).status_code == 201
    )


def test_the_browser_calls_the_api_with_its_session_and_csrf_token(app, client, character_id):
    from .helpers import csrf_token, log_in, make_user

    make_user(app, "rita", "referee")
    log_in(client, "rita")
    url = f"/api/v1/characters/{character_id}/entries"
    without = client.post(url, json=entry("hit"))
    assert (without.status_code, without.json["error"]) == (400, "csrf")
    token = csrf_token(client, "/referee/")
    assert client.post(url, json=entry("hit"), headers={"X-CSRFToken": token}).status_code == 201


def test_polling_an_unchanged_state_answers_304(client, referee, character_id):
    url = f"/api/v1/characters/{character_id}/entries"
    first = client.get(url, headers=referee)
    again = client.get(url, headers={**referee, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    client.post(url, json=entry("hit"), headers=referee)
    changed = client.get(url, headers={**referee, "If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200


def test_polling_the_state_of_a_quiet_character_answers_304(client, referee, character_id):
    url = f"/api/v1/characters/{character_id}/state"
    first = client.get(url, headers=referee)
    assert "at" not in first.json  # "now" is not part of the answer, so the ETag holds
    again = client.get(url, headers={**referee, "If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    asked = client.get(url, query_string={"at": "2030-01-01T00:00:00Z"}, headers=referee)
    assert asked.json["at"] == "2030-01-01T00:00:00Z"
