"""The referee's scanner in a real Chromium whose fake camera shows a badge.

The badge is the demo's character 5, rendered by the project's own badge code with the live
server's address, so its QR holds ``<live_server>/b/<secret>?v=1``. Chromium on Linux has no
BarcodeDetector: these tests read the code with the ponyfill served from static/vendor.
"""

import os

import pytest
from playwright.sync_api import expect

from larp_app.extensions import db
from larp_app.models import Character
from larp_app.services.badges import active_badge
from larp_app.services.characters import withdraw
from larp_app.tokens import ALPHABET

from .camera import CHROMIUM, PHONE, WASM, badge_front, log_in_as_referee

pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason=f"Chromium is not installed at {CHROMIUM}"
    ),
    pytest.mark.skipif(
        not WASM.exists(),
        reason="static/vendor has no QR decoder: run `make install` (npm ci, then "
        "python -m larp_app.vendor)",
    ),
]


def short_code_of(app, character_id: int) -> str:
    with app.app_context():
        return active_badge(db.session.get(Character, character_id)).short_code


def with_a_typo(code: str) -> str:
    first = code[0]
    return ALPHABET[(ALPHABET.index(first) + 1) % len(ALPHABET)] + code[1:]


def test_a_badge_shown_to_the_camera_opens_its_characters_console(app, demo, live_server, launch):
    page = launch(badge_front(app, live_server))
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    log_in_as_referee(page, live_server)
    page.goto(f"{live_server}/scan?event=1", wait_until="commit")  # the read may beat `load`
    page.wait_for_url(f"{live_server}/console/5", wait_until="commit")
    assert all(url.startswith(live_server) for url in requested), "nothing from a CDN"
    assert any(url.endswith("/zxing_reader.wasm") for url in requested)
    assert not any("zxing_full" in url for url in requested)


def test_a_typed_short_code_with_a_typo_is_refused_in_words_then_the_right_one_opens_the_console(
    app, demo, live_server, launch
):
    code = short_code_of(app, 5)
    page = launch(None, **PHONE)  # no camera: the referee types the code
    log_in_as_referee(page, live_server)
    page.goto(f"{live_server}/scan?event=1")
    # The page's CSP forbids eval, so wait with a locator rather than wait_for_function.
    expect(page.locator("[data-status]")).to_contain_text("type the code")
    assert page.evaluate("document.activeElement.id") == "scan-code-input"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    small = page.evaluate("""() => [...document.querySelectorAll('main button, main input')]
        .filter(e => e.offsetParent && e.getBoundingClientRect().height < 47.5)
        .map(e => e.outerHTML.slice(0, 80))""")
    assert small == []
    page.fill("#scan-code-input", with_a_typo(code))
    page.click(".scan-code button")
    refusal = page.locator("[data-refusal]")
    refusal.wait_for(state="visible")
    assert "this code has a typo" in refusal.inner_text()
    assert "✖" in refusal.inner_text()  # a symbol, not colour alone
    assert page.url == f"{live_server}/scan?event=1"
    page.fill("#scan-code-input", code.lower().replace("-", ""))
    page.press("#scan-code-input", "Enter")
    page.wait_for_url(f"{live_server}/console/5", wait_until="commit")


def test_a_forged_badge_on_camera_is_refused_in_words_and_scanning_goes_on(
    app, demo, live_server, launch
):
    page = launch(badge_front(app, live_server, forged=True))
    lookups = []
    page.on("request", lambda r: lookups.append(r.url) if "/api/v1/badges/" in r.url else None)
    log_in_as_referee(page, live_server)
    page.goto(f"{live_server}/scan?event=1")
    refusal = page.locator("[data-refusal]")
    refusal.wait_for(state="visible")
    assert "Badge refused" in refusal.inner_text()
    assert "no badge has this code" in refusal.inner_text()
    assert "✖" in refusal.inner_text()
    page.wait_for_timeout(1500)  # the forged badge stays in front of the camera
    assert page.url == f"{live_server}/scan?event=1"
    status = page.inner_text("[data-status]")
    assert "Point the camera" in status  # still scanning
    assert len(lookups) == 1  # asked once, not at every frame


