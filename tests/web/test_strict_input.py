"""Input taken as meant or refused in words: instants must say their time zone, one import
file names each character once, and the API's import updates as the web's and the command
line's do."""

import uuid

import pytest

from larp_app.extensions import db
from larp_app.models import Character

from .helpers import data_sheet

pytestmark = pytest.mark.both_databases

NO_ZONE = "must say its time zone (Z for UTC, or an offset such as +01:00), got"


def entry(at, **fields):
    return {"id": str(uuid.uuid4()), "kind": "note", "text": "x", "at": at, **fields}


def test_an_instant_without_a_time_zone_is_refused_in_words(client, referee, character_id):
    answer = client.post(
        f"/api/v1/characters/{character_id}/entries",
        json=entry("2027-03-06T15:00:00"),
        headers=referee,
    )
    assert answer.status_code == 422
    assert answer.json["fields"]["at"].startswith(NO_ZONE)
    sent_at = client.post(
        f"/api/v1/characters/{character_id}/entries",
        json=entry("2027-03-06T15:00:00Z", sent_at="2027-03-06T15:00:01"),
        headers=referee,
    )
    assert sent_at.status_code == 422 and sent_at.json["fields"]["sent_at"].startswith(NO_ZONE)
    synced = client.post(
        "/api/v1/sync",
        json={"entries": [{**entry("2027-03-06T15:00:00"), "character": character_id}]},
        headers=referee,
    ).json["results"][0]
    assert synced["status"] == "refused" and synced["code"] == "invalid"
    assert "at: " + NO_ZONE in synced["message"]
    state = client.get(
        f"/api/v1/characters/{character_id}/state?at=2027-03-06T15:00:00", headers=referee
    )
    assert state.status_code == 422 and state.json["fields"]["at"].startswith(NO_ZONE)
    for zoned in ("2027-03-06T15:00:00Z", "2027-03-06T16:00:00%2B01:00"):
        answer = client.get(f"/api/v1/characters/{character_id}/state?at={zoned}", headers=referee)
        assert answer.status_code == 200, zoned


def test_the_same_character_twice_in_one_file_is_an_error_of_the_apis_preview_and_import(
    client, organiser, event_id
):
    sheet = data_sheet()
    check = client.post(
        f"/api/v1/events/{event_id}/characters/check", json=[sheet, sheet], headers=organiser
    )
    assert [e["code"] for e in check.json["errors"]] == ["duplicate"]
    assert check.json["errors"][0]["field"] == "[1].character"
    imported = client.post(
        f"/api/v1/events/{event_id}/characters", json=[sheet, sheet], headers=organiser
    )
    assert imported.status_code == 422 and "[1].character" in imported.json["fields"]


def test_the_apis_import_updates_a_character_it_already_has_instead_of_duplicating(
    app, client, organiser, event_id
):
    sheet = data_sheet()
    first = client.post(f"/api/v1/events/{event_id}/characters", json=sheet, headers=organiser)
    assert first.status_code == 201 and first.json["characters"][0]["import"] == "added"
    again = client.post(f"/api/v1/events/{event_id}/characters", json=sheet, headers=organiser)
    assert again.status_code == 200
    assert again.json["characters"][0]["import"] == "unchanged"
    assert again.json["characters"][0]["id"] == first.json["characters"][0]["id"]
    sheet["notes"] = "a scar over the left eye"
    changed = client.post(f"/api/v1/events/{event_id}/characters", json=sheet, headers=organiser)
    assert changed.status_code == 200
    assert changed.json["characters"][0]["import"] == "updated"
    assert changed.json["characters"][0]["changed"] == ["notes"]
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Character.id))) == 1
