"""Measure: how many A4 pages the demo events' larp sheets print on, in each language.

Run from a checkout: ``.venv/bin/python bench/print_pages.py``. Prints figures only: for each
demo event (EX Nihilo, Sistema Athkri) and each language, the characters and the pages Chromium
prints them on (one per character is the aim), and the pages a sheet spills onto.

Set-up: a fresh SQLite database in a temporary directory, migrated, the demo loaded; the app
served by werkzeug on 127.0.0.1; Debian's Chromium (never a downloaded one) logged in as the
demo organiser, its browser language set, printing ``/events/ID/print`` to an A4 PDF (pypdf
counts the pages).
"""

from __future__ import annotations

import io
import tempfile
import threading

from flask_migrate import upgrade
from playwright.sync_api import sync_playwright
from pypdf import PdfReader
from werkzeug.serving import make_server

from larp_app import create_app
from larp_app.extensions import db
from larp_app.models import Character
from larp_app.services.demo import load_demo

CHROMIUM = "/usr/lib/chromium/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
PASSWORD = "organiser-demo"


def main() -> None:
    folder = tempfile.mkdtemp()
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/bench.sqlite3",
            "PRINT_FOLDER": folder,
            "PUBLIC_BASE_URL": None,
            "DEMO_PASSWORDS": {"organiser": PASSWORD, "referee": "referee-demo"},
        }
    )
    with app.app_context():
        upgrade()
        demo = load_demo()
        db.session.commit()
        events = {"EX Nihilo": demo.event_id, "Sistema Athkri": demo.athkri_event_id}
        names = {
            key: sorted(db.session.scalars(db.select(Character.name).filter_by(event_id=key)))
            for key in events.values()
        }
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for lang in ("it", "es", "en"):
            page = browser.new_context(locale=lang).new_page()
            page.goto(base + "/login")
            page.fill("input[name=username]", "organiser")
            page.fill("input[name=password]", PASSWORD)
            page.click("button.primary")
            page.wait_for_url(base + "/events")
            for label, event_id in events.items():
                page.goto(f"{base}/events/{event_id}/print")
                pdf = PdfReader(io.BytesIO(page.pdf(format="A4")))
                tops = [" ".join(p.extract_text().split()) for p in pdf.pages]
                # A page with no character's name on top is a sheet spilling over.
                spilled = sum(1 for t in tops if not any(t.startswith(n) for n in names[event_id]))
                print(
                    f"{lang}  {label:15} {len(names[event_id]):3} characters  "
                    f"{len(pdf.pages):3} pages  {spilled} spilled over"
                )
            page.context.close()
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
