"""Benchmark: a big event after a restart. A worker's first roster, and phones answered.

Run from a checkout: ``.venv/bin/python bench/cold_start.py [--characters 5000]
[--entries 200] [--phones 50] [--workers 4]``, or ``--day largest`` for the largest day's
event (10,000 characters, 20,000 entries logged before the restart, 100 phones: twice the
5,000-character event's in each). Prints figures only.

Set-up: a fresh SQLite database (WAL) in a temporary directory, migrated; an event of
``--characters`` copies of the example sheet, each with ``--entries`` entries over the last
three hours (bench/scale.py's ``build_event``). Building 5,000 × 200 takes minutes (10,000 ×
200 about five on an idle machine): with
``--db PATH`` the database is kept at PATH, and a later run given the same PATH upgrades it
and reuses its event (its first event) instead of building one. Then gunicorn with the app's
own serving settings (``-c python:larp_app.serving``: threaded workers, warm-up before
taking requests):

1. cold: one worker with the warm-up turned off (``LARP_WARM_UP=0``), as a worker was
   before: the first ``GET /api/v1/events/ID/roster`` it answers, then a warm one;
2. warm-up: one worker as served: seconds from start to its first answer, then its first
   roster;
3. play: ``--workers`` workers serve while referees log ``--play`` entries (notes, hits and
   heals over every character, through ``/sync`` a hundred at a time): the day goes on after
   the folds were last stored;
4. restart: ``--workers`` workers started while ``--phones`` phones poll as phones do (their
   roster ``?since=`` the version they held before the restart, and one character's state,
   each every 3 s): seconds until every phone has an answer, and every status code seen
   (the target: every phone within 10 s, no 5xx).

The machine may be shared: its load is printed, and other work makes every figure worse.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from entries import HOST, ROOT, create_token, flask_cli, free_port, load_text, stop_server
from scale import build_event

START_TIMEOUT = 900  # seconds: a cold worker of a big event may take long to answer


def start(env: dict, port: int, workers: int, log_path: Path, warm: bool):
    import subprocess

    gunicorn = Path(sys.executable).parent / "gunicorn"
    command = [str(gunicorn), "-c", "python:larp_app.serving", "-w", str(workers)]
    command += ["-b", f"{HOST}:{port}", "--timeout", "900" if not warm else "90"]
    with open(log_path, "ab") as log:
        return subprocess.Popen(
            [*command, "larp_app:create_app()"],
            cwd=ROOT,
            env={**env, "LARP_WARM_UP": "1" if warm else "0"},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def get(port: int, path: str, token: str, timeout: float = START_TIMEOUT) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        answer = conn.getresponse()
        return answer.status, answer.read()
    finally:
        conn.close()


def first_answer(proc, port: int, path: str, token: str) -> tuple[float, int, bytes]:
    """Seconds until ``path`` is answered (retrying while nothing listens), status, body."""
    started = time.monotonic()
    while time.monotonic() - started < START_TIMEOUT:
        if proc.poll() is not None:
            raise RuntimeError("gunicorn exited")
        try:
            status, body = get(port, path, token)
            return time.monotonic() - started, status, body
        except OSError:
            time.sleep(0.05)
    raise RuntimeError("no answer")


def timed(port: int, path: str, token: str) -> tuple[float, int]:
    started = time.monotonic()
    status, _body = get(port, path, token)
    return (time.monotonic() - started) * 1000, status


def phones_after_restart(env, port, workers, log, token, event_id, characters, held, phones):
    """Start the server while ``phones`` poll; seconds until each had an answer; statuses."""
    statuses: Counter = Counter()
    answered: list[float] = []
    lock = threading.Lock()
    stop = threading.Event()
    started = time.monotonic()

    def phone(n: int) -> None:
        rng = random.Random(n)
        first = None
        while not stop.is_set():
            character = rng.choice(characters)
            for path in (f"/api/v1/roster?event={event_id}&since={held}",
                         f"/api/v1/characters/{character}/state"):  # fmt: skip
                try:
                    status, _ = get(port, path, token, timeout=60)
                except OSError:
                    time.sleep(0.2)  # nothing listens yet: the phone tries again
                    continue
                with lock:
                    statuses[status] += 1
                    if first is None:
                        first = time.monotonic() - started
                        answered.append(first)
            stop.wait(3)

    threads = [threading.Thread(target=phone, args=(n,), daemon=True) for n in range(phones)]
    proc = start(env, port, workers, log, warm=True)
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + START_TIMEOUT
    while len(answered) < phones and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(6)  # two more polls each, on warm workers
    stop.set()
    for thread in threads:
        thread.join(timeout=70)
    stop_server(proc)
    return answered, statuses


def play(env, port, workers, log, token, characters, entries: int) -> float:
    """Serve with ``workers`` while ``entries`` entries are logged over ``characters``, a
    hundred a request; seconds it took."""
    from entries import request_json, wait_ready

    proc = start(env, port, workers, log, warm=True)
    try:
        wait_ready(proc, port, log)
        started = time.monotonic()
        kinds = (
            {"kind": "note", "text": "bench: the day goes on"},
            {"kind": "hit", "damage": 1, "blows": 1, "pierce": True},
            {"kind": "heal", "amount": 1},
        )
        for start_at in range(0, entries, 100):
            now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
            items = [
                {
                    "id": str(uuid.uuid4()),
                    "character": characters[n % len(characters)],
                    "at": now,
                    "sent_at": now,
                    **kinds[(n // len(characters)) % len(kinds)],
                }
                for n in range(start_at, min(entries, start_at + 100))
            ]
            status, answer = request_json(port, "POST", "/api/v1/sync", token, {"entries": items})
            if status != 200:
                raise RuntimeError(f"sync: {status} {str(answer)[:300]}")
        return time.monotonic() - started
    finally:
        stop_server(proc)


def kept_event(uri: str) -> tuple[int, list[int]]:
    """The first event of a kept database and its characters."""
    from sqlalchemy import create_engine, text

    engine = create_engine(uri)
    with engine.connect() as conn:
        event_id = conn.execute(text("SELECT min(id) FROM event")).scalar_one()
        characters = (
            conn.execute(
                text('SELECT id FROM "character" WHERE event_id = :e ORDER BY id'), {"e": event_id}
            )
            .scalars()
            .all()
        )
    engine.dispose()
    return event_id, list(characters)


def run(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-cold-"))
    proc = None
    try:
        kept = Path(args.db).resolve() if args.db else None
        reuse = kept is not None and kept.exists()
        uri = f"sqlite:///{kept or tmp / 'cold.sqlite3'}"
        # Costly reads are not made to take turns here: a worker's first roster is measured.
        env = {**os.environ, "LARP_SQLALCHEMY_DATABASE_URI": uri, "LARP_FAIR_SHARE": "false"}
        env.pop("DATABASE_URL", None)
        os.environ["LARP_SQLALCHEMY_DATABASE_URI"] = uri
        flask_cli(env, "db", "upgrade")
        token = create_token(env, f"bench-referee-{os.getpid()}", "referee")
        started = time.monotonic()
        if reuse:
            event_id, characters = kept_event(uri)
            print(f"reused {kept}: {len(characters):,} characters", flush=True)
        else:
            event_id, characters = build_event(uri, args.characters, args.entries)
            print(f"built {args.characters:,} characters × {args.entries} entries"
                  f" in {time.monotonic() - started:.0f} s", flush=True)  # fmt: skip
        if args.build_only:
            return
        print(f"machine: {load_text()}   cores: {os.cpu_count()}   SQLite (WAL)")
        roster = f"/api/v1/events/{event_id}/roster"
        log = tmp / "gunicorn.log"

        if not args.skip_cold:
            port = free_port()
            proc = start(env, port, 1, log, warm=False)
            ready, _status, _ = first_answer(proc, port, "/api/v1/openapi.json", token)
            cold_ms, status = timed(port, roster, token)
            warm_ms, _ = timed(port, roster, token)
            print(f"1. cold worker (no warm-up): first roster {cold_ms:,.0f} ms ({status}),"
                  f" the next {warm_ms:,.0f} ms", flush=True)  # fmt: skip
            stop_server(proc)

        port = free_port()
        proc = start(env, port, 1, log, warm=True)
        ready, status, _ = first_answer(proc, port, "/api/v1/openapi.json", token)
        first_ms, status = timed(port, roster, token)
        print(f"2. warmed worker: first answer {ready:.1f} s after start; its first roster"
              f" {first_ms:,.0f} ms ({status}); target <= 300 ms", flush=True)  # fmt: skip
        status, body = get(port, f"/api/v1/roster?event={event_id}", token)
        assert status == 200, (status, body[:300])
        held = json.loads(body)["version"]
        stop_server(proc)
        proc = None

        if args.play:
            took = play(env, free_port(), args.workers, log, token, characters, args.play)
            print(f"3. play: {args.play:,} entries logged through /sync in {took:.0f} s, after"
                  " the folds were last stored", flush=True)  # fmt: skip

        port = free_port()
        answered, statuses = phones_after_restart(
            env, port, args.workers, log, token, event_id, characters, held, args.phones
        )
        errors = sum(n for code, n in statuses.items() if code >= 500)
        print(f"4. restart, {args.workers} workers, {args.phones} phones polling:"
              f" {len(answered)}/{args.phones} answered, the last after"
              f" {max(answered, default=float('nan')):.1f} s; statuses"
              f" {dict(sorted(statuses.items()))}; 5xx: {errors};"
              " target: every phone within 10 s, no 5xx")  # fmt: skip
        warm_lines = [line for line in log.read_text().splitlines() if "warm: event" in line]
        if warm_lines:
            print(f"   warm-up as logged: {warm_lines[-1].split('] ', 1)[-1]}")
    finally:
        if proc is not None:
            stop_server(proc)
        if args.db and (tmp / "gunicorn.log").exists():  # kept beside the database
            shutil.copyfile(tmp / "gunicorn.log", Path(args.db).resolve().with_suffix(".log"))
        shutil.rmtree(tmp, ignore_errors=True)


# The events (``--day``): characters, entries logged before the restart, phones polling.
DAYS = {"5000": (5000, 10_000, 50), "largest": (10_000, 20_000, 100)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--day", choices=sorted(DAYS), default="5000",
        help="the 5,000-character event (5000, the default) or the largest day's: 10,000",
    )  # fmt: skip
    parser.add_argument("--characters", type=int, help="(5,000; 10,000 on the largest day)")
    parser.add_argument("--entries", type=int, default=200, help="entries per character")
    parser.add_argument("--phones", type=int, help="(50; 100 on the largest day)")
    parser.add_argument(
        "--play", type=int,
        help="entries logged before the restart (10,000; 20,000 on the largest day)",
    )  # fmt: skip
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--skip-cold", action="store_true", help="no cold worker (step 1)")
    parser.add_argument("--db", help="keep the SQLite database at this path, or reuse it")
    parser.add_argument("--build-only", action="store_true", help="build (--db) and stop")
    args = parser.parse_args()
    characters, play, phones = DAYS[args.day]
    args.characters = args.characters or characters
    args.play = play if args.play is None else args.play
    args.phones = args.phones or phones
    run(args)


if __name__ == "__main__":
    main()
