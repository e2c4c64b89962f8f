"""For whoever runs the server: /healthz, one log line per request with its time, and the
heartbeat of a worker answering requests (``backup restore`` refuses while it is recent)."""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
import time
import weakref
from collections.abc import Callable
from datetime import UTC, datetime

from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from flask import Blueprint, Flask, current_app, g, jsonify, request

from ..extensions import db
from ..services.database_health import SERVING, beat, schema_problems, write_problem

bp = Blueprint("health", __name__)

# One line a request: "2026-12-01T10:00:00Z 192.168.1.20 GET /scan 200 12.3ms".
request_log = logging.getLogger("larp_app.requests")


def migration_heads() -> set[str]:
    """The heads of the migrations this code ships, read once per process (they are files
    of the installed code: they change only with a new deployment)."""
    heads = current_app.extensions.get("larp_migration_heads")
    if heads is None:
        config = current_app.extensions["migrate"].migrate.get_config()
        heads = frozenset(ScriptDirectory.from_config(config).get_heads())
        current_app.extensions["larp_migration_heads"] = heads
    return set(heads)


@bp.get("/healthz")
def healthz():
    """200 when the database answers, has every table and column the code reads, its
    migrations are current and it accepts a write; 503 naming what is not."""
    body: dict = {"database": "ok"}
    try:
        with db.engine.connect() as conn:
            current = set(MigrationContext.configure(conn).get_current_heads())
        problems = schema_problems()
    except Exception as exc:  # whatever the driver raises: the answer names it
        body.update(status="unavailable", database=f"{type(exc).__name__}: {exc}"[:300])
        return _answer(body, 503)
    heads = migration_heads()
    body["migrations"] = {"current": sorted(current), "expected": sorted(heads)}
    body["schema"] = problems or "ok"
    if current != heads:
        body["status"] = "migrations_pending"
        return _answer(body, 503)
    if problems:
        body["status"] = "schema_mismatch"
        return _answer(body, 503)
    refused = write_problem()
    body["write"] = refused or "ok"
    if refused:
        body["status"] = "write_refused"
        return _answer(body, 503)
    body["status"] = "ok"
    return _answer(body, 200)


def _answer(body: dict, status: int):
    response = jsonify(body)
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def register(app: Flask) -> None:
    app.register_blueprint(bp)
    if not request_log.handlers:  # gunicorn and `flask run` both keep stderr
        handler = RequestLines(sys.stderr)
        handler.setFormatter(logging.Formatter("%(message)s"))
        request_log.addHandler(handler)
        request_log.setLevel(logging.INFO)
        request_log.propagate = False
    app.before_request(_start_clock)
    app.after_request(_log_request)
    app.after_request(_serving)


SERVING_BEAT = 10.0  # seconds between a worker's heartbeats, at most one a request


def _serving(response):
    due = serving_beat(current_app, db.engine)
    if due is not None:
        response.call_on_close(due)
    return response


def serving_beat(app: Flask, engine) -> Callable[[], None] | None:
    """Once every ``SERVING_BEAT`` seconds, the worker says it serves: what to run after an
    answer is sent (the client never waits on it; the quick answers' too, web/quick.py);
    None when no beat is due. Of the answers sent while one is due, the first to close
    carries it, whatever comes of it (the others let it be): a beat the database refused
    (busy with the day's entries) is tried again half a beat later, never by every answer
    meanwhile, each a write waiting on the database (a worker's threads would all wait)."""
    beaten = app.extensions.setdefault("larp_serving_beat", [-SERVING_BEAT])
    if time.monotonic() - beaten[0] < SERVING_BEAT:
        return None

    def serving():
        now = time.monotonic()
        with _beating:
            if now - beaten[0] < SERVING_BEAT:
                return  # another answer's went first
            beaten[0] = now
        if not beat(engine, SERVING):
            beaten[0] = now - SERVING_BEAT / 2

    return serving


_beating = threading.Lock()


def _start_clock() -> None:
    g.request_started = time.perf_counter()


_stamp: list = [0, ""]  # the second last written, and its text: one strftime a second


