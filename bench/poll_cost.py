"""Benchmark: the CPU an unchanged poll costs in the app, in process (no server, no network).

Run from a checkout: ``.venv/bin/python bench/poll_cost.py [--polls 2000] [--code DIR]``.
``--code`` runs another checkout's app (e.g. an export of an earlier commit) with this
one's virtual environment, to compare. Prints figures only.

Set-up: a fresh SQLite database, migrated; an event of 20 characters, each with a few
entries; a referee's API token. Then, through Flask's test client, each kind of poll as
phones send it when nothing changed — a console's state with If-None-Match, the player's
page's twin with If-None-Match, the phone's roster with ``?since=`` — ``--polls`` times,
after one answer that warmed the worker. Printed: CPU per poll (process time, the test
client's own work included: compare figures of one run or of two checkouts, not with a
server's). The machine may be shared: its load is printed.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--polls", type=int, default=2000)
    parser.add_argument("--code", help="another checkout's root, whose app is measured")
    args = parser.parse_args()
    root = Path(args.code).resolve() if args.code else Path(__file__).resolve().parents[1]
    sys.path.insert(0, str(root))
    if args.code:  # that checkout's larp_app, not the one `pip install -e` points at
        sys.meta_path[:] = [
            f for f in sys.meta_path if "Editable" not in getattr(f, "__name__", "")
        ]
    import larp_app  # this one's, before bench/'s modules put the checkout's on the path

    sys.path.insert(1, str(Path(__file__).resolve().parent))
    from entries import load_text
    from flask_migrate import upgrade
    from scale import make_sheets

    from larp_app import create_app
    from larp_app.extensions import db
    from larp_app.models import Character
    from larp_app.services.characters import import_sheets
    from larp_app.services.entries import record_entry
    from larp_app.services.events import create_event
    from larp_app.services.users import create_user

    print(f"code: {Path(larp_app.__file__).parent.parent}")
    print(f"machine: {load_text()}")
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-polls-"))
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp / 'polls.sqlite3'}",
            "PRINT_FOLDER": str(tmp / "prints"),
            "SECRET_KEY": "bench",
        }
    )
    with app.app_context():
        upgrade(directory=str(root / "larp_app" / "migrations"))
        event = create_event("Bench", "ex-nihilo")
        characters = import_sheets(event, make_sheets(20, "polls"))
        _user, _password, token = create_user("bench-referee", "referee")
        db.session.commit()
        start = datetime.now(UTC) - timedelta(minutes=30)
        for character in characters:
            for n in range(5):
                at = (start + timedelta(seconds=60 * n)).isoformat().replace("+00:00", "Z")
                body = {"id": str(uuid.uuid4()), "at": at, "kind": "note", "text": "bench"}
                record_entry(character, body, None)
                db.session.commit()
        character_id = characters[0].id
        secret = db.session.get(Character, character_id).player_secret
    logging.getLogger("larp_app.requests").disabled = True  # a line per request: not measured
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    kinds = {}
    state = client.get(f"/api/v1/characters/{character_id}/state", headers=headers)
    kinds["console state (304)"] = (
        f"/api/v1/characters/{character_id}/state",
        {**headers, "If-None-Match": state.headers["ETag"]},
        {},
    )
    player = client.get(f"/p/{secret}/live.json")
    kinds["player page (304)"] = (
        f"/p/{secret}/live.json",
        {"If-None-Match": player.headers["ETag"]},
        {},
    )
    roster = client.get("/api/v1/roster", headers=headers)
    kinds["phone roster ?since (304)"] = (
        "/api/v1/roster",
        headers,
        {"since": roster.json["version"]},
    )
    for name, (url, sent, query) in kinds.items():
        statuses = set()
        for _ in range(20):  # warm
            statuses.add(client.get(url, headers=sent, query_string=query).status_code)
        started = time.process_time()
        for _ in range(args.polls):
            statuses.add(client.get(url, headers=sent, query_string=query).status_code)
        cpu = (time.process_time() - started) / args.polls * 1000
        print(f"{name:28} {cpu:6.2f} ms CPU per poll   statuses {sorted(statuses)}")
    os.environ.pop("LARP_SQLALCHEMY_DATABASE_URI", None)


if __name__ == "__main__":
    main()
