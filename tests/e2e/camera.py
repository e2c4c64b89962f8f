"""Debian's Chromium, a fake camera that shows a badge, and a phone to hold it
(../shared/TESTING.md's recipe). The e2e tests and bench/console.py use it."""

import dataclasses
import shutil
from pathlib import Path
from urllib.parse import quote

from PIL import Image

from larp_app.badges import DEFAULT_LABELS, render_card
from larp_app.extensions import db
from larp_app.models import Character
from larp_app.services.badge_prints import badge_face
from larp_app.tokens import new_secret

ROOT = Path(__file__).resolve().parents[2]
WASM = ROOT / "static" / "vendor" / "barcode-detector" / "zxing_reader.wasm"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CAMERA = ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]
FRAME = (640, 480)
PHONE = {"viewport": {"width": 360, "height": 780}, "has_touch": True, "is_mobile": True}
CARD_DPI = 170  # the card 573 px wide, its QR modules 5 px: a badge at arm's length


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


def log_in_as_referee(page, base: str) -> None:
    page.goto(f"{base}/login?next={quote('/referee/')}")
    page.fill("input[name=username]", "referee")
    page.fill("input[name=password]", "referee-demo")
    page.click("button.primary")
    page.wait_for_url(f"{base}/referee/")
