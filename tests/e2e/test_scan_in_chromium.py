"""The referee's scanner in a real Chromium whose fake camera shows a badge.

The badge is the demo's character 5, rendered by the project's own badge code with the live
server's address, so its QR holds ``<live_server>/b/<secret>?v=1``. Chromium on Linux has no
BarcodeDetector: these tests read the code with the ponyfill served from static/vendor.
"""

import dataclasses
import os
from pathlib import Path
from urllib.parse import quote

import pytest
from PIL import Image
from playwright.sync_api import expect, sync_playwright

from larp_app.badges import DEFAULT_LABELS, render_card
from larp_app.extensions import db
from larp_app.models import Character
from larp_app.services.badge_prints import badge_face
from larp_app.services.badges import active_badge
from larp_app.services.demo import load_demo
from larp_app.tokens import ALPHABET, new_secret

from .conftest import ARGS, CHROMIUM

ROOT = Path(__file__).resolve().parents[2]
WASM = ROOT / "static" / "vendor" / "barcode-detector" / "zxing_reader.wasm"
CAMERA = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]
FRAME = (640, 480)
PHONE = {"viewport": {"width": 360, "height": 780}, "has_touch": True, "is_mobile": True}
CARD_DPI = 170  # the card 573 px wide, its QR modules 5 px: a badge at arm's length

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


@pytest.fixture
def demo(app):
    with app.app_context():
        load_demo()
        db.session.commit()


def badge_front(app, base: str, character_id: int = 5, forged: bool = False) -> Image.Image:
    """The front of the character's badge; forged, its QR names a secret no badge has."""
    with app.app_context():
        face = badge_face(db.session.get(Character, character_id), base, DEFAULT_LABELS)
    if forged:
        face = dataclasses.replace(face, scan_url=f"{base}/b/{new_secret()}?v=1")
    return render_card(face, "front", dpi=CARD_DPI)


def write_y4m(card: Image.Image, path: Path) -> Path:
    """One 640 × 480 grey frame with the card in the middle, as Chromium's fake camera reads it."""
    width, height = FRAME
    frame = Image.new("L", FRAME, 128)
    frame.paste(card.convert("L"), ((width - card.width) // 2, (height - card.height) // 2))
    chroma = bytes([128]) * (2 * (width // 2) * (height // 2))
    header = f"YUV4MPEG2 W{width} H{height} F30:1 Ip A1:1 C420jpeg\nFRAME\n".encode()
    path.write_bytes(header + frame.tobytes() + chroma)
    return path


def short_code_of(app, character_id: int) -> str:
    with app.app_context():
        return active_badge(db.session.get(Character, character_id)).short_code


def with_a_typo(code: str) -> str:
    first = code[0]
    return ALPHABET[(ALPHABET.index(first) + 1) % len(ALPHABET)] + code[1:]


@pytest.fixture
def launch(tmp_path):
    """Start Chromium with a fake camera showing an image, or with no camera at all.

    The video file is a flag of the browser process: one browser per picture.
    """
    with sync_playwright() as playwright:
        browsers = []

        def start(picture: Image.Image | None, **context):
            args = list(ARGS)
            if picture is not None:
                video = write_y4m(picture, tmp_path / f"camera-{len(browsers)}.y4m")
                args += [*CAMERA, f"--use-file-for-fake-video-capture={video}"]
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
            browsers.append(browser)
            return browser.new_context(**context).new_page()

        yield start
        for browser in browsers:
            browser.close()


def log_in_as_referee(page, base: str) -> None:
    page.goto(f"{base}/login?next={quote('/referee/')}")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "referee-demo")
    page.click("button.primary")
    page.wait_for_url(f"{base}/referee/")


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
