"""An entry through ``/sync`` costs its write: its answer still tells its referee of their
entries that stopped counting, on any character they logged lately and through any worker,
but reads no other character's sheet when their kept folds are current and count every
entry."""

from __future__ import annotations

import pytest
from sqlalchemy import event as sa_event

from larp_app.extensions import db
from larp_app.keeping.records import RECORDS, Records
from larp_app.models import Character, Event

from .test_acknowledged_means_counted import SHEET, api, event_id, post, queued, sync  # noqa: F401  (fixtures)
from .test_api import entry

pytestmark = pytest.mark.both_databases


@pytest.fixture
def characters(client, api, event_id):  # noqa: F811
    made = client.post(
        f"/api/v1/events/{event_id}/characters",
        json=[{**SHEET, "character": f"PG {n}"} for n in range(4)],
        headers=api["olga"],
    )
    return [c["id"] for c in made.json["characters"]]


def statements(app, action, matches) -> int:
    """How many statements ``action`` makes whose text (lower case) ``matches``."""
    with app.app_context():
        engine = db.engine
    seen = []

    def heard(conn, cursor, statement, parameters, context, executemany):
        if matches(statement.lower()):
            seen.append(statement)

    sa_event.listen(engine, "before_cursor_execute", heard)
    try:
        action()
    finally:
        sa_event.remove(engine, "before_cursor_execute", heard)
    return len(seen)


def sheets_read(app, action) -> int:
    """How many statements that read characters' sheets ``action`` makes."""
    return statements(app, action, lambda t: "from character" in t and "character.larp" in t)


def test_an_entrys_answer_reads_no_sheet_of_the_other_characters_its_referee_logged(
    app,
    client,
    api,  # noqa: F811
    characters,
):
    for character in characters[1:]:
        assert (
            sync(client, api["rita"], queued(character, entry("note", text="visto"))).status_code
            == 200
        )

    def one_more():
        answer = sync(client, api["rita"], queued(characters[0], entry("note", text="ancora")))
        assert answer.json["results"][0]["status"] == "stored"
        assert answer.json["conflicts"] == []

    assert sheets_read(app, one_more) <= 1  # the entry's own character, to judge it


def test_an_entry_voided_on_another_worker_is_told_in_the_next_answer_on_this_one(
    client,
    other_worker,
    api,  # noqa: F811
    characters,
):
    victim, other = characters[0], characters[1]
    assert sync(client, api["rita"], queued(other, entry("note", text="prima"))).status_code == 200
    hit = entry("hit", 120)
    # Logged through the other worker after this one last looked at rita's characters.
    answer = sync(other_worker, api["rita"], queued(victim, hit))
    assert answer.json["results"][0]["status"] == "stored"
    kill = entry("kill", 300, reason="ambush")  # logged offline before the hit, sent now
    assert sync(other_worker, api["remo"], queued(victim, kill)).json["conflicts"] == []

    answer = sync(client, api["rita"], queued(other, entry("note", text="dopo")))
    assert [c["id"] for c in answer.json["conflicts"]] == [hit["id"]]
    listed = client.get("/api/v1/conflicts", headers=api["rita"]).json["conflicts"]
    assert [(c["id"], c["because"]["id"]) for c in listed] == [(hit["id"], kill["id"])]

    assert (
        client.post(f"/api/v1/conflicts/{hit['id']}/dismiss", headers=api["rita"]).status_code
        == 204
    )
    assert sync(client, api["rita"]).json["conflicts"] == []


def test_a_conflict_on_a_character_this_worker_folded_before_is_told_once_it_changed(
    client,
    other_worker,
    api,  # noqa: F811
    characters,
):
    victim = characters[2]
    hit = entry("hit", 120)
    assert post(client, api["rita"], victim, hit).status_code == 201  # kept here, no conflict
    assert sync(client, api["rita"]).json["conflicts"] == []
    kill = entry("kill", 300, reason="ambush")
    assert sync(other_worker, api["remo"], queued(victim, kill)).status_code == 200
    assert [c["id"] for c in sync(client, api["rita"]).json["conflicts"]] == [hit["id"]]


def conflicts_mark(app) -> int:
    from larp_app.models import Mark

    with app.app_context():
        return db.session.get(Mark, "conflicts").value


def statements_reading_the_log_by_author(app, action) -> int:
    """How many statements ``action`` makes that look for a referee's entries."""
    return statements(app, action, lambda text: "entry.author_id" in text)


def test_entries_logged_in_their_order_leave_the_conflicts_mark_and_the_log_alone(
    app,
    client,
    api,  # noqa: F811
    characters,
):
    """The usual entry, the latest of its log, changes no other entry's verdict: its answer
    tells its referee of their voided entries as this worker last found them, reading none
    of their entries again."""
    assert (
        sync(client, api["rita"], queued(characters[0], entry("note", text="a"))).json["conflicts"]
        == []
    )
    before = conflicts_mark(app)

    def more():
        for character in characters:
            answer = sync(client, api["rita"], queued(character, entry("hit", 1, damage=1)))
            assert answer.json["results"][0]["status"] == "stored"

    assert statements_reading_the_log_by_author(app, more) == 0
    assert conflicts_mark(app) == before


