"""Benchmark: 50 open consoles polling with ETag while referees log entries, under gunicorn.

Run: .venv/bin/python bench/polling.py [--consoles 50] [--writers 4] [--duration 20]

Each console polls its character's state every 2 s with If-None-Match, as the browser does;
meanwhile a few referees post entries. Printed: polls answered 304 vs 200, poll and entry
latencies (p50/p99), and whether every console saw every change within 5 s. Traffic goes to
127.0.0.1 only; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from statistics import quantiles

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/entries.py: the set-up

from entries import (
    HOST,
    create_event,
    create_token,
    flask_cli,
    free_port,
    now_z,
    start_server,
    stop_server,
    wait_ready,
)

POLL_SECONDS = 2.0


def percentile(values: list[float], q: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return quantiles(values, n=100, method="inclusive")[q - 1]


def console(port, token, character, stop, polls, seen):
    """One open console: poll the state every 2 s with If-None-Match."""
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    etag = None
    path = f"/api/v1/characters/{character}/state"
    while not stop.is_set():
        started = time.monotonic()
        headers = {"Authorization": f"Bearer {token}"}
        if etag:
            headers["If-None-Match"] = etag
        try:
            conn.request("GET", path, headers=headers)
            answer = conn.getresponse()
            answer.read()
        except OSError:
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=10)
            continue
        polls.append((answer.status, time.monotonic() - started))
        if answer.status == 200:
            etag = answer.getheader("ETag")
            seen.setdefault(character, []).append(time.monotonic())
        stop.wait(max(0.0, POLL_SECONDS - (time.monotonic() - started)))


def writer(port, token, characters, stop, posts, changes):
    """A referee logging a hit then a heal on each character in turn, about every 0.5 s."""
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    n = 0
    while not stop.is_set():
        character = characters[n % len(characters)]
        kind = (
            {"kind": "hit", "pierce": True}
            if n // len(characters) % 2 == 0
            else {"kind": "heal", "amount": 1}
        )
        body = json.dumps({"id": str(uuid.uuid4()), "at": now_z(), **kind})
        started = time.monotonic()
        try:
            conn.request(
                "POST",
                f"/api/v1/characters/{character}/entries",
                body,
                {"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
            )
            answer = conn.getresponse()
            state = json.loads(answer.read())
        except OSError:
            conn.close()
            conn = http.client.HTTPConnection(HOST, port, timeout=10)
            continue
        posts.append((answer.status, time.monotonic() - started))
        if answer.status in (200, 201):
            changes.append((character, state["state"]["hp"], time.monotonic()))
        n += 1
        stop.wait(0.5)


def run(args) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-polling-"))
    proc = None
    try:
        env = {**os.environ, "LARP_SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'b.sqlite3'}"}
        env.pop("DATABASE_URL", None)
        flask_cli(env, "db", "upgrade")
        organiser = create_token(env, "bench-organiser", "organiser")
        referee = create_token(env, "bench-referee", "referee")
        port = free_port()
        proc = start_server(env, port, args.workers, tmp / "gunicorn.log")
        wait_ready(proc, port, tmp / "gunicorn.log")
        _, characters = create_event(port, organiser, "polling", args.consoles)

        stop = threading.Event()
        polls, posts, changes = [], [], []
        seen: dict[int, list[float]] = {}
        threads = [
            threading.Thread(target=console, args=(port, referee, c, stop, polls, seen))
            for c in characters
        ]
        groups = [characters[i :: args.writers] for i in range(args.writers)]
        threads += [
            threading.Thread(target=writer, args=(port, referee, g, stop, posts, changes))
            for g in groups
        ]
        for thread in threads:
            thread.start()
        time.sleep(args.duration)
        stop.set()
        for thread in threads:
            thread.join(timeout=15)

        ok = [t for s, t in polls if s == 200]
        not_modified = [t for s, t in polls if s == 304]
        poll_times = sorted(t * 1000 for _, t in polls)
        post_times = sorted(t * 1000 for s, t in posts if s in (200, 201))
        print(
            f"cores: {os.cpu_count()}   gunicorn workers: {args.workers} (sync)   "
            f"consoles: {args.consoles} polling every {POLL_SECONDS:g} s   "
            f"writers: {args.writers}   {args.duration:g} s"
        )
        print(
            f"polls: {len(polls)} ({len(polls) / args.duration:.1f}/s)   200: {len(ok)}   "
            f"304: {len(not_modified)}   other: {len(polls) - len(ok) - len(not_modified)}"
        )
        print(
            f"poll latency ms:  p50 {percentile(poll_times, 50):6.1f}   "
            f"p99 {percentile(poll_times, 99):6.1f}"
        )
        print(
            f"entries: {len(post_times)} ({len(post_times) / args.duration:.1f}/s)   "
            f"latency ms: p50 {percentile(post_times, 50):6.1f}   "
            f"p99 {percentile(post_times, 99):6.1f}"
        )
        # Convergence: from each change to the first fresh (200) poll of that console after it.
        delays = []
        unseen = 0
        for character, _hp, at in changes:
            after = [t for t in seen.get(character, []) if t >= at]
            if after:
                delays.append(after[0] - at)
            else:
                unseen += 1  # logged in the last seconds, before that console's next poll
        delays.sort()
        print(
            f"change -> seen on its console, s: p50 {percentile(delays, 50):.2f}   "
            f"p99 {percentile(delays, 99):.2f}   max {delays[-1]:.2f}   "
            f"(target: within 5 s; {unseen} changes made after the last poll)"
        )
    finally:
        if proc is not None:
            stop_server(proc)
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--consoles", type=int, default=50)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--duration", type=float, default=20.0)
    run(parser.parse_args())


if __name__ == "__main__":
    main()
