"""Benchmark: fair share. Does one account's loop of costly reads slow everyone else down?

Run from a checkout: ``.venv/bin/python bench/fair_share.py [--sizes 300,2000]
[--seconds 20] [--workers 4]``. Prints figures only.

For each size: a fresh SQLite database (WAL) in a temporary directory, migrated with ``flask
db upgrade``; an event of that many characters with 20 entries each (bench/scale.py's);
a referee ("the other referee") whose console asks for one character's state, and a
referee who loops; then gunicorn on a free port of 127.0.0.1 with ``make run``'s threaded
workers (``--threads 4``; ``--threads 0``: sync workers). Three phases of ``--seconds`` each:

- quiet: the other referee's state request (``/characters/{id}/state``, no ETag: a whole
  answer) once every 100 ms, alone;
- loops: the same, while eight loops of the looping referee ask the most costly request a
  referee can make, the event's roster folded at another instant (``/events/{id}/roster
  ?at=…``, a new instant each time: nothing kept can answer it), each asking again as soon
  as answered, after the Retry-After of a 429 (as the phone app and HTTP clients that retry
  do); then the same loops asking again at once whatever the answer (a client that ignores
  Retry-After: a flood of cheap refusals, which no limit on costly reads can make free);
- export: the same, while an organiser's two loops ask for the event's export.

The loops and export phases run with the fair share on (services/fair_share.py: costly
reads one at a time per account, an allowance of 2 s of them back to back filling at a
quarter of a second a second, 2 at once in all), and the loops
phase again with it off (LARP_FAIR_SHARE=false) for comparison. Printed per phase: the
other referee's state p50/p95/max and the ratio of its p95 to the quiet one (target: at
most 2× with the fair share on), the loops' answers by status, the server's CPU (cores),
and the machine's busy cores outside the server and this process ("other processes": the
machine may be shared, which makes every figure pessimistic).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from statistics import median, quantiles

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import entries
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

entries.START_TIMEOUT = 120  # seconds: a shared machine starts gunicorn slowly
LOOPS = 8
STATE_EVERY = 0.1  # seconds between the other referee's state requests
TIMEOUT = 60


def make_accounts(uri: str) -> dict[str, str]:
    """The looping referee, the other referee and an organiser: their tokens."""
    from larp_app import create_app
    from larp_app.extensions import db
    from larp_app.services.users import create_user

    app = create_app({"SQLALCHEMY_DATABASE_URI": uri})
    with app.app_context():
        tokens = {
            name: create_user(f"fair-{name}", role)[2]
            for name, role in (("looper", "referee"), ("other", "referee"), ("boss", "organiser"))
        }
        db.session.commit()
        db.session.remove()
        db.engine.dispose()
    return tokens


def session_for(token: str) -> requests.Session:
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {token}"
    return session


def state_requests(base, token, character, stop, times):
    session = session_for(token)
    url = f"{base}/api/v1/characters/{character}/state"
    while not stop.is_set():
        begun = time.monotonic()
        try:
            code = session.get(url, timeout=TIMEOUT).status_code
        except requests.RequestException:
            code = 0  # no answer in TIMEOUT s: counted at that length
        times.append((time.monotonic() - begun, code))
        stop.wait(max(0.0, STATE_EVERY - (time.monotonic() - begun)))


def loop(base, token, path_of, stop, statuses, lock, polite):
    """Ask again and again; ``polite``: wait the Retry-After of a 429 first (as the phone
    app and any HTTP client that retries do), else ask again at once."""
    session = session_for(token)
    n = 0
    while not stop.is_set():
        n += 1
        try:
            answer = session.get(base + path_of(n), timeout=TIMEOUT)
            code = str(answer.status_code)
        except requests.RequestException:
            answer, code = None, "error"
        with lock:
            statuses[code] += 1
        if polite and answer is not None and answer.status_code == 429:
            stop.wait(float(answer.headers.get("Retry-After", 1)))


def phase(base, tokens, event, character, seconds, pids, loops=(), polite=True):
    """The other referee's state times while ``loops`` ((token, path_of) each) run."""
    stop, lock = threading.Event(), threading.Lock()
    times: list[tuple[float, int]] = []
    statuses: Counter[str] = Counter()
    asker = (base, tokens["other"], character, stop, times)
    threads = [threading.Thread(target=state_requests, args=asker)] + [
        threading.Thread(target=loop, args=(base, token, path_of, stop, statuses, lock, polite))
        for token, path_of in loops
    ]
    machine, server, own = machine_busy_seconds(), cpu_seconds(pids), time.process_time()
    wall = time.monotonic()
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - wall
    server_cores = (cpu_seconds(pids) - server) / wall
    own_cores = (time.process_time() - own) / wall
    busy = None if machine is None else (machine_busy_seconds() - machine) / wall
    other = None if busy is None else max(0.0, busy - server_cores - own_cores)
    ms = sorted(t * 1000 for t, _ in times) or [float("nan")]
    return {
        "unanswered": sum(1 for _, code in times if code != 200),
        "p50": median(ms),
        "p95": quantiles(ms, n=20, method="inclusive")[-1] if len(ms) > 1 else ms[0],
        "max": ms[-1],
        "count": len(ms),
        "statuses": dict(statuses),
        "server": server_cores,
        "own": own_cores,
        "other": other,
    }


