"""/healthz for whoever runs the server, and one log line per request with its time."""

import logging
import re

import pytest
from flask_migrate import downgrade

from larp_app import create_app
from larp_app.web.health import request_log


@pytest.mark.both_databases
def test_healthz_answers_ok_when_the_database_answers_and_migrations_are_current(
    client, database_url
):
    answer = client.get("/healthz")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["status"] == "ok"
    assert body["migrations"]["current"] == body["migrations"]["expected"]


def test_healthz_answers_503_naming_pending_migrations(app, client):
    with app.app_context():
        downgrade(revision="-1")
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.get_json()["status"] == "migrations_pending"


def test_healthz_answers_503_when_the_database_does_not_answer(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            # Nothing listens on port 1: the connection is refused at once.
            "SQLALCHEMY_DATABASE_URI": "postgresql://nobody@127.0.0.1:1/none",
            "SQLALCHEMY_ENGINE_OPTIONS": {"connect_args": {"connect_timeout": 2}},
            "PRINT_FOLDER": str(tmp_path),
        }
    )
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503
    body = answer.get_json()
    assert body["status"] == "unavailable"
    assert "OperationalError" in body["database"]


@pytest.fixture
def log_lines():
    lines = []

    class Keep(logging.Handler):
        def emit(self, record):
            lines.append(record.getMessage())

    handler = Keep()
    request_log.addHandler(handler)
    yield lines
    request_log.removeHandler(handler)


def test_every_request_logs_one_line_with_its_address_status_and_time(client, log_lines):
    client.get("/login?next=/referee/")
    client.get("/no-such-page")
    assert len(log_lines) == 2
    pattern = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ 127\.0\.0\.1 GET %s %d \d+\.\dms$"
    assert re.match(pattern % ("/login", 200), log_lines[0]), log_lines[0]
    assert re.match(pattern % ("/no-such-page", 404), log_lines[1]), log_lines[1]


def test_the_request_log_leaves_badge_and_player_secrets_out(client, log_lines):
    client.get("/b/ABCDEFGHSECRETXYZ?v=1")
    client.get("/p/PLAYERSECRET123")
    assert "SECRET" not in " ".join(log_lines)
    assert " GET /b/… " in log_lines[0]
