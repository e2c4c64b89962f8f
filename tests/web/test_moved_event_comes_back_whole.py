"""A moved event comes back whole: every column of every table that belongs to an event
travels (one naming another row, by what names it in every database), or is named as left
out with why (archive/event_archive.py); archives are checked whole before anything is
written and refused in words; archives of the format before still import."""

import json
import shutil
import uuid
from datetime import timedelta

import pytest

from larp_app import create_app
from larp_app.archive.event_archive import CARRIED_AS, IN_PART, LEFT_OUT
from larp_app.extensions import db
from larp_app.models import Badge, Character, Entry, Event, RefereeEvent, User
from larp_app.reads.conflicts import dismiss
from larp_app.rules import format_instant
from larp_app.services.assignments import assign_referees, works
from larp_app.services.badges import BadgeRefused, active_badge, resolve_badge
from larp_app.services.characters import edit_sheet, withdraw
from larp_app.services.checkin import mark_present
from larp_app.services.clock import now_utc
from larp_app.services.events import archive_event
from larp_app.services.sync import sync_one

from .test_event_archive import export, imported, play_an_event

# The event's tables, and how each finds the event's rows; every other table says why it is
# not the event's. A new table must be named in one or the other.
OWNED = {
    "event": lambda ids: Event.id == ids["event"],
    "character": lambda ids: Character.event_id == ids["event"],
    "entry": lambda ids: Entry.character_id.in_(ids["characters"]),
    "badge": lambda ids: db.text(f"character_id IN ({ids['in_characters']})"),
    "badge_lookup": lambda ids: db.text(f"event_id = {ids['event']}"),
    "refused_entry": lambda ids: db.text(f"character_id IN ({ids['in_characters']})"),
    "referee_event": lambda ids: RefereeEvent.event_id == ids["event"],
    "dismissed_conflict": lambda ids: db.text(
        f"client_id IN (SELECT client_id FROM entry WHERE character_id IN ({ids['in_characters']}))"
    ),
    "sheet_change": lambda ids: db.text(f"character_id IN ({ids['in_characters']})"),
    "print_job": lambda ids: db.text(f"event_id = {ids['event']}"),
}
NOT_THE_EVENTS = {
    "user": "accounts work every event; they travel by username, their passwords stay",
    "api_token": "an account's key to this server",
    "web_session": "a browser logged in to this server",
    "login_attempt": "failed logins at this server",
    "heartbeat": "the server's own check that its database accepts a write",
    "kept_fold": "derived data: each character's log folded, for a worker's start; rebuilt "
    "from the log wherever the event goes",
    "mark": "this server's counters of changes, read by its workers to know what still holds",
}


def played_whole(app) -> int:
    """The played event, then every mark an event can carry: a character withdrawn, one
    checked in, a sheet changed, a referee assigned, a conflict dismissed, a refusal with
    parameters, and the event archived."""
    event_id = play_an_event(app)
    with app.app_context():
        event = db.session.get(Event, event_id)
        referee = db.session.scalar(db.select(User).where(User.username == "referee"))
        organiser = db.session.scalar(db.select(User).where(User.username == "organiser"))
        now = now_utc()

        def log(user, character, kind, seconds_ago, **fields):
            at = format_instant(now - timedelta(seconds=seconds_ago))
            item = {"character": character, "id": str(uuid.uuid4()), "kind": kind, "at": at}
            return sync_one(user, {**item, "sent_at": format_instant(now), **fields})

        assert log(referee, 6, "note", 35, text="first")["status"] == "stored"
        # A moment before it, from another phone: placed after it, its own instant kept.
        assert log(referee, 6, "note", 38, text="placed after")["status"] == "stored"
        voided = log(referee, 6, "note", 50, text="seen")
        assert voided["status"] == "stored", voided
        assert log(referee, 6, "spend_energy", 40, amount=5)["code"] == "not_enough_energy"
        assert dismiss(referee, voided["id"], now)
        character = db.session.get(Character, 6)
        sheet = {**character.tabletop, "notes": "changed at the desk"}
        assert edit_sheet(character, sheet, organiser, "form")
        revoked = db.session.scalar(
            db.select(Badge.secret).where(Badge.character_id == 5, Badge.revoked_at.is_not(None))
        )
        with pytest.raises(BadgeRefused):  # a lost card found again: refused, kept
            resolve_badge(revoked, referee, event_id)
        mark_present(db.session.get(Character, 4))
        active_badge(db.session.get(Character, 1)).printed_at = now  # as a print marks it
        withdraw(db.session.get(Character, 2))
        assign_referees(event, [referee.id])
        archive_event(event)
        db.session.commit()
    return event_id


