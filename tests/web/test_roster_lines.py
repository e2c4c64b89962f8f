"""The phone roster's lines are written once and kept until their character changes: a whole
roster asked again after an entry, a new sheet or a new badge says what the log says now."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from larp_app import rules
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
    hit = {"id": str(uuid.uuid4()), "kind": "hit", "damage": 1, "pierce": True, "at": now()}
    posted = client.post(
        f"/api/v1/characters/{character_id}/entries", json=hit, headers=auth(tokens["referee"])
    )
    assert posted.status_code == 201
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
