"""The API refuses what its OpenAPI document calls malformed, in its JSON error: an empty
``event`` filter, ``settings: null``, an outbox item that is no object, a field an event's
body does not declare, and a request line longer than the server reads."""

import json
import os
import re
import socket
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from larp_app.extensions import db
from larp_app.models import Entry
from larp_app.rules import format_instant
from larp_app.services.clock import now_utc

from .served import ROOT, free_port, wait_for_port

pytestmark = pytest.mark.both_databases


def test_an_empty_event_filter_of_the_phones_roster_is_refused(client, referee):
    answer = client.get("/api/v1/roster?event=", headers=referee)
    assert answer.status_code == 422
    assert answer.json["error"] == "invalid" and "event" in answer.json["fields"]


def test_a_query_parameter_the_operation_does_not_declare_is_refused_naming_the_nearest(
    client, referee, character_id
):
    """A misspelt ``since`` is not answered as a whole roster, nor ``at`` as now."""
    roster = client.get("/api/v1/roster?sinec=1", headers=referee)
    assert roster.status_code == 422
    assert roster.json["fields"] == {"sinec": "is not a known field: did you mean `since`?"}
    state = client.get(f"/api/v1/characters/{character_id}/state?a=1", headers=referee)
    assert state.status_code == 422 and "at" in state.json["fields"]["a"]
    none = client.get("/api/v1/me?at=2026-01-01T00:00:00Z", headers=referee)
    assert none.status_code == 422 and "no query" in none.json["fields"]["at"]
    fine = client.get(f"/api/v1/characters/{character_id}/state?at=2026-01-01T00:00:00Z",
                      headers=referee)  # fmt: skip
    assert fine.status_code == 200


def test_an_event_with_settings_null_or_an_unknown_field_is_refused(client, organiser):
    null = client.post(
        "/api/v1/events",
        json={"name": "Notte", "ruleset": "ex-nihilo", "settings": None},
        headers=organiser,
    )
    assert null.status_code == 422 and "settings" in null.json["fields"]
    extra = client.post(
        "/api/v1/events",
        json={"name": "Notte", "ruleset": "ex-nihilo", "rulset": "athkri"},
        headers=organiser,
    )
    assert extra.status_code == 422 and "`ruleset`" in extra.json["fields"]["rulset"]


def test_an_outbox_with_an_item_that_is_no_object_is_refused_whole(
    app, client, referee, character_id
):
    good = {
        "id": str(uuid.uuid4()),
        "kind": "note",
        "at": format_instant(now_utc()),
        "text": "x",
        "character": character_id,
    }
    answer = client.post("/api/v1/sync", json={"entries": [good, 7, "x"]}, headers=referee)
    assert answer.status_code == 422
    assert set(answer.json["fields"]) == {"entries[1]", "entries[2]"}
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Entry.id))) == 0


def test_each_text_field_of_an_entry_is_documented_as_the_server_reads_it(
    app, client, referee, character_id
):
    """A control character is refused in every text field (line breaks and tabs only in a
    note's text), by the document's schema as by the server: schema-valid data is stored."""
    schemas = client.get("/api/v1/openapi.json").json["components"]["schemas"]
    texts = [
        (name, field, schema)
        for name, entry in schemas.items()
        if name.startswith("Entry_")
        for field, schema in entry["properties"].items()
        if schema.get("type") == "string" and field not in ("id", "kind", "at", "sent_at")
    ]
    assert ("Entry_note", "text") in {(name, field) for name, field, _ in texts}
    for name, field, schema in texts:
        pattern = re.compile(schema["pattern"])
        assert not pattern.search("a\x01b"), (name, field)
        assert bool(pattern.search("a\nb")) == (name == "Entry_note" and field == "text")
    sent = {"id": str(uuid.uuid4()), "kind": "note", "at": format_instant(now_utc())}
    url = f"/api/v1/characters/{character_id}/entries"
    assert client.post(url, json={**sent, "text": "a\nb"}, headers=referee).status_code == 201
    refused = client.post(
        url, json={**sent, "id": str(uuid.uuid4()), "text": "a\x01b"}, headers=referee
    )
    assert refused.status_code == 422 and "text" in refused.json["fields"]


@pytest.fixture
def served(tmp_path, database_url):
    """gunicorn as make run serves it (larp_app/serving.py), one worker, plain HTTP."""
    env = {
        **os.environ,
        "LARP_SQLALCHEMY_DATABASE_URI": database_url,
        "LARP_SECRET_KEY": "a-test-secret",
        "LARP_WARM_UP": "0",
    }
    port = free_port()
    gunicorn = Path(sys.executable).parent / "gunicorn"
    command = [str(gunicorn), "-c", "python:larp_app.serving", "-w", "1"]
    command += ["-b", f"127.0.0.1:{port}", "larp_app:create_app()"]
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as out:
        process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out,
                                   stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    wait_for_port(process, port, log)
    yield port
    os.killpg(process.pid, 15)
    process.wait(30)


def raw_get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), 30) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _sep, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), headers, body


def test_a_request_line_over_four_kilobytes_gets_the_apis_json_error(served):
    status, headers, body = raw_get(served, "/api/v1/roster?event=" + "1," * 3000 + "1")
    assert status == 414
    assert headers["Content-Type"] == "application/json"
    answer = json.loads(body)
    assert answer["error"] == "request_line_too_long" and answer["fields"] == {}
    assert "4094" in answer["message"]
