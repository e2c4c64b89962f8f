"""The live board and the player's page in a real browser on a 360 px phone."""

import re
import uuid
from datetime import timedelta

import pytest

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character, User
from larp_app.services.clock import now_utc
from larp_app.services.demo import load_demo
from larp_app.services.entries import record_entry

DYING_SECONDS = 600  # ex_nihilo/README.md: 600 turns of 1 s, blow to death
TOUCH = """() => [...document.querySelectorAll(
    'button, select, input:not([type=hidden]):not([type=checkbox]):not([type=radio]),'
    + ' a.button, .topbar a, a.name, label.choice')]
    .filter(e => e.offsetParent && e.getBoundingClientRect().height < 47.5)
    .map(e => e.outerHTML.slice(0, 80))"""


@pytest.fixture
def demo(app):
    with app.app_context():
        load_demo()
        db.session.commit()


def character(app, name):
    with app.app_context():
        row = db.session.scalar(db.select(Character).where(Character.name == name))
        return row.id, row.player_secret


def log(app, name, kind, seconds_ago=1, **fields):
    """Record an entry as the demo referee, dated ``seconds_ago`` seconds back."""
    with app.app_context():
        referee = db.session.scalar(db.select(User).where(User.username == "referee"))
        row = db.session.scalar(db.select(Character).where(Character.name == name))
        at = rules.format_instant(now_utc() - timedelta(seconds=seconds_ago))
        raw = {"id": str(uuid.uuid4()), "kind": kind, "at": at, **fields}
        record_entry(row, raw, referee)
        db.session.commit()


def log_in(page, base):
    page.goto(base + "/login")
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", "organiser-demo")
    page.click("button.primary")
    page.wait_for_url(base + "/events")


def fits_a_phone(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.evaluate(TOUCH) == []


def test_a_dying_characters_countdown_runs_on_the_board_and_ends_in_death_without_reload(
    app, demo, live_server, phone
):
    name = "Guardia Tobia Sala"
    cid, _secret = character(app, name)
    log_in(phone, live_server)
    # A blow 597 s ago: death is about 3 s away.
    log(app, name, "hit", seconds_ago=DYING_SECONDS - 3, blows=10, pierce=True)
    phone.goto(live_server + "/events/1/board")
    phone.evaluate("window.sameDocument = true")
    timer = phone.locator(f'.dying-card[data-character="{cid}"] .timer')
    timer.wait_for()
    assert re.fullmatch(r"00:0[0-4]", timer.inner_text())
    assert phone.locator(f'.roster-list [data-character="{cid}"]').get_attribute("data-wound") == (
        "dying"
    )
    fits_a_phone(phone)
    phone.wait_for_selector(
        f'.roster-list [data-character="{cid}"][data-wound="dead"]', timeout=12_000
    )
    assert phone.locator(f'.dying-card[data-character="{cid}"]').count() == 0
    assert phone.evaluate("window.sameDocument") is True  # no reload happened
    fits_a_phone(phone)


def test_the_player_page_refreshes_by_itself_after_an_entry_is_logged(
    app, demo, live_server, phone
):
    name = "Scout Greta Colombo"
    _cid, secret = character(app, name)
    phone.goto(f"{live_server}/p/{secret}")
    hp = phone.locator('[data-stat="hp"] b')
    before = int(hp.inner_text())
    phone.evaluate("window.sameDocument = true")
    log(app, name, "hit", pierce=True)
    phone.wait_for_function(
        f"""() => document.querySelector('[data-stat="hp"] b').textContent === '{before - 1}'""",
        timeout=15_000,
    )
    assert phone.evaluate("window.sameDocument") is True
    fits_a_phone(phone)
    assert phone.locator('meta[name="robots"]').get_attribute("content") == "noindex"


def test_a_dying_players_page_ticks_down_from_the_timestamp(app, demo, live_server, phone):
    name = "Ladro Matteo Conti"
    _cid, secret = character(app, name)
    log(app, name, "hit", seconds_ago=DYING_SECONDS - 90, blows=10, pierce=True)
    phone.goto(f"{live_server}/p/{secret}")
    timer = phone.locator(".alarm .timer")
    first = timer.inner_text()
    assert re.fullmatch(r"01:[23]\d", first)
    phone.wait_for_function(
        f"() => document.querySelector('.alarm .timer').textContent !== '{first}'",
        timeout=3_000,
    )
    fits_a_phone(phone)


def test_the_board_and_the_end_of_session_fit_a_360_px_phone(app, demo, live_server, phone):
    long_name = "Ammiraglia Ludovica Ermenegilda Bonaventura Sforzini-Carulli"
    log(app, long_name, "hit", seconds_ago=30, blows=10, pierce=True)
    log(app, "Scout Greta Colombo", "heal", amount=1, seconds_ago=5)
    log(
        app, "Scout Greta Colombo", "kill", reason="plot", seconds_ago=60
    )  # a conflict: a minute early, it arrives late
    log(app, "Guardia Tobia Sala", "status_on", key="stordimento")
    log_in(phone, live_server)
    phone.goto(live_server + "/events/1/board")
    phone.wait_for_selector(".board-conflicts .refusal")
    fits_a_phone(phone)
    phone.goto(live_server + "/events/1/end-session")
    phone.wait_for_selector("fieldset.decision")
    fits_a_phone(phone)
    phone.click("button[type=submit]")  # nothing decided: refused, naming the character
    assert long_name in phone.inner_text("[role=alert]")
    fits_a_phone(phone)
    phone.click("label.choice:has(input[value=kill])")
    phone.click("button[type=submit]")
    phone.wait_for_url(live_server + "/events/1/board")
    assert "1" in phone.inner_text(".flash")


def test_the_board_asks_for_changes_and_replaces_only_the_rows_that_changed(
    app, demo, live_server, phone
):
    changed, _ = character(app, "Scout Greta Colombo")
    quiet, _ = character(app, "Guardia Tobia Sala")
    asked = []
    phone.on(
        "request", lambda request: asked.append(request.url) if "board.json" in request.url else 0
    )
    log_in(phone, live_server)
    phone.goto(live_server + "/events/1/board")
    phone.wait_for_function("() => document.querySelector('[data-board-sections]')")
    for cid in (changed, quiet):  # a mark the server's HTML never carries
        shown = f".roster-list [data-character='{cid}']"
        phone.evaluate(f'document.querySelector("{shown}").dataset.kept = "yes"')
    phone.evaluate("window.sameDocument = true")
    log(app, "Scout Greta Colombo", "hit", blows=10, pierce=True)
    phone.wait_for_selector(
        f'.roster-list [data-character="{changed}"][data-wound="dying"]', timeout=10_000
    )
    phone.wait_for_selector(f'.dying-card[data-character="{changed}"]')
    row = f'.roster-list [data-character="{quiet}"]'
    assert phone.locator(row).get_attribute("data-kept") == "yes"  # left as it was
    assert (
        phone.locator(f'.roster-list [data-character="{changed}"]').get_attribute("data-kept")
        is None
    )
    assert phone.evaluate("window.sameDocument") is True
    assert asked and all("since=" in url for url in asked)
    fits_a_phone(phone)
