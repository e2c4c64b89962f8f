"""Benchmark: referees' entries posted by concurrent clients, beside a bare insert server.

Run from a checkout: ``.venv/bin/python bench/entries.py [--duration 10] [--load both]
[--rounds 1] [--postgres URL] [--via sync|entries] [--logged 1,300] [--profile]``. Prints
figures only.

First (``--logged``), what one entry costs through ``/sync`` against how many characters its
referee logged that day: a referee logs a note on each of 1 (then 300) characters, then posts
30 entries one at a time; the median latency and the server's CPU per entry are printed (it
should not grow with the count).

One run serves two things with the same gunicorn settings (``-w 4 -k sync``) on the same
kind of database: the app, and ``bench/bare_insert.py``, a bare Flask-SQLAlchemy server that
checks the bearer token (its sha256, one indexed query), inserts a row like the app's entry
row and commits. At 16, then 64 clients, each client a thread with its own kept-alive
http.client connection posting for a fixed duration, both are driven in turn (``--rounds``
alternates which goes first) and the entries per second of each, and their ratio, are
printed: the target is the app at ≥ 0.5 × the bare insert at 16 and at 64
clients. Each also gets its server CPU per entry. The app's entries go through ``/sync``
(``--via sync``, the default: one entry a request, as the phone's outbox sends each as it is
logged) or ``POST /api/v1/characters/ID/entries`` (``--via entries``).

The database is a fresh SQLite file (WAL, synchronous=FULL) in a temporary directory, one
for each server; with ``--postgres URL`` both use that PostgreSQL database instead, which
is EMPTIED first (every table dropped): give one of your own for this. The app's database
is migrated with ``flask db upgrade``; an organiser and a referee are made with
``flask users create`` (their tokens). For each client count the organiser creates a fresh
event with 64 characters through the API. Client i posts entries to character i: hit and
heal alternating (always allowed: one point of piercing damage, then one point back), a
note, status_on paura, spend_energy 1 and restore_energy 1 alternating, each with a fresh
UUID and ``at`` = now (ISO-8601 UTC, Z).

``--load same`` (or ``both``, the default) then sends every client's entries to one
character of the app, whose writes are serialised (one writer per character). Last, the
unchanged state poll: 16 clients ask ``GET /api/v1/characters/{id}/state`` with the
If-None-Match of their last answer, and its server CPU per request is printed.
``--profile`` then profiles a few POSTs with Flask's test client against the same database
(a character with a long log and one with an empty log).

The servers are stopped at the end, also on error (their process groups are killed), and
the temporary directory is removed.
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import http.client
import io
import json
import os
import pstats
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from statistics import median, quantiles

import sqlalchemy

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "larp_app" / "demo" / "ex-nihilo-sheet.json"
HOST = "127.0.0.1"
CLI_TIMEOUT = 120  # seconds, per CLI subprocess
START_TIMEOUT = 120  # seconds for gunicorn to answer (a busy machine starts workers slowly)
STOP_TIMEOUT = 15  # seconds for gunicorn to stop after SIGTERM, then SIGKILL
REQUEST_TIMEOUT = 30  # seconds, per request
MAX_REQUESTS_PER_CLIENT = 200_000  # a bound on every client loop besides its duration
CHARACTERS = 64
TARGET_RATIO = 0.5  # the app's entries/s against the bare insert's


# --- set-up helpers -------------------------------------------------------------------------


def flask_cli(env: dict, *args: str, timeout: float = CLI_TIMEOUT) -> str:
    """Run ``flask --app larp_app ARGS``; return its stdout, raise with stderr on failure."""
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "larp_app", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"flask {' '.join(args)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def create_token(env: dict, username: str, role: str) -> str:
    out = flask_cli(env, "users", "create", username, "--role", role)
    return re.search(r"^token \(for scripts\): (\S+)$", out, re.M).group(1)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def request_json(port: int, method: str, path: str, token: str, body=None) -> tuple[int, dict]:
    conn = http.client.HTTPConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    try:
        headers = {"Authorization": f"Bearer {token}"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, data, headers)
        answer = conn.getresponse()
        return answer.status, json.loads(answer.read() or b"null")
    finally:
        conn.close()


def start_server(
    env: dict,
    port: int,
    workers: int,
    log_path: Path,
    app: str = "larp_app:create_app()",
    cwd: Path = ROOT,
    threads: int = 0,
    tls: tuple[Path, Path] | None = None,
) -> subprocess.Popen:
    """gunicorn serving ``app``: sync workers, or with ``threads`` as `make run` serves
    (larp_app/serving.py: threaded workers keeping phones' connections alive, warmed up
    before they take requests) with that many threads a worker; ``tls``: over HTTPS, with
    this (certificate, key)."""
    gunicorn = Path(sys.executable).parent / "gunicorn"
    command = [str(gunicorn), "-w", str(workers), "-b", f"{HOST}:{port}"]
    if threads:
        command = [command[0], "-c", "python:larp_app.serving", *command[1:]]
        command += ["--threads", str(threads)]
    else:
        command += ["-k", "sync"]
    if tls:
        command += ["--certfile", str(tls[0]), "--keyfile", str(tls[1])]
    with open(log_path, "wb") as log:
        return subprocess.Popen(
            [*command, app],
            cwd=cwd,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killed whole at the end
        )


def wait_ready(
    proc: subprocess.Popen,
    port: int,
    log_path: Path,
    path: str = "/api/v1/openapi.json",
    context=None,
) -> None:
    """Until ``path`` answers 200 (over HTTPS with the client's TLS ``context``)."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log_path.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"gunicorn exited ({proc.returncode}):\n{tail}")
        try:
            if context is None:
                conn = http.client.HTTPConnection(HOST, port, timeout=2)
            else:
                conn = http.client.HTTPSConnection(HOST, port, timeout=2, context=context)
            conn.request("GET", path)
            if conn.getresponse().status == 200:
                conn.close()
                return
            conn.close()
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"gunicorn did not answer within {START_TIMEOUT} s")


