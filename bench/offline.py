"""Benchmark the offline console: the phone's fold, with the CPU throttled ×4.

Run from the repository root, after ``make install``:
``.venv/bin/python bench/offline.py [--taps 20] [--opens 5] [--entries 200]``. It prints
figures only; nothing here asserts (TESTING.md "Levels"). Targets (issue), with Chromium's
CPU throttled ×4 (CDP Emulation.setCPUThrottlingRate, a mid-range phone):

- state on screen ≤ 150 ms after an offline tap, for a character with 200 entries;
- the console opened offline with a cold service worker ≤ 2 s;
- everything precached for offline use installed in ≤ 30 s at 4 Mbit/s (its size shown).

Set-up: the demo on a fresh SQLite database served by werkzeug in a thread (as
bench/console.py); an EX Nihilo demo character with energy gets ``--entries`` entries (hits,
heals, statuses, energy spent and restored, notes). Debian's Chromium as a Pixel 7 logs in,
opens the console, waits until the service worker has precached everything and the roster is
on the phone; then the server is stopped and the page set offline.

- tap: Hit and Heal in turn, ``--gap`` seconds apart (a referee's pace); from the click to
  the render that shows it (the pending note counts the new entry in the same render as the
  numbers), then to the next frame painted;
  each tap folds every waiting entry again on top of the server's last state.
- full fold: the phone's fold (static/js/lib/fold.js and the rule system's) of the whole
  200-entry log in the page, for comparison: the console never needs it.
- cold open: the service worker stopped (CDP ServiceWorker.stopAllWorkers), a new tab opens
  /console/<id> offline; from navigation to the console ready (data-ready) — the document
  from the worker, the scripts from its cache, the character from IndexedDB. The throttle is
  the tab's; the worker's own thread is not throttled by CDP.
- precache: the bytes in the worker's caches (scripts, styles, icons, decoder, shells) and the
  roster as the phone fetched it; install time at 4 Mbit/s = bytes × 8 / 4,000,000, raw and
  gzipped (deploy/Caddyfile compresses).
"""

from __future__ import annotations

import argparse
import gzip
import platform
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a clean checkout
sys.path.insert(0, str(ROOT / "bench"))

from console import chromium_version, log_in, start_server  # noqa: E402

from larp_app import rules  # noqa: E402
from tests.e2e.camera import ARGS, CHROMIUM  # noqa: E402

THROTTLE = 4
MBIT = 4
TARGETS = {"tap_ms": 150, "open_s": 2, "install_s": 30}


def fill_log(app, count: int) -> int:
    """Give an EX Nihilo demo character with energy ``count`` entries; its id."""
    from larp_app.extensions import db
    from larp_app.models import Character
    from larp_app.services.entries import record_entry

    with app.app_context():
        character = next(
            c
            for c in db.session.scalars(db.select(Character).order_by(Character.id))
            if c.larp["ruleset"] == "ex-nihilo" and c.larp["energy_max"] >= 2 and c.larp["ap_max"]
        )
        cycle = [
            {"kind": "hit"},
            {"kind": "heal", "amount": 1},
            {"kind": "status_on", "key": "dolore"},
            {"kind": "spend_energy", "amount": 1},
            {"kind": "restore_energy", "amount": 1},
            {"kind": "note", "text": "scena"},
            {"kind": "repair", "full": True},
        ]
        start = datetime.now(UTC) - timedelta(seconds=count + 5)
        for i in range(count):
            fields = {**cycle[i % len(cycle)], "id": str(uuid.uuid4())}
            fields["at"] = rules.format_instant(start + timedelta(seconds=i))
            try:
                record_entry(character, fields, None)
            except rules.RuleError:
                note = {"kind": "note", "text": "x", "id": str(uuid.uuid4()), "at": fields["at"]}
                record_entry(character, note, None)
        db.session.commit()
        return character.id


READY = """async () => Boolean(navigator.serviceWorker.controller)
    && Boolean(await caches.match('/console/offline'))
    && Boolean(await (await import('/static/js/lib/roster.js')).rosterAt())"""

TAP = """async (action) => {
    const note = document.querySelector('[data-pending-note]');
    const before = note.textContent;
    const t0 = performance.now();
    document.querySelector(`[data-action="${action}"]`).click();
    await new Promise((done) => {
        const check = () => note.textContent !== before ? done() : requestAnimationFrame(check);
        const seen = new MutationObserver(() => { if (note.textContent !== before) {
            seen.disconnect(); done(); } });
        seen.observe(note, { childList: true, characterData: true, subtree: true });
        check();
    });
    const rendered = performance.now() - t0;
    await new Promise((r) => requestAnimationFrame(() => r()));
    return { rendered, painted: performance.now() - t0 };
}"""

CACHED = """async () => {
    let bytes = 0, files = 0; const gz = [];
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            const body = await (await cache.match(request)).arrayBuffer();
            bytes += body.byteLength; files += 1;
            gz.push(Array.from(new Uint8Array(body)));
        }
    }
    return { bytes, files, bodies: gz };
}"""


def throttle(context, page, rate=THROTTLE):
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    return cdp


