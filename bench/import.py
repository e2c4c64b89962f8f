"""Benchmark: import 1,000 EX Nihilo sheets (a) through the JSON API, (b) through the CLI.

Run from a checkout: ``.venv/bin/python bench/import.py [--count N]``. Prints figures only.

(a) is one ``POST /api/v1/events/{id}/characters`` of the whole list through Flask's test
client (in this process: no HTTP server, no socket; JSON encoding of the request is included).
(b) is ``flask --app larp_app sheets import EVENT FILE.json`` in a subprocess; its time includes
interpreter start-up and app creation, so the start-up of a trivial CLI command is printed too.

Everything lives in a temporary directory (a fresh SQLite database, WAL) removed at the end.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import re
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/entries.py: shared set-up
import entries as entries_bench

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "larp_app" / "demo" / "ex-nihilo-sheet.json"
CLI_TIMEOUT = 300  # seconds, per CLI subprocess

FIRST = ["Vera", "Marco", "Lucia", "Tomas", "Irene", "Dario", "Nadia", "Elio", "Sara", "Ugo"]
LAST = ["Lanz", "Ferri", "Moro", "Galli", "Conti", "Bruno", "Neri", "Serra", "Costa", "Villa"]
FACTIONS = ["Corporazione", "Ordine", "Reietti", "Sindacato", None]
ATTRIBUTES = ("corpo", "equilibrio", "mente", "spirito")


def busy_cores(seconds: float = 1.0) -> float | None:
    """Cores kept busy by every process on the machine over ``seconds`` (/proc/stat)."""

    def sample() -> tuple[int, int]:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
        return sum(fields[:8]) - idle, os.sysconf("SC_CLK_TCK")

    try:
        before, ticks = sample()
        time.sleep(seconds)
        after, _ = sample()
    except (OSError, ValueError, AttributeError):
        return None
    return (after - before) / ticks / seconds


def load_text() -> str:
    """How busy the machine is before the run: other work skews every figure."""
    busy = busy_cores()
    if busy is None:
        return "unknown (no /proc/stat)"
    note = "  (other work is running: figures are pessimistic)" if busy > 0.2 else ""
    return f"{busy:.2f} cores busy in the second before the run{note}"


def make_sheets(count: int, seed: int = 1) -> list[dict]:
    """``count`` variations of the example: names, faction, attributes (8..22), skill grades."""
    base = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    rnd = random.Random(seed)
    sheets = []
    for i in range(count):
        sheet = copy.deepcopy(base)
        sheet["player"] = f"Giocatore {i:04d}"
        sheet["character"] = f"{FIRST[i % 10]} {LAST[(i // 10) % 10]} {i:04d}"
        faction = FACTIONS[i % len(FACTIONS)]
        if faction is None:
            sheet.pop("faction", None)
        else:
            sheet["faction"] = faction
        sheet["attributes"] = {a: rnd.randint(8, 22) for a in ATTRIBUTES}
        sheet["skills"] = {k: rnd.randint(1, 3) for k in sheet["skills"]}
        sheet["notes"] = f"Scheda di prova {i}."
        sheets.append(sheet)
    return sheets


def flask_cli(env: dict, *args: str) -> str:
    return entries_bench.flask_cli(env, *args, timeout=CLI_TIMEOUT)


def count_characters(db_path: Path, event_id: int) -> int:
    with sqlite3.connect(db_path) as conn:
        return conn.execute(
            "SELECT count(*) FROM character WHERE event_id = ?", (event_id,)
        ).fetchone()[0]


def run(count: int, repeat: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="larp-bench-import-"))
    app = None
    try:
        db_path = tmp / "bench.sqlite3"
        uri = f"sqlite:///{db_path}"
        env = {**os.environ, "LARP_SQLALCHEMY_DATABASE_URI": uri}
        env.pop("DATABASE_URL", None)

        flask_cli(env, "db", "upgrade")
        out = flask_cli(env, "users", "create", "bench-organiser", "--role", "organiser")
        token = re.search(r"^token \(for scripts\): (\S+)$", out, re.M).group(1)

        sheets = make_sheets(count)
        sheets_file = tmp / "sheets.json"
        sheets_file.write_text(json.dumps(sheets, ensure_ascii=False), encoding="utf-8")
        size_kib = sheets_file.stat().st_size / 1024

        print(f"sheets: {count} EX Nihilo variations, {size_kib:.0f} KiB of JSON; {repeat} rounds")
        print(f"database: fresh SQLite file (WAL) in {tmp}, one new event per import")
        print(f"python: {sys.version.split()[0]}, cores: {os.cpu_count()}")
        print(f"machine: {load_text()}")
        print("(a) API: Flask test client in this process (no server, no socket), one POST")
        print("    of the whole list; request JSON encoding and response included")
        print("(b) CLI: `flask --app larp_app sheets import EVENT FILE.json` in a subprocess;")
        print("    wall time, start-up included; start-up = a trivial `event create` before it")
        print()

        sys.path.insert(0, str(ROOT))
        from larp_app import create_app

        app = create_app({"SQLALCHEMY_DATABASE_URI": uri})
        client = app.test_client()
        headers = {"Authorization": f"Bearer {token}"}
        client.get("/api/v1/openapi.json")  # first request: lazy set-up out of the timing

        api_times, cli_times, startups = [], [], []
        print("round     API s  sheets/s     CLI s  sheets/s   start-up s   CLI-start-up s")
        for round_no in range(1, repeat + 1):
            body = {"name": f"Bench API {round_no}", "ruleset": "ex-nihilo"}
            answer = client.post("/api/v1/events", json=body, headers=headers)
            if answer.status_code != 201:
                raise RuntimeError(f"event: {answer.status_code} {answer.get_data(as_text=True)}")
            api_event = answer.get_json()["id"]
            url = f"/api/v1/events/{api_event}/characters"
            started = time.perf_counter()
            answer = client.post(url, json=sheets, headers=headers)
            api_times.append(time.perf_counter() - started)
            if answer.status_code != 201:
                raise RuntimeError(f"API: {answer.status_code} {answer.get_data(as_text=True)}")
            answered = len(answer.get_json()["characters"])

            started = time.perf_counter()
            out = flask_cli(
                env, "event", "create", f"Bench CLI {round_no}", "--ruleset", "ex-nihilo"
            )
            startups.append(time.perf_counter() - started)
            cli_event = int(re.search(r"^event (\d+):", out, re.M).group(1))
            started = time.perf_counter()
            flask_cli(env, "sheets", "import", str(cli_event), str(sheets_file))
            cli_times.append(time.perf_counter() - started)

            stored_api = count_characters(db_path, api_event)
            stored_cli = count_characters(db_path, cli_event)
            if not answered == stored_api == stored_cli == count:
                raise RuntimeError(f"want {count}: API {answered}/{stored_api}, CLI {stored_cli}")
            a, c, s = api_times[-1], cli_times[-1], startups[-1]
            print(
                f"{round_no:5d} {a:9.2f} {count / a:9.0f} {c:9.2f} {count / c:9.0f}"
                f" {s:12.2f} {c - s:16.2f}"
            )

        print()
        api, cli, startup = median(api_times), median(cli_times), median(startups)
        for label, seconds, times in (("(a) API", api, api_times), ("(b) CLI", cli, cli_times)):
            rate = count / seconds
            print(
                f"{label}  median {seconds:6.2f} s  {rate:6.0f} sheets/s  (best {min(times):.2f} s)"
            )
        print(f"    CLI less start-up ({startup:.2f} s): {cli - startup:.2f} s")
        target = 10.0
        for label, seconds in (("API", max(api_times)), ("CLI", max(cli_times))):
            verdict = "under" if seconds < target else "OVER"
            print(
                f"target {count} sheets < {target:.0f} s: {label} {verdict} (worst {seconds:.2f} s)"
            )
    finally:
        if app is not None:
            from larp_app.extensions import db

            with app.app_context():
                db.session.remove()
                db.engine.dispose()
        shutil.rmtree(tmp, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="sheets per import (1000)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of (a) and (b) (3)")
    args = parser.parse_args()
    if not 1 <= args.count <= 100_000:
        parser.error("--count must be between 1 and 100000")
    if not 1 <= args.repeat <= 20:
        parser.error("--repeat must be between 1 and 20")
    run(args.count, args.repeat)


if __name__ == "__main__":
    main()
