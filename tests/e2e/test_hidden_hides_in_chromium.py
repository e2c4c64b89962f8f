"""`hidden` hides, on every page: no element marked hidden takes room or shows, whatever
display its class gives it (a "Download the PDF" button while a badge print is at 0/8 led to
"Not found")."""

from playwright.sync_api import expect

from larp_app.extensions import db
from larp_app.models import Character, PrintJob
from larp_app.services.clock import now_utc
from larp_app.services.demo import load_demo

# Every element marked hidden that still has a box on the page.
SHOWN_THOUGH_HIDDEN = """() => [...document.querySelectorAll('[hidden]')]
    .filter((e) => e.getClientRects().length > 0)
    .map((e) => e.outerHTML.slice(0, 80))"""

ORGANISER_PAGES = [
    "/",
    "/events",
    "/events/{event}",
    "/events/{event}/badges",
    "/events/{event}/badges/jobs/{job}",
    "/events/{event}/board",
    "/events/{event}/checkin",
    "/events/{event}/continue",
    "/events/{event}/end-session",
    "/events/{event}/import",
    "/events/{event}/print",
    "/events/{event}/report",
    "/events/{event}/settings",
    "/events/{athkri}/settings",
    "/characters/{character}",
    "/characters/{character}/sheet",
    "/characters/{character}/timeline",
    "/users",
    "/account/password",
    "/rulesets/ex-nihilo/sheet",
    "/rulesets/athkri/sheet",
]
REFEREE_PAGES = [
    "/referee/",
    "/referee/events/{event}",
    "/scan",
    "/console/{character}",
    "/console/{athkri_character}",
    "/console/offline",
]


def log_in(page, base, username):
    page.goto(f"{base}/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", f"{username}-demo")
    with page.expect_navigation():
        page.click("button.primary")


def test_no_element_marked_hidden_shows_on_any_page(app, live_server, browser):
    with app.app_context():
        demo = load_demo()
        job = PrintJob(
            event_id=demo.event_id,
            options={},
            status="running",
            done=0,
            total=8,
            created_at=now_utc(),
            heartbeat_at=now_utc(),
        )
        db.session.add(job)
        db.session.commit()
        first = db.session.scalar(
            db.select(Character).where(Character.event_id == demo.event_id).order_by(Character.id)
        )
        athkri = db.session.scalar(
            db.select(Character.id).where(Character.event_id == demo.athkri_event_id)
        )
        ids = {
            "event": demo.event_id,
            "athkri": demo.athkri_event_id,
            "job": job.id,
            "character": first.id,
            "athkri_character": athkri,
        }
        secret = first.player_secret
    shown = {}
    for username, pages in (("organiser", ORGANISER_PAGES), ("referee", REFEREE_PAGES)):
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
        page = context.new_page()
        log_in(page, live_server, username)
        for path in pages:
            address = path.format(**ids)
            answer = page.goto(f"{live_server}{address}")
            assert answer.ok, address
            page.wait_for_timeout(400)  # the page's script has run
            if address.endswith(f"/jobs/{job.id}"):
                expect(page.get_by_text("Download the PDF")).to_be_hidden()
            found = page.evaluate(SHOWN_THOUGH_HIDDEN)
            if found:
                shown[address] = found
        context.close()
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{live_server}/p/{secret}")
    page.wait_for_timeout(400)
    if found := page.evaluate(SHOWN_THOUGH_HIDDEN):
        shown["/p/…"] = found
    context.close()
    assert shown == {}