def rows_of(app, event_id: int) -> dict[str, list[dict]]:
    """Every row of the event's tables, each column as the archive names it: another row by
    what names it in every database (a user by username, a character by its place, a badge by
    its digest), nothing this database numbers."""
    with app.app_context():
        characters = db.session.scalars(
            db.select(Character.id).where(Character.event_id == event_id).order_by(Character.id)
        ).all()
        ids = {
            "event": event_id,
            "characters": characters,
            "in_characters": ",".join(map(str, characters)) or "NULL",
        }
        named = {
            "user": dict(db.session.execute(db.select(User.id, User.username)).all()),
            "character": {c: n for n, c in enumerate(characters, 1)},
            "event": {event_id: "the event"},
            "badge": dict(db.session.execute(db.select(Badge.id, Badge.secret_hash)).all()),
        }
        rows = {}
        for table in db.metadata.sorted_tables:
            if table.name not in OWNED:
                continue
            found = db.session.execute(
                db.select(table).where(OWNED[table.name](ids)).order_by(*table.primary_key)
            ).mappings()
            rows[table.name] = [
                {
                    column.name: _named(column, row[column.name], named)
                    for column in table.columns
                    if f"{table.name}.{column.name}" not in LEFT_OUT
                }
                for row in found
            ]
        rows["referee_event"].sort(key=lambda r: r["user_id"])
        return rows


def same_rows(table: str, rows: list[dict], columns: list[str]) -> list:
    """The rows' carried columns: in their order for the log (the arrival order counts), else
    in any order (this database's numbering is not the archive's)."""
    kept = [{c: r[c] for c in columns} for r in rows]
    return kept if table == "entry" else sorted(kept, key=repr)


def _named(column, value, named):
    for key in column.foreign_keys:
        return None if value is None else named[key.column.table.name][value]
    return value


def test_every_table_is_the_events_or_says_why_not(app):
    tables = {t.name for t in db.metadata.sorted_tables}
    assert tables == set(OWNED) | set(NOT_THE_EVENTS)
    assert not set(OWNED) & set(NOT_THE_EVENTS)


def test_every_column_of_the_events_tables_travels_or_is_left_out_with_why(app):
    said = {**LEFT_OUT, **CARRIED_AS, **IN_PART}
    assert all(why.strip() for why in said.values())
    assert not set(LEFT_OUT) & set(CARRIED_AS)
    columns = {
        f"{table.name}.{column.name}": column
        for table in db.metadata.sorted_tables
        if table.name in OWNED
        for column in table.columns
    }
    assert set(said) <= set(columns), "a column named that no table has"
    for name in CARRIED_AS:
        assert columns[name].foreign_keys, f"{name} names no other row"
    for name, column in columns.items():
        if column.foreign_keys and name not in LEFT_OUT:
            assert name in CARRIED_AS, f"{name} names another row: say how the archive names it"


@pytest.mark.both_databases
def test_a_moved_event_comes_back_equal_in_every_column_it_carries(
    app, runner, sqlite_template, tmp_path
):
    event_id = played_whole(app)
    export(runner, event_id, tmp_path / "event.json")
    shutil.copyfile(sqlite_template, tmp_path / "other.sqlite3")
    target = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'other.sqlite3'}"}
    )
    moved = imported(target.test_cli_runner(), tmp_path / "event.json")
    before, after = rows_of(app, event_id), rows_of(target, moved)
    for table, rows in before.items():
        if table == "print_job":
            continue  # left out whole
        assert rows, f"the played event has no {table} row: the test would prove nothing"
        carried = [c for c in rows[0] if f"{table}.{c}" not in IN_PART]
        for column in carried:
            assert any(r[column] is not None for r in rows), (
                f"{table}.{column} is empty in every row of the played event: the test would "
                "prove nothing of it"
            )
        assert same_rows(table, after[table], carried) == same_rows(table, rows, carried)
    shown = [r["presented"] for r in after["badge_lookup"]]
    assert all(
        s in ("", r["presented"]) for s, r in zip(shown, before["badge_lookup"], strict=True)
    )


def test_after_the_move_the_withdrawn_stay_withdrawn_and_the_referee_works_only_the_event(
    app, runner, sqlite_template, tmp_path
):
    event_id = played_whole(app)
    export(runner, event_id, tmp_path / "event.json")
    shutil.copyfile(sqlite_template, tmp_path / "other.sqlite3")
    target = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'other.sqlite3'}"}
    )
    with target.app_context():
        other = Event(name="Another", ruleset="ex-nihilo", settings={}, created_at=now_utc())
        db.session.add(other)
        db.session.commit()
        other_id = other.id
    moved = imported(target.test_cli_runner(), tmp_path / "event.json")
    with target.app_context():
        event = db.session.get(Event, moved)
        assert event.archived_at is not None
        withdrawn = [c.name for c in event.characters if c.withdrawn_at is not None]
        assert len(withdrawn) == 1
        referee = db.session.scalar(db.select(User).where(User.username == "referee"))
        assert works(referee, event)
        assert not works(referee, db.session.get(Event, other_id))


# --- archives refused in words, nothing written ----------------------------------------------


