"""The command line between events: re-import, archive, and ``flask event continue``."""

import json
import uuid

import pytest

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Badge, Character, Entry, Event
from larp_app.rules import format_instant
from larp_app.services.badges import resolve_badge
from larp_app.services.clock import now_utc
from larp_app.services.entries import record_entry
from tests.spreadsheets import write_csv

from .helpers import data_sheet

SHEET = data_sheet()
SHEET.pop("ruleset")


def cast(names, **attributes):
    sheets = []
    for name in names:
        sheet = json.loads(json.dumps(SHEET))
        sheet["character"] = name
        sheet["attributes"].update(attributes.get(name, {}))
        sheets.append(sheet)
    return sheets


def import_file(runner, tmp_path, sheets, event="1"):
    path = tmp_path / f"cast-{uuid.uuid4().hex[:6]}.csv"
    path.write_text(write_csv(sheets), encoding="utf-8")
    return runner.invoke(args=["sheets", "import", event, str(path)])


def kill(app, name):
    with app.app_context():
        character = db.session.scalar(db.select(Character).where(Character.name == name))
        raw = {"id": str(uuid.uuid4()), "kind": "kill", "at": format_instant(now_utc())}
        record_entry(character, raw, None)
        db.session.commit()
        return character.id


def names_in(app, event_id):
    with app.app_context():
        return sorted(
            db.session.scalars(db.select(Character.name).where(Character.event_id == event_id))
        )


def test_sheets_import_again_with_one_changed_field_updates_one_character(app, runner, tmp_path):
    runner.invoke(args=["event", "create", "Notte", "--ruleset", "ex-nihilo"])
    assert import_file(runner, tmp_path, cast(["Vera", "Bruno"])).exit_code == 0
    vera = kill(app, "Vera")
    result = import_file(runner, tmp_path, cast(["Vera", "Bruno"], Vera={"corpo": 20}))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "row 2: updated Vera: attributes.corpo 16 → 20",
        "imported 1 characters into event 1: 0 added, 1 updated, 1 unchanged",
    ]
    assert names_in(app, 1) == ["Bruno", "Vera"]
    with app.app_context():
        assert db.session.get(Character, vera).tabletop["attributes"]["corpo"] == 20
        assert db.session.query(Entry).count() == 1


def test_event_archive_refuses_entries_and_reopen_allows_them_again(app, runner, tmp_path):
    runner.invoke(args=["event", "create", "Notte", "--ruleset", "ex-nihilo"])
    import_file(runner, tmp_path, cast(["Vera"]))
    assert runner.invoke(args=["event", "archive", "1"]).output == "event 1: archived\n"
    with app.app_context():
        vera = db.session.scalar(db.select(Character))
        raw = {"id": str(uuid.uuid4()), "kind": "hit", "at": format_instant(now_utc())}
        with pytest.raises(rules.RuleError) as refused:
            record_entry(vera, raw, None)
        assert refused.value.code == "event_archived"
    assert runner.invoke(args=["event", "archive", "1", "--reopen"]).exit_code == 0
    assert kill(app, "Vera")


def test_event_continue_carries_the_survivors_lists_the_dead_and_keeps_the_badges(
    app, runner, tmp_path
):
    runner.invoke(args=["event", "create", "Notte", "--ruleset", "ex-nihilo"])
    import_file(runner, tmp_path, cast(["Vera", "Bruno", "Ciro"]))
    vera = kill(app, "Vera")
    with app.app_context():
        bruno_code = db.session.scalar(
            db.select(Badge.short_code).join(Character).where(Character.name == "Bruno")
        )
    result = runner.invoke(args=["event", "continue", "1", "--name", "Notte di Fuoco"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "event 2: Notte di Fuoco (ex-nihilo), 2 characters carried over from event 1",
        f"left out (dead): {vera} Vera (Giulia Rossi)",
        "badges: 2 kept, 0 new",
    ]
    assert names_in(app, 2) == ["Bruno", "Ciro"]
    with app.app_context():
        assert db.session.get(Event, 1).archived_at is not None
        badge = resolve_badge(bruno_code, None, event_id=2)  # the same card opens the new one
        assert badge.character.event_id == 2
        assert db.session.query(Entry).count() == 1  # the old log stays


def test_event_continue_brings_back_a_named_dead_character_with_new_badges(app, runner, tmp_path):
    runner.invoke(args=["event", "create", "Notte", "--ruleset", "ex-nihilo"])
    import_file(runner, tmp_path, cast(["Vera", "Bruno"]))
    vera = kill(app, "Vera")
    options = ["--name", "Notte di Fuoco", "--bring-back", str(vera), "--reissue-badges"]
    result = runner.invoke(args=["event", "continue", "1", *options])
    assert result.exit_code == 0, result.output
    assert "badges: 0 kept, 2 new" in result.output
    assert names_in(app, 2) == ["Bruno", "Vera"]


def test_event_continue_refuses_to_bring_back_a_living_character(app, runner, tmp_path):
    runner.invoke(args=["event", "create", "Notte", "--ruleset", "ex-nihilo"])
    import_file(runner, tmp_path, cast(["Vera"]))
    result = runner.invoke(
        args=["event", "continue", "1", "--name", "Notte 2", "--bring-back", "1"]
    )
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["bring_back: 1 is not one of the event's dead characters"]
    assert names_in(app, 2) == []
