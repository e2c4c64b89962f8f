"""Benchmark /healthz: what a monitor's poll costs now that it inspects the schema and writes.

Run from the repository root: ``.venv/bin/python bench/healthz.py``. It prints figures only;
nothing here asserts on time (TESTING.md "Levels"). On a fresh, migrated SQLite database in a
temporary folder, and on PostgreSQL when LARP_BENCH_POSTGRES_URL names a database this
script may migrate and write to: the median of /healthz through the test client, and of
each part (the schema compared with the models, the heartbeat write).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a clean checkout

from flask_migrate import upgrade

from larp_app import create_app
from larp_app.extensions import db
from larp_app.services.database_health import schema_problems, write_problem

RUNS = 30


def median_ms(call) -> float:
    call()  # warm: connections, caches
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def measure(label: str, url: str) -> None:
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
        client = app.test_client()
        healthz = median_ms(lambda: client.get("/healthz"))
        schema = median_ms(schema_problems)
        write = median_ms(write_problem)
        status = client.get("/healthz").get_json()["status"]
        db.engine.dispose()
    print(
        f"{label:<11} /healthz {healthz:6.1f} ms ({status}); "
        f"schema compared {schema:5.1f} ms; heartbeat write {write:5.1f} ms"
    )


def main() -> None:
    print(f"median of {RUNS} runs each")
    with tempfile.TemporaryDirectory() as folder:
        measure("SQLite", f"sqlite:///{folder}/bench.sqlite3")
    url = os.environ.get("LARP_BENCH_POSTGRES_URL")
    if url:
        measure("PostgreSQL", url)
    else:
        print("PostgreSQL: set LARP_BENCH_POSTGRES_URL to measure it")


if __name__ == "__main__":
    main()