def stop_server(proc: subprocess.Popen) -> None:
    """SIGTERM to the server's process group; SIGKILL when it has not stopped in time."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=STOP_TIMEOUT)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)  # stray workers, if any
    if proc.poll() is None:
        proc.wait(timeout=STOP_TIMEOUT)


def server_pids(master: int) -> list[int]:
    """The gunicorn master and its workers (children), from /proc."""
    pids = [master]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == master:
                pids.append(int(entry.name))
    return pids


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds used so far by ``pids`` (0 where /proc is not readable)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


def machine_busy_seconds() -> float | None:
    """CPU seconds every process on the machine has used so far (/proc/stat), or None."""
    try:
        line = Path("/proc/stat").read_text().split("\n", 1)[0]
        fields = [int(x) for x in line.split()[1:]]
        ticks = os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, AttributeError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / ticks


def load_text() -> str:
    """How busy the machine is in the second before the run: other work skews every figure."""
    before = machine_busy_seconds()
    time.sleep(1.0)
    after = machine_busy_seconds()
    if before is None or after is None:
        return "unknown (no /proc/stat)"
    busy = after - before
    note = "  (other work is running: figures are pessimistic)" if busy > 0.2 else ""
    return f"{busy:.2f} cores busy in the second before the run{note}"


def make_sheets(count: int, label: str) -> list[dict]:
    """``count`` copies of the example (Spirito 21: 3 energy points), names varied."""
    base = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return [
        {**base, "player": f"Giocatore {label}-{i:03d}", "character": f"PG {label}-{i:03d}"}
        for i in range(count)
    ]


def create_event(port: int, token: str, label: str, count: int) -> tuple[int, list[int]]:
    status, answer = request_json(
        port, "POST", "/api/v1/events", token, {"name": f"Bench {label}", "ruleset": "ex-nihilo"}
    )
    if status != 201:
        raise RuntimeError(f"create event: {status} {answer}")
    event_id = answer["id"]
    path = f"/api/v1/events/{event_id}/characters"
    status, answer = request_json(port, "POST", path, token, make_sheets(count, label))
    if status != 201:
        raise RuntimeError(f"import characters: {status} {answer}")
    return event_id, [c["id"] for c in answer["characters"]]


# --- the load -------------------------------------------------------------------------------


def now_z() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


CYCLE = (
    {"kind": "hit", "damage": 1, "pierce": True},
    {"kind": "heal", "amount": 1},
    {"kind": "note", "text": "bench: un appunto dell'arbitro"},
    {"kind": "status_on", "key": "paura"},
    {"kind": "spend_energy", "amount": 1},
    {"kind": "restore_energy", "amount": 1},
)


class CountingConnection(http.client.HTTPConnection):
    """An HTTPConnection that counts how often it (re)connects."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.opened = 0

    def connect(self):
        self.opened += 1
        super().connect()


