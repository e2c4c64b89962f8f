"""/healthz for whoever runs the server, and one log line per request with its time."""

import io
import logging
import os
import re
import time

import pytest
import sqlalchemy
from flask_migrate import downgrade

from larp_app import create_app
from larp_app.extensions import db
from larp_app.web.health import RequestLines, request_log

from .helpers import log_in, make_user


@pytest.mark.both_databases
def test_healthz_answers_ok_when_the_database_answers_and_migrations_are_current(
    client, database_url
):
    answer = client.get("/healthz")
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["status"] == "ok"
    assert body["migrations"]["current"] == body["migrations"]["expected"]
    assert (body["schema"], body["write"]) == ("ok", "ok")


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


def test_a_database_server_s_connections_are_pinged_before_use_and_a_file_s_are_not(tmp_path):
    """A server's connection may have ended (a restart): it is pinged before a request uses
    it. SQLite's file never ends one: no ping before every request. Either is configurable."""

    def pinged(uri, options=None):
        config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": uri, "PRINT_FOLDER": str(tmp_path)}
        app = create_app({**config, **({"SQLALCHEMY_ENGINE_OPTIONS": options} if options else {})})
        with app.app_context():
            return db.engine.pool._pre_ping

    server = "postgresql://nobody@127.0.0.1:1/none"
    assert pinged(server) is True
    assert pinged(server, {"connect_args": {"connect_timeout": 2}}) is True
    assert pinged(f"sqlite:///{tmp_path / 'file.sqlite3'}") is False
    assert pinged(f"sqlite:///{tmp_path / 'file.sqlite3'}", {"pool_pre_ping": True}) is True


def drop_column(app, table, column):
    """The schema loses a column while its stamp still says current (as a database made
    while a migration was numbered differently)."""
    with app.app_context():
        with db.engine.begin() as conn:
            conn.execute(sqlalchemy.text(f'ALTER TABLE "{table}" DROP COLUMN {column}'))
        db.engine.dispose()


@pytest.mark.both_databases
def test_healthz_answers_503_naming_a_column_the_stamp_claims_but_the_database_lacks(app, client):
    drop_column(app, "event", "archived_at")
    answer = client.get("/healthz")
    assert answer.status_code == 503
    body = answer.get_json()
    assert body["status"] == "schema_mismatch"
    assert body["migrations"]["current"] == body["migrations"]["expected"]
    assert body["schema"] == ["column event.archived_at is missing"]


@pytest.mark.both_databases
def test_healthz_answers_503_when_the_database_refuses_a_write(app, database_url, tmp_path):
    if database_url.startswith("sqlite"):
        path = database_url.removeprefix("sqlite:///")
        read_only = f"sqlite:///file:{path}?mode=ro&uri=true"
    else:
        with app.app_context():
            name = db.engine.url.database
            with db.engine.begin() as conn:
                conn.execute(
                    sqlalchemy.text(
                        f'ALTER DATABASE "{name}" SET default_transaction_read_only = on'
                    )
                )
            db.engine.dispose()
        read_only = database_url
    served = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": read_only, "PRINT_FOLDER": str(tmp_path)}
    )
    answer = served.test_client().get("/healthz")
    with served.app_context():
        db.engine.dispose()
    assert answer.status_code == 503
    body = answer.get_json()
    assert (body["status"], body["schema"]) == ("write_refused", "ok")
    assert "read" in body["write"].lower()


@pytest.mark.both_databases
def test_a_page_on_a_database_behind_the_code_says_it_needs_an_upgrade_not_that_it_is_unreachable(
    app, client
):
    make_user(app, "orga", "organiser")
    log_in(client, "orga")
    drop_column(app, "event", "archived_at")
    page = client.get("/events")
    assert page.status_code == 503
    text = page.get_data(as_text=True)
    assert "flask db upgrade" in text
    assert "cannot reach" not in text


