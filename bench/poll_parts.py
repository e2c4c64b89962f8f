"""Benchmark: where a changed poll's time goes, by part of the house.

Run from a checkout: ``.venv/bin/python bench/poll_parts.py [--polls 2000] [--characters
40] [--kind state|player]``. Prints figures only.

Set-up as bench/entry_parts.py (a fresh SQLite database, the demo, a referee's token, the
app answering in this process through Flask's test client). Before each poll another worker
(a second app on the same database, as another gunicorn worker is) logs a note on the
character: the poll asked with the tag of the answer it holds finds the change in the
database and answers 200, as bench/day_costs.py's "changed" asks. Only the polls are
timed, half alone, half under the profiler; printed as entry_parts prints an entry's.
"""

from __future__ import annotations

import argparse
import cProfile
import shutil
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from entry_parts import build, show


def other_worker(app):
    """A second app on the same database: what another gunicorn worker writes."""
    from larp_app import create_app

    return create_app(dict(app.config))


def note(other, character_id: int, n: int) -> None:
    from larp_app import rules
    from larp_app.extensions import db
    from larp_app.models import Character
    from larp_app.services.entries import record_entry

    with other.app_context():
        character = db.session.get(Character, character_id)
        at = rules.format_instant(datetime.now(UTC))
        record_entry(character, {"id": str(uuid.uuid4()), "at": at, "kind": "note",
                                 "text": f"poll {n}"}, None)  # fmt: skip
        db.session.commit()


def polls(client, other, urls, headers, start, count, profiler=None) -> float:
    """``count`` changed polls; the time of the polls alone, per poll (``profiler``: on
    for the polls alone)."""
    spent = 0.0
    for n in range(start, start + count):
        character_id, url = urls[n % len(urls)]
        held = client.get(url, headers=headers).headers.get("ETag")
        note(other, character_id, n)
        if profiler:
            profiler.enable()
        began = time.perf_counter()
        answer = client.get(url, headers={**headers, "If-None-Match": held})
        spent += time.perf_counter() - began
        if profiler:
            profiler.disable()
        if answer.status_code != 200:
            raise SystemExit(f"poll {n}: {answer.status_code} {answer.get_data(as_text=True)}")
    return spent / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=int, default=2000)
    parser.add_argument("--characters", type=int, default=40)
    parser.add_argument("--kind", choices=("state", "player"), default="state")
    parser.add_argument("--most", type=int, default=20, help="functions listed (20)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="larp-poll-parts-"))
    try:
        app, token, ids = build(folder)
        ids = ids[: args.characters]
        headers = {"Authorization": f"Bearer {token}"}
        if args.kind == "state":
            urls = [(c, f"/api/v1/characters/{c}/state") for c in ids]
        else:
            urls = [(c, f"/p/{secret}/live.json") for c, secret in player_links(app, ids)]
            headers = {}
        client = app.test_client()
        other = other_worker(app)
        polls(client, other, urls, headers, 0, 100)  # warm
        plain = polls(client, other, urls, headers, 100, args.polls // 2)
        profiler = cProfile.Profile()
        half = args.polls // 2
        profiled = polls(client, other, urls, headers, 100 + half, half, profiler)
        what = f"changed {args.kind} polls (200), one a change"
        show(profiler, plain, profiled, half, len(ids), args.most, what)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def player_links(app, ids):
    from larp_app import tokens
    from larp_app.extensions import db
    from larp_app.models import Character
    from larp_app.services.badges import give_player_link

    links = []
    with app.app_context():
        for character_id in ids:
            secret = tokens.new_secret()
            give_player_link(db.session.get(Character, character_id), secret)
            links.append((character_id, secret))
        db.session.commit()
    return links


if __name__ == "__main__":
    main()
