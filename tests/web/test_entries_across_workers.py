"""Entries sent to several workers in turn (gunicorn's processes, each with its own kept
folds): each worker folds the new entry onto its own fold of the log plus the entries the
others stored since, and every answer is the whole stored log folded. A new sheet in
between is folded with, not the old one."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from larp_app import create_app, rules
from larp_app.extensions import db
from larp_app.keeping.records import records
from larp_app.models import Character, Entry
from larp_app.services import entries as entries_service
from larp_app.services.characters import larp_sheet
from larp_app.services.clock import now_utc
from larp_app.services.events import event_settings

from .conftest import auth
from .helpers import data_sheet

pytestmark = pytest.mark.both_databases

CYCLE = (
    {"kind": "hit", "damage": 1, "pierce": True},
    {"kind": "spend_energy", "amount": 1},
    {"kind": "note", "text": "un appunto"},
    {"kind": "heal", "amount": 1},
    {"kind": "status_on", "key": "paura"},
    {"kind": "restore_energy", "amount": 1},
)


@pytest.fixture
def workers(app, client):
    """Three apps on one database: the test's and two more, as gunicorn's workers are."""
    others = [create_app(dict(app.config)) for _ in range(2)]
    yield [client, *(other.test_client() for other in others)]
    for other in others:
        with other.app_context():
            db.session.remove()
            db.engine.dispose()


def whole_fold(app, character_id: int, at) -> dict:
    with app.app_context():
        character = db.session.get(Character, character_id)
        stored = db.session.scalars(
            db.select(Entry.fields).where(Entry.character_id == character_id).order_by(Entry.id)
        )
        log = [rules.entry_from_stored(f) for f in stored]
        sheet, settings = larp_sheet(character), event_settings(character.event)
        return rules.state_at(sheet, settings, log, at).to_dict()


def stored_count(character_id: int) -> int:
    return db.session.scalar(
        db.select(db.func.count()).select_from(Entry).where(Entry.character_id == character_id)
    )


def post(worker, character_id, token, body):
    answer = worker.post(
        f"/api/v1/characters/{character_id}/entries", json=body, headers=auth(token)
    )
    assert answer.status_code in (201, 409), answer.json
    return answer


def test_entries_sent_to_workers_in_turn_are_each_judged_against_the_whole_log(
    app, workers, tokens, character_id, monkeypatch
):
    read_whole = []
    real_log_of = entries_service.log_of
    monkeypatch.setattr(
        entries_service, "log_of", lambda c: read_whole.append(c.id) or real_log_of(c)
    )
    start = now_utc() - timedelta(minutes=5)
    hp_before = (
        workers[0]
        .get(f"/api/v1/characters/{character_id}", headers=auth(tokens["organiser"]))
        .json["larp_sheet"]["hp_max"]
    )
    for n in range(36):
        worker = workers[n % len(workers)]
        at = start + timedelta(seconds=5 * n)
        body = {"id": str(uuid.uuid4()), "at": rules.format_instant(at), **CYCLE[n % len(CYCLE)]}
        answer = post(worker, character_id, tokens["referee"], body)
        if answer.status_code == 201:
            state = answer.json["state"]
            expected = whole_fold(app, character_id, rules.parse_instant(state["at"]))
            assert {k: state[k] for k in expected} == expected, f"entry {n}"
            with worker.application.app_context():  # the worker keeps the log it just judged
                record = records().records[character_id]
                assert record.folded.log_position == stored_count(character_id), f"entry {n}"
        if n == 17:  # the organiser gives the character a new sheet (more points)
            sheet = data_sheet()
            sheet["attributes"]["corpo"] = 8
            edited = workers[1].put(
                f"/api/v1/characters/{character_id}/sheet",
                json=sheet,
                headers=auth(tokens["organiser"]),
            )
            assert edited.status_code == 200, edited.json
            assert edited.json["larp_sheet"]["hp_max"] != hp_before  # a sheet that matters
    # Each worker read the whole log for its first entry and after the new sheet at most;
    # every other entry was folded on.
    assert len(read_whole) <= 2 * len(workers), read_whole
