"""Benchmark a referee's scan on a phone: the console page's weight, and the time to reach it.

Run from the repository root, after ``make install`` (which fills static/vendor):
``.venv/bin/python bench/console.py [--runs 5] [--character 5]``. It prints figures only;
nothing here asserts (TESTING.md "Levels"). Targets (issue): the /console/<id> page
≤ 100 KB gzip, the decoder's wasm left out; from loading /scan to the console of the
scanned badge ≤ 1.5 s.

Set-up: a temporary directory with a fresh SQLite database, migrated, the demo loaded; the
app served by werkzeug's ``make_server`` in a thread on a free port of 127.0.0.1 (a secure
context, so the camera works). Debian's Chromium, headless, as a Pixel 7 (Playwright's
device: 412 × 839, DPR 2.625, mobile, touch); its fake camera loops one 640 × 480 frame
showing the front of the character's badge, drawn by the project's badge code with the
server's address, so its QR holds ``<server>/b/<secret>?v=1``.

Each run is a fresh browser context (empty cache), logged in as the demo referee:

- cold console: /console/<id> opened directly, every response counted;
- scan: /scan opened, the time until the console's document is committed and until its
  ``load`` event; then the bytes the console page fetched after the scan (the CSS and
  anything else the scan page had already cached are revalidated or reused);
- rescan: back to /scan in the same context (warm cache), the same two times.

Bytes: raw is the sum of the response bodies as the browser got them decoded; wire is what
Chromium reports as transferred (body as encoded plus headers: werkzeug does not compress);
gzip is each body gzipped at level 6, the estimate for a server that compresses. Responses
whose URL ends in ``.wasm`` are left out of the console's figures.
"""

from __future__ import annotations

import argparse
import gzip
import logging
import platform
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a clean checkout

from werkzeug.serving import make_server  # noqa: E402

from larp_app import create_app  # noqa: E402
from tests.e2e.camera import (  # noqa: E402  (the tests' fake-camera recipe)
    ARGS,
    CAMERA,
    CHROMIUM,
    WASM,
    badge_front,
    write_y4m,
)

TARGET_KB_GZIP = 100
TARGET_SECONDS = 1.5


def start_server(database: Path):
    """The app with the demo loaded, served in a thread; (base URL, app, server)."""
    from flask_migrate import upgrade

    from larp_app.extensions import db
    from larp_app.services.demo import load_demo

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "SECRET_KEY": secrets.token_hex(),
            "DEMO_PASSWORDS": {"referee": "referee-demo"},
        }
    )
    logging.disable(logging.INFO)  # alembic's and werkzeug's line per step and per request
    with app.app_context():
        upgrade()
        load_demo()
        db.session.commit()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    base = f"http://127.0.0.1:{server.server_port}"
    app.config["PUBLIC_BASE_URL"] = base
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return base, app, server


class Responses:
    """The page's responses while recording: what they weigh, raw, on the wire, gzipped."""

    def __init__(self, page):
        self.seen, self.recording = [], False
        page.on("response", self._add)

    def _add(self, response):
        if self.recording:
            self.seen.append(response)

    def start(self):
        self.seen, self.recording = [], True

    def weigh(self, since: str | None = None) -> list[dict]:
        """Each response but the wasm, from the first whose URL is ``since`` (or all)."""
        self.recording = False
        seen = self.seen
        if since is not None:
            seen = seen[next(i for i, r in enumerate(seen) if r.url == since) :]
        rows = []
        for response in seen:
            if response.url.endswith(".wasm"):
                continue
            try:
                body = response.body()
            except Exception:  # a redirect, or a body the browser did not keep
                body = b""
            sizes = response.request.sizes()
            rows.append(
                {
                    "url": response.url,
                    "status": response.status,
                    "raw": len(body),
                    "wire": sizes["responseBodySize"] + sizes["responseHeadersSize"],
                    "gzip": len(gzip.compress(body, 6)) if body else 0,
                }
            )
        return rows


def total(rows: list[dict], key: str) -> int:
    return sum(row[key] for row in rows)


def log_in(page, base: str) -> None:
    page.goto(f"{base}/login?next=/referee/")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "referee-demo")
    page.click("button.primary")
    page.wait_for_url(f"{base}/referee/")


def scan(page, base: str, character_id: int) -> dict:
    """Open /scan and wait for the console: seconds to the lookup, the commit and the load."""
    console = f"{base}/console/{character_id}"
    requests = []

    def record(request):
        requests.append(request)

    page.on("request", record)
    start = time.perf_counter()
    page.goto(f"{base}/scan?event=1", wait_until="commit")
    page.wait_for_url(console, wait_until="commit", timeout=30_000)
    committed = time.perf_counter() - start
    page.wait_for_load_state("load")
    loaded = time.perf_counter() - start
    page.remove_listener("request", record)
    document = next(r for r in requests if r.url.startswith(f"{base}/scan"))
    lookup = next(r for r in requests if "/api/v1/badges/" in r.url)
    return {
        # Browser clocks: from the /scan request to the badge lookup, i.e. camera + decode.
        "lookup": (lookup.timing["startTime"] - document.timing["startTime"]) / 1000,
        "committed": committed,
        "loaded": loaded,
        "wasm": any(r.url.endswith(".wasm") for r in requests),
    }


