"""Offline, the phone shows what the server will decide, in a real Chromium.

Each situation: the character is brought to where it starts on the server, the phone opens
its console and loses the network (the server stopped), the referee taps; what the phone then
shows must be what the server shows once the network is back and the entries are stored.
"""

import re
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from playwright.sync_api import expect

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character, Event
from larp_app.services.demo import load_demo
from larp_app.services.entries import record_entry
from larp_app.services.events import change_settings

from .test_console_in_chromium import open_console
from .test_offline_in_chromium import network, outbox, ready_for_offline, wait_until

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SHOWN = {
    "hp": "[data-hp]",
    "ap": "[data-ap]",
    "energy": "[data-energy]",
    "wound": "[data-wound-word]",
}


@pytest.fixture
def phone_locale():
    return "en-GB"


def demo_character(app, ruleset, settings=None, **wanted):
    """A demo character of ``ruleset`` whose larp sheet has the ``wanted`` values."""
    with app.app_context():
        load_demo()
        characters = db.session.scalars(db.select(Character).order_by(Character.id)).all()
        chosen = next(
            c
            for c in characters
            if c.larp["ruleset"] == ruleset and all(c.larp.get(k) == v for k, v in wanted.items())
        )
        if settings:
            event = db.session.get(Event, chosen.event_id)
            change_settings(event, {**event.settings, **settings})
        db.session.commit()
        return chosen.id


def logged(app, character_id, *entries):
    """Entries stored on the server before the phone comes (a second ago, in order)."""
    with app.app_context():
        character = db.session.get(Character, character_id)
        start = datetime.now(UTC) - timedelta(seconds=len(entries) + 1)
        for i, fields in enumerate(entries):
            at = rules.format_instant(start + timedelta(seconds=i))
            record_entry(character, {"id": str(uuid.uuid4()), "at": at, **fields}, None)
        db.session.commit()


def go_offline(page, server, character_id):
    open_console(page, server.url, character_id)
    ready_for_offline(page)
    network(page, server, on=False)
    assert page.reload().from_service_worker  # the console from the phone's roster
    expect(page.locator("[data-hp]")).not_to_have_text("–")
    expect(page.locator(".console")).to_have_attribute("data-ready", "true")


def screen(page):
    """What the console shows: the numbers, the wound, when the character dies, armour."""
    shown = {name: page.inner_text(selector) for name, selector in SHOWN.items()}
    death = page.locator("[data-death]")
    shown["dies"] = death.get_attribute("data-at") if death.is_visible() else None
    shown["armour_destroyed"] = page.locator("[data-armour-destroyed]").is_visible()
    shown["level"] = (
        page.inner_text("[data-wound-word]") if page.locator("[data-track]").is_visible() else None
    )
    return shown


def same(offline, online):
    """Equal, but for the instants: the phone's clock and the server's differ by a little."""

    def instant(text):
        return None if not text else rules.parse_instant(text)

    for key in offline:
        if key == "dies":
            a, b = instant(offline[key]), instant(online[key])
            assert (a is None) == (b is None), (offline, online)
            assert a is None or abs(a - b) < timedelta(seconds=3), (offline, online)
        else:
            assert offline[key] == online[key], (key, offline, online)


def back_online(page, server):
    network(page, server, on=True)
    assert wait_until(lambda: all(i["status"] != "pending" for i in outbox(page)), seconds=30), (
        outbox(page)
    )
    expect(page.locator(".console")).to_have_attribute("data-preview", "false", timeout=15_000)
    with page.expect_response(lambda r: r.url.endswith("/state"), timeout=15_000) as polled:
        pass  # the console's next poll: the server's state now
    polled.value.finished()
    return screen(page)


def tap_hit(page, damage=1, pierce=False):
    for _ in range(damage - 1):
        page.get_by_role("button", name="More damage").click()
    if pierce:
        page.click("[data-pierce]")
    expect(page.locator("[data-hit-copy]")).to_have_text(f"1 × {damage}")  # what it logs
    page.locator('.bar-main [data-action="hit"]').click()


def not_yet_confirmed(page):
    expect(page.locator(".console")).to_have_attribute("data-preview", "true")
    expect(page.locator("[data-pending-note]")).to_contain_text("not yet confirmed")


def test_a_blow_at_no_points_shows_dying_with_its_countdown_offline(app, server, phone):
    character = demo_character(app, "ex-nihilo", ap_max=0, energy_max=4)
    logged(app, character, {"kind": "hit", "damage": 2})
    go_offline(phone, server, character)
    expect(phone.locator("[data-wound-word]")).to_have_text("gravely wounded")
    tap_hit(phone)
    not_yet_confirmed(phone)
    expect(phone.locator("[data-hp]")).to_have_text("-1")
    expect(phone.locator("[data-wound-word]")).to_have_text("dying")
    expect(phone.locator("[data-death-left]")).to_have_text(re.compile(r"^(10:00|09:5\d)$"))
    offline = screen(phone)
    same(offline, back_online(phone, server))


def test_a_heal_while_dying_counts_from_minus_one_offline(app, server, phone):
    character = demo_character(app, "ex-nihilo", ap_max=0, energy_max=4)
    logged(app, character, {"kind": "hit", "damage": 2}, {"kind": "hit"})
    go_offline(phone, server, character)
    expect(phone.locator("[data-wound-word]")).to_have_text("dying")
    phone.get_by_role("button", name="Heal", exact=True).click()
    not_yet_confirmed(phone)
    expect(phone.locator("[data-hp]")).to_have_text("0")
    expect(phone.locator("[data-wound-word]")).to_have_text("gravely wounded")
    expect(phone.locator("[data-death]")).to_be_hidden()
    offline = screen(phone)
    same(offline, back_online(phone, server))


