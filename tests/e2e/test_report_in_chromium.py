"""The event report in a real browser: printed to PDF, every chart is on the paper; the new
organiser pages fit a 360 px phone."""

import io
import subprocess
import unicodedata
import uuid
from datetime import timedelta

import pytest
from PIL import Image
from pypdf import PdfReader

from larp_app.extensions import db
from larp_app.models import Character, User
from larp_app.rules import format_instant
from larp_app.services.clock import now_utc
from larp_app.services.entries import record_entry

CHART_TITLES = (
    "Deaths and knock-outs over time",
    "Hits and heals per hour",
    "The busiest referees (entries)",
    "Statuses used",
    "Conflicts and refusals",
)


@pytest.fixture
def played(app, demo):
    """The demo event after some play: hits, a heal, a status, a death."""
    with app.app_context():
        referee = db.session.scalar(db.select(User).where(User.role == "referee"))
        cast = db.session.scalars(
            db.select(Character).where(Character.event_id == 1).order_by(Character.id)
        ).all()
        now = now_utc()

        def log(character, minutes_ago, kind, **fields):
            at = format_instant(now - timedelta(minutes=minutes_ago))
            raw = {"id": str(uuid.uuid4()), "kind": kind, "at": at, **fields}
            record_entry(character, raw, referee)

        first, second, third = cast[0], cast[1], cast[2]
        log(first, 90, "hit", damage=12)
        log(first, 65, "kill", reason="plot")
        log(second, 50, "hit", damage=2)
        log(second, 40, "heal", amount=1)
        log(third, 30, "status_on", key=next(iter(_statuses(third))))
        log(third, 5, "hit", damage=1)
        db.session.commit()
        return first.id


def _statuses(character):
    from larp_app.services.events import status_catalogue

    return status_catalogue(character.event)


def log_in(page, base):
    page.goto(base + "/login")
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", "organiser-demo")
    page.click("button.primary")
    page.wait_for_url(base + "/events")


def dark_share(path) -> float:
    """The share of dark pixels on a rendered page."""
    with Image.open(path) as image:
        histogram = image.convert("L").histogram()
    return sum(histogram[:128]) / max(1, sum(histogram))


def test_the_printed_report_shows_every_chart(played, live_server, browser, tmp_path):
    page = browser.new_page()
    log_in(page, live_server)
    page.goto(live_server + "/events/1/report")
    page.emulate_media(media="print")
    boxes = page.evaluate(
        """() => [...document.querySelectorAll('svg.chart')].map(s => {
             const r = s.getBoundingClientRect(), st = getComputedStyle(s);
             return {id: s.id, width: r.width, height: r.height, shown: st.display !== 'none'
                     && st.visibility !== 'hidden'};
           })"""
    )
    assert [b["id"] for b in boxes] == [
        "chart-falls",
        "chart-per-hour",
        "chart-referees",
        "chart-statuses",
        "chart-problems",
    ]
    assert all(b["shown"] and b["width"] > 300 and b["height"] > 80 for b in boxes), boxes
    pdf_bytes = page.pdf(format="A4", print_background=True)
    reader = PdfReader(io.BytesIO(pdf_bytes))
    text = unicodedata.normalize(  # NFKC: the PDF may write "fl" as one ligature
        "NFKC", " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    )
    for title in CHART_TITLES:
        assert title in text, title
    assert "referee" in text  # the busiest referee's bar is labelled
    # Each chart is drawn, not only titled: render the pages and find ink under each title.
    path = tmp_path / "report.pdf"
    path.write_bytes(pdf_bytes)
    subprocess.run(["pdftoppm", "-r", "40", "-png", str(path), str(tmp_path / "p")], check=True)
    pages = sorted(tmp_path.glob("p-*.png"))
    assert pages
    inked = [dark_share(p) for p in pages]
    assert all(share > 0.005 for share in inked), inked
    assert sum(share for share in inked) > 0.02


NEW_PAGES = ("/events/1/checkin", "/events/1/report", "/events/1/continue", "/characters/1/sheet")


def test_the_new_organiser_pages_fit_a_360_px_phone(played, live_server, phone):
    log_in(phone, live_server)
    for path in NEW_PAGES:
        phone.goto(live_server + path)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, path
        small = phone.evaluate("""() => [...document.querySelectorAll(
            'button, select, input:not([type=hidden]):not([type=checkbox]), a.button')]
            .filter(e => e.offsetParent && e.getBoundingClientRect().height < 47.5)
            .map(e => e.outerHTML.slice(0, 80))""")
        assert small == [], path