def roster_at(event):
    start = datetime.now(UTC) - timedelta(hours=2)

    def path(n):
        at = (start + timedelta(seconds=n)).isoformat(timespec="seconds").replace("+00:00", "Z")
        return f"/api/v1/events/{event}/roster?at={at}"

    return path


def show(label, figures, quiet=None):
    ratio = "" if quiet is None else f"   p95 ×{figures['p95'] / quiet['p95']:.2f} of quiet"
    other = "?" if figures["other"] is None else f"{figures['other']:.2f}"
    print(
        f"  {label:<28} state p50 {figures['p50']:6.1f} ms  p95 {figures['p95']:7.1f} ms  "
        f"max {figures['max']:7.1f} ms  ({figures['count']} asked, "
        f"{figures['unanswered']} not 200){ratio}"
    )
    loops = ", ".join(f"{k}: {v}" for k, v in sorted(figures["statuses"].items())) or "none"
    print(
        f"  {'':<28} loops' answers {loops}; server {figures['server']:.2f} cores, "
        f"this process {figures['own']:.2f}, other processes {other}"
    )


def run_size(size, args, tmp):
    folder = tmp / f"size-{size}"
    folder.mkdir()
    uri = f"sqlite:///{folder / 'bench.sqlite3'}"
    env = {**os.environ, "LARP_SQLALCHEMY_DATABASE_URI": uri}
    env.pop("DATABASE_URL", None)
    env["LARP_SECRET_KEY"] = "bench"
    env["LARP_FAIR_SHARE_FOLDER"] = str(folder / "fair-share")
    flask_cli(env, "db", "upgrade")
    built = time.monotonic()
    event, characters = build_event(uri, size)
    tokens = make_accounts(uri)
    print(f"{size} characters (built in {time.monotonic() - built:.0f} s), event {event}")
    results = {}
    for fair in (True, False):
        run_env = {**env, "LARP_FAIR_SHARE": "true" if fair else "false"}
        port = free_port()
        log_path = folder / f"gunicorn-{fair}.log"
        proc = start_server(run_env, port, args.workers, log_path, threads=args.threads)
        try:
            wait_ready(proc, port, log_path)
            base = f"http://{HOST}:{port}"
            pids = server_pids(proc.pid)
            character = characters[len(characters) // 2]
            # Warm-up: every worker folds the event once (the kept folds), then rests.
            warm = session_for(tokens["boss"])
            for _ in range(args.workers * 2):
                warm.get(f"{base}/api/v1/events/{event}/roster", timeout=TIMEOUT)
                warm.get(f"{base}/api/v1/characters/{character}/state", timeout=TIMEOUT)
            time.sleep(2)
            looper = [(tokens["looper"], roster_at(event))] * LOOPS
            if fair:
                results["quiet"] = phase(base, tokens, event, character, args.seconds, pids)
                show("quiet", results["quiet"])
                results["loops"] = phase(base, tokens, event, character, args.seconds, pids, looper)
                show("8 roster?at loops, fair", results["loops"], results["quiet"])
                results["rude"] = phase(
                    base, tokens, event, character, args.seconds, pids, looper, polite=False
                )
                show("same, ignoring Retry-After", results["rude"], results["quiet"])
                export = [(tokens["boss"], lambda n: f"/api/v1/events/{event}/export")] * 2
                results["export"] = phase(
                    base, tokens, event, character, args.seconds, pids, export
                )
                show("2 export loops, fair", results["export"], results["quiet"])
            else:
                results["unfair"] = phase(
                    base, tokens, event, character, args.seconds, pids, looper
                )
                show("8 roster?at loops, no fair", results["unfair"], results["quiet"])
        finally:
            stop_server(proc)
    print()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--sizes", default="300,2000")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--workers", type=int, default=2 * (os.cpu_count() or 2))
    parser.add_argument(
        "--threads", type=int, default=4, help="threads a worker, as make run (0: sync workers)"
    )
    args = parser.parse_args()
    kind = f"{args.threads} threads each" if args.threads else "sync"
    print(f"cores: {os.cpu_count()}   gunicorn workers: {args.workers} ({kind})   ", end="")
    print(f"python {sys.version.split()[0]}   {args.seconds:g} s a phase")
    print(f"machine: {load_text()}")
    print()
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-fair-"))
    try:
        for size in (int(s) for s in args.sizes.split(",")):
            run_size(size, args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
