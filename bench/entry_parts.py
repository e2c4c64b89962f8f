"""Benchmark: where one entry's time goes, by part of the house.

Run from a checkout: ``.venv/bin/python bench/entry_parts.py [--entries 2000]
[--characters 40]``. Prints figures only.

Set-up: a temporary directory with a fresh SQLite database (WAL, synchronous=FULL, as the
app opens it), migrated, the demo loaded; a referee with an API token. The app answers in
this process (Flask's test client: no socket, no server), so what is measured is the app's
own work for an entry. The referee sends ``--entries`` entries one per ``POST
/api/v1/sync`` (a one-point piercing hit or a heal, alternating, on ``--characters`` of the
demo's EX Nihilo characters in turn, ``at`` now, ``sent_at`` now): 100 to warm up (every
worker is warm in a day), 100 counting the SQL statements sent, half the rest timed alone,
the other half under the profiler.

Printed: the wall time per entry without and with the profiler, then the profiler's own
time (each function's time in itself, not what it calls) added up by part: the rules
engine (fold, checks), the keeping layer, the use cases, the web layer, SQLAlchemy, the
database driver (its statements and its durable commit), Flask and Werkzeug, JSON, and the
rest; the functions that take most of it; the statements an entry sends. A part's share
says where a cut can pay (Flask and Werkzeug include the test client building each request,
which a server does in its own way).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import shutil
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Where a function's file lies, first match wins: a part of the house or a library.
PARTS = (
    ("templates (HTML)", ("/templates/",)),
    ("rules engine", ("larp_app/rules/", "larp_app/rulesets/")),
    ("keeping", ("larp_app/keeping/",)),
    ("use cases", ("larp_app/services/",)),
    ("read models", ("larp_app/reads/",)),
    ("web layer", ("larp_app/web/",)),
    ("app (other)", ("larp_app/",)),
    ("SQLAlchemy", ("sqlalchemy/",)),
    ("Flask, Werkzeug", ("flask/", "werkzeug/", "flask_", "jinja2/", "itsdangerous/")),
    ("JSON", ("json/",)),
)
DRIVER = ("sqlite3", "psycopg")  # the driver's C calls: statements and the durable commit


def part_of(filename: str, name: str) -> str:
    if filename == "~" and any(d in name for d in DRIVER):
        return "database driver"
    path = filename.replace(os.sep, "/")
    for part, marks in PARTS:
        if any(mark in path for mark in marks):
            return part
    return "the rest (Python itself, other libraries)"


def now_z() -> str:
    return datetime.now(UTC).isoformat().replace("+00:00", "Z")


def build(folder: Path):
    os.environ.pop("DATABASE_URL", None)
    from flask_migrate import upgrade

    from larp_app import create_app
    from larp_app.extensions import db
    from larp_app.models import Character, Event
    from larp_app.services.demo import load_demo
    from larp_app.services.users import create_user

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite3'}",
            "PRINT_FOLDER": str(folder / "prints"),
            "FAIR_SHARE_FOLDER": str(folder / "fair-share"),
            "FAIR_SHARE": False,
        }
    )
    with app.app_context():
        upgrade()
        load_demo()
        _, _, token = create_user("bench-referee", "referee")
        db.session.commit()
        ids = db.session.scalars(
            db.select(Character.id)
            .join(Event, Character.event_id == Event.id)
            .where(Event.ruleset == "ex-nihilo")
            .order_by(Character.id)
        ).all()
    return app, token, ids


def entry(character_id: int, n: int) -> dict:
    kind = {"kind": "hit", "damage": 1, "pierce": True} if n % 2 == 0 else {"kind": "heal"}
    if kind["kind"] == "heal":
        kind["amount"] = 1
    return {"id": str(uuid.uuid4()), "character": character_id, "at": now_z(),
            "sent_at": now_z(), **kind}  # fmt: skip


def send(client, headers, character_ids, start, count) -> float:
    began = time.perf_counter()
    for n in range(start, start + count):
        body = json.dumps({"entries": [entry(character_ids[n % len(character_ids)], n)]})
        answer = client.post("/api/v1/sync", data=body, headers=headers)
        if answer.status_code != 200 or answer.json["results"][0]["status"] != "stored":
            raise SystemExit(f"entry {n}: {answer.status_code} {answer.get_data(as_text=True)}")
    return (time.perf_counter() - began) / count


def count_statements(app, work) -> int:
    """How many statements the app sends the database while ``work`` runs."""
    from sqlalchemy import event

    from larp_app.extensions import db

    seen = []
    with app.app_context():
        engine = db.engine

    def counted(*_args):
        seen.append(1)

    event.listen(engine, "before_cursor_execute", counted)
    try:
        work()
    finally:
        event.remove(engine, "before_cursor_execute", counted)
    return len(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--characters", type=int, default=40)
    parser.add_argument("--most", type=int, default=15, help="functions listed (15)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="larp-entry-parts-"))
    try:
        app, token, ids = build(folder)
        ids = ids[: args.characters]
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        client = app.test_client()
        with app.app_context():
            pass
        send(client, headers, ids, 0, 100)  # warm
        plain = send(client, headers, ids, 200, args.entries // 2)
        statements = count_statements(app, lambda: send(client, headers, ids, 200, 100)) / 100
        profiler = cProfile.Profile()
        profiler.enable()
        profiled = send(client, headers, ids, 200 + args.entries // 2, args.entries // 2)
        profiler.disable()
        show(profiler, plain, profiled, args.entries // 2, len(ids), args.most)
        print(f"  SQL statements per entry: {statements:.1f}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def show(profiler, plain, profiled, count, characters, most, what="entries through /sync") -> None:
    stats = pstats.Stats(profiler)
    by_part: dict[str, float] = defaultdict(float)
    rows = []
    for (filename, _line, name), (_cc, _nc, own, _cum, _callers) in stats.stats.items():
        part = part_of(filename, name)
        by_part[part] += own
        rows.append((own, part, f"{Path(filename).name}:{name}" if filename != "~" else name))
    total = sum(by_part.values())
    print(
        f"python {sys.version.split()[0]}   cores: {os.cpu_count()}   {count} {what}, "
        f"on {characters} characters (SQLite WAL FULL)"
    )
    print(f"  wall per answer: {plain * 1000:.2f} ms   (profiled: {profiled * 1000:.2f} ms)")
    print("  the profiler's time by part (each function's own time):")
    for part, own in sorted(by_part.items(), key=lambda kv: -kv[1]):
        print(f"    {part:42} {own / count * 1000:6.3f} ms  {own / total:6.1%}")
    print(f"  the {most} functions of most own time:")
    for own, part, where in sorted(rows, reverse=True)[:most]:
        print(f"    {own / count * 1000:6.3f} ms  {part:16} {where}")


if __name__ == "__main__":
    main()
