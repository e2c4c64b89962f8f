"""Benchmark the event report and the exports of a played event.

Run from the repository root: ``.venv/bin/python bench/report.py [--characters 200]
[--entries 20]``. It prints figures only; nothing here asserts. An event of N characters
each with E entries (hits, heals, a status, some deaths) spread over five hours, in a
temporary SQLite database; then the time to fold the report (every character's outcome and
its knock-outs at each instant of its log), to draw its five SVG charts, and to write the
exports (final states and whole log as JSON, CSV and .xlsx).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a clean checkout

from flask_migrate import upgrade

from larp_app import create_app
from larp_app.extensions import db
from larp_app.reads.exports import Words, export_data, export_tables, table_csv, tables_xlsx
from larp_app.reads.report import event_report
from larp_app.rules import format_instant
from larp_app.services.characters import import_sheets
from larp_app.services.clock import now_utc
from larp_app.services.entries import record_entry
from larp_app.services.events import create_event, status_catalogue

SHEET = Path(__file__).resolve().parents[1] / "larp_app" / "demo" / "ex-nihilo-sheet.json"


def played_event(characters: int, entries: int):
    sheet = json.loads(SHEET.read_text(encoding="utf-8"))
    event = create_event("Bench", "ex-nihilo")
    cast = import_sheets(event, [dict(sheet, character=f"PG {i}") for i in range(characters)])
    status = next(iter(status_catalogue(event)))
    start = now_utc() - timedelta(hours=5)
    step = timedelta(hours=5) / (entries + 1)
    for n, character in enumerate(cast):
        for i in range(entries):
            at = start + step * (i + 1)
            kind = ("hit", "heal", "status_on")[i % 3]
            fields = {"hit": {"damage": 1}, "heal": {"amount": 1}, "status_on": {"key": status}}
            raw = {"id": str(uuid.uuid4()), "kind": kind, "at": format_instant(at)}
            record_entry(character, {**raw, **fields[kind]}, None, limits=(step, timedelta(6)))
        if n % 10 == 0:  # one in ten dies at the end
            raw = {"id": str(uuid.uuid4()), "kind": "kill", "at": format_instant(at + step / 2)}
            record_entry(character, raw, None, limits=(step, timedelta(6)))
    db.session.commit()
    return event


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=200)
    parser.add_argument("--entries", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "PRINT_FOLDER": folder})
        with app.app_context():
            upgrade()
            event = played_event(args.characters, args.entries)
            with app.test_request_context():
                from larp_app.web.organiser.after import report_charts

                started = time.perf_counter()
                report = event_report(event, now_utc())
                folded = time.perf_counter() - started
                started = time.perf_counter()
                charts = report_charts(report, event)
                drawn = time.perf_counter() - started
                started = time.perf_counter()
                json.dumps(export_data(event, now_utc()))
                say = Words(kind=str, summary=lambda entry: "", statuses={})
                tables = export_tables(event, now_utc(), None, say)
                csvs = "".join(table_csv(table, ";") for table in tables)
                xlsx = tables_xlsx(tables)
                exported = time.perf_counter() - started
    total = args.characters * args.entries
    print(f"event: {args.characters} characters × {args.entries} entries = {total} entries")
    print(f"report folded in {folded:.2f} s ({len(report.deaths)} deaths)")
    svg = sum(map(len, charts.values()))
    print(f"5 charts drawn in {drawn * 1000:.1f} ms ({svg} bytes of SVG)")
    print(
        f"exports (report twice + JSON rows + CSV + .xlsx) in {exported:.2f} s "
        f"({len(csvs)} CSV chars, {len(xlsx)} bytes of .xlsx)"
    )


if __name__ == "__main__":
    main()
