"""A warm worker (one that keeps folds and views) answers what a cold one answers after any
write, whoever made it: a service, a plain change to the session's objects committed with
no service at all, or a statement past the objects. The database moves the versions by
itself (keeping/versions.py)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from sqlalchemy import update

from larp_app import create_app, rules
from larp_app.extensions import db
from larp_app.models import Character, Entry, Event
from larp_app.services.clock import now_utc

from .conftest import auth

pytestmark = pytest.mark.both_databases


@pytest.fixture
def others(app):
    """Apps on the same database, as gunicorn's workers and a console script are."""
    made = []

    def another():
        made.append(create_app(dict(app.config)))
        return made[-1]

    yield another
    for other in made:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()


def state(worker, character_id, token, **params):
    answer = worker.get(
        f"/api/v1/characters/{character_id}/state", headers=auth(token), query_string=params
    )
    assert answer.status_code == 200, answer.json
    return {k: v for k, v in answer.json.items() if k not in ("at", "your_conflicts", "fold")}


def roster_line(worker, event_id, character_id, token):
    answer = worker.get(f"/api/v1/events/{event_id}/roster", headers=auth(token))
    assert answer.status_code == 200, answer.json
    (line,) = [c for c in answer.json["characters"] if c["id"] == character_id]
    return line["state"]


def cold(others, character_id, token, **params):
    return state(others().test_client(), character_id, token, **params)


def test_a_plain_orm_entry_committed_without_any_service_is_seen_by_a_warm_worker(
    client, others, tokens, event_id, character_id
):
    warm = client
    before = state(warm, character_id, tokens["referee"])
    roster_line(warm, event_id, character_id, tokens["referee"])  # the view is kept too
    writer = others()
    with writer.app_context():
        at = now_utc() - timedelta(seconds=30)
        fields = {"id": str(uuid.uuid4()), "kind": "hit", "damage": 2, "pierce": True}
        fields["at"] = rules.format_instant(at)
        db.session.add(
            Entry(
                client_id=fields["id"],
                character_id=character_id,
                kind="hit",
                at=at,
                received_at=at,
                fields=fields,
            )
        )
        db.session.commit()
    after = state(warm, character_id, tokens["referee"])
    assert after != before
    assert after == cold(others, character_id, tokens["referee"])
    assert roster_line(warm, event_id, character_id, tokens["referee"]) == after


def test_a_plain_change_of_a_larp_sheet_is_seen_by_a_warm_worker(
    client, others, tokens, event_id, character_id
):
    warm = client
    before = state(warm, character_id, tokens["referee"])
    roster_line(warm, event_id, character_id, tokens["referee"])
    writer = others()
    with writer.app_context():
        character = db.session.get(Character, character_id)
        character.larp = {**character.larp, "hp_max": character.larp["hp_max"] + 3}
        db.session.commit()
    after = state(warm, character_id, tokens["referee"])
    assert after["hp_max"] == before["hp_max"] + 3
    assert after == cold(others, character_id, tokens["referee"])
    assert roster_line(warm, event_id, character_id, tokens["referee"]) == after


def test_plain_new_settings_of_an_event_are_seen_by_a_warm_worker(
    client, others, tokens, event_id, character_id
):
    warm = client
    now = {"id": str(uuid.uuid4()), "at": rules.format_instant(now_utc())}
    posted = warm.post(
        f"/api/v1/characters/{character_id}/entries",
        json={**now, "kind": "status_on", "key": "paura"},
        headers=auth(tokens["referee"]),
    )
    assert posted.status_code == 201, posted.json
    before = state(warm, character_id, tokens["referee"])
    roster_line(warm, event_id, character_id, tokens["referee"])
    writer = others()
    with writer.app_context():
        event = db.session.get(Event, event_id)
        event.settings = {**(event.settings or {}), "turn_seconds": 60}
        db.session.commit()
    after = state(warm, character_id, tokens["referee"])
    assert after != before  # turns of a minute: the status lasts longer
    assert after == cold(others, character_id, tokens["referee"])
    assert roster_line(warm, event_id, character_id, tokens["referee"]) == after


def test_a_write_of_characters_past_the_orm_moves_their_version_in_the_same_transaction(
    app, client, others, tokens, character_id
):
    warm = client
    before = state(warm, character_id, tokens["referee"])
    with app.app_context():
        character = db.session.get(Character, character_id)
        was, larp = character.version, dict(character.larp)
        db.session.execute(
            update(Character)
            .where(Character.id == character_id)
            .values(larp={**larp, "hp_max": larp["hp_max"] + 3})
        )
        assert character.version > was  # read again: the database moved it
        db.session.commit()
    after = state(warm, character_id, tokens["referee"])
    assert after["hp_max"] == before["hp_max"] + 3
    assert after == cold(others, character_id, tokens["referee"])


def test_an_entry_dated_ahead_stays_counted_by_a_warm_worker_after_a_late_one(
    client, others, tokens, character_id
):
    """A phone's clock a few seconds ahead, then a late entry folded with the whole log at
    the present: that fold leaves out what is dated after it, so it must not be kept."""
    warm = client
    now = now_utc()
    for at, body in (
        (now + timedelta(seconds=8), {"kind": "spend_energy", "amount": 1}),
        (now - timedelta(minutes=2), {"kind": "note", "text": "arrivata tardi"}),
    ):
        posted = warm.post(
            f"/api/v1/characters/{character_id}/entries",
            json={"id": str(uuid.uuid4()), "at": rules.format_instant(at), **body},
            headers=auth(tokens["referee"]),
        )
        assert posted.status_code == 201, posted.json
    later = rules.format_instant(now + timedelta(seconds=20))
    answered = state(warm, character_id, tokens["referee"], at=later)
    expected = cold(others, character_id, tokens["referee"], at=later)
    assert answered["energy"] == expected["energy"] < answered["energy_max"]
    assert answered == expected
