"""Benchmark: a big event's first roster on a phone, and how long the page stays frozen.

Run from the repository root, after ``make install``:
``.venv/bin/python bench/phone_roster.py [--characters 5000] [--runs 3] [--throttle 4]``.
Prints figures only. Target (issue): the phone takes a big roster without freezing.

Set-up: the demo on a fresh SQLite database (its referee works every open event) and an
event of ``--characters`` characters with 20 entries each (bench/scale.py), served by
werkzeug in a thread. Debian's Chromium as a Pixel 7 with its CPU throttled ``--throttle``
times (CDP Emulation.setCPUThrottlingRate: a mid-range phone) logs in as the referee in a
fresh context and opens the scanner, whose status bar fetches the roster whole
(static/js/lib/netbar.js, lib/roster.js). Measured on the page: from the navigation to the
roster kept on the phone (its version written in IndexedDB, last), the long tasks of the
page's main thread meanwhile (PerformanceObserver "longtask": the longest, and their sum)
and the longest gap between two ticks of a 16 ms timer (what a tap would wait for).
"""

from __future__ import annotations

import argparse
import logging
import secrets
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a clean checkout
sys.path.insert(0, str(ROOT / "bench"))

from werkzeug.serving import make_server  # noqa: E402

from larp_app import create_app  # noqa: E402
from tests.e2e.camera import ARGS, CHROMIUM  # noqa: E402

PROBE = """
window.__longtasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
window.__gap = 0;
let last = performance.now();
setInterval(() => {
  const t = performance.now();
  window.__gap = Math.max(window.__gap, t - last);
  last = t;
}, 16);
"""

KEPT = """
() => new Promise((resolve) => {
  const open = indexedDB.open("larp_app");
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains("meta")) return resolve(null);
    const got = db.transaction("meta").objectStore("meta").get("rosterVersion");
    got.onsuccess = () => resolve(got.result ?? null);
    got.onerror = () => resolve(null);
  };
  open.onerror = () => resolve(null);
})
"""


def start_server(database: Path, characters: int):
    """The demo and a big event, served in a thread: (base URL, server, roster bytes)."""
    from flask_migrate import upgrade
    from scale import build_event

    from larp_app.extensions import db
    from larp_app.services.demo import load_demo

    uri = f"sqlite:///{database}"
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": uri,
            "SECRET_KEY": secrets.token_hex(),
            "DEMO_PASSWORDS": {"referee": "referee-demo"},
            "FAIR_SHARE": False,  # each run's first roster is measured, not made to wait
        }
    )
    logging.disable(logging.INFO)
    with app.app_context():
        upgrade()
        load_demo()
        db.session.commit()
    build_event(uri, characters)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}", server


def first_roster(browser, device: dict, base: str, throttle: float) -> dict:
    context = browser.new_context(**device)
    page = context.new_page()
    page.goto(f"{base}/login?next=/referee/")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "referee-demo")
    page.click("button.primary")
    page.wait_for_url(f"{base}/referee/")
    page.add_init_script(PROBE)
    size = len(context.request.get(f"{base}/api/v1/roster").body())  # as the phone gets it
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    started = time.perf_counter()
    page.goto(f"{base}/scan")
    while page.evaluate(KEPT) is None:
        if time.perf_counter() - started > 300:
            raise RuntimeError("no roster kept after 300 s")
        time.sleep(0.05)
    kept = time.perf_counter() - started
    page.wait_for_timeout(500)  # the last tasks reported
    tasks = page.evaluate("window.__longtasks")
    gap = page.evaluate("window.__gap")
    context.close()
    return {
        "kept": kept,
        "longest": max((d for _, d in tasks), default=0.0),
        "blocked": sum(d for _, d in tasks),
        "gap": gap,
        "bytes": size,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--characters", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--throttle", type=float, default=4, help="CPU slowdown (4: a phone)")
    options = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"no Chromium at {CHROMIUM} (apt-get install chromium)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="larp-bench-phone-roster-") as tmp:
        base, server = start_server(Path(tmp) / "bench.sqlite3", options.characters)
        try:
            with sync_playwright() as p:
                device = p.devices["Pixel 7"]
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                runs = [
                    first_roster(browser, device, base, options.throttle)
                    for _ in range(options.runs)
                ]
                browser.close()
        finally:
            server.shutdown()
    print(
        f"{options.characters:,} characters (and the demo's); Chromium as a Pixel 7, CPU"
        f" ×{options.throttle:g}; {options.runs} fresh phones; roster"
        f" {runs[0]['bytes'] / 1024:,.0f} KB as received"
    )
    for key, label in (
        ("kept", "from opening the scanner to the roster kept"),
        ("longest", "longest task of the page's main thread"),
        ("blocked", "long tasks in all, meanwhile"),
        ("gap", "longest gap between two 16 ms timer ticks"),
    ):
        values = [r[key] for r in runs]
        unit, scale = ("s", 1) if key == "kept" else ("ms", 1)
        print(
            f"  {label:46} median {statistics.median(values) * scale:8.1f} {unit}"
            f"   (runs: {', '.join(f'{v:.1f}' for v in values)})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
