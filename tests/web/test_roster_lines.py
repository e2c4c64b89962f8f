"""The phone roster's lines are written once and kept until their character changes: a whole
roster asked again after an entry, a new sheet or a new badge says what the log says now."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta

import pytest

from larp_app import rules
from larp_app.keeping.records import RECORDS, Records
from larp_app.services.clock import now_utc

from .conftest import auth
from .helpers import data_sheet

pytestmark = pytest.mark.both_databases


def line(client, token, character_id):
    answer = client.get("/api/v1/roster", headers=auth(token))
    assert answer.status_code == 200
    assert answer.json["full"] is True
    (found,) = [c for c in answer.json["characters"] if c["id"] == character_id]
    return found, answer.json


def test_a_whole_roster_asked_again_shows_each_change_since_the_last(
    client, tokens, organiser, character_id
):
    first, _ = line(client, tokens["referee"], character_id)
    hit_one_point(client, tokens["referee"], character_id)
    after_hit, _ = line(client, tokens["referee"], character_id)
    assert after_hit["state"]["hp"] == first["state"]["hp"] - 1
    assert after_hit["state"]["fold"]["hp"] == after_hit["state"]["hp"]

    sheet = data_sheet()
    sheet["character"] = "Un altro nome"
    edited = client.put(f"/api/v1/characters/{character_id}/sheet", json=sheet, headers=organiser)
    assert edited.status_code == 200, edited.json
    renamed, _ = line(client, tokens["referee"], character_id)
    assert renamed["name"] == "Un altro nome"
    assert renamed["state"]["hp"] == after_hit["state"]["hp"]

    badge = client.post(f"/api/v1/characters/{character_id}/badge", headers=organiser)
    assert badge.status_code in (200, 201), badge.json
    _, roster = line(client, tokens["referee"], character_id)
    assert character_id in roster["badges"].values()


def now() -> str:
    return rules.format_instant(now_utc())


def hit_one_point(client, token, character_id):
    """A referee's piercing hit of one point, logged now through ``client``."""
    hit = {"id": str(uuid.uuid4()), "kind": "hit", "damage": 1, "pierce": True, "at": now()}
    posted = client.post(
        f"/api/v1/characters/{character_id}/entries", json=hit, headers=auth(token)
    )
    assert posted.status_code == 201


def test_a_whole_roster_asked_again_shows_what_time_alone_changed(
    client, tokens, character_id, monkeypatch
):
    first, _ = line(client, tokens["referee"], character_id)
    minutes = first["sheet"]["energy_recovery_minutes"]
    assert minutes and first["state"]["energy"] >= 1
    # Spent long enough ago that its point comes back in two seconds of the app's clock.
    spent = now_utc() - timedelta(minutes=minutes) + timedelta(seconds=2)
    spend = {"id": str(uuid.uuid4()), "kind": "spend_energy", "amount": 1}
    posted = client.post(
        f"/api/v1/characters/{character_id}/entries",
        json={**spend, "at": rules.format_instant(spent)},
        headers=auth(tokens["referee"]),
    )
    assert posted.status_code == 201, posted.json
    before, _ = line(client, tokens["referee"], character_id)
    assert before["state"]["energy"] == first["state"]["energy"] - 1
    later = now_utc() + timedelta(seconds=2.5)
    for module in ("larp_app.web.api", "larp_app.services.clock"):  # (web/quick.py reads it)
        monkeypatch.setattr(f"{module}.now_utc", lambda: later)
    after, _ = line(client, tokens["referee"], character_id)
    assert after["state"]["energy"] == first["state"]["energy"]


def test_a_sheet_read_again_as_it_was_stored_is_not_parsed_again_and_a_new_one_is(
    app, client, other_worker, tokens, character_id, sql, monkeypatch
):
    """A worker's view reads the characters changed since (another worker's entry, an
    operator's SQL): a sheet whose stored text is the one it parsed is not parsed again;
    a new text is, and the roster shows it."""
    first, _ = line(client, tokens["referee"], character_id)  # this worker's view: parsed
    parsed = []
    real, kept = Records.sheet_of, app.extensions[RECORDS]

    def sheet_of(self, character, *args):
        if self is kept:  # (not the other worker's)
            parsed.append(character)
        return real(self, character, *args)

    monkeypatch.setattr(Records, "sheet_of", sheet_of)
    hit_one_point(other_worker, tokens["referee"], character_id)
    hit_line, _ = line(client, tokens["referee"], character_id)
    assert hit_line["state"]["hp"] == first["state"]["hp"] - 1
    assert parsed == []

    (stored,) = sql("SELECT larp FROM character WHERE id = :id", id=character_id).scalars()
    larp = json.loads(stored) if isinstance(stored, str) else stored
    larp["hp_max"] += 2
    sql(
        "UPDATE character SET larp = :larp WHERE id = :id",
        larp=json.dumps(larp),
        id=character_id,
    )
    new_line, _ = line(client, tokens["referee"], character_id)
    assert parsed == [character_id]
    assert new_line["sheet"]["hp_max"] == first["sheet"]["hp_max"] + 2
