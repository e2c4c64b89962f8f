"""The kept snapshots are a cache: on random logs (late entries, undos, deaths, statuses) and
across a settings change, every state they give equals the full fold of the stored log, and
a worker that drops them all answers the same."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import insert

from larp_app import rules
from larp_app.extensions import db
from larp_app.keeping.records import Records, records, rows_after, state_of
from larp_app.keeping.views import Since, Views, views
from larp_app.models import Character, Entry, Event
from larp_app.rules.wire import fold_sheet
from larp_app.services import clock
from larp_app.services.characters import import_sheets, larp_sheet
from larp_app.services.clock import now_utc
from larp_app.services.entries import record_entry
from larp_app.services.events import change_settings, create_event, event_settings

from ..unit.test_fold_properties import LATER_SECONDS, PLAY_SECONDS, instant, logs
from .helpers import data_sheet

BREAKS = {"optional_rules": {"armour_breaks": True}}
examples = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
moments = st.integers(0, PLAY_SECONDS + LATER_SECONDS).map(instant)


@pytest.fixture
def ctx(app):
    with app.app_context():
        event = create_event("Notte", "ex-nihilo")
        db.session.commit()
        yield event


def store(character: Character, entry: rules.Entry) -> None:
    """An entry as the app stores it (whatever the fold will think of it)."""
    db.session.execute(
        insert(Entry),
        [
            {
                "client_id": entry.id,
                "character_id": character.id,
                "kind": entry.kind,
                "at": entry.at,
                "received_at": entry.at,
                "fields": rules.entry_to_dict(entry),
            }
        ],
    )
    db.session.commit()  # the insert moved the versions (keeping/versions.py)


def fresh_ids(log: list[rules.Entry]) -> list[rules.Entry]:
    """The same log under new ids (ids are unique across the table), undos following."""
    ids = {e.id: str(uuid.uuid4()) for e in log}
    renamed = []
    for entry in log:
        changes = {"id": ids[entry.id]}
        if entry.kind == "undo":
            changes["target"] = ids.get(entry.target, entry.target)
        renamed.append(replace(entry, **changes))
    return renamed


def full_fold(character: Character, at) -> dict:
    stored = db.session.scalars(
        db.select(Entry.fields).where(Entry.character_id == character.id).order_by(Entry.id)
    )
    log = [rules.entry_from_stored(f) for f in stored]
    return rules.state_at(larp_sheet(character), event_settings(character.event), log, at).to_dict()


def new_character(event: Event) -> Character:
    (character,) = import_sheets(event, [data_sheet()])
    db.session.commit()
    return character


@examples
@given(log=logs(), asked=st.lists(moments, min_size=1, max_size=4), switch=st.integers(0, 40))
def test_a_kept_state_equals_the_full_fold_after_every_entry_and_a_settings_change(
    ctx, log, asked, switch
):
    event = ctx
    character = new_character(event)
    for number, entry in enumerate(fresh_ids(log)):
        if number == switch:  # the event's tables change mid-game: every sheet again
            change_settings(event, BREAKS if not event.settings.get("optional_rules") else {})
            db.session.commit()
        store(character, entry)
        for at in asked:
            assert state_of(character, at).to_dict() == full_fold(character, at)
    for at in asked:
        assert state_of(character, at).to_dict() == full_fold(character, at)


@examples
@given(logs_=st.lists(logs(), min_size=1, max_size=3), asked=st.lists(moments, min_size=2))
def test_an_event_view_equals_the_full_fold_and_a_fresh_worker_answers_the_same(ctx, logs_, asked):
    event = ctx
    cast = [new_character(event) for _ in logs_]
    logs_ = [fresh_ids(log) for log in logs_]
    kept = views()
    for instant_ in sorted(asked):
        for character, log in zip(cast, logs_, strict=True):
            if log:
                store(character, log.pop(0))  # entries arrive between the asks
        db.session.refresh(event)
        view = kept.view(event, instant_)
        fresh = Views(Records()).view(event, instant_)
        for character in cast:
            expected = full_fold(character, instant_)
            del expected["at"]
            assert view.rows[character.id].record.state_json == expected
            assert fresh.rows[character.id].record.state_json == expected


@examples
@given(log=logs().filter(bool), first=moments, later=st.integers(1, 4 * 3600))
def test_what_changed_since_a_version_names_every_character_whose_state_differs(
    ctx, log, first, later
):
    event = ctx
    cast = [new_character(event), new_character(event)]
    for entry in fresh_ids(log):
        store(cast[0], entry)
    db.session.refresh(event)
    view = views().view(event, first)
    held = {c.id: dict(view.rows[c.id].record.state_json) for c in cast}
    token = view.token()
    then = first + timedelta(seconds=later)
    db.session.refresh(event)
    view = views().view(event, then)
    named = {row.id for row in view.since(Since.read(token.text()))}
    for character in cast:
        now = full_fold(character, then)
        del now["at"]
        assert view.rows[character.id].record.state_json == now
        if now != held[character.id]:
            assert character.id in named
    if not named:
        assert view.unchanged(token, event.version)


@examples
@given(logs_=st.lists(logs(), min_size=2, max_size=3), asked=st.lists(moments, min_size=2))
def test_a_worker_that_keeps_one_parsed_sheet_answers_as_the_full_fold(ctx, logs_, asked):
    """Records keep only the sheet as a fold reads it: a step in time with one parsed sheet
    kept for them all gives the full fold's state."""
    event = ctx
    cast = [new_character(event) for _ in logs_]
    for character, log in zip(cast, logs_, strict=True):
        for entry in fresh_ids(log):
            store(character, entry)
    db.session.refresh(event)
    kept = Views(Records(kept_contexts=1))
    for instant_ in sorted(asked):
        view = kept.view(event, instant_)
        assert len(kept.kept.contexts) <= 1
        for character in cast:
            record = view.rows[character.id].record
            sheet = record.snapshot.sheet  # compact: as a fold reads it, nothing more
            assert sheet == fold_sheet(sheet)
            expected = full_fold(character, instant_)
            del expected["at"]
            assert record.state_json == expected


