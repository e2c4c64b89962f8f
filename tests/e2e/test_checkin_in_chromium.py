"""The organiser's check-in desk in a real Chromium whose fake camera shows a badge.

The badge is the demo's character 5, rendered by the project's own badge code with the live
server's address (as in test_scan_in_chromium.py); the desk reads it with the scanner's own
camera and decoder code (static/js/lib/camera.js).
"""

import os

import pytest
from playwright.sync_api import expect

from larp_app.extensions import db
from larp_app.models import Character

from .camera import CHROMIUM, WASM, badge_front

pytestmark = [
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM), reason=f"Chromium is not installed at {CHROMIUM}"
    ),
    pytest.mark.skipif(
        not WASM.exists(), reason="static/vendor has no QR decoder: run `make install`"
    ),
]

CAMERA_ON = (
    "(() => document.querySelector('[data-desk-camera] video').srcObject?.active === true)()"
)


def log_in_as_organiser(page, base: str) -> None:
    page.goto(f"{base}/login")
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", "organiser-demo")
    page.click("button.primary")
    page.wait_for_url(f"{base}/events")


def test_a_badge_shown_to_the_desks_camera_shows_its_hand_out_panel_then_marks_present(
    app, demo, live_server, launch
):
    with app.app_context():
        name = db.session.get(Character, 5).name
    page = launch(badge_front(app, live_server, 5), viewport={"width": 360, "height": 780})
    requested = []
    page.on("request", lambda request: requested.append(request.url))
    log_in_as_organiser(page, live_server)
    page.goto(f"{live_server}/events/1/checkin")
    assert page.locator(".desk-card").count() > 1  # every character, before the scan
    assert not page.evaluate(CAMERA_ON)  # the camera waits for the organiser's tap
    start = page.locator("[data-desk-camera] [data-camera-start]")
    assert start.bounding_box()["height"] >= 47.5
    start.click()

    card = page.locator(".desk-card")
    expect(card).to_have_count(1)
    expect(card).to_have_attribute("data-character", "5")
    expect(card.locator("h2")).to_contain_text(name)
    expect(card).to_contain_text("To hand out")
    expect(card).to_contain_text("not checked in")
    assert f"{live_server}/b/" in page.input_value("input[name=q]")  # the lookup is filled
    assert not page.evaluate(CAMERA_ON)  # read: the camera is off
    assert all(url.startswith(live_server) for url in requested), "nothing from a CDN"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    card.get_by_role("button", name="Mark present").click()
    card = page.locator(".desk-card")
    expect(card).to_have_attribute("data-present", "yes")
    expect(card).to_contain_text("present since")
    with app.app_context():
        assert db.session.get(Character, 5).present_at is not None