def counts(app) -> tuple:
    with app.app_context():
        return tuple(
            db.session.scalar(db.select(db.func.count()).select_from(model))
            for model in (Event, Character, Entry, User)
        )


@pytest.fixture
def archive(app, runner, tmp_path):
    """The played event's archive, as a dict, with its event taken out of this database's
    way (another name and time, fresh ids and digests) so that it could be imported here."""
    event_id = played_whole(app)
    data = export(runner, event_id, tmp_path / "event.json")
    text = json.dumps(data)
    for row in data["entries"] + data["refusals"]:  # every mention of each id: a new id
        text = text.replace(row["client_id"], str(uuid.uuid4()))
    data = json.loads(text)
    data["event"]["name"] = "Elsewhere"
    for character in data["characters"]:
        character["player_secret_hash"] = None
        for badge in character["badges"]:
            badge["secret_hash"] = uuid.uuid4().hex * 2
            badge["short_code_hash"] = uuid.uuid4().hex * 2
    data["refused_scans"] = []
    data["accounts"].append(
        {
            "username": "newcomer",
            "role": "referee",
            "active": True,
            "language": None,
            "created_at": data["event"]["created_at"],
        }
    )
    return data


def import_text(runner, tmp_path, text: str):
    path = tmp_path / "archive.json"
    path.write_text(text, encoding="utf-8")
    return runner.invoke(args=["event", "import", str(path)])


def refused(app, runner, tmp_path, text: str, *words: str) -> None:
    before = counts(app)
    answer = import_text(runner, tmp_path, text)
    assert answer.exit_code != 0, answer.output
    assert "Traceback" not in answer.output
    assert answer.exception is None or isinstance(answer.exception, SystemExit), answer.exception
    for word in words:
        assert word in answer.output, answer.output
    assert counts(app) == before, "something was written"


def test_the_prepared_archive_imports(app, runner, tmp_path, archive):
    answer = import_text(runner, tmp_path, json.dumps(archive))
    assert answer.exit_code == 0, answer.output
    assert "new account newcomer" in answer.output


def test_an_archive_naming_a_rule_system_not_installed_is_refused_in_words(
    app, runner, tmp_path, archive
):
    archive["event"]["ruleset"] = "dungeons-of-elsewhere"
    refused(app, runner, tmp_path, json.dumps(archive), "event.ruleset", "not installed")


def test_an_archive_missing_a_key_is_refused_naming_it(app, runner, tmp_path, archive):
    del archive["characters"][2]["withdrawn_at"]
    refused(app, runner, tmp_path, json.dumps(archive), "characters[2].withdrawn_at is missing")


def test_an_archive_with_a_value_of_the_wrong_type_is_refused_naming_it(
    app, runner, tmp_path, archive
):
    archive["entries"][3]["at"] = 12
    archive["refusals"][0]["params"] = "many"
    refused(
        app,
        runner,
        tmp_path,
        json.dumps(archive),
        "entries[3].at must be an instant",
        "refusals[0].params must be an object",
    )


def test_an_archive_whose_rows_name_a_character_it_lacks_is_refused(app, runner, tmp_path, archive):
    archive["entries"][0]["character"] = 999
    refused(app, runner, tmp_path, json.dumps(archive), "entries[0].character")


def test_an_archive_with_settings_the_rule_system_refuses_is_refused(
    app, runner, tmp_path, archive
):
    archive["event"]["settings"]["turn_seconds"] = "soon"
    refused(app, runner, tmp_path, json.dumps(archive), "event.settings.turn_seconds")


def test_a_file_that_is_not_json_is_refused_in_words(app, runner, tmp_path):
    refused(app, runner, tmp_path, "event: Notte\n", "FILE")


def test_a_truncated_archive_is_refused_in_words(app, runner, tmp_path, archive):
    text = json.dumps(archive)
    refused(app, runner, tmp_path, text[: len(text) // 2], "FILE")


def format_2(archive: dict) -> dict:
    """The archive as the format before wrote it: no marks, history, assignments, dismissed
    conflicts or refusals' parameters."""
    old = json.loads(json.dumps(archive))
    old["format"] = "larp_app.event/2"
    del old["event"]["archived_at"], old["referees"], old["dismissed_conflicts"]
    for character in old["characters"]:
        del character["withdrawn_at"], character["present_at"], character["sheet_changes"]
    for refusal in old["refusals"]:
        del refusal["params"]
    return old


def test_an_archive_of_the_format_before_still_imports(app, runner, tmp_path, archive):
    answer = import_text(runner, tmp_path, json.dumps(format_2(archive)))
    assert answer.exit_code == 0, answer.output
    with app.app_context():
        event = db.session.scalar(db.select(Event).where(Event.name == "Elsewhere"))
        assert event.archived_at is None
        assert all(c.withdrawn_at is None for c in event.characters)
        assert len(event.characters) == len(archive["characters"])
