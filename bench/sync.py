"""Benchmark: a phone back online sends its outbox of 200 entries, as the referee app does.

Run from a checkout: ``.venv/bin/python bench/sync.py [--server gunicorn|werkzeug]
[--workers 4] [--batch 50]``. Prints figures only; nothing here asserts a time. Target:
200 queued entries from one phone reach the server in ≤ 5 s.

Set-up: a temporary directory with a fresh SQLite database, migrated with ``flask db
upgrade``, the demo loaded with ``flask demo``; the app served on a free port of 127.0.0.1
by ``gunicorn -w 4 -k sync`` (as ``make run`` serves it, and bench/entries.py), or by
werkzeug's threaded ``make_server`` in this process (as bench/console.py).

The phone: one http.client connection with the session cookie, as a browser. It logs in as
the demo referee through the login form, reads ``/api/v1/me`` for the CSRF token and
``/api/v1/roster`` (as it does before going offline; a few more roster reads warm every
worker up, as a server running for hours is). Its outbox: 200 entries on two EX Nihilo
characters, alternating, spread over the last hour with ``at`` ascending (note, a
one-point piercing hit, a one-point heal, note: the characters stay alive), ids uuid4. It
sends them oldest first in batches of 50 to ``POST /api/v1/sync``, one after the other,
each with ``sent_at`` = the moment it is sent. Printed: the whole send's wall time,
entries/s, each batch's latency, the answers' statuses; then the same 200 sent again (all
"duplicate", as when an answer was lost), and the entries stored, counted in the database
(exactly 200, or the run fails).

The server is stopped at the end, also on error, and the temporary directory is removed.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import logging
import os
import re
import secrets
import shutil
import signal
import sqlite3
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/entries.py: the set-up

from entries import (
    HOST,
    REQUEST_TIMEOUT,
    ROOT,
    flask_cli,
    free_port,
    load_text,
    start_server,
    stop_server,
    wait_ready,
)

ENTRIES = 200
CHARACTERS = 2
TARGET_SECONDS = 5.0  # the issue's
CSRF_FIELD = re.compile(r'name="csrf_token" value="([^"]+)"')
# A cycle that keeps a character alive: one point off, one point back.
CYCLE = (
    {"kind": "note", "text": "bench: annotato senza rete"},
    {"kind": "hit", "damage": 1, "pierce": True},
    {"kind": "heal", "amount": 1},
    {"kind": "note", "text": "bench: di nuovo in piedi"},
)


def instant(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


class Phone:
    """A browser's side of HTTP: one connection (reopened when the server closes it), cookies."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
        self.cookies: dict[str, str] = {}
        self.csrf = ""

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            self.conn.request(method, path, body, headers)
            answer = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            self.conn.close()  # a kept-alive connection the server had closed: once more
            self.conn.request(method, path, body, headers)
            answer = self.conn.getresponse()
        data = answer.read()
        for header in answer.headers.get_all("Set-Cookie") or []:
            name, _, value = header.split(";", 1)[0].partition("=")
            if value and "expires=thu, 01 jan 1970" not in header.lower():
                self.cookies[name.strip()] = value.strip()
            else:
                self.cookies.pop(name.strip(), None)
        return answer.status, dict(answer.headers), data

    def json(self, method: str, path: str, body=None) -> tuple[int, object]:
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers |= {"Content-Type": "application/json", "X-CSRFToken": self.csrf}
        status, _headers, raw = self.request(method, path, data, headers)
        return status, json.loads(raw or b"null")

    def log_in(self, username: str, password: str) -> None:
        """The login form, as a browser submits it; then the CSRF token the app's pages use."""
        status, _headers, page = self.request("GET", "/login")
        token = CSRF_FIELD.search(page.decode())
        if status != 200 or token is None:
            raise RuntimeError(f"GET /login: {status}, CSRF field found: {token is not None}")
        form = urlencode({"username": username, "password": password, "csrf_token": token[1]})
        status, _headers, _page = self.request(
            "POST",
            "/login",
            form.encode(),
            {"Content-Type": "application/x-www-form-urlencoded"},
        )
        if status != 302:
            raise RuntimeError(f"POST /login as {username}: {status}, expected 302")
        status, me = self.json("GET", "/api/v1/me")
        if status != 200:
            raise RuntimeError(f"GET /api/v1/me: {status} {me}")
        self.csrf = me["csrf_token"]

    def close(self) -> None:
        self.conn.close()


