"""Benchmark: referees' entries posted by concurrent clients to the app under gunicorn.

Run from a checkout: ``.venv/bin/python bench/entries.py [--duration 10] [--load both]
[--profile]``. Prints figures only. ``--load spread`` gives every client a character of its
own; ``--load same`` sends every client's entries to one character, whose writes are
serialised (one writer per character); ``both`` (the default) runs the two in turn.

Set-up: a fresh SQLite database (WAL) in a temporary directory, migrated with
``flask db upgrade``; an organiser and a referee made with ``flask users create`` (their
tokens); then ``gunicorn -w 4 -k sync`` on a free port of 127.0.0.1. For each phase
(16, then 64 clients) the organiser creates a fresh event with 64 characters through the
API, so every phase starts from empty logs. Client i (a thread with its own http.client
connection, kept alive when the server allows it) posts entries to character i for a fixed
duration: hit and heal alternating (always allowed: one point of piercing damage, then one
point back; a heal at full points is allowed), a note, status_on paura, spend_energy 1 and
restore_energy 1 alternating, each with a fresh UUID and ``at`` = now (ISO-8601 UTC, Z).

Every POST folds the character's whole log, so the log grows during a phase: the final
entries per character are printed. ``--profile`` then profiles a few POSTs with Flask's test
client against the same database (a character with a long log and one with an empty log).

The server is stopped at the end, also on error (its process group is killed), and the
temporary directory is removed.
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
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from statistics import median, quantiles

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "larp_app" / "demo" / "ex-nihilo-sheet.json"
HOST = "127.0.0.1"
CLI_TIMEOUT = 120  # seconds, per CLI subprocess
START_TIMEOUT = 30  # seconds for gunicorn to answer
STOP_TIMEOUT = 15  # seconds for gunicorn to stop after SIGTERM, then SIGKILL
REQUEST_TIMEOUT = 30  # seconds, per request
MAX_REQUESTS_PER_CLIENT = 200_000  # a bound on every client loop besides its duration
CHARACTERS = 64
ANCHOR_PER_SECOND = 850  # bare Flask-SQLAlchemy insert, 64 clients (from the issue)
ANCHOR_P99_MS = 90


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
    return re.search(r"^token: (\S+)$", out, re.M).group(1)


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


def start_server(env: dict, port: int, workers: int, log_path: Path) -> subprocess.Popen:
    gunicorn = Path(sys.executable).parent / "gunicorn"
    command = [str(gunicorn), "-w", str(workers), "-k", "sync", "-b", f"{HOST}:{port}"]
    with open(log_path, "wb") as log:
        return subprocess.Popen(
            [*command, "larp_app:create_app()"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: killed whole at the end
        )


def wait_ready(proc: subprocess.Popen, port: int, log_path: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log_path.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"gunicorn exited ({proc.returncode}):\n{tail}")
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=2)
            conn.request("GET", "/api/v1/openapi.json")
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


def client_loop(port: int, token: str, character_id: int, clock: dict, go, out: ClientResult):
    conn = CountingConnection(HOST, port, timeout=REQUEST_TIMEOUT)
    path = f"/api/v1/characters/{character_id}/entries"
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    try:
        if not go.wait(timeout=60):
            return
        deadline = clock["deadline"]
        sent = 0
        while sent < MAX_REQUESTS_PER_CLIENT and time.monotonic() < deadline:
            body = json.dumps({"id": str(uuid.uuid4()), "at": now_z(), **CYCLE[sent % len(CYCLE)]})
            started = time.perf_counter()
            try:
                conn.request("POST", path, body.encode(), headers)
                answer = conn.getresponse()
                answer.read()
                status = answer.status
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


def measure(port, token, characters, clients, duration, master) -> Phase:
    """Run ``clients`` client threads for ``duration`` seconds; CPU of server and client."""
    results = [ClientResult() for _ in range(clients)]
    go = threading.Event()
    clock: dict = {}
    threads = [
        threading.Thread(
            target=client_loop,
            args=(port, token, characters[i], clock, go, results[i]),
            daemon=True,
        )
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    pids = server_pids(master)
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


def entries_per_character(db_path: Path, characters: list[int]) -> list[int]:
    with sqlite3.connect(f"file:{db_path}?mode=ro", uri=True) as conn:
        counts = dict(
            conn.execute(
                "SELECT character_id, count(*) FROM entry GROUP BY character_id"
            ).fetchall()
        )
    return [counts.get(c, 0) for c in characters]


def report(phase: Phase, per_character: list[int]) -> tuple[float, float]:
    latencies = sorted(x for r in phase.results for x in r.latencies)
    if not latencies:
        print(f"--- {phase.clients} clients, {phase.seconds:.1f} s: no request was answered\n")
        return 0.0, 0.0
    statuses: Counter = Counter()
    for r in phase.results:
        statuses.update(r.statuses)
    ok = sum(n for s, n in statuses.items() if isinstance(s, int) and 200 <= s < 300)
    total = sum(statuses.values())
    cuts = quantiles(latencies, n=100, method="inclusive") if len(latencies) > 1 else latencies * 99
    p50, p99 = cuts[49] * 1000, cuts[98] * 1000
    rate = ok / phase.seconds
    connections = sum(r.connections for r in phase.results)
    header = next((r.connection_header for r in phase.results if r.connection_header), "?")
    others = {
        str(s): n
        for s, n in sorted(statuses.items(), key=str)
        if not (isinstance(s, int) and 200 <= s < 300)
    }
    print(f"--- {phase.clients} clients, {phase.seconds:.1f} s")
    print(f"entries/s (2xx):      {rate:8.1f}   ({ok} of {total} requests)")
    print(
        f"latency ms:           p50 {p50:7.1f}   p99 {p99:7.1f}   max {latencies[-1] * 1000:7.1f}"
    )
    print(f"statuses:             {dict(sorted((str(k), v) for k, v in statuses.items()))}")
    print(f"non-2xx by status:    {others or 'none'}")
    print(f"connections opened:   {connections} (response header Connection: {header})")
    busy = phase.server_cpu / phase.seconds
    print(
        f"server CPU:           {phase.server_cpu:.1f} s ({busy:.2f} cores busy,"
        f" {phase.server_cpu / max(ok, 1) * 1000:.2f} ms per entry)"
    )
    busy = phase.client_cpu / phase.seconds
    print(f"client CPU (this):    {phase.client_cpu:.1f} s ({busy:.2f} cores)")
    if phase.machine_cpu is not None:
        other = max(0.0, phase.machine_cpu - phase.server_cpu - phase.client_cpu) / phase.seconds
        note = "  (skews these figures)" if other > 0.2 else ""
        print(f"other processes:      {other:.2f} cores busy{note}")
    active = per_character[: phase.clients]
    print(
        f"entries per character at the end: min {min(active)}  median {median(active):.0f}"
        f"  max {max(active)}"
    )
    print()
    return rate, p99


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


def run(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-entries-"))
    proc = None
    try:
        db_path = tmp / "bench.sqlite3"
        uri = f"sqlite:///{db_path}"
        env = {**os.environ, "LARP_SQLALCHEMY_DATABASE_URI": uri}
        env.pop("DATABASE_URL", None)
        flask_cli(env, "db", "upgrade")
        organiser = create_token(env, "bench-organiser", "organiser")
        referee = create_token(env, "bench-referee", "referee")

        port = free_port()
        log_path = tmp / "gunicorn.log"
        proc = start_server(env, port, args.workers, log_path)
        wait_ready(proc, port, log_path)

        print(f"cores: {os.cpu_count()}   gunicorn workers: {args.workers} (sync)   ", end="")
        print(f"server: {HOST}:{port}   python {sys.version.split()[0]}")
        print(f"database: fresh SQLite file (WAL, synchronous=FULL) in {tmp}")
        print(f"machine: {load_text()}")
        print("clients: threads in this process, one http.client connection each,", end=" ")
        print(f"{args.duration:g} s per phase")
        print("entries: hit/heal, note, status_on paura, spend/restore energy, cycling; at = now")
        print()

        # Warm-up: every worker answers a few POSTs before the timing.
        _, warm = create_event(port, organiser, "warm-up", 8)
        measure(port, referee, warm, 8, 1.0, proc.pid)

        figures = {}
        last = None
        for load in ("spread", "same") if args.load == "both" else (args.load,):
            for clients in args.clients:
                label = f"{clients} clients, {load}"
                _, characters = create_event(port, organiser, label, CHARACTERS)
                # spread: client i logs for character i; same: every client for one character
                # (its writes serialised: each waits for the one before).
                targets = characters if load == "spread" else [characters[0]] * CHARACTERS
                print(f"=== load: {load} character{'s' if load == 'spread' else ''}")
                phase = measure(port, referee, targets, clients, args.duration, proc.pid)
                counted = entries_per_character(db_path, characters)
                figures[clients, load] = report(phase, counted)
                last = characters[0]

        if (CHARACTERS, "spread") in figures:
            rate, p99 = figures[CHARACTERS, "spread"]
            target = ANCHOR_PER_SECOND / 2
            verdict = "meets" if rate >= target else "BELOW"
            print(
                f"anchor (issue): bare Flask-SQLAlchemy insert ~{ANCHOR_PER_SECOND}/s, p99"
                f" ~{ANCHOR_P99_MS} ms at 64 clients; target >= {target:.0f}/s"
            )
            print(f"here: {rate:.0f}/s, p99 {p99:.0f} ms at 64 clients: {verdict} the target")
            print()

        if args.profile:
            _, empty = create_event(port, organiser, "profile", 1)
        stop_server(proc)
        proc = None

        if args.profile and last is not None:
            profile(uri, referee, last, empty[0], 20)
    finally:
        if proc is not None:
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
        "--profile",
        action="store_true",
        help="afterwards, time and cProfile POSTs via the test client on the same database",
    )
    args = parser.parse_args()
    if not 0.5 <= args.duration <= 120:
        parser.error("--duration must be between 0.5 and 120 seconds")
    if not 1 <= args.workers <= 32:
        parser.error("--workers must be between 1 and 32")
    if not args.clients or not all(1 <= n <= CHARACTERS for n in args.clients):
        parser.error(f"--clients: each between 1 and {CHARACTERS}")
    # SIGTERM raises SystemExit here, so the finally clauses still stop the server.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    run(args)


if __name__ == "__main__":
    main()
