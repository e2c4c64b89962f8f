"""The referee app with the network cut, in a real Chromium.

The phone visits once online (the service worker installs, the roster is stored), then loses
the network: the console still loads, the camera still opens a badge, entries wait in the
outbox, and once the network is back they reach the server by themselves, each once.

"No network" is Playwright's set_offline for the page, and the server stopped: Chromium's
offline emulation does not reach the service worker's own requests (Background Sync would
otherwise send the outbox at once).
"""

import re
import time
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character, Entry, RefusedEntry, User
from larp_app.services.badges import active_badge
from larp_app.services.entries import record_entry, state_of
from larp_app.services.users import end_sessions

from .camera import PHONE, badge_front, log_in_as_referee

SCANNED = 5  # the demo character on the fake camera's badge
TYPED = 6  # the one whose short code is typed

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def network(page, server, on: bool):
    """Lose or regain the network: the page's, and the server out of everyone's reach."""
    if on:
        server.start()
        page.context.set_offline(False)
    else:
        page.context.set_offline(True)
        server.stop()


def wait_until(check, seconds=15.0):
    """Poll a Python condition (the database, the page) until it holds."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.2)


def stored_entries(app, character_ids):
    with app.app_context():
        return db.session.execute(
            db.select(Entry.client_id, Entry.at, Entry.character_id).where(
                Entry.character_id.in_(character_ids)
            )
        ).all()


# Said when the shells are missing: what the phone holds, to tell a lost request from a
# worker that never took over.
WHAT_IS_KEPT = """async () => `the service worker did not keep the shells: controller=${
    Boolean(navigator.serviceWorker.controller)}, worker=${JSON.stringify(
    await navigator.serviceWorker.getRegistration().then((r) => r && ['installing', 'waiting',
    'active'].map((k) => `${k}:${r[k]?.state ?? '-'}`)))}, caches=${JSON.stringify(
    await caches.keys())},
    scan=${Boolean(await caches.match('/scan'))},
    shell=${Boolean(await caches.match('/console/offline'))}`"""


def ready_for_offline(page):
    """The worker controls the page, keeps both shells, and the roster is on the phone."""
    kept = """async () => Boolean(navigator.serviceWorker.controller)
        && Boolean(await caches.match('/console/offline'))
        && Boolean(await caches.match('/scan'))"""
    # Installing precaches every script, style and the decoder (compressed on the way).
    kept_shells = wait_until(lambda: page.evaluate(kept), seconds=40)
    assert kept_shells, page.evaluate(WHAT_IS_KEPT)
    roster_kept(page)


def roster_kept(page):
    """Wait until the roster is on the phone."""
    roster = "async () => (await import('/static/js/lib/roster.js')).rosterAt()"
    assert wait_until(lambda: page.evaluate(roster)), "the roster is not on the phone"


def outbox(page):
    return page.evaluate("""async () => {
        const { outbox } = await import('/static/js/lib/outbox.js');
        return (await outbox()).map((i) => ({ id: i.entry.id, at: i.entry.at,
            status: i.status, character: i.character, message: i.message ?? null }));
    }""")


def hit(page):
    page.get_by_role("button", name="Colpo", exact=True).click()


def note(page, text):
    page.get_by_role("button", name="Altro", exact=True).click()
    page.get_by_role("button", name="Nota", exact=True).click()
    page.fill("[data-note-text]", text)
    page.get_by_role("button", name="Salva la nota").click()


def log_ten(page, who):
    """Three hits, then seven notes."""
    for _ in range(3):
        hit(page)
    for i in range(7):
        note(page, f"{who} {i}")


def numbers(app, character_id):
    with app.app_context():
        character = db.session.get(Character, character_id)
        return character.larp["ap_max"], character.larp["hp_max"], active_badge(character)


def test_an_hour_offline_scanning_and_logging_then_every_entry_reaches_the_server_once(
    app, demo, server, launch
):
    live_server = server.url
    ap_a, hp_a, _ = numbers(app, SCANNED)
    ap_b, hp_b, badge_b = numbers(app, TYPED)
    page = launch(badge_front(app, live_server, SCANNED), locale="it-IT", **PHONE)
    log_in_as_referee(page, live_server)
    page.goto(f"{live_server}/scan?event=1", wait_until="commit")
    page.wait_for_url(f"{live_server}/console/{SCANNED}")
    ready_for_offline(page)

    network(page, server, on=False)
    response = page.reload()
    assert response.from_service_worker, "the console came from the service worker"
    expect(page.locator("[data-hp]")).to_have_text(str(hp_a))
    expect(page.locator("[data-net]")).to_contain_text("✖")

    # The camera opens a badge from the phone's roster; a typed short code does too.
    page.goto(f"{live_server}/scan", wait_until="commit")
    page.wait_for_url(f"{live_server}/console/{SCANNED}")
    log_ten(page, "A")
    expect(page.locator("[data-pending-note]")).to_contain_text("10")
    expect(page.locator("[data-ap]")).to_have_text(str(max(0, ap_a - 3)))  # the preview

    page.goto(f"{live_server}/scan", wait_until="commit")
    page.wait_for_url(f"{live_server}/console/{SCANNED}")  # the camera is quick
    page.goto(f"{live_server}/console/{TYPED}")
    expect(page.locator("[data-name]")).not_to_have_text("…")
    log_ten(page, "B")
    expect(page.locator("span[data-pending]")).to_contain_text("20")
    assert stored_entries(app, [SCANNED, TYPED]) == []
    queued = {item["id"]: item["at"] for item in outbox(page)}
    assert len(queued) == 20

    network(page, server, on=True)  # nothing pressed: the `online` event sends the outbox
    assert wait_until(lambda: len(stored_entries(app, [SCANNED, TYPED])) == 20)
    expect(page.locator("span[data-pending]")).to_contain_text("0")
    stored = stored_entries(app, [SCANNED, TYPED])
    assert sorted(row.client_id for row in stored) == sorted(queued)
    for row in stored:  # placed at the phone's own instant (its clock is right here)
        assert abs(row.at - rules.parse_instant(queued[row.client_id])) < timedelta(seconds=2)
    with app.app_context():
        now = datetime.now(UTC)
        for character_id, ap, hp in ((SCANNED, ap_a, hp_a), (TYPED, ap_b, hp_b)):
            state = state_of(db.session.get(Character, character_id), now).state
            assert (state.ap, state.hp) == (max(0, ap - 3), hp - max(0, 3 - ap))
    assert badge_b.short_code  # typed offline below, on this phone's roster

    # The same outbox sent again stores nothing twice.
    again = page.evaluate("""async () => {
        const store = await import('/static/js/lib/store.js');
        const { syncOutbox } = await import('/static/js/lib/outbox.js');
        for (const item of await store.getAll('outbox')) {
            await store.put('outbox', { ...item, status: 'pending' });
        }
        return syncOutbox();
    }""")
    assert again == {"sent": 20, "refused": 0}
    assert len(stored_entries(app, [SCANNED, TYPED])) == 20


def test_a_short_code_typed_offline_opens_the_console_from_the_phones_roster(
    app, demo, server, launch
):
    live_server = server.url
    _, _, badge = numbers(app, TYPED)
    page = launch(None, locale="it-IT", **PHONE)
    log_in_as_referee(page, live_server)
    page.goto(f"{live_server}/scan")
    ready_for_offline(page)
    network(page, server, on=False)
    page.reload()
    page.fill("#scan-code-input", badge.short_code.replace("-", "").lower())
    page.get_by_role("button", name="Cerca").click()
    page.wait_for_url(f"{live_server}/console/{TYPED}")
    with app.app_context():
        name = db.session.get(Character, TYPED).name
    expect(page.locator("[data-name]")).to_have_text(name)


def test_a_phone_clock_three_minutes_fast_gets_its_entries_placed_at_the_real_instant(
    app, demo, live_server, launch
):
    # No service worker here: the fake clock is the page's, and the page must be the sender.
    page = launch(None, locale="it-IT", service_workers="block", **PHONE)
    log_in_as_referee(page, live_server)
    page.clock.install(time=datetime.now(UTC) + timedelta(minutes=3))
    page.goto(f"{live_server}/console/{SCANNED}")
    expect(page.locator("[data-hp]")).not_to_have_text("–")
    page.context.set_offline(True)
    logged = datetime.now(UTC)
    hit(page)
    expect(page.locator("span[data-pending]")).to_contain_text("1")
    page.context.set_offline(False)
    assert wait_until(lambda: len(stored_entries(app, [SCANNED])) == 1)
    [row] = stored_entries(app, [SCANNED])
    assert abs(row.at - logged) < timedelta(seconds=5), "placed at the real instant"


def test_an_entry_that_became_impossible_offline_comes_back_refused_in_words_and_on_the_board(
    app, demo, live_server, launch
):
    page = launch(None, locale="it-IT", service_workers="block", **PHONE)
    log_in_as_referee(page, live_server)
    page.goto(f"{live_server}/console/{SCANNED}")
    expect(page.locator("[data-hp]")).not_to_have_text("–")
    in_flight = set()
    page.on("request", lambda request: in_flight.add(request))
    page.on("requestfinished", lambda request: in_flight.discard(request))
    page.on("requestfailed", lambda request: in_flight.discard(request))
    page.context.set_offline(True)
    # A poll sent before the cut is answered before the kill below: the phone never sees it.
    while in_flight:
        page.wait_for_timeout(20)
    with app.app_context():  # meanwhile at the game desk, the organiser kills the character
        organiser = db.session.scalar(db.select(User).where(User.username == "organiser"))
        character = db.session.get(Character, SCANNED)
        record_entry(
            character,
            {
                "id": str(uuid.uuid4()),
                "kind": "kill",
                "at": rules.format_instant(datetime.now(UTC)),
                "reason": "ucciso al campo",
            },
            organiser,
        )
        db.session.commit()
    time.sleep(0.05)
    hit(page)
    expect(page.locator("span[data-pending]")).to_contain_text("1")
    page.context.set_offline(False)
    refused = page.locator('[data-feedback][data-kind="error"]')
    expect(refused).to_be_visible(timeout=15_000)
    expect(refused).to_contain_text("morto")
    with app.app_context():
        [row] = db.session.scalars(db.select(RefusedEntry)).all()
        assert (row.character_id, row.code, row.fields["kind"]) == (SCANNED, "dead", "hit")
    with app.test_client() as organiser_client:
        from tests.web.helpers import post_form

        post_form(
            organiser_client, "/login", {"username": "organiser", "password": "organiser-demo"}
        )
        board = organiser_client.get("/events/1/board").get_data(as_text=True)
    assert row.client_id in board


def test_the_players_page_offline_shows_the_last_state_with_its_age(app, demo, server, launch):
    with app.app_context():
        character = db.session.get(Character, SCANNED)
        secret, hp = character.player_secret, character.larp["hp_max"]
    page = launch(None, locale="it-IT", **PHONE)
    page.goto(f"{server.url}/p/{secret}")
    kept = f"async () => Boolean(await caches.match('/p/{secret}'))"
    assert wait_until(lambda: page.evaluate(kept)), "the player's page was not kept"
    with app.app_context():  # a referee logs a hit; the page follows it while online
        record_entry(
            db.session.get(Character, SCANNED),
            {"id": str(uuid.uuid4()), "kind": "hit", "at": rules.format_instant(datetime.now(UTC))},
            None,
        )
        db.session.commit()
    expect(page.locator("[data-stat=hp] b")).to_have_text(str(hp - 1), timeout=15_000)

    network(page, server, on=False)
    response = page.reload()
    assert response.from_service_worker
    expect(page.locator("[data-stat=hp] b")).to_have_text(str(hp - 1))  # the last state seen
    # At once (within 2 s of loading), as of when: its time of day and its age.
    age = page.locator("[data-age]")
    expect(age).to_be_visible(timeout=2000)
    expect(age).to_contain_text(re.compile(r"Alle \d\d:\d\d \(\d+ min fa\)"), timeout=100)


def test_a_new_version_is_offered_and_takes_over_with_its_own_caches(app, demo, server, launch):
    page = launch(None, locale="it-IT", **PHONE)
    log_in_as_referee(page, server.url)
    page.goto(f"{server.url}/scan")
    ready_for_offline(page)
    names = "async () => (await caches.keys()).filter((n) => n.startsWith('larp-')).sort()"
    before = page.evaluate(names)
    assert len(before) == 4  # the static files, and the pages in each of three languages

    app.config["PWA_RELEASE"] = "next"  # what a new release's files do to the version
    page.goto(f"{server.url}/referee/")  # a navigation makes the browser check the worker
    bar = page.locator("[data-update]")
    expect(bar).to_be_visible(timeout=15_000)
    with page.expect_navigation():
        bar.get_by_role("button").click()
    assert wait_until(lambda: len(page.evaluate(names)) == 4 and page.evaluate(names) != before)
    assert not set(page.evaluate(names)) & set(before), "the old version's caches are gone"


def test_a_phone_logged_out_while_offline_keeps_its_entries_and_says_so_until_logged_in(
    app, demo, live_server, launch
):
    page = launch(None, locale="it-IT", service_workers="block", **PHONE)
    log_in_as_referee(page, live_server)
    page.goto(f"{live_server}/console/{SCANNED}")
    expect(page.locator("[data-hp]")).not_to_have_text("–")
    # Its first roster whole on the phone: one still on its way when the session ends was
    # answered before it, and is kept until the next refresh says logged out.
    roster_kept(page)
    page.context.set_offline(True)
    hit(page)
    with app.app_context():  # the organiser ends the referee's sessions (a lost phone?)
        end_sessions(db.session.scalar(db.select(User).where(User.username == "referee")))
        db.session.commit()
    page.context.set_offline(False)
    warning = page.locator("[data-logged-out]")
    expect(warning).to_be_visible(timeout=15_000)
    expect(warning).to_contain_text("1")
    assert stored_entries(app, [SCANNED]) == []
    # The roster's own refresh back online is told logged out too: it forgets the roster
    # (it may answer a moment after the outbox's, which shows the warning).
    roster = "async () => (await import('/static/js/lib/roster.js')).rosterAt()"
    assert wait_until(lambda: page.evaluate(roster) is None), "the phone kept its roster"

    log_in_as_referee(page, live_server)
    page.goto(f"{live_server}/scan")
    assert wait_until(lambda: len(stored_entries(app, [SCANNED])) == 1)
    expect(page.locator("[data-logged-out]")).to_be_hidden()


def test_logging_out_leaves_no_roster_on_the_phone(app, demo, live_server, launch):
    page = launch(None, locale="it-IT", service_workers="block", **PHONE)
    log_in_as_referee(page, live_server)
    page.goto(f"{live_server}/scan")
    roster = "async () => (await import('/static/js/lib/roster.js')).rosterAt()"
    assert wait_until(lambda: page.evaluate(roster)), "the roster is not on the phone"
    with page.expect_navigation():  # the first touch on the scanner page, too
        page.locator("form[data-logout] button").click()
    assert page.evaluate(roster) is None
