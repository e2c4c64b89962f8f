"""An archived event is over: off every referee's phone and pages, read and write, saying
why; organisers still read it."""

import uuid

import pytest

from larp_app.extensions import db
from larp_app.models import Badge
from larp_app.rules import format_instant
from larp_app.services.clock import now_utc

from .helpers import log_in, make_user

pytestmark = pytest.mark.both_databases


def entry(kind="note", **fields):
    return {"id": str(uuid.uuid4()), "kind": kind, "at": format_instant(now_utc()), **fields}


@pytest.fixture
def archived(app, client, organiser, referee, event_id, character_id):
    """The event, with one entry logged, archived by an organiser."""
    logged = client.post(
        f"/api/v1/characters/{character_id}/entries", json=entry(text="x"), headers=referee
    )
    assert logged.status_code == 201
    answer = client.post(f"/api/v1/events/{event_id}/archive", headers=organiser)
    assert answer.status_code == 200
    return event_id, character_id


def test_referees_pages_leave_an_archived_event_out_and_say_why(app, archived):
    event_id, character_id = archived
    make_user(app, "rita", "referee")
    phone = app.test_client()
    log_in(phone, "rita")
    assert f"/referee/events/{event_id}" not in phone.get("/referee/").get_data(as_text=True)
    for page in (
        f"/referee/events/{event_id}",
        f"/console/{character_id}",
        f"/scan?event={event_id}",
    ):
        answer = phone.get(page)
        assert answer.status_code == 403, page
        assert "is archived: it is over and off the referees" in answer.get_data(as_text=True)
    with app.app_context():
        secret = db.session.scalars(db.select(Badge.short_code)).first()
    assert phone.get(f"/api/v1/badges/{secret}").json["error"] == "event_archived"


def test_the_api_refuses_a_referee_reading_or_writing_an_archived_event(
    client, archived, referee, organiser
):
    event_id, character_id = archived
    reads = [
        f"/api/v1/events/{event_id}/roster",
        f"/api/v1/events/{event_id}/roster?at=2027-03-06T15:00:00Z",
        f"/api/v1/characters/{character_id}",
        f"/api/v1/characters/{character_id}/state",
        f"/api/v1/characters/{character_id}/entries",
        f"/api/v1/roster?event={event_id}",
    ]
    for url in reads:
        answer = client.get(url, headers=referee)
        assert (answer.status_code, answer.json["error"]) == (403, "event_archived"), url
        assert answer.json["message"] == (
            "the event Notte is archived: it is off the referees' phones, only organisers read it"
        )
        assert client.get(url, headers=organiser).status_code == 200, url
    hit = client.post(
        f"/api/v1/characters/{character_id}/entries", json=entry("hit"), headers=referee
    )
    assert (hit.status_code, hit.json["error"]) == (409, "event_archived")
    synced = client.post(
        "/api/v1/sync",
        json={"entries": [{**entry("hit"), "character": character_id}]},
        headers=referee,
    )
    assert synced.json["results"][0]["code"] == "event_archived"


def test_a_referee_sees_the_event_again_once_it_is_reopened(client, archived, referee, organiser):
    event_id, _character_id = archived
    client.post(f"/api/v1/events/{event_id}/archive", json={"archived": False}, headers=organiser)
    assert client.get(f"/api/v1/events/{event_id}/roster", headers=referee).status_code == 200
