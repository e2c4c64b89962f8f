"""Every entry under its true author: the server stores an entry only for the user who
logged it; an entry a phone holds for someone else is held, shown to organisers, and stored
under its author's name once they send it."""

import uuid

import pytest

from larp_app.extensions import db
from larp_app.models import Entry, RefusedEntry
from larp_app.rules import format_instant
from larp_app.services.clock import now_utc
from larp_app.services.users import create_user

from .helpers import log_in, make_user

pytestmark = pytest.mark.both_databases


@pytest.fixture
def ref_a(app):
    """refA's API token."""
    with app.app_context():
        token = create_user("refA", "referee")[2]
        db.session.commit()
    return {"Authorization": f"Bearer {token}"}


def note(author, text="seen at the gate"):
    raw = {"id": str(uuid.uuid4()), "kind": "note", "at": format_instant(now_utc()), "text": text}
    return {**raw, "author": author}


def authors(app):
    with app.app_context():
        return [e.fields.get("author") for e in db.session.scalars(db.select(Entry))]


def test_an_entry_declared_by_another_user_is_refused_in_words_and_held(
    app, client, referee, character_id
):
    answer = client.post(
        f"/api/v1/characters/{character_id}/entries", json=note("refA"), headers=referee
    )
    assert (answer.status_code, answer.json["error"]) == (403, "not_the_author")
    assert answer.json["message"] == (
        "logged by refA: only refA, logged in, sends it (it waits on the phone)"
    )
    assert authors(app) == []
    own = client.post(
        f"/api/v1/characters/{character_id}/entries", json=note("referee-1"), headers=referee
    )
    assert own.status_code == 201 and authors(app) == ["referee-1"]


def test_a_phone_reports_the_entries_it_holds_and_their_author_sends_them_later(
    app, client, referee, ref_a, character_id
):
    first, second = note("refA"), note("refA", "second")
    mine = note("referee-1", "mine")
    synced = client.post(
        "/api/v1/sync",
        json={
            "entries": [{**mine, "character": character_id}],
            "held": [{**first, "character": character_id}],
        },
        headers=referee,
    ).json["results"]
    assert [r["status"] for r in synced] == ["stored", "held"]
    assert synced[1]["code"] == "not_the_author"
    # An older phone that sends someone else's entry as its own: held all the same.
    sneaked = client.post(
        "/api/v1/sync", json={"entries": [{**second, "character": character_id}]}, headers=referee
    ).json["results"]
    assert sneaked[0]["status"] == "held"
    assert authors(app) == ["referee-1"]
    with app.app_context():
        held = db.session.scalars(db.select(RefusedEntry)).all()
        assert {(r.code, r.params["author"]) for r in held} == {("not_the_author", "refA")}
        assert len(held) == 2
    # The organiser's board lists them, saying whose they are.
    make_user(app, "olga", "organiser")
    board = app.test_client()
    log_in(board, "olga")
    page = board.get("/events/1/board").get_data(as_text=True)
    assert page.count("logged by refA: only refA, logged in, sends it") == 2
    # refA logs in on that phone: the same entries are stored under refA, held no more.
    sent = client.post(
        "/api/v1/sync",
        json={"entries": [{**e, "character": character_id} for e in (first, second)]},
        headers=ref_a,
    ).json["results"]
    assert [r["status"] for r in sent] == ["stored", "stored"]
    assert sorted(authors(app)) == ["refA", "refA", "referee-1"]
    with app.app_context():
        assert db.session.scalars(db.select(RefusedEntry)).all() == []


def test_a_held_entry_must_name_its_author(client, referee, character_id):
    raw = note("x")
    del raw["author"]
    answer = client.post(
        "/api/v1/sync",
        json={"entries": [], "held": [{**raw, "character": character_id}]},
        headers=referee,
    )
    assert answer.status_code == 422 and "held[0].author" in answer.json["fields"]