@pytest.mark.parametrize("change", ["undo", "late entry", "new larp sheet", "new settings"])
def test_whatever_may_change_which_entries_count_moves_the_conflicts_mark(
    app,
    client,
    api,  # noqa: F811
    event_id,  # noqa: F811
    characters,
    change,
):
    victim = characters[0]
    hit = entry("hit", 60)
    assert sync(client, api["rita"], queued(victim, hit)).json["results"][0]["status"] == "stored"
    before = conflicts_mark(app)
    if change == "undo":
        answer = sync(client, api["rita"], queued(victim, entry("undo", 0, target=hit["id"])))
        assert answer.json["results"][0]["status"] == "stored"
    elif change == "late entry":
        late = entry("note", 600, text="logged offline")
        assert sync(client, api["remo"], queued(victim, late)).json["results"][0]["status"] == (
            "stored"
        )
    elif change == "new larp sheet":
        from larp_app.models import Character

        with app.app_context():
            character = db.session.get(Character, victim)
            character.larp = {**character.larp, "name": "Altro nome"}
            db.session.commit()
    else:
        from larp_app.models import Event

        with app.app_context():
            event = db.session.get(Event, event_id)
            event.settings = {**(event.settings or {}), "armour_breaks": False}
            db.session.commit()
    assert conflicts_mark(app) > before


def test_an_entry_reads_its_character_once_under_its_lock_and_loads_no_object(
    app,
    client,
    api,  # noqa: F811
    characters,
):
    """The character and its event are read as values in the statement that takes the write
    lock: no ORM object is made, and the character is read again only for the version its
    entry's insert gave it."""
    note = entry("note", text="prima")
    assert sync(client, api["rita"], queued(characters[0], note)).status_code == 200
    loaded = []

    def heard(target, _context):
        loaded.append(type(target).__name__)

    def one_more():
        answer = sync(client, api["rita"], queued(characters[0], entry("note", text="ancora")))
        assert answer.json["results"][0]["status"] == "stored"

    for model in (Character, Event):
        sa_event.listen(model, "load", heard)
    try:
        reads = statements(app, one_more, lambda t: "from character" in t)
    finally:
        for model in (Character, Event):
            sa_event.remove(model, "load", heard)
    assert loaded == []
    assert reads == 2  # under the lock; the version after the insert


def test_an_entry_is_looked_for_in_the_log_by_the_read_that_locks_its_character(
    app,
    client,
    api,  # noqa: F811
    characters,
):
    """Under the lock each statement waits its turn among the worker's threads: whether the
    entry's id was stored or refused before is read with the character, not after it."""
    item = queued(characters[0], entry("note", text="una"))
    found = []

    def looked_for(text):
        if "refused_entry.client_id" in text:
            found.append("from character" in text)
        return False

    def sent(status):
        def send():
            assert sync(client, api["rita"], item).json["results"][0]["status"] == status

        return send

    statements(app, sent("stored"), looked_for)
    statements(app, sent("duplicate"), looked_for)
    assert found == [True, True]  # one look each time, in the character's read


def test_an_entry_for_a_character_whose_sheet_is_not_kept_parsed_is_judged_with_its_record(
    app,
    client,
    api,  # noqa: F811
    characters,
):
    """A worker keeps a few hundred sheets parsed, the most recently used. An entry for a
    character whose record it keeps, and whose stored sheet it has read before, is folded on
    and judged with the record's own sheet (as a fold reads it: an advancement's cost here),
    with no sheet parsed; its answer is the whole fold's."""
    character = characters[0]
    first = sync(client, api["rita"], queued(character, entry("hit", damage=1)))
    assert first.json["results"][0]["status"] == "stored"
    kept = app.extensions[RECORDS]
    kept.contexts.clear()  # as hundreds of other characters would
    wrong = entry("spend_energy", amount=2, advancement="Colpo Caricato")
    spent = entry("spend_energy", amount=1, advancement="Colpo Caricato")
    answer = sync(client, api["rita"], queued(character, wrong), queued(character, spent))
    refused, stored = answer.json["results"]
    assert (refused["status"], refused["code"]) == ("refused", "wrong_cost")
    assert stored["status"] == "stored"
    assert character not in kept.contexts  # judged with the record's sheet, unparsed
    app.extensions[RECORDS] = Records()  # as a worker that never saw the character
    whole = client.get(f"/api/v1/characters/{character}/state", headers=api["rita"]).json
    figures = ("hp", "ap", "energy", "hp_max", "energy_max", "wound")
    assert {k: stored["state"][k] for k in figures} == {k: whole[k] for k in figures}
    assert whole["energy"] == whole["energy_max"] - 1
