"""Benchmark: the roster storm. A big event under gunicorn, with every phone of a game day.

Run from a checkout: ``.venv/bin/python bench/storm.py [--seconds 60]``. Prints figures only.

Set-up: a fresh SQLite database (WAL) in a temporary directory, migrated with ``flask db
upgrade``; an event of ``--characters`` (2,000) copies of the example sheet with 20 entries
each (as bench/scale.py builds it); ``--referees`` (100) referee accounts, each with a token.
Then ``gunicorn -w 4 -k sync`` on a free port of 127.0.0.1, as ``make run`` serves, and for
``--seconds`` (60) at once, each client on its own thread with a pooled HTTP session:

- consoles: each referee's console polls its character's ``/state`` every 2 s with the
  ETag it holds (If-None-Match), as static/js/lib/api.js ``poll`` does (4 s time-out);
- phones: each referee's phone fetches ``/api/v1/roster`` whole once, at a start spread over
  the first minute, then at each page load (the scanner, a console: every ``--page-every``
  s on average, 30) and 60 s after it while the page stays open, each time with the version
  and ETag it holds (``?since=``, If-None-Match), as static/js/lib/netbar.js and roster.js
  do (20 s time-out);
- the board: the organiser's ``board.json`` every 3 s with its ETag (6 s time-out);
- entries: each referee logs an entry on their character through ``/api/v1/sync`` (the
  phone's outbox), one every ``--entry-every`` seconds on average (20: five a second in all,
  a battle's pace), at random instants.

Printed: for each kind of request its count, p50/p99 and time-outs; entries stored (counted
in the database afterwards); the server's CPU in cores (the gunicorn processes' CPU time over
the wall time); and the same figures after the first 20 s (every worker's first roster and
board build its view of the event: a cold start). The machine may be shared: its load in the
second before the run is printed, and other work makes every figure pessimistic.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import sqlite3
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from statistics import median, quantiles

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from entries import (
    HOST,
    cpu_seconds,
    flask_cli,
    free_port,
    load_text,
    machine_busy_seconds,
    server_pids,
    start_server,
    stop_server,
    wait_ready,
)
from scale import build_event

WARM_AFTER = 20  # seconds: figures after this leave out the workers' first builds
CONSOLE_SECONDS, CONSOLE_TIMEOUT = 2, 4
ROSTER_SECONDS, ROSTER_TIMEOUT = 60, 20
BOARD_SECONDS, BOARD_TIMEOUT = 3, 6
ENTRY_TIMEOUT = 10
TARGETS = {"poll": 100, "entry": 200}  # p99, ms (the issue's)
ORGANISER_PASSWORD = "storm-organiser-password"


def organiser_name(n: int) -> str:
    """The ``n``th organiser's username (0: the one every benchmark logs in as)."""
    return "storm-organiser" if n == 0 else f"storm-organiser-{n + 1}"


def make_referees(uri: str, count: int, organisers: int = 1) -> list[str]:
    """``count`` referee accounts, their tokens; and ``organisers`` organiser accounts
    (``organiser_name``) whose password is ORGANISER_PASSWORD."""
    from larp_app import create_app
    from larp_app.extensions import db
    from larp_app.services.users import create_user

    app = create_app({"SQLALCHEMY_DATABASE_URI": uri})
    with app.app_context():
        tokens = [create_user(f"storm-referee-{n}", "referee")[2] for n in range(count)]
        for n in range(organisers):
            create_user(organiser_name(n), "organiser", ORGANISER_PASSWORD)
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    return tokens


def organiser_cookies(base: str, verify=True, n: int = 0) -> requests.Session:
    """Log in through the form, as the organiser's browser does (``verify``: the CA file
    of a server over HTTPS), as the ``n``th organiser."""
    session = requests.Session()
    page = session.get(f"{base}/login", timeout=30, verify=verify).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    form = {"username": organiser_name(n), "password": ORGANISER_PASSWORD, "csrf_token": token}
    answer = session.post(
        f"{base}/login", data=form, allow_redirects=False, timeout=30, verify=verify,
        headers={"Referer": f"{base}/login"},  # (over HTTPS, CSRF asks the page it came from)
    )  # fmt: skip
    if answer.status_code != 302:
        raise RuntimeError(f"organiser login: {answer.status_code}")
    return session


class Log:
    """Every request's kind, start (s from the run's start), duration and outcome."""

    def __init__(self, started: float):
        self.started = started
        self.lock = threading.Lock()
        self.rows: list[tuple[str, float, float, str]] = []

    def timed(self, kind: str, session: requests.Session, method: str, url: str, **options):
        begun = time.monotonic()
        try:
            answer = session.request(method, url, **options)
        except requests.Timeout:
            outcome, answer = "timeout", None
        except requests.RequestException:
            outcome, answer = "error", None
        else:
            outcome = str(answer.status_code)
        with self.lock:
            self.rows.append((kind, begun - self.started, time.monotonic() - begun, outcome))
        return answer


