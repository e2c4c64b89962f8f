"""Every entry under its true author, on a phone passed from hand to hand, in Chromium.

refA logs a note with no network; meanwhile an organiser logs out every phone of refA's
(a stolen phone, or one handed on). Another referee logs in on the same browser: the note
is not stored under their name, the phone says whose it is and that refA must log in, the
organiser's board lists it, and the pages the worker kept for refA are gone. refA logs in
again on that phone and the note is stored, under refA.
"""

import pytest
from playwright.sync_api import expect

from larp_app.extensions import db
from larp_app.models import Entry, RefusedEntry, User
from larp_app.services.users import create_user, end_sessions

from .camera import PHONE
from .test_offline_in_chromium import note, ready_for_offline, wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
CHARACTER = 5


def log_in(page, base, username, password):
    page.goto(f"{base}/login?next=/scan")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    page.wait_for_url(f"{base}/scan")


def kept_pages(page):
    """The text of every page the service worker keeps."""
    return page.evaluate("""async () => {
        const texts = [];
        for (const name of await caches.keys()) {
            if (!name.startsWith('larp-pages-')) continue;
            const cache = await caches.open(name);
            for (const request of await cache.keys()) {
                texts.push(await (await cache.match(request)).text());
            }
        }
        return texts;
    }""")


def test_a_note_queued_by_ref_a_is_never_stored_under_the_next_user_of_the_phone(
    app, demo, live_server, launch
):
    with app.app_context():
        create_user("refA", "referee", "refA-password-1")
        db.session.commit()
    page = launch(None, locale="it-IT", **PHONE)
    log_in(page, live_server, "refA", "refA-password-1")
    page.goto(f"{live_server}/console/{CHARACTER}")
    ready_for_offline(page)
    assert any("(refA)" in text for text in kept_pages(page))
    with app.app_context():  # the organiser: "Log out every phone" of refA's
        end_sessions(db.session.scalar(db.select(User).where(User.username == "refA")))
        db.session.commit()
    page.context.set_offline(True)
    note(page, "refA at the gate")
    page.context.set_offline(False)
    expect(page.locator("[data-logged-out]")).to_be_visible(timeout=15_000)
    # Logged out: the pages kept for refA are forgotten with the roster.
    assert wait_until(lambda: not any("(refA)" in t for t in kept_pages(page)))

    log_in(page, live_server, "referee", "referee-demo")
    held = page.locator("[data-held]")
    expect(held).to_be_visible(timeout=15_000)
    expect(held).to_contain_text("1 voce di refA in attesa: accedi come refA per inviarla.")
    with app.app_context():
        assert wait_until(lambda: db.session.scalar(db.select(db.func.count(RefusedEntry.id))))
        kept = db.session.scalars(db.select(RefusedEntry)).one()
        assert (kept.code, kept.params, kept.fields["text"]) == (
            "not_the_author",
            {"author": "refA"},
            "refA at the gate",
        )
        assert db.session.scalars(db.select(Entry)).all() == []
        db.session.remove()

    # Logging out forgets the referee's kept pages too.
    with page.expect_navigation():
        page.locator("form[data-logout] button").click()
    assert not any("(referee)" in text for text in kept_pages(page))

    log_in(page, live_server, "refA", "refA-password-1")

    def stored():
        with app.app_context():
            rows = db.session.scalars(db.select(Entry)).all()
            db.session.remove()
            return [(e.fields["author"], e.fields["text"]) for e in rows]

    assert wait_until(stored) == [("refA", "refA at the gate")]
    expect(held).to_be_hidden()
