"""Every database an earlier `main` made upgrades, keeps every entry and works.

Each one in tests/data/historic was made by that version's own code (see the README there):
it is loaded, its entries and states are read from its own rows, `flask db upgrade` runs,
and then the app must hold the same entries, fold the same states and answer its pages.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from datetime import timedelta
from pathlib import Path

import pytest
import sqlalchemy
from alembic.script import ScriptDirectory
from flask_migrate import upgrade

from larp_app import create_app, rules
from larp_app.extensions import db
from larp_app.keeping.records import state_of
from larp_app.models import Character
from larp_app.services.database_health import schema_problems
from larp_app.services.users import create_user
from tests.conftest import POSTGRES_URL

from .helpers import log_in

HISTORIC = Path(__file__).resolve().parents[1] / "data" / "historic"
NAMES = sorted(path.name.removesuffix(".json") for path in HISTORIC.glob("*.json"))
# The repaired ones: made when a migration stamped there was renumbered or re-parented later.
ONCE_BROKEN = {
    "badges_without_faction_colours",
    "print_heartbeat_alone",
    "between_events_alone",
    "versions_alone",
    "revocable_tokens_alone",
    "referee_events_without_badge_hashes",
    "referee_events_indexed_without_badge_hashes",
    "historic_schemas_completed_without_heartbeat",
}


def made_by(name: str) -> dict:
    return json.loads((HISTORIC / f"{name}.json").read_text())


@pytest.fixture(params=["sqlite", "postgresql"])
def historic_url(request, tmp_path):
    """Where each test loads its historic dump: an empty database of its own."""
    if request.param == "postgresql":
        copies = request.getfixturevalue("postgres_copies")
        if copies.reason:
            pytest.skip(copies.reason)
        copies.empty()
        return request.param, POSTGRES_URL
    return request.param, f"sqlite:///{tmp_path / 'historic.sqlite3'}"


def load(kind: str, url: str, name: str) -> None:
    script = HISTORIC / f"{name}.{kind}.sql"
    if kind == "sqlite":
        with sqlite3.connect(url.removeprefix("sqlite:///")) as conn:
            conn.executescript(script.read_text())
        return
    subprocess.run(
        ["psql", url, "-q", "-v", "ON_ERROR_STOP=1", "-f", str(script)],
        check=True,
        capture_output=True,
    )


def stored(url: str) -> dict:
    """What the historic rows say, read with plain SQL before any upgrade: every entry, and
    each character's state folded from its own sheet, settings and log at one instant."""
    engine = sqlalchemy.create_engine(_driver(url))
    with engine.connect() as conn:
        event = conn.execute(sqlalchemy.text("SELECT ruleset, settings FROM event")).one()
        characters = conn.execute(
            sqlalchemy.text('SELECT id, larp FROM "character" ORDER BY id')
        ).all()
        rows = conn.execute(
            sqlalchemy.text("SELECT client_id, character_id, fields FROM entry ORDER BY id")
        ).all()
    engine.dispose()
    settings = rules.read_settings(_json(event.settings), event.ruleset)
    entries = {}
    for client_id, character_id, fields in rows:
        entries.setdefault(character_id, []).append((client_id, _json(fields)))
    logs = {cid: [rules.entry_from_stored(f) for _, f in log] for cid, log in entries.items()}
    at = max(e.at for log in logs.values() for e in log) + timedelta(minutes=5)
    states = {}
    for character_id, larp in characters:
        ctx = rules.Context.of(rules.LarpSheet.from_dict(_json(larp)), settings)
        folded = rules.fold_log(ctx, logs.get(character_id, []), at)
        states[character_id] = rules.snapshot_at(folded, ctx, at).to_dict()
    return {"entries": entries, "states": states, "at": at}


def _json(value):
    return json.loads(value) if isinstance(value, str) else value


def _driver(url: str) -> str:
    return url.replace("postgresql://", "postgresql+psycopg://", 1)