def now_z() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def console(base, token, character, log, stop, rng):
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    url = f"{base}/api/v1/characters/{character}/state"
    etag = None
    stop.wait(rng.uniform(0, CONSOLE_SECONDS))
    while not stop.is_set():
        headers = {"If-None-Match": etag} if etag else {}
        answer = log.timed("poll", session, "GET", url, headers=headers, timeout=CONSOLE_TIMEOUT)
        if answer is not None and answer.status_code == 200:
            etag = answer.headers.get("ETag")
        stop.wait(CONSOLE_SECONDS)


def phone(base, token, log, stop, rng, seconds, page_every):
    """The roster at each page load (the scanner, a console: every ``page_every`` s on
    average) and 60 s after it while the page stays open, as static/js/lib/netbar.js."""
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    version = etag = None
    stop.wait(rng.uniform(0, min(ROSTER_SECONDS, seconds)))  # phones come in over a minute
    while not stop.is_set():
        url, headers = f"{base}/api/v1/roster", {}
        if version:
            url += f"?since={version}"
            headers["If-None-Match"] = etag
        kind = "roster delta" if version else "roster whole"
        answer = log.timed(kind, session, "GET", url, headers=headers, timeout=ROSTER_TIMEOUT)
        if answer is not None and answer.status_code == 200:
            version, etag = answer.json()["version"], answer.headers.get("ETag")
        stop.wait(min(ROSTER_SECONDS, rng.expovariate(1 / page_every)))


def board(base, session, event_id, log, stop):
    url = f"{base}/events/{event_id}/board.json"
    etag = None
    while not stop.is_set():
        headers = {"If-None-Match": etag} if etag else {}
        answer = log.timed("board", session, "GET", url, headers=headers, timeout=BOARD_TIMEOUT)
        if answer is not None and answer.status_code == 200:
            etag = answer.headers.get("ETag")
        stop.wait(BOARD_SECONDS)


def referee(base, token, character, log, stop, rng, every):
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    kinds = (
        {"kind": "hit", "damage": 1, "blows": 1, "pierce": False},
        {"kind": "heal", "amount": 1},
        {"kind": "note", "text": "storm"},
        {"kind": "spend_energy", "amount": 1},
        {"kind": "restore_energy", "amount": 1},
    )
    while not stop.wait(rng.expovariate(1 / every)):
        entry = {"id": str(uuid.uuid4()), "at": now_z(), **rng.choice(kinds)}
        body = {"entries": [{**entry, "character": character, "sent_at": now_z()}]}
        log.timed("entry", session, "POST", f"{base}/api/v1/sync", json=body, timeout=ENTRY_TIMEOUT)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:,.0f} ms"


def summary(rows, since: float = 0.0) -> None:
    by_kind = defaultdict(list)
    for kind, at, took, outcome in rows:
        if at >= since:
            by_kind[kind].append((took, outcome))
    print(f"  {'request':14}{'count':>7}{'p50':>11}{'p99':>11}{'max':>11}  outcomes")
    for kind in ("poll", "entry", "roster whole", "roster delta", "board"):
        found = by_kind.get(kind, [])
        if not found:
            continue
        times = sorted(t for t, _ in found)
        p99 = quantiles(times, n=100, method="inclusive")[98] if len(times) > 1 else times[0]
        outcomes = defaultdict(int)
        for _, outcome in found:
            outcomes[outcome] += 1
        said = ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items()))
        print(
            f"  {kind:14}{len(times):>7}{ms(median(times)):>11}{ms(p99):>11}"
            f"{ms(times[-1]):>11}  {said}"
        )


def p99_of(rows, kind, since=0.0):
    times = sorted(took for k, at, took, _ in rows if k == kind and at >= since)
    return quantiles(times, n=100, method="inclusive")[98] if len(times) > 1 else float("nan")


