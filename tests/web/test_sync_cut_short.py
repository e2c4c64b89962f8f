"""A phone's batch that the database fails part way through: the answer says how many
entries were stored and to send the rest again, and sending again stores each entry once."""

import pytest
from sqlalchemy.exc import OperationalError

from larp_app.extensions import db
from larp_app.models import Entry
from larp_app.web import api as api_module

from .conftest import auth
from .helpers import data_sheet
from .test_offline_api import count, queued, sync

pytestmark = pytest.mark.both_databases

LOST = OperationalError("INSERT INTO entry", {}, Exception("server closed the connection"))


@pytest.fixture
def api(tokens):
    return {role: auth(token) for role, token in tokens.items()}


@pytest.fixture
def character(client, api):
    event = client.post(
        "/api/v1/events", json={"name": "Notte", "ruleset": "ex-nihilo"}, headers=api["organiser"]
    )
    made = client.post(
        f"/api/v1/events/{event.json['id']}/characters", json=data_sheet(), headers=api["organiser"]
    )
    assert made.status_code == 201, made.json
    return made.json["characters"][0]["id"]


def failing_at(monkeypatch, nth: int, *, after_storing: bool = False):
    """The database fails while the ``nth`` item (counted from 1) is stored; with
    ``after_storing``, once that item is committed but before the server hears so."""
    real, real_commit = api_module.sync_one, db.session.commit
    calls = {"n": 0}

    def sync_one(user, item, worked):
        calls["n"] += 1
        if calls["n"] == nth and not after_storing:
            raise LOST
        return real(user, item, worked)

    def commit():
        real_commit()
        if calls["n"] == nth and after_storing:
            raise LOST  # stored: the connection is lost before the answer

    monkeypatch.setattr(api_module, "sync_one", sync_one)
    monkeypatch.setattr(db.session, "commit", commit)


def outbox_of(character_id, n):
    return [queued(character_id, "note", 300 - i, text=f"nota {i}") for i in range(n)]


def test_a_batch_cut_part_way_says_how_many_were_stored_and_to_send_again(
    app, client, api, character, monkeypatch
):
    outbox = outbox_of(character, 10)
    failing_at(monkeypatch, 5)
    cut = sync(client, outbox, api["referee"])
    assert cut.status_code == 503
    assert cut.headers["Retry-After"]
    assert cut.json["error"] == "cut_short"
    assert (cut.json["stored"], cut.json["answered"], cut.json["total"]) == (4, 4, 10)
    message = cut.json["message"]
    assert "4 of these 10 entries were stored" in message
    assert "Send them again" in message
    assert "Nothing was stored" not in message
    assert [(r["id"], r["status"]) for r in cut.json["results"]] == [
        (item["id"], "stored") for item in outbox[:4]
    ]
    assert count(app, Entry) == 4
    monkeypatch.undo()
    again = sync(client, outbox, api["referee"])
    assert again.status_code == 200, again.json
    assert [r["status"] for r in again.json["results"]] == ["duplicate"] * 4 + ["stored"] * 6
    assert count(app, Entry) == 10
    with app.app_context():
        stored = db.session.scalars(db.select(Entry.client_id)).all()
    assert sorted(stored) == sorted(item["id"] for item in outbox)


def test_a_batch_cut_while_an_entry_was_written_says_it_may_have_been_stored(
    app, client, api, character, monkeypatch
):
    outbox = outbox_of(character, 6)
    failing_at(monkeypatch, 3, after_storing=True)
    cut = sync(client, outbox, api["referee"])
    assert cut.status_code == 503
    assert (cut.json["stored"], cut.json["answered"], cut.json["left"]) == (2, 2, 4)
    assert "may have been stored" in cut.json["message"]
    assert count(app, Entry) == 3  # the third was written, unanswered
    monkeypatch.undo()
    again = sync(client, outbox, api["referee"])
    assert [r["status"] for r in again.json["results"]] == ["duplicate"] * 3 + ["stored"] * 3
    assert count(app, Entry) == 6


def test_a_batch_whose_first_entry_fails_says_none_was_stored(
    app, client, api, character, monkeypatch
):
    outbox = outbox_of(character, 3)
    failing_at(monkeypatch, 1)
    cut = sync(client, outbox, api["referee"])
    assert cut.status_code == 503
    assert (cut.json["stored"], cut.json["results"]) == (0, [])
    assert "0 of these 3 entries were stored" in cut.json["message"]
    assert count(app, Entry) == 0
