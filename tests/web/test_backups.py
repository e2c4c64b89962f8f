"""Backups made while referees' entries are being written restore every acknowledged entry."""

import json
import threading
import time
import urllib.request
import uuid

import pytest
import sqlalchemy
from werkzeug.serving import make_server

from larp_app import create_app, database_uri
from larp_app.extensions import db
from larp_app.models import Entry
from larp_app.rules import format_instant
from larp_app.services.clock import now_utc
from larp_app.services.demo import load_demo

from ..conftest import POSTGRES_URL, with_database

WRITERS = 3


@pytest.fixture
def live_server(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    server.daemon_threads = False  # server_close() waits for every request to end
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()
    thread.join()


def post_note(base: str, token: str, character_id: int) -> str | None:
    """Log one note; its id when the server acknowledged it (201), else None."""
    client_id = str(uuid.uuid4())
    body = {"id": client_id, "kind": "note", "at": format_instant(now_utc()), "text": "load"}
    request = urllib.request.Request(
        f"{base}/api/v1/characters/{character_id}/entries",
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return client_id if answer.status == 201 else None
    except OSError:
        return None


def restore_target(database_url: str, tmp_path) -> str:
    """An empty database of the same kind to restore into."""
    if database_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'restored.sqlite3'}"
    name = f"{POSTGRES_URL.rsplit('/', 1)[1]}_restore"
    admin = sqlalchemy.create_engine(
        database_uri(with_database(POSTGRES_URL, "postgres"), None), isolation_level="AUTOCOMMIT"
    )
    with admin.connect() as conn:
        conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        conn.execute(sqlalchemy.text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return with_database(POSTGRES_URL, name)


@pytest.mark.both_databases
def test_a_backup_made_under_load_restores_every_entry_acknowledged_before_it(
    app, runner, tokens, live_server, database_url, tmp_path
):
    with app.app_context():
        load_demo()
        db.session.commit()
    acknowledged: list[str] = []
    stop = threading.Event()

    def write(character_id: int) -> None:
        while not stop.is_set():
            client_id = post_note(live_server, tokens["referee"], character_id)
            if client_id:
                acknowledged.append(client_id)

    writers = [threading.Thread(target=write, args=(1 + i,)) for i in range(WRITERS)]
    for writer in writers:
        writer.start()
    try:
        while len(acknowledged) < 30:
            time.sleep(0.05)
        before = list(acknowledged)  # acknowledged before the backup began
        backup = tmp_path / "larp.backup"
        made = runner.invoke(args=["backup", "create", str(backup)])
        during = len(acknowledged) - len(before)
        time.sleep(0.3)  # and entries keep coming after it
    finally:
        stop.set()
        for writer in writers:
            writer.join()
    assert made.exit_code == 0, made.output
    assert "backup written to" in made.output

    target = restore_target(database_url, tmp_path)
    restored_app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": target})
    restored = restored_app.test_cli_runner().invoke(
        args=["backup", "restore", "--yes", str(backup)]
    )
    assert restored.exit_code == 0, restored.output
    health = restored_app.test_client().get("/healthz")
    with restored_app.app_context():
        ids = set(db.session.scalars(db.select(Entry.client_id)))
        db.session.remove()
        db.engine.dispose()
    assert set(before) <= ids
    assert ids <= set(acknowledged)  # a consistent copy: nothing invented
    assert health.status_code == 200, health.get_json()
    print(f"acknowledged before: {len(before)}, during: {during}, restored: {len(ids)}")


def test_restoring_a_backup_of_the_other_kind_is_refused_in_words(runner, tmp_path):
    not_sqlite = tmp_path / "dump.pgdump"
    not_sqlite.write_bytes(b"PGDMP\x01\x0e\x00 not a sqlite file")
    answer = runner.invoke(args=["backup", "restore", "--yes", str(not_sqlite)])
    assert answer.exit_code == 2
    assert "is not a SQLite backup" in answer.output
