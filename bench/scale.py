"""Benchmark: big events. The roster (whole, as a delta, unchanged), the board, one state,
an entry and the workers' memory, for events of 100, 500, 2,000 and 5,000 characters.

Run from a checkout: ``.venv/bin/python bench/scale.py [--sizes 100,500,2000,5000]``
(``--sizes 100,500`` for a quick look). Prints figures only.

Set-up: a fresh SQLite database (WAL) in a temporary directory, migrated with ``flask db
upgrade``; for each size, an event of that many copies of the example sheet imported with the
app's own service, and 20 entries per character (hits, heals, notes, statuses, energy spent
and restored, spread over the last three hours) inserted straight into the log. The sizes are
built one after the other in the same database, so the largest is measured with every smaller
one beside it. Then ``gunicorn -w 4 -k sync`` serves it on 127.0.0.1, and for each event:

- roster: ``GET /api/v1/roster?event=ID`` whole (cold: a worker's first; warm: the median
  of the next ones), its size as sent and gzipped and brotli'd; a delta after one entry
  (``?since=``), and an unchanged refresh (``?since=`` with If-None-Match: a 304);
- board: the organiser's ``board.json`` (warm), a poll after one entry, an unchanged poll,
  and as the page asks it, a poll ``?since=`` its version after one entry (its size too);
- state: one character's ``/state``, and its 304;
- entry: ``POST /api/v1/characters/ID/entries`` (a note), median of a few;
- worker RSS (VmRSS of each gunicorn worker) after the event's requests.

Every figure is the median of ``--repeat`` requests unless said otherwise, and each line
says how much it grew from the size before. The machine may be shared: the load in the
second before the run is printed, and other work makes every figure pessimistic.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import re
import shutil
import signal
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from http.cookies import SimpleCookie
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/entries.py: the set-up
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from entries import (
    HOST,
    create_token,
    flask_cli,
    free_port,
    load_text,
    make_sheets,
    server_pids,
    start_server,
    stop_server,
    wait_ready,
)

ENTRIES_PER_CHARACTER = 20
TARGETS = {  # the issue's, at 5,000 characters unless said
    "roster whole": "<= 1 s",
    "board": "<= 1 s",
    "roster delta": "<= 50 ms",
    "roster unchanged": "<= 20 ms",
}


# --- the data -------------------------------------------------------------------------------


def entry_fields(n: int, at: datetime) -> dict:
    kinds = (
        {"kind": "hit", "damage": 1, "blows": 1, "pierce": True},
        {"kind": "heal", "amount": 1},
        {"kind": "note", "text": "bench: un appunto"},
        {"kind": "status_on", "key": "paura", "seconds": 60},
        {"kind": "spend_energy", "amount": 1},
        {"kind": "restore_energy", "amount": 1},
    )
    stamp = at.isoformat(timespec="microseconds").replace("+00:00", "Z")
    return {"id": str(uuid.uuid4()), "at": stamp, "author": "bench", **kinds[n % len(kinds)]}


def build_event(
    uri: str, size: int, per_character: int = ENTRIES_PER_CHARACTER
) -> tuple[int, list[int]]:
    """An event of ``size`` characters, each with ``per_character`` entries (20) over the
    last three hours."""
    from sqlalchemy import insert

    from larp_app import create_app
    from larp_app.extensions import db
    from larp_app.models import Entry
    from larp_app.services.characters import MAX_SHEETS, import_sheets
    from larp_app.services.events import create_event

    app = create_app({"SQLALCHEMY_DATABASE_URI": uri})
    with app.app_context():
        event = create_event(f"Bench {size}", "ex-nihilo")
        sheets = make_sheets(size, str(size))
        characters = []
        for start in range(0, size, MAX_SHEETS):  # one import takes at most MAX_SHEETS
            characters += import_sheets(event, sheets[start : start + MAX_SHEETS])
        db.session.flush()
        now = datetime.now(UTC)
        rows = []
        step = 10_000 // per_character  # seconds between a character's entries
        for character in characters:
            for n in range(per_character):
                offset = character.id % max(1, step * 4 // 5)
                at = now - timedelta(hours=3) + timedelta(seconds=n * step + offset)
                fields = entry_fields(n, at)
                rows.append(
                    {
                        "client_id": fields["id"],
                        "character_id": character.id,
                        "kind": fields["kind"],
                        "at": at,
                        "received_at": at,
                        "fields": fields,
                    }
                )
            if len(rows) >= 5000:  # inserted as they are made: millions are not all held
                db.session.execute(insert(Entry), rows)
                rows = []
        if rows:
            db.session.execute(insert(Entry), rows)
        db.session.commit()
        answer = event.id, [c.id for c in characters]
        db.session.remove()
        db.engine.dispose()
    return answer


# --- HTTP -----------------------------------------------------------------------------------


class Client:
    def __init__(self, port: int, headers: dict | None = None):
        self.port = port
        self.headers = headers or {}
        self.conn = http.client.HTTPConnection(HOST, port, timeout=120)

    def request(self, method, path, body=None, headers=None):
        headers = {**self.headers, **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        started = time.perf_counter()
        try:
            self.conn.request(method, path, data, headers)
            answer = self.conn.getresponse()
            payload = answer.read()
        except (OSError, http.client.HTTPException):
            self.conn.close()
            self.conn = http.client.HTTPConnection(HOST, self.port, timeout=120)
            raise
        return answer, payload, time.perf_counter() - started


def organiser_session(port: int, username: str, password: str) -> dict:
    """Log in through the form, as the organiser's browser does: the session cookie."""
    client = Client(port)
    answer, page, _ = client.request("GET", "/login")
    cookie = SimpleCookie(answer.getheader("Set-Cookie"))
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    jar = "; ".join(f"{k}={v.value}" for k, v in cookie.items())
    form = f"username={username}&password={password}&csrf_token={token}"
    client.conn.request(
        "POST",
        "/login",
        form,
        {"Content-Type": "application/x-www-form-urlencoded", "Cookie": jar},
    )
    answer = client.conn.getresponse()
    answer.read()
    cookie = SimpleCookie(answer.getheader("Set-Cookie"))
    return {"Cookie": "; ".join(f"{k}={v.value}" for k, v in cookie.items())}