def recorded(character: Character, entry: rules.Entry, shift: timedelta) -> rules.Snapshot | None:
    """The entry through the app's write path (record_entry), dated ``shift`` later; committed
    also when refused (the refusal is kept), as the API does."""
    raw = {**rules.entry_to_dict(entry), "at": rules.format_instant(entry.at + shift)}
    try:
        answer = record_entry(
            character, raw, None, limits=(timedelta(minutes=5), timedelta(days=1))
        )
    except rules.RuleError:
        db.session.commit()
        return None
    db.session.commit()
    return answer.snapshot


def stored_log(character: Character) -> list[rules.Entry]:
    stored = db.session.scalars(
        db.select(Entry.fields).where(Entry.character_id == character.id).order_by(Entry.id)
    )
    return [rules.entry_from_stored(f) for f in stored]


@examples
@given(log=logs().filter(bool))
def test_each_entry_recorded_keeps_a_record_equal_to_the_whole_stored_log_folded(ctx, log):
    """The write path steps a new entry onto the kept fold (rules.fold_on) and keeps the
    result after the commit: it must be the whole stored log folded, entry after entry."""
    event = ctx
    character = new_character(event)
    log = fresh_ids(log)
    shift = now_utc() - timedelta(minutes=1) - max(e.at for e in log)
    kept = records()
    for entry in log:
        answer = recorded(character, entry, shift)
        db.session.refresh(character)
        whole = stored_log(character)
        if answer is not None:
            judged = max(now_utc(), *(e.at for e in whole))
            assert answer.to_dict() == full_fold(character, answer.at)
            assert answer.at <= judged
        record = kept.records.get(character.id)
        if record is not None and record.version == character.version:
            assert record.folded == rules.fold_log(kept.context(character), whole)
    later = now_utc()
    assert state_of(character, later).to_dict() == full_fold(character, later)


def test_an_entry_rolled_back_leaves_no_kept_record_behind(ctx):
    """Its version number is given again to the next change: a record kept for it would be
    of a log that never was."""
    event = ctx
    character = new_character(event)
    start = now_utc() - timedelta(seconds=30)
    hit = {"kind": "hit", "damage": 2, "pierce": True}
    first = rules.read_entry({"id": str(uuid.uuid4()), "at": rules.format_instant(start), **hit})
    assert recorded(character, first, timedelta(0)) is not None
    kept = records()
    before = kept.records[character.id]
    assert before.folded.log_position == 1
    raw = {"id": str(uuid.uuid4()), "at": rules.format_instant(start + timedelta(seconds=5))}
    record_entry(character, {**raw, **hit}, None)
    db.session.rollback()
    assert kept.records[character.id] is before  # not the rolled-back entry's
    heal = {"kind": "heal", "amount": 1}
    second = {"id": str(uuid.uuid4()), "at": rules.format_instant(start + timedelta(seconds=9))}
    answer = record_entry(character, {**second, **heal}, None)
    db.session.commit()
    db.session.refresh(character)
    assert answer.snapshot.to_dict() == full_fold(character, answer.snapshot.at)
    assert kept.records[character.id].folded == rules.fold_log(
        kept.context(character), stored_log(character)
    )


def test_a_view_asked_a_moment_before_it_was_last_brought_to_is_not_built_again(ctx, monkeypatch):
    """Two threads of a worker: the one that waited for the lock asks with an instant older
    than the view's (a moment, or long seconds on a busy worker); it gets the view as it is,
    not a new build of it (which would hold every other thread for as long). Only a wall
    clock set back builds it again."""
    import_sheets(ctx, [data_sheet()])
    db.session.commit()
    kept = Views(Records())
    now = now_utc()
    view = kept.view(ctx, now)
    assert kept.view(ctx, now - timedelta(milliseconds=3)) is view
    assert kept.view(ctx, now - timedelta(seconds=30)) is view  # waited long for the lock
    assert view.at == now
    monkeypatch.setattr(clock, "now_utc", lambda: now - timedelta(minutes=5))
    assert kept.view(ctx, now - timedelta(minutes=5)) is not view  # a clock set back


@pytest.mark.both_databases
def test_the_entries_since_of_more_characters_than_one_statement_holds_are_all_read(ctx):
    """A view brought up to date after thousands of characters changed (a board left a few
    minutes on a 10,000-player day) reads the entries stored since for each of them: SQLite
    refuses an expression nested deeper than 1,000, so they are read a few hundred at a
    time, never refused (once answered 503 until the worker restarted)."""
    character = new_character(ctx)
    now = now_utc()
    first, second = (
        rules.entry_from_stored(
            {
                "id": str(uuid.uuid4()),
                "kind": "note",
                "text": "x",
                "at": rules.format_instant(now + timedelta(seconds=n)),
            }
        )
        for n in range(2)
    )
    store(character, first)
    after = db.session.scalar(db.select(Entry.id).where(Entry.client_id == first.id))
    store(character, second)
    asked = {character.id + n: 0 for n in range(1, 2_500)}  # no such characters: no entries
    asked[character.id] = after
    found = rows_after(asked, ctx.ruleset)
    assert [entry.id for _, entry in found[character.id]] == [second.id]
    assert found.keys() == {character.id}
