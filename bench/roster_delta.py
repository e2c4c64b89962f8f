"""Benchmark: a phone's roster delta on a big event, in this process, as the day asks it.

Run from a checkout: ``.venv/bin/python bench/roster_delta.py [--characters 10000]
[--changed 16] [--back 30] [--asks 60] [--hot 600]``. Prints figures only.

Set-up: a fresh SQLite database holding the day's event (bench/day_setup.py ``build_day``:
``--characters`` characters with 20 entries each) and a referee's token; the app answers in
this process (Flask's test client), so what is measured is the app's own work. The
referee's phone first asks the whole roster (this worker's view is built). Then, before each
ask, another worker (a second app on the same database, as another gunicorn worker is) logs
a note on ``--changed`` characters drawn from the first ``--hot`` (the characters in play:
the day's consoles follow 600), and the phone asks what changed since the version it held
``--back`` asks before (the day's phones ask once a minute, the worker's view is brought up
to date several times a second): each answer is a delta of a few hundred characters, and
brings this worker's view up to date with the notes since the ask before. Printed: the
wall time per ask (median and mean), the characters a delta carries, and its size.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import shutil
import statistics
import tempfile
import time
import uuid
from pathlib import Path

import brotli
from day_load import now_z
from day_setup import build_day


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=10_000)
    parser.add_argument("--changed", type=int, default=16, help="notes before each ask (16)")
    parser.add_argument("--back", type=int, default=30, help="asks the phone's version is behind")
    parser.add_argument("--asks", type=int, default=60, help="asks timed (60)")
    parser.add_argument("--hot", type=int, default=600, help="characters in play (600)")
    args = parser.parse_args()
    os.environ.pop("DATABASE_URL", None)
    folder = Path(tempfile.mkdtemp(prefix="larp-roster-delta-"))
    try:
        run(folder, args)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(folder: Path, args) -> None:
    from flask_migrate import upgrade

    from larp_app import create_app
    from larp_app.extensions import db
    from larp_app.models import Character
    from larp_app.services.entries import record_entry

    uri = f"sqlite:///{folder / 'roster.sqlite3'}"
    config = {"SQLALCHEMY_DATABASE_URI": uri, "FAIR_SHARE": False}
    app, other = create_app(dict(config)), create_app(dict(config))
    with app.app_context():
        upgrade()
    built = build_day(uri, args.characters, 1, 0)
    logging.disable(logging.INFO)  # the request log: not what is measured

    def notes(character_ids: list[int]) -> None:
        with other.app_context():
            for character_id in character_ids:
                note = {"id": str(uuid.uuid4()), "at": now_z(), "kind": "note", "text": "day"}
                record_entry(db.session.get(Character, character_id), note, None)
            db.session.commit()

    client = app.test_client()
    token = {"Authorization": f"Bearer {built.tokens[0]}"}
    asked = f"/api/v1/roster?event={built.event_id}"
    started = time.perf_counter()
    whole = client.get(asked, headers=token)
    print(
        f"{args.characters:,} characters; the whole roster first:"
        f" {time.perf_counter() - started:.1f} s, {len(whole.data) / 1e6:.1f} MB"
    )
    versions = [whole.json["version"]]
    rng = random.Random(7)
    in_play = built.characters[: args.hot]
    times, sizes, wire = [], [], []
    for n in range(args.back + args.asks):
        notes(rng.sample(in_play, args.changed))
        since = versions[max(0, len(versions) - args.back)]
        began = time.perf_counter()
        answer = client.get(f"{asked}&since={since}", headers={**token, "Accept-Encoding": "br"})
        took = time.perf_counter() - began
        if answer.status_code != 200:
            raise SystemExit(f"ask {n}: {answer.status_code}")
        data = app.json.loads(brotli.decompress(answer.data))
        versions.append(data["version"])
        if n >= args.back:
            times.append(took)
            sizes.append(len(data["characters"]))
            wire.append(len(answer.data))
    print(
        f"roster delta: {statistics.median(times) * 1000:.1f} ms median,"
        f" {statistics.mean(times) * 1000:.1f} ms mean, of {args.asks} asks;"
        f" {statistics.mean(sizes):.0f} characters, {statistics.mean(wire) / 1000:.0f} KB on"
        f" the wire; {args.changed} notes before each, on {args.hot} characters in play"
    )


if __name__ == "__main__":
    main()