def _now_text() -> str:
    second = int(time.time())
    if _stamp[0] != second:
        _stamp[:] = [second, datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")]
    return _stamp[1]


def _path() -> str:
    """The path, with badge and player secrets left out (logs are read by more people)."""
    path = request.path
    for name, value in (request.view_args or {}).items():
        if ("secret" in name or "token" in name) and isinstance(value, str) and value:
            path = path.replace(value, "…")
    return path


def _log_request(response):
    started = g.get("request_started")
    took = (time.perf_counter() - started) * 1000 if started is not None else 0.0
    if request_log.isEnabledFor(logging.INFO):
        write_request_line(request.remote_addr, request.method, _path(), response.status_code, took)
    return response


# How long a request's line may wait to be written with the others of its moment.
WRITE_EVERY = 0.2


class RequestLines(logging.StreamHandler):
    """The request log's handler as the app sets it (stderr, the line alone): a request's
    line is written to it as it is (``write_request_line``), with no log record made.

    Written in batches: a line is kept in memory and written with the others of its moment
    by the worker's writer thread, at most ``WRITE_EVERY`` seconds later, in one write. A
    busy worker's answering threads then never wait on the log's file, nor hand each other
    the interpreter at every line: with four threads answering changed player pages, a
    write a line cost an eighth of each answer's CPU. Flushing the handler (at exit, when
    its stream is changed) writes what waits at once; a worker killed outright loses the
    lines of its last moment."""

    def __init__(self, stream=None):
        super().__init__(stream)
        self._start_afresh()
        _request_lines.add(self)

    def _start_afresh(self) -> None:
        """No line waiting, no writer thread (made, and in a forked worker: its parent's
        lines are the parent's to write, its locks may have been held as it forked)."""
        self._waiting: list[str] = []
        self._waiting_lock = threading.Lock()  # never held over a write
        self._due = threading.Event()
        self._writing = False  # whether this process's writer thread runs

    def write_line(self, line: str) -> None:
        with self._waiting_lock:
            first = not self._waiting
            self._waiting.append(line)
        if not self._writing:
            self._start_writer()
        if first:
            self._due.set()

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.write_line(self.format(record))
        except Exception:
            self.handleError(record)

    def flush(self) -> None:
        with self.lock:  # (batches written in turn, in order)
            with self._waiting_lock:
                lines, self._waiting = self._waiting, []
            with contextlib.suppress(OSError, ValueError):  # stderr gone: the answers still go
                if lines and self.stream is not None:
                    self.stream.write("".join(line + self.terminator for line in lines))
                super().flush()

    def _start_writer(self) -> None:
        with self._waiting_lock:
            if self._writing:
                return
            self._writing = True
        threading.Thread(target=self._write_waiting, name="request-lines", daemon=True).start()

    def _write_waiting(self) -> None:
        while True:
            self._due.wait()
            time.sleep(WRITE_EVERY)
            self._due.clear()
            self.flush()


_request_lines: weakref.WeakSet[RequestLines] = weakref.WeakSet()


def _forked() -> None:
    for handler in list(_request_lines):
        handler._start_afresh()


os.register_at_fork(after_in_child=_forked)


def write_request_line(
    address: str | None, method: str, path: str, status: int, took: float
) -> None:
    """One request's line ("2026-12-01T10:00:00Z 192.168.1.20 GET /scan 200 12.3ms"), at
    INFO: the logging module's record only for a handler other than the app's own (a log
    configured otherwise goes through it whole). The record costs more than the line: every
    answer writes one."""
    line = f"{_now_text()} {address or '-'} {method} {path} {status} {took:.1f}ms"
    if request_log.propagate or request_log.filters:
        request_log.info("%s", line)
        return
    record = None
    for handler in request_log.handlers:
        if type(handler) is RequestLines and handler.level <= logging.INFO and not handler.filters:
            handler.write_line(line)
        elif handler.level <= logging.INFO:
            if record is None:
                record = request_log.makeRecord(
                    request_log.name, logging.INFO, "", 0, "%s", (line,), None
                )
            handler.handle(record)