def worker_rss(master: int) -> list[float]:
    """VmRSS of each gunicorn worker, in MB."""
    sizes = []
    for pid in server_pids(master):
        if pid == master:
            continue
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        match = re.search(r"VmRSS:\s+(\d+) kB", status)
        if match:
            sizes.append(int(match.group(1)) / 1024)
    return sizes


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000


# --- one event ------------------------------------------------------------------------------


def measure(port, referee, board_headers, event_id, characters, repeat, workers) -> dict:
    api = Client(port, {"Authorization": f"Bearer {referee}"})
    figures: dict = {}
    roster_path = f"/api/v1/roster?event={event_id}"

    answer, body, cold = api.request("GET", roster_path)
    figures["roster cold (one worker's first)"] = cold * 1000
    # Every worker builds its view once: the kernel, not gunicorn, picks which worker takes
    # a connection, so twice as many requests as workers may leave one cold (then a timed
    # request builds it: a cold figure taken as warm).
    for _ in range(workers * 5):
        api.request("GET", roster_path)
    times = [api.request("GET", roster_path)[2] for _ in range(repeat)]
    figures["roster whole"] = median_ms(times)
    figures["roster bytes"] = len(body)
    figures["roster gzip bytes"] = len(gzip.compress(body, 6))
    answer, zipped, _ = api.request("GET", roster_path, headers={"Accept-Encoding": "gzip, br"})
    figures["roster bytes on the wire (br)"] = len(zipped)
    if answer.status != 200:
        raise RuntimeError(f"roster: {answer.status} {body[:300]!r}")
    version = json.loads(body)["version"]

    deltas, unchanged, unchanged_bytes, entries = [], [], [], []
    for n in range(repeat):
        character = characters[(n * 7919) % len(characters)]
        note = {"id": str(uuid.uuid4()), "kind": "note", "text": "bench", "at": now_z()}
        answer, _, took = api.request("POST", f"/api/v1/characters/{character}/entries", note)
        if answer.status not in (200, 201):
            raise RuntimeError(f"entry: {answer.status}")
        entries.append(took)
        answer, payload, took = api.request("GET", f"{roster_path}&since={version}")
        if answer.status != 200:
            raise RuntimeError(f"delta: {answer.status}")
        deltas.append(took)
        delta = json.loads(payload)
        figures["roster delta characters"] = len(delta["characters"])
        version = delta["version"]
        etag = answer.getheader("ETag")
        for _ in range(workers):  # each worker sees the change once; then nothing changed
            api.request("GET", f"{roster_path}&since={version}", headers={"If-None-Match": etag})
        answer, payload, took = api.request(
            "GET", f"{roster_path}&since={version}", headers={"If-None-Match": etag}
        )
        if answer.status == 304:
            unchanged.append(took)
            unchanged_bytes.append(
                len(payload) + sum(len(k) + len(v) for k, v in answer.getheaders())
            )
    figures["entry POST"] = median_ms(entries)
    figures["roster delta"] = median_ms(deltas)
    if unchanged:
        figures["roster unchanged"] = median_ms(unchanged)
        figures["roster unchanged bytes"] = max(unchanged_bytes)

    board = Client(port, board_headers)
    board_path = f"/events/{event_id}/board.json"
    for _ in range(workers * 5):  # as the roster's above
        answer, body, _ = board.request("GET", board_path)
    if answer.status != 200:
        raise RuntimeError(f"board: {answer.status}")
    times = [board.request("GET", board_path)[2] for _ in range(repeat)]
    figures["board"] = median_ms(times)
    etag = answer.getheader("ETag")
    polls, after = [], []
    for n in range(repeat):
        for _ in range(workers):
            answer, _, took = board.request("GET", board_path, headers={"If-None-Match": etag})
        if answer.status == 304:
            polls.append(took)
        character = characters[(n * 104729) % len(characters)]
        note = {"id": str(uuid.uuid4()), "kind": "note", "text": "bench", "at": now_z()}
        api.request("POST", f"/api/v1/characters/{character}/entries", note)
        answer, _, took = board.request("GET", board_path, headers={"If-None-Match": etag})
        after.append(took)
        etag = answer.getheader("ETag")
    figures["board after one entry"] = median_ms(after)
    if polls:
        figures["board unchanged"] = median_ms(polls)
    # As the page asks it: the changes since the version it holds (its changed rows only).
    answer, body, _ = board.request("GET", board_path)
    version, changes, sizes = json.loads(body)["version"], [], []
    for n in range(repeat):
        character = characters[(n * 15485863) % len(characters)]
        note = {"id": str(uuid.uuid4()), "kind": "note", "text": "bench", "at": now_z()}
        api.request("POST", f"/api/v1/characters/{character}/entries", note)
        answer, body, took = board.request("GET", f"{board_path}?since={version}")
        changes.append(took)
        sizes.append(len(body))
        version = json.loads(body)["version"]
    figures["board since, after one entry"] = median_ms(changes)
    figures["board since bytes"] = statistics.median(sizes)
    figures["board whole bytes"] = len(board.request("GET", board_path)[1])

    character = characters[len(characters) // 2]
    state_path = f"/api/v1/characters/{character}/state"
    for _ in range(workers):
        answer, _, _ = api.request("GET", state_path)
    times = [api.request("GET", state_path)[2] for _ in range(repeat)]
    figures["state"] = median_ms(times)
    etag = answer.getheader("ETag")
    times = [
        api.request("GET", state_path, headers={"If-None-Match": etag})[2] for _ in range(repeat)
    ]
    figures["state unchanged"] = median_ms(times)
    return figures


def now_z() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


UNITS = {"bytes": "B"}


def show(results: dict[int, dict]) -> None:
    sizes = sorted(results)
    names = list(dict.fromkeys(name for figures in results.values() for name in figures))
    print(f"{'figure':34}" + "".join(f"{size:>12,}      " for size in sizes))
    for name in names:
        unit = "B" if "bytes" in name else ("" if "characters" in name else "ms")
        unit = "MB" if "MB" in name else unit
        cells, before = [], None
        for size in sizes:
            value = results[size].get(name)
            if value is None:
                cells.append(f"{'-':>18}")
                continue
            text = f"{value:,.0f}" if unit in ("B", "") else f"{value:,.1f}"
            growth = f"×{value / before:.1f}" if before else ""
            cells.append(f"{text + ' ' + unit:>12}{growth:>6}")
            before = value or None
        print(f"{name:34}" + "".join(cells))


def run(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-scale-"))
    proc = None
    try:
        uri = f"sqlite:///{tmp / 'scale.sqlite3'}"
        env = {**os.environ, "LARP_SQLALCHEMY_DATABASE_URI": uri}
        env.pop("DATABASE_URL", None)
        os.environ["LARP_SQLALCHEMY_DATABASE_URI"] = uri  # the in-process set-up too
        flask_cli(env, "db", "upgrade")
        referee = create_token(env, "bench-referee", "referee")
        flask_cli(
            env, "users", "create", "bench-organiser", "--role", "organiser",
            "--password", "bench-organiser-password",
        )  # fmt: skip
        events = {}
        for size in args.sizes:
            started = time.monotonic()
            events[size] = build_event(uri, size)
            print(f"built {size:,} characters × {ENTRIES_PER_CHARACTER} entries"
                  f" in {time.monotonic() - started:.0f} s", flush=True)  # fmt: skip
        print(f"cores: {os.cpu_count()}   gunicorn workers: {args.workers} (sync)   "
              f"SQLite (WAL)   python {sys.version.split()[0]}")  # fmt: skip
        print(f"machine: {load_text()}")
        print(f"each figure: median of {args.repeat} requests; ×: growth from the size before")
        print()
        results = {}
        for size in args.sizes:
            # A fresh server per size: its workers' memory is this size's (and the DB's).
            port = free_port()
            proc = start_server(env, port, args.workers, tmp / "gunicorn.log")
            wait_ready(proc, port, tmp / "gunicorn.log")
            board = organiser_session(port, "bench-organiser", "bench-organiser-password")
            event_id, characters = events[size]
            figures = measure(port, referee, board, event_id, characters, args.repeat, args.workers)
            rss = worker_rss(proc.pid)
            figures["worker RSS max (MB)"] = max(rss) if rss else float("nan")
            results[size] = figures
            stop_server(proc)
            proc = None
        show(results)
        print()
        biggest = max(results)
        print(f"targets (issue), at {biggest:,} characters:")
        for name, target in TARGETS.items():
            value = results[biggest].get(name)
            if value is not None:
                print(f"  {name:24} {value:9.1f} ms   target {target}")
        if 2000 in results:
            wire = results[2000]
            print(
                f"  roster on the wire at 2,000: {wire['roster bytes on the wire (br)']:,} B (br),"
                f" {wire['roster gzip bytes']:,} B (gzip); target <= 250 KB"
            )
        print(f"  worker RSS at {biggest:,}: {results[biggest]['worker RSS max (MB)']:.0f} MB;"
              " target <= 150 MB")  # fmt: skip
    finally:
        if proc is not None:
            stop_server(proc)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        type=lambda text: [int(n) for n in text.split(",")],
        default=[100, 500, 2000, 5000],
        help="comma-separated event sizes in characters (100,500,2000,5000)",
    )
    parser.add_argument("--repeat", type=int, default=7, help="requests per figure (7)")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn sync workers (4)")
    args = parser.parse_args()
    if not all(1 <= n <= 20_000 for n in args.sizes):
        parser.error("--sizes: each between 1 and 20000")
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    run(args)


if __name__ == "__main__":
    main()