@dataclass
class ClientResult:
    latencies: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    connections: int = 0
    connection_header: str | None = None


@dataclass(frozen=True)
class Target:
    """A server to drive: its port, the path of a character's entries, the token to send."""

    label: str
    port: int
    prefix: str  # + "/characters/{id}/entries"
    token: str
    master: int  # gunicorn's pid
    via_sync: bool = False  # POST /sync as the phone's outbox sends it (the app only)


def client_loop(target: Target, character_id: int, clock: dict, go, out: ClientResult, poll):
    """POST entries until the deadline; with ``poll``, GET the state with If-None-Match."""
    conn = CountingConnection(HOST, target.port, timeout=REQUEST_TIMEOUT)
    path = f"{target.prefix}/characters/{character_id}/entries"
    headers = {"Authorization": f"Bearer {target.token}", "Content-Type": "application/json"}
    if poll:
        path = f"{target.prefix}/characters/{character_id}/state"
        headers = {"Authorization": f"Bearer {target.token}"}
    elif target.via_sync:
        path = f"{target.prefix}/sync"
    try:
        if not go.wait(timeout=60):
            return
        deadline = clock["deadline"]
        sent = 0
        while sent < MAX_REQUESTS_PER_CLIENT and time.monotonic() < deadline:
            body = json.dumps({"id": str(uuid.uuid4()), "at": now_z(), **CYCLE[sent % len(CYCLE)]})
            if target.via_sync:
                item = {**json.loads(body), "character": character_id, "sent_at": now_z()}
                body = json.dumps({"entries": [item]})
            started = time.perf_counter()
            try:
                if poll:
                    conn.request("GET", path, headers=headers)
                else:
                    conn.request("POST", path, body.encode(), headers)
                answer = conn.getresponse()
                answer.read()
                status = answer.status
                if poll and answer.getheader("ETag"):
                    headers["If-None-Match"] = answer.getheader("ETag")
                if out.connection_header is None:
                    out.connection_header = answer.getheader("Connection", "(none)")
            except (OSError, http.client.HTTPException) as exc:
                status = f"error:{type(exc).__name__}"
                conn.close()
            out.latencies.append(time.perf_counter() - started)
            out.statuses[status] += 1
            sent += 1
    finally:
        out.connections = conn.opened
        conn.close()


@dataclass
class Phase:
    clients: int
    seconds: float
    results: list[ClientResult]
    server_cpu: float
    client_cpu: float
    machine_cpu: float | None