def test_spending_more_energy_than_there_is_is_refused_at_once_offline(app, server, phone):
    character = demo_character(app, "ex-nihilo", ap_max=0, energy_max=3)
    go_offline(phone, server, character)
    # Five energy asked for by an entry already on the phone (the scanner's, another tab's).
    phone.evaluate(
        """async (id) => {
            const { queue } = await import('/static/js/lib/outbox.js');
            await queue(id, { id: crypto.randomUUID(), kind: 'spend_energy', amount: 5,
                              at: new Date().toISOString() }, 'referee', 'en');
        }""",
        character,
    )
    refused = phone.locator("[data-foreseen] [data-refused-entry]")
    expect(refused).to_contain_text("needs 5 energy, has 3")
    expect(refused).to_contain_text("the server will refuse it")
    expect(phone.locator("[data-energy]")).to_have_text("3")
    offline = screen(phone)
    online = back_online(phone, server)
    same(offline, online)
    assert any(
        i["status"] == "refused" and "needs 5 energy, has 3" in i["message"] for i in outbox(phone)
    )


def test_a_blow_that_breaks_the_armour_leaves_the_points_offline(app, server, phone):
    character = demo_character(
        app, "ex-nihilo", {"optional_rules": {"armour_breaks": True}}, ap_max=6, hp_max=3
    )
    go_offline(phone, server, character)
    tap_hit(phone, damage=12)
    not_yet_confirmed(phone)
    expect(phone.locator("[data-hp]")).to_have_text("3")
    expect(phone.locator("[data-armour-destroyed]")).to_be_visible()
    offline = screen(phone)
    assert offline["ap"] == "2"  # the worn armour is gone; Corpo's Armatura +X stays
    same(offline, back_online(phone, server))


@pytest.fixture
def athkri(app):
    """An Athkri character of 20 PS; a turn of a minute, so that the first save waits."""
    return demo_character(app, "athkri", {"turn_seconds": 60}, hp_max=20)


def test_an_athkri_blow_of_twenty_knocks_out_with_the_first_save_to_come(
    app, server, phone, athkri
):
    go_offline(phone, server, athkri)
    expect(phone.locator("[data-wound-word]")).to_have_text("Estable (stable)")
    tap_hit(phone, damage=20, pierce=True)
    not_yet_confirmed(phone)
    expect(phone.locator("[data-wound-word]")).to_have_text("Inconsciente (unconscious)")
    expect(phone.locator("[data-save]")).to_be_visible()
    expect(phone.locator("[data-save-left]")).to_have_text(re.compile(r"^0[01]:\d\d$"))
    offline = screen(phone)
    offline["save"] = phone.inner_text("[data-failure-cost]")
    online = back_online(phone, server)
    online["save"] = phone.inner_text("[data-failure-cost]")
    same(offline, online)


def test_a_roll_the_server_makes_is_to_be_rolled_offline_never_invented(app, server, phone, athkri):
    go_offline(phone, server, athkri)
    more = phone.locator('.bar-main [data-open="more"]')
    more.click()  # the check is offered for a condition held: put it on first
    phone.get_by_role("button", name="Status", exact=True).click()
    phone.locator("[data-status-picker] button", has_text="Confused").click()
    more.click()
    phone.get_by_role("button", name="Roll Confused").click()
    expect(phone.locator("[data-foreseen] [data-to-roll]")).to_have_text(
        "🎲 To be rolled by the server: Confused"
    )
    expect(phone.locator("[data-rolls-box]")).to_be_hidden()  # no die on the phone
    expect(phone.locator('[data-feedback][data-kind="roll"]')).to_be_hidden()
    network(phone, server, on=True)
    expect(phone.locator("[data-rolls-box]")).to_be_visible(timeout=30_000)
    expect(phone.locator("[data-foreseen]")).to_be_hidden()


def test_the_rule_systems_own_console_script_works_offline(app, server, phone, athkri):
    """Athkri's 1o3d10 comes from its package's script, kept by the service worker."""
    go_offline(phone, server, athkri)
    phone.locator('.bar-main [data-open="more"]').click()
    expect(phone.get_by_role("button", name="1o3d10 roll")).to_be_visible()


def test_a_save_due_offline_is_to_be_rolled_with_what_is_at_stake(app, server, phone):
    character = demo_character(app, "athkri", {"turn_seconds": 2}, hp_max=20)
    with app.app_context():
        fisico = db.session.get(Character, character).larp["attributes"]["fisico"]
    go_offline(phone, server, character)
    tap_hit(phone, damage=20, pierce=True)
    expect(phone.locator("[data-foreseen] [data-to-roll]")).to_have_text(
        f"🎲 To be rolled by the server: a save at 12; a failure costs {fisico} points",
        timeout=10_000,
    )
    expect(phone.locator("[data-hp]")).to_have_text("0")  # no die invented: nothing changed
    expect(phone.locator("[data-rolls-box]")).to_be_hidden()
    network(phone, server, on=True)
    expect(phone.locator("[data-rolls-box]")).to_be_visible(timeout=30_000)
    expect(phone.locator("[data-rolls]")).to_contain_text("Físico save")