def demo_login(env: dict) -> tuple[str, str]:
    """Load the demo; return the referee's (username, password) as ``flask demo`` prints it."""
    out = flask_cli(env, "demo")
    logins = dict(re.findall(r"^login: (\S+) / (\S+)$", out, re.M))
    if "referee" not in logins:
        raise RuntimeError(f"flask demo printed no referee login:\n{out}")
    return "referee", logins["referee"]


def pick_characters(roster: dict) -> list[int]:
    """Two EX Nihilo characters alive with at least 2 hit points (a hit must not fell them)."""
    ex_nihilo = {e["id"] for e in roster["events"] if e["ruleset"] == "ex-nihilo"}
    fit = [
        c["id"]
        for c in roster["characters"]
        if c["event_id"] in ex_nihilo and c["state"]["wound"] == "ok" and c["state"]["hp"] >= 2
    ]
    if len(fit) < CHARACTERS:
        raise RuntimeError(f"the demo has {len(fit)} fit EX Nihilo characters, not {CHARACTERS}")
    return fit[:CHARACTERS]


def outbox(characters: list[int], now: datetime) -> list[dict]:
    """200 entries over the last hour, ``at`` ascending, the characters alternating."""
    step = timedelta(hours=1) / ENTRIES
    items = []
    for i in range(ENTRIES):
        items.append(
            {
                "character": characters[i % CHARACTERS],
                "id": str(uuid.uuid4()),
                "at": instant(now - timedelta(hours=1) + step * i),
                **CYCLE[(i // CHARACTERS) % len(CYCLE)],
            }
        )
    return items


def send(phone: Phone, items: list[dict], batch: int) -> tuple[float, list[float], Counter]:
    """Send the outbox in batches, sequentially; (wall seconds, batch latencies, statuses)."""
    latencies, statuses = [], Counter()
    started = time.perf_counter()
    for first in range(0, len(items), batch):
        sent_at = instant(datetime.now(UTC))
        body = {"entries": [{**item, "sent_at": sent_at} for item in items[first : first + batch]]}
        began = time.perf_counter()
        status, answer = phone.json("POST", "/api/v1/sync", body)
        latencies.append(time.perf_counter() - began)
        if status != 200:
            raise RuntimeError(f"POST /api/v1/sync: {status} {answer}")
        statuses.update(result["status"] for result in answer["results"])
        for result in answer["results"]:
            if result["status"] not in ("stored", "duplicate"):
                print(f"  not stored: {result}")
    return time.perf_counter() - started, latencies, statuses


def stored(db_path: Path, ids: list[str]) -> tuple[int, int]:
    """(entries with these ids, all entries) in the database."""
    with contextlib.closing(sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)) as conn:
        conn.execute("CREATE TEMP TABLE sent (id TEXT PRIMARY KEY)")
        conn.executemany("INSERT INTO sent VALUES (?)", [(i,) for i in ids])
        ours = conn.execute("SELECT count(*) FROM entry JOIN sent ON entry.client_id = sent.id")
        return ours.fetchone()[0], conn.execute("SELECT count(*) FROM entry").fetchone()[0]


def report(label: str, seconds: float, latencies: list[float], statuses: Counter) -> None:
    each = "  ".join(f"{x * 1000:.0f}" for x in latencies)
    print(f"--- {label}")
    print(f"wall time:            {seconds:.2f} s   ({ENTRIES / seconds:.0f} entries/s)")
    print(f"per batch ms:         {each}   (max {max(latencies) * 1000:.0f})")
    print(f"answers:              {dict(sorted(statuses.items()))}")


# --- the servers ----------------------------------------------------------------------------


class Gunicorn:
    def __init__(self, env: dict, tmp: Path, workers: int):
        self.port, self.log = free_port(), tmp / "gunicorn.log"
        self.proc = start_server(env, self.port, workers, self.log)
        self.description = f"gunicorn, {workers} sync workers"

    def wait(self) -> None:
        wait_ready(self.proc, self.port, self.log)

    def stop(self) -> None:
        stop_server(self.proc)


class Werkzeug:
    def __init__(self, env: dict, tmp: Path, workers: int):
        sys.path.insert(0, str(ROOT))
        from werkzeug.serving import make_server

        from larp_app import create_app

        logging.disable(logging.INFO)  # werkzeug's line per request
        self.app = create_app(
            {
                "SQLALCHEMY_DATABASE_URI": env["LARP_SQLALCHEMY_DATABASE_URI"],
                "SECRET_KEY": env["LARP_SECRET_KEY"],
            }
        )
        self.server = make_server(HOST, 0, self.app, threaded=True)
        self.port = self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.description = "werkzeug make_server (threaded), in this process"

    def wait(self) -> None:
        pass  # serving from the start

    def stop(self) -> None:
        from larp_app.extensions import db

        self.server.shutdown()
        self.thread.join(timeout=10)
        with self.app.app_context():
            db.engine.dispose()


SERVERS = {"gunicorn": Gunicorn, "werkzeug": Werkzeug}


# --- main -----------------------------------------------------------------------------------


def run(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-sync-"))
    server = None
    try:
        db_path = tmp / "bench.sqlite3"
        env = {
            **os.environ,
            "LARP_SQLALCHEMY_DATABASE_URI": f"sqlite:///{db_path}",
            # Shared by every worker; the checkout's instance/secret_key is left alone.
            "LARP_SECRET_KEY": f"bench-{secrets.token_hex(16)}",
        }
        env.pop("DATABASE_URL", None)
        flask_cli(env, "db", "upgrade")
        username, password = demo_login(env)
        server = SERVERS[args.server](env, tmp, args.workers)
        server.wait()

        print(f"cores: {os.cpu_count()}   server: {server.description} on {HOST}:{server.port}")
        print(f"python {sys.version.split()[0]}   database: fresh SQLite file in {tmp}")
        print(f"machine: {load_text()}")

        phone = Phone(server.port)
        phone.log_in(username, password)
        status, roster = phone.json("GET", "/api/v1/roster")
        if status != 200:
            raise RuntimeError(f"GET /api/v1/roster: {status} {roster}")
        for _ in range(args.warmup):
            phone.json("GET", "/api/v1/roster")
        characters = pick_characters(roster)
        items = outbox(characters, datetime.now(UTC))
        _, before = stored(db_path, [])
        print(
            f"phone: logged in as {username} (session cookie, CSRF header),"
            f" {args.warmup} roster reads to warm up"
        )
        print(
            f"outbox: {ENTRIES} entries on characters {characters}, over the last hour;"
            f" batches of {args.batch}, sent one after the other"
        )
        print()

        seconds, latencies, statuses = send(phone, items, args.batch)
        report("first send", seconds, latencies, statuses)
        verdict = "meets" if seconds <= TARGET_SECONDS else "MISSES"
        print(f"target:              200 entries in ≤ {TARGET_SECONDS:g} s: {verdict} it")
        print()
        again, latencies, statuses = send(phone, items, args.batch)
        report("the same outbox again (answers lost)", again, latencies, statuses)
        print()

        ours, total = stored(db_path, [item["id"] for item in items])
        print(f"stored: {ours} entries with the outbox's ids; {total - before} new entries in all")
        phone.close()
        if ours != ENTRIES or total - before != ENTRIES:
            raise SystemExit(f"expected exactly {ENTRIES} entries stored, once each")
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", choices=sorted(SERVERS), default="gunicorn")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers (4)")
    parser.add_argument("--batch", type=int, default=50, help="entries per request (50)")
    parser.add_argument("--warmup", type=int, default=8, help="roster reads before (8)")
    args = parser.parse_args()
    if not 1 <= args.workers <= 32:
        parser.error("--workers must be between 1 and 32")
    if not 1 <= args.batch <= 200:
        parser.error("--batch must be between 1 and 200 (the server's maximum)")
    if not 0 <= args.warmup <= 100:
        parser.error("--warmup must be between 0 and 100")
    # SIGTERM raises SystemExit here, so the finally clause still stops the server.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    run(args)


if __name__ == "__main__":
    main()
