"""Benchmark: a worker's look at what changed, after another worker's commit.

Run from a checkout: ``.venv/bin/python bench/known_changes.py [--characters 10000]
[--changed 16] [--looks 300]``. Prints figures only.

Every worker keeps each character's version and player link (keeping/known.py ``Known``)
and, whenever the database's marks say an event's version moved, reads what changed since
the version it knows (``CHANGED``): every worker does so for every change. Here a fresh
SQLite database holds the demo, its first character copied to ``--characters`` characters
(the demo's sheets, a few kilobytes each, as a real event's). Another connection then
stores ``--changed`` notes in one commit (as a referee's entries on another worker), and
the worker's look (``Known.current``) is timed, on this thread's CPU; after a commit, as a
worker's reads are, SQLite's readers having dropped their page cache.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sqlite3
import statistics
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from entry_parts import build


def copies(path: Path, characters: int) -> int:
    """The demo's first character copied until the event holds ``characters``; its id."""
    connection = sqlite3.connect(path)
    first, event_id = connection.execute(
        "SELECT id, event_id FROM character ORDER BY id LIMIT 1"
    ).fetchone()
    have = connection.execute(
        "SELECT count(*) FROM character WHERE event_id = ?", (event_id,)
    ).fetchone()[0]
    columns = "event_id, player, name, faction, tabletop, larp, created_at, version"
    for n in range(characters - have):
        connection.execute(
            f"INSERT INTO character ({columns}, player_secret_hash) SELECT {columns}, ?"
            " FROM character WHERE id = ?",
            (uuid.uuid4().hex + uuid.uuid4().hex, first),
        )
        if n % 1000 == 999:
            connection.commit()
    connection.commit()
    sizes = connection.execute(
        "SELECT length(tabletop), length(larp) FROM character WHERE id = ?", (first,)
    ).fetchone()
    print(f"each character's sheets: {sizes[0]:,} + {sizes[1]:,} bytes (tabletop, larp)")
    connection.close()
    return event_id


def notes(connection: sqlite3.Connection, ids: list[int]) -> None:
    """A note on each character of ``ids``, in one commit, as the app stores one."""
    from larp_app import rules

    now = datetime.now(UTC)
    stamp = now.strftime("%Y-%m-%d %H:%M:%S.%f")
    rows = []
    for character_id in ids:
        client_id = str(uuid.uuid4())
        fields = {"id": client_id, "at": rules.format_instant(now), "kind": "note"}
        rows.append((client_id, character_id, stamp, stamp, json.dumps(fields)))
    connection.execute("BEGIN IMMEDIATE")
    connection.executemany(
        "INSERT INTO entry (client_id, character_id, kind, at, received_at, fields, stepped_on)"
        " VALUES (?, ?, 'note', ?, ?, ?, 1)",
        rows,
    )
    connection.execute("COMMIT")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--characters", type=int, default=10_000)
    parser.add_argument("--changed", type=int, default=16, help="characters a commit changes")
    parser.add_argument("--looks", type=int, default=300)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="larp-bench-known-"))
    try:
        app, _token, _ids = build(folder)
        path = folder / "bench.sqlite3"
        event_id = copies(path, args.characters)
        from larp_app.keeping.known import known_for

        known = known_for(app)
        with app.app_context():
            known.current()
            known.learn_open_events()
        ids = sorted(c for c, facts in known.characters.items() if facts.event_id == event_id)
        writer = sqlite3.connect(path, isolation_level=None)
        looks = []
        for n in range(args.looks):
            start = (n * args.changed) % len(ids)
            notes(writer, ids[start : start + args.changed])
            began = time.thread_time()
            known.current()
            looks.append(time.thread_time() - began)
        writer.close()
        middle = statistics.median(looks) * 1e6
        print(
            f"{len(ids):,} characters, {args.changed} changed a commit, {args.looks} looks:"
            f" a worker's look {middle:.0f} µs (median; mean"
            f" {statistics.fmean(looks) * 1e6:.0f}), {middle / args.changed:.1f} µs a character"
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