def wait_for(page, script, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if page.evaluate(script):
            return True
        time.sleep(0.3)
    return False


def summary(values, unit, scale=1.0):
    values = sorted(v * scale for v in values)
    p90 = values[min(len(values) - 1, round(0.9 * (len(values) - 1)))]
    return (
        f"median {statistics.median(values):.1f} {unit}, 90th percentile {p90:.1f}, "
        f"min {values[0]:.1f}, max {values[-1]:.1f} ({len(values)} runs)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=20)
    parser.add_argument("--opens", type=int, default=5)
    parser.add_argument("--entries", type=int, default=200)
    parser.add_argument("--gap", type=float, default=0.5, help="seconds between two taps")
    options = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="larp-bench-offline-") as tmp:
        base, app, server = start_server(Path(tmp) / "bench.sqlite3")
        character = fill_log(app, options.entries)
        with app.test_request_context():
            from flask import url_for

            with app.app_context():
                from larp_app.extensions import db
                from larp_app.models import Character

                key = db.session.get(Character, character).larp["ruleset"]
            module = url_for("rulesets.static", key=key, filename="fold.js")
        console = f"{base}/console/{character}"
        with sync_playwright() as playwright:
            device = {
                k: v
                for k, v in playwright.devices["Pixel 7"].items()
                if k != "default_browser_type"
            }
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(**device)
            page = context.new_page()
            log_in(page, base)
            page.goto(console)
            page.wait_for_selector(".console[data-ready=true]")
            if not wait_for(page, READY, 90):
                print("the service worker did not precache in 90 s", file=sys.stderr)
                return 1
            roster = page.evaluate("async () => (await fetch('/api/v1/roster')).text()")
            cached = page.evaluate(CACHED)
            full = page.evaluate(FULL_FOLD, ["/api/v1", module, character, 1])

            server.shutdown()
            context.set_offline(True)
            page.reload()
            page.wait_for_selector(".console[data-ready=true]")
            throttle(context, page)
            full = page.evaluate(FULL_FOLD_OFFLINE, [module, character, full["raw"], 10])
            taps = []
            for i in range(options.taps):
                taps.append(page.evaluate(TAP, "hit" if i % 2 == 0 else "heal"))
                time.sleep(options.gap)  # a referee's taps, not a burst
            page.close()

            opens = []
            for _ in range(options.opens):
                tab = context.new_page()
                cdp = throttle(context, tab)
                cdp.send("ServiceWorker.enable")
                cdp.send("ServiceWorker.stopAllWorkers")
                start = time.perf_counter()
                tab.goto(console, wait_until="commit")
                tab.wait_for_selector(".console[data-ready=true]", timeout=60_000)
                opens.append(time.perf_counter() - start)
                tab.close()
            browser.close()

    bodies = cached.pop("bodies")
    gzipped = sum(len(gzip.compress(bytes(b), 6)) for b in bodies)
    roster_raw = len(roster.encode())
    roster_gz = len(gzip.compress(roster.encode(), 6))
    raw_total = cached["bytes"] + roster_raw
    gz_total = gzipped + roster_gz

    def seconds(n):
        return n * 8 / (MBIT * 1_000_000)

    print(f"{platform.python_implementation()} {platform.python_version()}, {chromium_version()}")
    print(f"Pixel 7 emulation, CPU throttled ×{THROTTLE}; werkzeug on {base}")
    print(f"character {character}: {options.entries} entries on the server\n")
    print(
        f"offline tap → state on screen, taps {options.gap} s apart "
        f"(target ≤ {TARGETS['tap_ms']} ms):"
    )
    print("  rendered:", summary([t["rendered"] for t in taps], "ms"))
    print("  painted: ", summary([t["painted"] for t in taps], "ms"))
    print(f"  (the last tap folded {options.taps} waiting entries on top of the server's state)")
    print(f"full fold of the {full['entries']}-entry log on the phone (not needed by the console):")
    print("  ", summary(full["times"], "ms"))
    print(f"\nconsole opened offline, service worker stopped (target ≤ {TARGETS['open_s']} s):")
    print("  ", summary(opens, "s"))
    print(
        f"\nprecached for offline use (target: installed in ≤ {TARGETS['install_s']} s"
        " at 4 Mbit/s):"
    )
    print(
        f"  caches: {cached['files']} files, {cached['bytes'] / 1024:.1f} KB raw, "
        f"{gzipped / 1024:.1f} KB gzip"
    )
    print(f"  roster: {roster_raw / 1024:.1f} KB raw, {roster_gz / 1024:.1f} KB gzip")
    print(
        f"  total {raw_total / 1024:.1f} KB raw → {seconds(raw_total):.1f} s at {MBIT} Mbit/s; "
        f"{gz_total / 1024:.1f} KB gzip → {seconds(gz_total):.1f} s"
    )
    return 0


# The whole log as the server lists it (fetched while online), folded on the phone.
FULL_FOLD_OFFLINE = """async ([module, id, raw, runs]) => {
    const fold = await import('/static/js/lib/fold.js');
    const { makeRuleset } = await import(module);
    const roster = await import('/static/js/lib/roster.js');
    const character = await roster.character(id);
    const event = await roster.event(character.event_id);
    const ctx = fold.context(character.sheet, event.fold, fold.withDefaults(makeRuleset(fold.lib)));
    const entries = JSON.parse(raw);
    const times = [];
    for (let i = 0; i < runs; i += 1) {
        const t0 = performance.now();
        const folded = fold.foldLog(ctx, entries.map((e) => fold.readEntry(e, ctx)));
        fold.snapshotAt(folded, ctx, Date.now() * 1000);
        times.push(performance.now() - t0);
    }
    return { entries: entries.length, times };
}"""

FULL_FOLD = """async ([api, module, id, runs]) => {
    const { entries } = await (await fetch(`${api}/characters/${id}/entries`)).json();
    return { raw: JSON.stringify(entries) };
}"""


if __name__ == "__main__":
    sys.exit(main())