def fresh_page(browser, device: dict, base: str):
    """A new context (nothing cached, no cookie), logged in, its HTTP cache emptied."""
    context = browser.new_context(**device)
    page = context.new_page()
    log_in(page, base)
    context.new_cdp_session(page).send("Network.clearBrowserCache")
    return context, page


def run(browser, device: dict, base: str, character_id: int) -> dict:
    console = f"{base}/console/{character_id}"

    context, page = fresh_page(browser, device, base)
    responses = Responses(page)
    responses.start()
    page.goto(console)
    page.wait_for_load_state("networkidle")
    cold = responses.weigh()
    context.close()

    context, page = fresh_page(browser, device, base)
    responses = Responses(page)
    responses.start()
    first = scan(page, base, character_id)
    page.wait_for_load_state("networkidle")
    after_scan = responses.weigh(since=console)
    page.goto(f"{base}/referee/")
    again = scan(page, base, character_id)
    context.close()
    return {"cold": cold, "after_scan": after_scan, "scan": first, "rescan": again}


def chromium_version() -> str:
    try:
        out = subprocess.run([CHROMIUM, "--version"], capture_output=True, text=True, timeout=30)
        return out.stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def kb(n: int) -> str:
    return f"{n / 1024:7.1f} KB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--character", type=int, default=5, help="the demo character scanned")
    options = parser.parse_args()
    if not Path(CHROMIUM).exists():
        print(f"no Chromium at {CHROMIUM} (apt-get install chromium)", file=sys.stderr)
        return 1
    if not WASM.exists():
        print("static/vendor has no QR decoder: run `make install` first", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="larp-bench-console-") as tmp:
        base, app, server = start_server(Path(tmp) / "bench.sqlite3")
        video = write_y4m(badge_front(app, base, options.character), Path(tmp) / "badge.y4m")
        try:
            with sync_playwright() as playwright:
                device = {
                    k: v
                    for k, v in playwright.devices["Pixel 7"].items()
                    if k != "default_browser_type"
                }
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM,
                    args=[*ARGS, *CAMERA, f"--use-file-for-fake-video-capture={video}"],
                )
                results = [
                    run(browser, device, base, options.character) for _ in range(options.runs)
                ]
                browser.close()
        finally:
            server.shutdown()

    print(f"{platform.python_implementation()} {platform.python_version()}, {chromium_version()}")
    print(f"{platform.machine()}, {platform.system()} {platform.release()}; Pixel 7 emulation")
    print(f"server: werkzeug, threaded, {base}; {options.runs} runs, each a fresh context\n")

    cold = results[0]["cold"]
    print(f"/console/{options.character} opened directly, empty cache (first run):")
    print(f"  {'status':>6} {'raw':>10} {'wire':>10} {'gzip':>10}  url")
    for row in cold:
        path = row["url"].removeprefix(base)
        print(f"  {row['status']:>6} {kb(row['raw'])} {kb(row['wire'])} {kb(row['gzip'])}  {path}")
    print(
        f"  {'total':>6} {kb(total(cold, 'raw'))} {kb(total(cold, 'wire'))} "
        f"{kb(total(cold, 'gzip'))}  ({len(cold)} responses; target ≤ {TARGET_KB_GZIP} KB gzip)"
    )
    after = results[0]["after_scan"]
    print(
        f"  the same page reached by a scan (cache warm from /scan): raw {kb(total(after, 'raw'))}"
        f", wire {kb(total(after, 'wire'))}, gzip {kb(total(after, 'gzip'))} "
        f"({len(after)} responses)"
    )
    wasm = WASM.stat().st_size
    print(
        f"  left out: the decoder wasm, {kb(wasm)} raw, {kb(len(gzip.compress(WASM.read_bytes())))}"
        f" gzip (fetched by /scan: {'yes' if results[0]['scan']['wasm'] else 'no'})\n"
    )

    for key, label in (("scan", "scan, empty cache"), ("rescan", "scan again, warm cache")):
        print(f"/scan → /console/{options.character}, {label} ({options.runs} runs):")
        for stage, name in (
            ("lookup", "badge looked up"),
            ("committed", "console committed"),
            ("loaded", "console loaded"),
        ):
            values = [r[key][stage] for r in results]
            print(
                f"  {name:<18} median {statistics.median(values):.3f} s, min {min(values):.3f} s,"
                f" max {max(values):.3f} s"
            )
    print(f"  (target: loaded ≤ {TARGET_SECONDS} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
