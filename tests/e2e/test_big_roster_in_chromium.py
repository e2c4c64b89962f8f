"""A big event's roster reaches the phone off the page's thread, in a real Chromium: the
scanner's status bar has a worker of the page fetch, read and keep it (static/js/lib/
roster.js, roster-worker.js), so a referee's taps never wait behind thousands of characters
written to IndexedDB; a browser that cannot start the worker keeps it all the same."""

from __future__ import annotations

import time

import pytest

from larp_app.extensions import db
from larp_app.models import Character, Event
from larp_app.services.characters import import_sheets
from larp_app.services.clock import now_utc

from ..web.helpers import data_sheet
from .camera import PHONE, log_in_as_referee

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CHARACTERS = 600

KEPT = """
() => new Promise((resolve) => {
  const open = indexedDB.open("larp_app");
  open.onsuccess = () => {
    const db = open.result;
    if (!db.objectStoreNames.contains("meta")) return resolve(null);
    const tx = db.transaction(["meta", "characters"]);
    const version = tx.objectStore("meta").get("rosterVersion");
    const count = tx.objectStore("characters").count();
    tx.oncomplete = () => resolve(version.result ? count.result : null);
    tx.onerror = () => resolve(null);
  };
  open.onerror = () => resolve(null);
})
"""


@pytest.fixture
def big_event(app, demo):
    with app.app_context():
        event = Event(name="Grande", ruleset="ex-nihilo", created_at=now_utc())
        db.session.add(event)
        db.session.flush()
        sheet = data_sheet()
        import_sheets(event, [{**sheet, "character": f"PG {n}"} for n in range(CHARACTERS)])
        db.session.commit()
        return db.session.scalar(db.select(db.func.count(Character.id)))


def kept_characters(page, seconds: float = 60.0) -> int | None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = page.evaluate(KEPT)
        if found is not None:
            return found
        time.sleep(0.2)
    return None


def test_the_scanner_keeps_a_big_roster_through_a_worker_of_its_own(
    browser, live_server, big_event
):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in_as_referee(page, live_server)
    workers = []
    page.on("worker", lambda worker: workers.append(worker.url))
    page.goto(f"{live_server}/scan")
    assert kept_characters(page) == big_event
    assert any(url.endswith("/static/js/lib/roster-worker.js") for url in workers), workers
    context.close()


def test_a_browser_without_workers_keeps_the_roster_on_the_page(browser, live_server, big_event):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in_as_referee(page, live_server)
    page.add_init_script("delete window.Worker;")
    workers = []
    page.on("worker", lambda worker: workers.append(worker.url))
    page.goto(f"{live_server}/scan")
    assert kept_characters(page) == big_event
    assert workers == []
    context.close()