def measure(target: Target, characters, clients, duration, poll=False) -> Phase:
    """Run ``clients`` client threads for ``duration`` seconds; CPU of server and client."""
    results = [ClientResult() for _ in range(clients)]
    go = threading.Event()
    clock: dict = {}
    threads = [
        threading.Thread(
            target=client_loop,
            args=(target, characters[i], clock, go, results[i], poll),
            daemon=True,
        )
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    pids = server_pids(target.master)
    server_before, client_before = cpu_seconds(pids), time.process_time()
    machine_before = machine_busy_seconds()
    started = time.monotonic()
    clock["deadline"] = started + duration
    go.set()
    for thread in threads:
        thread.join(timeout=duration + REQUEST_TIMEOUT + 10)
    seconds = time.monotonic() - started
    machine_after = machine_busy_seconds()
    if any(thread.is_alive() for thread in threads):
        raise RuntimeError("a client did not finish in time")
    return Phase(
        clients,
        seconds,
        results,
        cpu_seconds(pids) - server_before,
        time.process_time() - client_before,
        None if None in (machine_before, machine_after) else machine_after - machine_before,
    )


def entries_per_character(uri: str, characters: list[int], table: str = "entry") -> list[int]:
    engine = sqlalchemy.create_engine(uri)
    try:
        with engine.connect() as conn:
            counts = dict(
                conn.execute(
                    sqlalchemy.text(
                        f"SELECT character_id, count(*) FROM {table} GROUP BY character_id"
                    )
                ).all()
            )
    finally:
        engine.dispose()
    return [counts.get(c, 0) for c in characters]


def report(phase: Phase, per_character: list[int] | None, what: str = "entries") -> float:
    latencies = sorted(x for r in phase.results for x in r.latencies)
    if not latencies:
        print(f"--- {phase.clients} clients, {phase.seconds:.1f} s: no request was answered\n")
        return 0.0
    statuses: Counter = Counter()
    for r in phase.results:
        statuses.update(r.statuses)
    good = (200, 300) if what == "entries" else (200, 400)  # a poll's 304 is an answer
    ok = sum(n for s, n in statuses.items() if isinstance(s, int) and good[0] <= s < good[1])
    total = sum(statuses.values())
    cuts = quantiles(latencies, n=100, method="inclusive") if len(latencies) > 1 else latencies * 99
    p50, p99 = cuts[49] * 1000, cuts[98] * 1000
    rate = ok / phase.seconds
    connections = sum(r.connections for r in phase.results)
    header = next((r.connection_header for r in phase.results if r.connection_header), "?")
    others = {
        str(s): n
        for s, n in sorted(statuses.items(), key=str)
        if not (isinstance(s, int) and good[0] <= s < good[1])
    }
    print(f"--- {phase.clients} clients, {phase.seconds:.1f} s")
    label = "entries/s (2xx):" if what == "entries" else "answers/s (200/304):"
    print(f"{label:<22}{rate:8.1f}   ({ok} of {total} requests)")
    print(
        f"latency ms:           p50 {p50:7.1f}   p99 {p99:7.1f}   max {latencies[-1] * 1000:7.1f}"
    )
    print(f"statuses:             {dict(sorted((str(k), v) for k, v in statuses.items()))}")
    print(f"non-2xx by status:    {others or 'none'}")
    print(f"connections opened:   {connections} (response header Connection: {header})")
    busy = phase.server_cpu / phase.seconds
    each = "entry" if what == "entries" else "answer"
    print(
        f"server CPU:           {phase.server_cpu:.1f} s ({busy:.2f} cores busy,"
        f" {phase.server_cpu / max(ok, 1) * 1000:.2f} ms per {each})"
    )
    busy = phase.client_cpu / phase.seconds
    print(f"client CPU (this):    {phase.client_cpu:.1f} s ({busy:.2f} cores)")
    if phase.machine_cpu is not None:
        other = max(0.0, phase.machine_cpu - phase.server_cpu - phase.client_cpu) / phase.seconds
        note = "  (skews these figures)" if other > 0.2 else ""
        print(f"other processes:      {other:.2f} cores busy{note}")
    if per_character:
        active = per_character[: phase.clients]
        print(
            f"entries per character at the end: min {min(active)}  median {median(active):.0f}"
            f"  max {max(active)}"
        )
    print()
    return rate


# --- an entry's cost against how many characters its referee logged ----------------------


def post_sync(port: int, token: str, items: list[dict]) -> tuple[int, dict, float]:
    """One ``POST /api/v1/sync`` of ``items``: its status, answer and latency."""
    started = time.perf_counter()
    status, answer = request_json(port, "POST", "/api/v1/sync", token, {"entries": items})
    return status, answer, time.perf_counter() - started


def note_on(character_id: int) -> dict:
    return {
        "id": str(uuid.uuid4()),
        "at": now_z(),
        "kind": "note",
        "text": "bench: logged",
        "character": character_id,
        "sent_at": now_z(),
    }


def logged_phase(port: int, master: int, env: dict, organiser: str, counts, posts: int) -> None:
    """For each count: a referee who logged a note on that many characters of an event today
    posts ``posts`` entries, one at a time, through ``/sync``: ms per entry (latency and the
    server's CPU). An entry's cost should not grow with the count."""
    biggest = max(counts)
    _, characters = create_event(port, organiser, "logged", biggest)
    print(f"=== one entry through /sync, one at a time, against characters logged today ({posts}"
          " entries each, after a warm-up of every worker)")  # fmt: skip
    for count in counts:
        token = create_token(env, f"bench-logged-{count}", "referee")
        for start in range(0, count, 100):
            items = [note_on(c) for c in characters[start : min(count, start + 100)]]
            status, answer, _ = post_sync(port, token, items)
            if status != 200:
                raise RuntimeError(f"sync: {status} {answer}")
        # Every worker reads (and keeps) what it needs once: posts at once, from 16 threads,
        # so that each worker takes some.
        with ThreadPoolExecutor(16) as pool:
            items = [[note_on(characters[0])] for _ in range(64)]
            list(pool.map(post_sync, [port] * 64, [token] * 64, items))
        pids = server_pids(master)
        before, times = cpu_seconds(pids), []
        for _ in range(posts):
            status, answer, took = post_sync(port, token, [note_on(characters[0])])
            if status != 200 or answer["results"][0]["status"] != "stored":
                raise RuntimeError(f"sync: {status} {answer}")
            times.append(took)
        used = (cpu_seconds(pids) - before) / posts * 1000
        print(
            f"referee who logged {count:>4} character(s): {median(times) * 1000:6.1f} ms per"
            f" entry (median), server CPU {used:5.1f} ms per entry"
        )
    print()


# --- profile --------------------------------------------------------------------------------


def profile(uri: str, token: str, long_log: int, short_log: int, posts: int) -> None:
    """Time and profile POSTs through Flask's test client, for a long and an empty log."""
    sys.path.insert(0, str(ROOT))
    from larp_app import create_app
    from larp_app.extensions import db

    app = create_app({"SQLALCHEMY_DATABASE_URI": uri})
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}

    def post(character_id: int, n: int) -> None:
        body = {"id": str(uuid.uuid4()), "at": now_z(), **CYCLE[n % len(CYCLE)]}
        answer = client.post(
            f"/api/v1/characters/{character_id}/entries", json=body, headers=headers
        )
        if answer.status_code >= 300:
            raise RuntimeError(f"profile POST: {answer.status_code} {answer.get_json()}")

    try:
        for character_id in (long_log, short_log):
            with app.app_context():
                size = db.session.execute(
                    db.text("SELECT count(*) FROM entry WHERE character_id = :c"),
                    {"c": character_id},
                ).scalar_one()
            post(character_id, 0)  # warm-up
            started = time.perf_counter()
            for n in range(posts):
                post(character_id, n + 1)
            each = (time.perf_counter() - started) / posts * 1000
            print(f"test client, character {character_id} (log of {size}): {each:.2f} ms per POST")
        print()
        profiler = cProfile.Profile()
        profiler.enable()
        for n in range(posts):
            post(long_log, n)
        profiler.disable()
        text = io.StringIO()
        stats = pstats.Stats(profiler, stream=text).strip_dirs()
        print(f"cProfile of {posts} POSTs to character {long_log} (long log), by cumulative time:")
        stats.sort_stats("cumulative").print_stats(30)
        stats.sort_stats("tottime").print_stats(20)
        print(text.getvalue())
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


