"""The organiser's pages in a real browser: a 360 px phone, and printing."""

import io

import pytest
from pypdf import PdfReader

from larp_app.extensions import db
from larp_app.models import Character
from larp_app.services.demo import load_demo

PAGES = [
    "/events",
    "/events/1",
    "/characters/1",
    "/events/1/settings",
    "/events/1/import",
    "/characters/1/sheet",
    "/rulesets/athkri/sheet",
    "/users",
]


@pytest.fixture
def demo(app):
    with app.app_context():
        load_demo()
        db.session.commit()


def log_in(page, base):
    page.goto(base + "/login")
    page.fill("input[name=username]", "organiser")
    page.fill("input[name=password]", "organiser-demo")
    page.click("button.primary")
    page.wait_for_url(base + "/events")


@pytest.mark.parametrize("path", PAGES)
def test_each_organiser_page_fits_a_360_px_phone_with_48_px_touch_targets(
    demo, live_server, phone, path
):
    log_in(phone, live_server)
    phone.goto(live_server + path)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    small = phone.evaluate("""() => [...document.querySelectorAll(
        'button, select, input:not([type=hidden]):not([type=checkbox]), a.button, .topbar a,'
        + 'label.check')]
        .filter(e => e.offsetParent && e.getBoundingClientRect().height < 47.5)
        .map(e => e.outerHTML.slice(0, 80))""")
    assert small == []


def test_printing_all_larp_sheets_gives_one_a4_page_per_character(app, demo, live_server, browser):
    page = browser.new_page()
    log_in(page, live_server)
    page.goto(live_server + "/events/1/print")
    pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
    with app.app_context():
        names = sorted(db.session.scalars(db.select(Character.name).where(Character.event_id == 1)))
    texts = [" ".join(p.extract_text().split()) for p in pdf.pages]
    headed = sorted(next((n for n in names if t.startswith(n)), t[:40]) for t in texts)
    assert headed == names  # each character once, each on a page of its own


def test_a_large_upload_shows_its_progress_then_the_preview(demo, live_server, phone, tmp_path):
    from tests.spreadsheets import template_csv

    header, row = template_csv().split("\r\n")[:2]
    big = tmp_path / "cast.csv"
    big.write_text("\r\n".join([header] + [row] * 1000) + "\r\n", encoding="utf-8")
    log_in(phone, live_server)
    phone.goto(live_server + "/events/1/import")
    phone.set_input_files("input[type=file]", str(big))
    held = []
    phone.route("**/import/preview", lambda route: held.append(route))  # hold the answer
    phone.click("button.primary")
    phone.wait_for_selector("progress:not([hidden])")
    while not held:
        phone.wait_for_timeout(50)
    held[0].continue_()
    phone.wait_for_selector("table.preview")
    assert "1000" in phone.inner_text("main")