def run(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-storm-"))
    proc = None
    stop = threading.Event()
    try:
        database = tmp / "storm.sqlite3"
        uri = f"sqlite:///{database}"
        env = {**os.environ, "LARP_SQLALCHEMY_DATABASE_URI": uri}
        env.pop("DATABASE_URL", None)
        os.environ["LARP_SQLALCHEMY_DATABASE_URI"] = uri
        flask_cli(env, "db", "upgrade")
        event_id, characters = build_event(uri, args.characters)
        tokens = make_referees(uri, args.referees)
        before_entries = entries_in(database)
        port = free_port()
        base = f"http://{HOST}:{port}"
        proc = start_server(env, port, args.workers, tmp / "gunicorn.log")
        wait_ready(proc, port, tmp / "gunicorn.log")
        organiser = organiser_cookies(base)
        print(
            f"{args.characters:,} characters × 20 entries; {args.referees} consoles polling every"
            f" {CONSOLE_SECONDS} s, {args.referees} phones (roster whole once, then as changes at"
            f" each page load, every {args.page_every:g} s on average, and {ROSTER_SECONDS} s"
            " after it), one board every"
            f" {BOARD_SECONDS} s, an entry per"
            f" referee every {args.entry_every:g} s on average; {args.seconds} s"
        )
        print(f"gunicorn -w {args.workers} -k sync, SQLite (WAL); cores: {os.cpu_count()}")
        print(f"machine: {load_text()}")
        rng = random.Random(13)
        pids = server_pids(proc.pid)
        cpu_before, started = cpu_seconds(pids), time.monotonic()
        client_before, machine_before = sum(os.times()[:2]), machine_busy_seconds()
        log = Log(started)
        threads = [threading.Thread(target=board, args=(base, organiser, event_id, log, stop))]
        every, pages = args.entry_every, args.page_every
        for n, token in enumerate(tokens):
            character = characters[(n * 7919) % len(characters)]
            seeds = [rng.random() for _ in range(3)]
            threads += [
                threading.Thread(
                    target=console,
                    args=(base, token, character, log, stop, random.Random(seeds[0])),
                ),
                threading.Thread(
                    target=phone,
                    args=(base, token, log, stop, random.Random(seeds[1]), args.seconds, pages),
                ),
                threading.Thread(
                    target=referee,
                    args=(base, token, character, log, stop, random.Random(seeds[2]), every),
                ),
            ]
        for thread in threads:
            thread.daemon = True
            thread.start()
        warm_cpu = None
        while (elapsed := time.monotonic() - started) < args.seconds:
            if warm_cpu is None and elapsed >= WARM_AFTER:
                warm_cpu = (cpu_seconds(server_pids(proc.pid)), time.monotonic())
            time.sleep(0.2)
        cpu_after, ended = cpu_seconds(server_pids(proc.pid)), time.monotonic()
        client_cores = (sum(os.times()[:2]) - client_before) / (ended - started)
        machine_after = machine_busy_seconds()
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        rows = list(log.rows)
        stored = entries_in(database) - before_entries
        cores = (cpu_after - cpu_before) / (ended - started)
        warm_cores = (cpu_after - warm_cpu[0]) / (ended - warm_cpu[1]) if warm_cpu else None
        print()
        print(f"whole run ({ended - started:.0f} s):")
        summary(rows)
        print(f"after the first {WARM_AFTER} s:")
        summary(rows, WARM_AFTER)
        timeouts = sum(1 for row in rows if row[3] == "timeout")
        errors = sum(1 for row in rows if row[3] == "error" or row[3].startswith("5"))
        asked = sum(1 for row in rows if row[0] == "entry")
        print()
        print(f"client time-outs: {timeouts}   connection errors or 5xx: {errors}")
        print(f"entries sent: {asked}   stored: {stored}")
        warm = f"; after the first {WARM_AFTER} s: {warm_cores:.2f}" if warm_cores else ""
        print(f"server CPU: {cores:.2f} cores{warm}   (this client: {client_cores:.2f} cores)")
        if machine_before is not None and machine_after is not None:
            busy = (machine_after - machine_before) / (ended - started)
            others = busy - cores - client_cores
            print(
                f"machine: {busy:.2f} of {os.cpu_count()} cores busy during the run,"
                f" {max(others, 0):.2f} of them other work's"
                + (
                    ": the server waited for CPU, every latency is pessimistic"
                    if others > 0.3
                    else ""
                )
            )
        print("targets (issue):")
        for kind, target in TARGETS.items():
            print(
                f"  {kind} p99 {p99_of(rows, kind) * 1000:,.0f} ms"
                f" (after {WARM_AFTER} s: {p99_of(rows, kind, WARM_AFTER) * 1000:,.0f} ms);"
                f" target <= {target} ms"
            )
        print(f"  server CPU {cores:.2f} cores; target <= 1 core")
    finally:
        stop.set()
        if proc is not None:
            stop_server(proc)
        shutil.rmtree(tmp, ignore_errors=True)


def entries_in(database: Path) -> int:
    with sqlite3.connect(database) as conn:
        return conn.execute("SELECT count(*) FROM entry").fetchone()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=2000, help="characters (2000)")
    parser.add_argument("--referees", type=int, default=100, help="referees (100)")
    parser.add_argument("--seconds", type=int, default=60, help="duration (60)")
    parser.add_argument(
        "--entry-every",
        type=float,
        default=20.0,
        help="seconds between a referee's entries, on average (20)",
    )
    parser.add_argument(
        "--page-every", type=float, default=30.0,
        help="seconds between a referee's page loads, on average (30)",
    )  # fmt: skip
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers (4)")
    args = parser.parse_args()
    if not 1 <= args.characters <= 20_000 or not 1 <= args.referees <= 1000:
        parser.error("--characters: 1 to 20000; --referees: 1 to 1000")
    if args.seconds < 10 or args.entry_every <= 0:
        parser.error("--seconds: at least 10; --entry-every: above 0")
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    run(args)


if __name__ == "__main__":
    main()