def indexes_unlike_the_models() -> list[str]:
    """Each index the models declare (unique or not) and each named unique constraint, as
    the live database has it; what differs, in words."""
    inspector = sqlalchemy.inspect(db.engine)
    differing = []
    for table in db.metadata.sorted_tables:
        live = {i["name"]: bool(i["unique"]) for i in inspector.get_indexes(table.name)}
        live.update((u["name"], True) for u in inspector.get_unique_constraints(table.name))
        for index in table.indexes:
            if live.get(index.name) != bool(index.unique):
                differing.append(f"index {index.name}: {live.get(index.name)}")
        for constraint in table.constraints:
            unique = isinstance(constraint, sqlalchemy.UniqueConstraint) and constraint.name
            if unique and not live.get(constraint.name):
                differing.append(f"unique {constraint.name}")
    return differing


def assert_plain_sql_moves_the_marks() -> None:
    """The triggers the upgrade made move the versions and marks for an operator's SQL."""

    def read():
        with db.engine.connect() as conn:
            marks = dict(conn.execute(sqlalchemy.text("SELECT name, value FROM mark")).all())
            version = conn.execute(sqlalchemy.text("SELECT max(version) FROM event")).scalar()
        return marks, version

    (marks, version) = read()
    with db.engine.begin() as conn:
        conn.execute(sqlalchemy.text("UPDATE event SET name = name"))
        conn.execute(sqlalchemy.text('UPDATE "user" SET language = language'))
    (after, raised) = read()
    assert raised > version
    assert after["versions"] > marks["versions"] and after["accounts"] > marks["accounts"]
    assert after["epoch"] == marks["epoch"]


def historic_app(url: str, tmp_path):
    return create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": url,
            "PRINT_FOLDER": str(tmp_path / "prints"),
            "FAIR_SHARE": False,
            "FAIR_SHARE_FOLDER": str(tmp_path / "fair-share"),
            "PUBLIC_BASE_URL": None,
        }
    )


def test_every_historic_database_names_a_revision_that_still_exists():
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    with app.app_context():
        config = app.extensions["migrate"].migrate.get_config()
        script = ScriptDirectory.from_config(config)
        for name in NAMES:
            for kind in ("sqlite", "postgresql"):
                assert script.get_revision(made_by(name)[kind]["revision"]) is not None, name


def test_the_historic_databases_cover_every_schema_that_was_once_broken():
    assert set(NAMES) >= ONCE_BROKEN
    assert {"first_schema", "entry_instant"} <= set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_a_database_made_by_an_earlier_main_upgrades_keeping_every_entry_and_state(
    name, historic_url, tmp_path
):
    kind, url = historic_url
    load(kind, url, name)
    before = stored(url)
    assert sum(len(log) for log in before["entries"].values()) == made_by(name)[kind]["entries"]

    app = historic_app(url, tmp_path)
    with app.app_context():
        upgrade()
        assert schema_problems() == []  # the triggers that move the marks too
        assert indexes_unlike_the_models() == []
        assert_plain_sql_moves_the_marks()
        after = {}
        for client_id, character_id, fields in db.session.execute(
            sqlalchemy.text("SELECT client_id, character_id, fields FROM entry ORDER BY id")
        ):
            after.setdefault(character_id, []).append((client_id, _json(fields)))
        assert after == before["entries"]
        for character in db.session.query(Character).order_by(Character.id):
            assert state_of(character, before["at"]).to_dict() == before["states"][character.id]
        create_user("today", "organiser", "a-long-password")
        db.session.commit()
        character_ids = sorted(before["states"])
        db.session.remove()
        db.engine.dispose()

    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    log_in(client, "today")
    pages = ["/events", "/events/1", "/events/1/board", "/events/1/report", "/events/1/checkin"]
    pages += [f"/characters/{cid}" for cid in character_ids]
    for page in pages:
        assert client.get(page).status_code == 200, page
    token = made_by(name)[kind]["referee_token"]
    headers = {"Authorization": f"Bearer {token}"}
    assert client.get("/api/v1/roster", headers=headers).status_code == 200
    for cid in character_ids:
        answer = client.get(f"/api/v1/characters/{cid}/state", headers=headers)
        assert answer.status_code == 200, answer.get_json()
    with app.app_context():
        db.engine.dispose()
