"""Benchmark: where a changed board's answer goes, by part of the house.

Run from a checkout: ``.venv/bin/python bench/board_parts.py [--characters 10000] [--polls
200] [--changed 5] [--in-play 600]``. Prints figures only.

A fresh SQLite database holding an event of ``--characters`` characters with 20 entries
each (bench/scale.py's ``build_event``, as the largest day's), and an organiser logged in
through Flask's test client in this process. Before each poll another worker (a second app on
the same database, as another gunicorn worker is) logs a note on ``--changed`` characters; the
board's page then asks for the changes since the version it holds, as its poll does
(``board.json?since=``, bench/day_costs.py's "board, changed"). ``--in-play``: the changes
go round the first N characters only, as a day's entries go round its consoles' characters.
Only the polls are timed, half alone, half under the profiler; printed as
bench/entry_parts.py prints an entry's.

The garbage collector is set as a gunicorn worker's is (larp_app/serving.py): what the warm
polls kept is frozen, and so is what survives each full collection (``--collector
survivors``); ``--collector once`` freezes only after the warm polls. The full collections
during the polls alone are counted, with the longest (it holds every request of the worker).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import shutil
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from entry_parts import show
from poll_parts import other_worker
from scale import ENTRIES_PER_CHARACTER, build_event


def build(folder: Path, characters: int):
    """The app on a migrated database holding the event; its id and characters' ids, and a
    test client logged in as an organiser."""
    os.environ.pop("DATABASE_URL", None)
    from flask_migrate import upgrade

    from larp_app import create_app
    from larp_app.extensions import db
    from larp_app.services.users import create_user

    config = {
        "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}",
        "PRINT_FOLDER": str(folder / "prints"),
        "FAIR_SHARE_FOLDER": str(folder / "fair-share"),
        "FAIR_SHARE": False,
        "WTF_CSRF_ENABLED": False,  # the organiser logs in through the form, in this process
    }
    app = create_app(config)
    with app.app_context():
        upgrade()
        create_user("bench-organiser", "organiser", "bench-organiser-password")
        db.session.commit()
    event_id, ids = build_event(config["SQLALCHEMY_DATABASE_URI"], characters)
    client = app.test_client()
    answer = client.post(
        "/login", data={"username": "bench-organiser", "password": "bench-organiser-password"}
    )
    if answer.status_code != 302:
        raise SystemExit(f"log in: {answer.status_code}")
    return app, client, event_id, ids


def notes(other, ids: list[int], n: int) -> None:
    """A note on each of ``ids``, by another worker."""
    from larp_app import rules
    from larp_app.extensions import db
    from larp_app.models import Character
    from larp_app.services.entries import record_entry

    with other.app_context():
        at = rules.format_instant(datetime.now(UTC))
        for character_id in ids:
            character = db.session.get(Character, character_id)
            entry = {"id": str(uuid.uuid4()), "at": at, "kind": "note", "text": f"poll {n}"}
            record_entry(character, entry, None)
        db.session.commit()


def polls(client, other, event_id, ids, changed, start, count, profiler=None) -> float:
    """``count`` changed polls of the board; the time of the polls alone, per poll."""
    url = f"/events/{event_id}/board.json"
    held = client.get(url).get_json()["version"]
    spent = 0.0
    for n in range(start, start + count):
        first = (n * changed) % len(ids)
        notes(other, ids[first : first + changed], n)
        if profiler:
            profiler.enable()
        began = time.perf_counter()
        answer = client.get(f"{url}?since={held}")
        spent += time.perf_counter() - began
        if profiler:
            profiler.disable()
        body = answer.get_json()
        if answer.status_code != 200 or body["full"] or len(body["rows"]) < changed:
            raise SystemExit(f"poll {n}: {answer.status_code} {answer.get_data(as_text=True)}")
        held = body["version"]
    return spent / count


class FullCollections:
    """The full collections of the garbage collector while it is on: their pauses."""

    def __init__(self):
        self.pauses: list[float] = []
        self.on = False
        self._began = 0.0
        gc.callbacks.append(self)

    def __call__(self, phase: str, info: dict) -> None:
        if info["generation"] != 2 or not self.on:
            return
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._began)

    def show(self, polls: int) -> None:
        longest = max(self.pauses, default=0.0)
        print(
            f"  full collections: {len(self.pauses)} in {polls} polls, the longest "
            f"{longest * 1000:.0f} ms, {sum(self.pauses) * 1000:.0f} ms in all"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=10_000)
    parser.add_argument("--polls", type=int, default=200)
    parser.add_argument("--changed", type=int, default=5, help="characters changed a poll (5)")
    parser.add_argument(
        "--in-play",
        type=int,
        help="the changes drawn in turn from the first N characters only (the largest day's"
        " consoles follow 600); every character by default",
    )
    parser.add_argument("--most", type=int, default=25, help="functions listed (25)")
    parser.add_argument(
        "--collector",
        choices=("survivors", "once"),
        default="survivors",
        help="what is frozen: what survives each full collection (a worker's), or only "
        "what the warm polls kept",
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="larp-board-parts-"))
    try:
        began = time.monotonic()
        app, client, event_id, ids = build(folder, args.characters)
        ids = ids[: args.in_play] if args.in_play else ids
        print(
            f"built {args.characters} characters, {ENTRIES_PER_CHARACTER} entries each, "
            f"in {time.monotonic() - began:.0f} s"
        )
        other = other_worker(app)
        polls(client, other, event_id, ids, args.changed, 0, 20)  # warm
        gc.collect()
        gc.freeze()  # as a worker does after its warm-up
        if args.collector == "survivors":
            from larp_app.serving import freeze_survivors

            gc.callbacks.insert(0, freeze_survivors)
        collections = FullCollections()
        half = args.polls // 2
        collections.on = True
        plain = polls(client, other, event_id, ids, args.changed, 20, half)
        collections.on = False
        profiler = cProfile.Profile()
        profiled = polls(client, other, event_id, ids, args.changed, 20 + half, half, profiler)
        what = f"changed board polls (200, ?since=), {args.changed} characters changed each"
        if args.in_play:
            what += f" (of the first {args.in_play})"
        show(profiler, plain, profiled, half, args.characters, args.most, what)
        collections.show(half)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