def wait_for_roster(page):
    """Until the phone holds its roster (refused after five seconds)."""
    roster = "async () => (await import('/static/js/lib/roster.js')).rosterAt()"
    for _ in range(50):
        if page.evaluate(roster):
            return
        page.wait_for_timeout(100)
    raise AssertionError("the roster never reached the phone")


def test_a_search_by_name_over_the_phones_roster_ignores_accents_and_works_offline(
    app, demo, live_server, launch
):
    page = launch(None, **PHONE)  # no camera
    log_in_as_referee(page, live_server)
    page.goto(f"{live_server}/scan?event=1")
    wait_for_roster(page)
    page.context.set_offline(True)
    page.fill("#scan-search-input", "nicolo mose")
    row = page.locator("[data-search-results] a")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Fra' Nicolò Mosè Carrà")
    assert row.bounding_box()["height"] >= 48
    with app.app_context():
        wanted = db.session.scalar(db.select(Character).filter_by(name="Fra' Nicolò Mosè Carrà"))
    assert row.get_attribute("href").endswith(f"/console/{wanted.id}")


def test_a_withdrawn_character_replaced_by_a_new_one_is_listed_once_offline(
    app, demo, live_server, launch
):
    page = launch(None, **PHONE)  # no camera
    log_in_as_referee(page, live_server)
    page.goto(f"{live_server}/scan?event=1")
    wait_for_roster(page)
    name = "Fra' Nicolò Mosè Carrà"
    with app.app_context():
        old = db.session.scalar(db.select(Character).filter_by(name=name))
        withdraw(old)
        new = Character(
            event_id=old.event_id,
            name=old.name,
            player=old.player,
            faction=old.faction,
            tabletop=old.tabletop,
            larp=old.larp,
            created_at=old.created_at,
        )
        db.session.add(new)
        db.session.commit()
        new_id = new.id
    refreshed = page.evaluate(
        "async () => (await import('/static/js/lib/roster.js')).refreshRoster('/api/v1')"
    )
    assert refreshed is True
    page.context.set_offline(True)
    page.locator("#scan-search-input").press_sequentially("nicolo", delay=20)
    row = page.locator("[data-search-results] a", has_text=name)
    expect(row).to_have_count(1)
    assert row.get_attribute("href").endswith(f"/console/{new_id}")


def test_the_code_field_shows_a_whole_code_on_a_phone(app, demo, live_server, launch):
    page = launch(None, viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    log_in_as_referee(page, live_server)
    for width in (360, 320):
        page.set_viewport_size({"width": width, "height": 740})
        page.goto(f"{live_server}/scan?event=1")
        page.fill("#scan-code-input", "WWW-MMM-WWW")  # the widest letters
        overflow = page.evaluate(
            "(() => { const i = document.querySelector('#scan-code-input');"
            " return i.scrollWidth - i.clientWidth; })()"
        )
        assert overflow <= 0, (width, overflow)
        assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_camera_stops_after_a_minute_without_a_badge_and_one_tap_brings_it_back(
    app, demo, live_server, launch
):
    from PIL import Image

    page = launch(Image.new("L", (640, 480), 128), **PHONE)  # a camera that sees no badge
    log_in_as_referee(page, live_server)
    page.clock.install()
    page.goto(f"{live_server}/scan?event=1")
    expect(page.locator("[data-status]")).to_contain_text("Point the camera")
    live = "(() => document.querySelector('video').srcObject?.active === true)()"
    assert page.evaluate(live)
    page.clock.fast_forward(61_000)
    expect(page.locator("[data-resume]")).to_be_visible()
    expect(page.locator("[data-status]")).to_contain_text("battery")
    assert not page.evaluate(live)
    page.locator("[data-resume]").click()
    expect(page.locator("[data-status]")).to_contain_text("Point the camera")
    assert page.evaluate(live)