@pytest.mark.both_databases
def test_the_api_on_a_database_behind_the_code_answers_schema_outdated(app, client, referee):
    drop_column(app, "event", "archived_at")
    answer = client.get("/api/v1/roster", headers=referee)
    assert answer.status_code == 503
    body = answer.get_json()
    assert body["error"] == "schema_outdated"
    assert "flask db upgrade" in body["message"]


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


def test_the_app_s_own_handler_writes_each_request_s_line_as_it_is(client, log_lines):
    """The handler the app gives the request log writes the line itself, the same as every
    other handler is given it (through a log record), a quick answer's too."""
    own = next(h for h in request_log.handlers if isinstance(h, RequestLines))
    written = io.StringIO()
    stderr = own.setStream(written)
    try:
        client.get("/no-such-page")
        client.get("/healthz")
    finally:
        own.setStream(stderr)
    assert written.getvalue().splitlines() == log_lines
    assert " GET /no-such-page 404 " in log_lines[0]


class CountedWrites(io.StringIO):
    """A log stream that counts its writes."""

    writes = 0

    def write(self, text):
        self.writes += 1
        return super().write(text)


def _written_soon(stream, count: int) -> list[str]:
    """The lines on ``stream`` once it holds ``count`` (nothing flushes the handler)."""
    deadline = time.monotonic() + 10
    while len(stream.getvalue().splitlines()) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return stream.getvalue().splitlines()


def test_a_busy_worker_s_request_lines_reach_the_log_together_and_soon(client, log_lines):
    """A line waits for the lines of its moment (one write for them all: the answering
    threads never wait on the log's file) and reaches the log by itself, in order."""
    own = next(h for h in request_log.handlers if isinstance(h, RequestLines))
    written = CountedWrites()
    stderr = own.setStream(written)
    try:
        for n in range(20):
            client.get(f"/no-such-page-{n}")
        lines = _written_soon(written, 20)
        writes = written.writes
    finally:
        own.setStream(stderr)
    assert lines == log_lines
    assert [line.split()[3] for line in lines] == [f"/no-such-page-{n}" for n in range(20)]
    assert writes < 20


def test_a_request_line_through_a_log_record_waits_with_the_others(client, log_lines):
    """With a filter on the request log, each line goes through a log record: the app's
    handler writes it as it writes the others."""
    own = next(h for h in request_log.handlers if isinstance(h, RequestLines))
    written = CountedWrites()
    stderr = own.setStream(written)
    request_log.addFilter(keep_all := lambda record: True)
    try:
        client.get("/no-such-page")
        client.get("/healthz")
        lines = _written_soon(written, 2)
    finally:
        request_log.removeFilter(keep_all)
        own.setStream(stderr)
    assert lines == log_lines
    assert " GET /healthz 200 " in lines[1]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # fork beside threads: as gunicorn
def test_a_forked_worker_writes_its_own_request_lines_and_not_its_parent_s():
    read, write = os.pipe()
    to_pipe = os.fdopen(write, "w")
    handler = RequestLines(to_pipe)
    handler.write_line("the parent's")  # waiting as the worker forks
    child = os.fork()
    if child == 0:  # the worker
        try:
            handler.write_line("the worker's")
            handler.flush()
        finally:
            os._exit(0)
    handler.stream = io.StringIO()  # the parent's lines go elsewhere from here
    to_pipe.close()
    with os.fdopen(read) as pipe:
        written = pipe.read()
    os.waitpid(child, 0)
    handler.flush()
    assert written == "the worker's\n"
    assert handler.stream.getvalue() == "the parent's\n"


def test_the_request_log_leaves_badge_and_player_secrets_out(client, log_lines):
    client.get("/b/ABCDEFGHSECRETXYZ?v=1")
    client.get("/p/PLAYERSECRET123")
    assert "SECRET" not in " ".join(log_lines)
    assert " GET /b/… " in log_lines[0]