# --- main -----------------------------------------------------------------------------------


def reset_postgres(uri: str) -> None:
    """Empty the database given for the run: every table of its public schema dropped (the
    database made first if the server has none of that name)."""
    url = sqlalchemy.engine.make_url(uri)
    server = sqlalchemy.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with server.connect() as conn:
            found = conn.execute(
                sqlalchemy.text("SELECT 1 FROM pg_database WHERE datname = :name"),
                {"name": url.database},
            ).first()
            if found is None:
                conn.execute(sqlalchemy.text(f'CREATE DATABASE "{url.database}"'))
    finally:
        server.dispose()
    engine = sqlalchemy.create_engine(uri)
    try:
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text("DROP SCHEMA public CASCADE"))
            conn.execute(sqlalchemy.text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


def side_by_side(app: Target, bare: Target, characters, clients, duration, rounds, uris):
    """Drive the bare server and the app in turn; print both and the ratio; return it."""
    rates: dict[str, list[float]] = {app.label: [], bare.label: []}
    for round_ in range(rounds):
        for target in (bare, app) if round_ % 2 == 0 else (app, bare):
            print(f"=== {target.label}: {clients} clients, round {round_ + 1} of {rounds}")
            phase = measure(target, characters, clients, duration)
            table = "entry" if target is app else "bare_entry"
            counted = entries_per_character(uris[target.label], characters, table)
            rates[target.label].append(report(phase, counted))
    app_rate, bare_rate = median(rates[app.label]), median(rates[bare.label])
    ratio = app_rate / bare_rate if bare_rate else 0.0
    verdict = "met" if ratio >= TARGET_RATIO else "MISSED"
    print(
        f"*** {clients} clients: app {app_rate:.1f} entries/s, bare insert {bare_rate:.1f}/s:"
        f" ratio {ratio:.2f} (target >= {TARGET_RATIO}: {verdict})"
    )
    print()
    return ratio


def run(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-entries-"))
    procs: list[subprocess.Popen] = []
    try:
        if args.postgres:
            sys.path.insert(0, str(ROOT))
            from larp_app import database_uri

            uri = bare_uri = database_uri(args.postgres, tmp)
            reset_postgres(uri)
            kind = f"PostgreSQL ({args.postgres.rsplit('/', 1)[-1]}, emptied first)"
        else:
            uri = f"sqlite:///{tmp / 'bench.sqlite3'}"
            bare_uri = f"sqlite:///{tmp / 'bare.sqlite3'}"
            kind = f"fresh SQLite files (WAL, synchronous=FULL) in {tmp}"
        env = {**os.environ, "LARP_SQLALCHEMY_DATABASE_URI": uri}
        env.pop("DATABASE_URL", None)
        flask_cli(env, "db", "upgrade")
        organiser = create_token(env, "bench-organiser", "organiser")
        referee = create_token(env, "bench-referee", "referee")
        sys.path.insert(0, str(ROOT / "bench"))
        import bare_insert

        bare_token = str(uuid.uuid4())
        bare_insert.prepare(bare_uri, bare_token)

        port, bare_port = free_port(), free_port()
        log_path, bare_log = tmp / "gunicorn.log", tmp / "bare.log"
        proc = start_server(env, port, args.workers, log_path)
        procs.append(proc)
        bare_env = {**os.environ, "BARE_DATABASE_URI": bare_uri}
        bare_proc = start_server(
            bare_env, bare_port, args.workers, bare_log, "bare_insert:create_app()", ROOT / "bench"
        )
        procs.append(bare_proc)
        wait_ready(proc, port, log_path)
        wait_ready(bare_proc, bare_port, bare_log, "/ready")
        app = Target("app", port, "/api/v1", referee, proc.pid, args.via == "sync")
        bare = Target("bare insert", bare_port, "", bare_token, bare_proc.pid)
        uris = {app.label: uri, bare.label: bare_uri}

        print(f"cores: {os.cpu_count()}   gunicorn workers: {args.workers} (sync), each server")
        print(f"app: {HOST}:{port}   bare insert: {HOST}:{bare_port}   ", end="")
        print(f"python {sys.version.split()[0]}")
        print(f"database: {kind}")
        print(f"machine: {load_text()}")
        print("clients: threads in this process, one http.client connection each,", end=" ")
        print(f"{args.duration:g} s per phase")
        print("entries: hit/heal, note, status_on paura, spend/restore energy, cycling; at = now")
        via = "POST /api/v1/sync, one entry each, as the phone's outbox sends them"
        if args.via == "entries":
            via = "POST /api/v1/characters/ID/entries"
        print(f"the app's entries through: {via}")
        print()

        # Warm-up: every worker of each server answers a few POSTs before the timing.
        _, warm = create_event(port, organiser, "warm-up", 8)
        measure(app, warm, 8, 1.0)
        measure(bare, warm, 8, 1.0)

        if args.logged:
            logged_phase(port, proc.pid, env, organiser, args.logged, 30)

        ratios = {}
        last = None
        if args.load in ("spread", "both"):
            for clients in args.clients:
                _, characters = create_event(port, organiser, f"{clients} clients", CHARACTERS)
                ratios[clients] = side_by_side(
                    app, bare, characters, clients, args.duration, args.rounds, uris
                )
                last = characters
        if args.load in ("same", "both"):
            for clients in args.clients:
                _, characters = create_event(port, organiser, f"{clients} same", CHARACTERS)
                print(f"=== app, every client on one character: {clients} clients")
                phase = measure(app, [characters[0]] * CHARACTERS, clients, args.duration)
                report(phase, entries_per_character(uri, characters))
                last = characters
        if last is not None and not args.no_poll:
            clients = min(16, len(last))
            print(f"=== app, unchanged state polled with If-None-Match: {clients} clients")
            report(measure(app, last, clients, args.duration, poll=True), None, "answers")

        for clients, ratio in ratios.items():
            verdict = "met" if ratio >= TARGET_RATIO else "MISSED"
            print(f"summary: {clients} clients, app / bare insert = {ratio:.2f} ({verdict})")

        if args.profile:
            _, empty = create_event(port, organiser, "profile", 1)
        for proc in procs:
            stop_server(proc)
        procs = []

        if args.profile and last is not None:
            profile(uri, referee, last[0], empty[0], 20)
    finally:
        for proc in procs:
            stop_server(proc)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0, help="seconds per phase (10)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers (4)")
    parser.add_argument(
        "--clients",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[16, 64],
        help="comma-separated client counts, one phase each (16,64)",
    )
    parser.add_argument(
        "--load",
        choices=("spread", "same", "both"),
        default="both",
        help="clients on their own characters, all on one character, or both phases (both)",
    )
    parser.add_argument(
        "--rounds", type=int, default=1, help="turns of app and bare insert per count (1)"
    )
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="use this PostgreSQL database (EMPTIED first) instead of SQLite files",
    )
    parser.add_argument(
        "--no-poll", action="store_true", help="leave out the unchanged state poll phase"
    )
    parser.add_argument(
        "--via", choices=("sync", "entries"), default="sync",
        help="the app's entries through /sync as phones send them, or the entries API (sync)",
    )  # fmt: skip
    parser.add_argument(
        "--logged", type=lambda text: [int(n) for n in text.split(",") if n], default=[1, 300],
        help="first, ms per /sync entry for referees who logged this many characters (1,300;"
        " empty: none)",
    )  # fmt: skip
    parser.add_argument(
        "--profile",
        action="store_true",
        help="afterwards, time and cProfile POSTs via the test client on the same database",
    )
    args = parser.parse_args()
    if not 0.5 <= args.duration <= 120:
        parser.error("--duration must be between 0.5 and 120 seconds")
    if not 1 <= args.rounds <= 10:
        parser.error("--rounds must be between 1 and 10")
    if not 1 <= args.workers <= 32:
        parser.error("--workers must be between 1 and 32")
    if not args.clients or not all(1 <= n <= CHARACTERS for n in args.clients):
        parser.error(f"--clients: each between 1 and {CHARACTERS}")
    # SIGTERM raises SystemExit here, so the finally clauses still stop the server.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    run(args)


if __name__ == "__main__":
    main()
