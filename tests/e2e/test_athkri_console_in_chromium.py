"""The referee console for a Sistema Athkri character on a 360 px phone
(larp_app/rulesets/athkri/README.md)."""

import re

import pytest
from playwright.sync_api import expect

from larp_app.extensions import db
from larp_app.models import Character, Event
from larp_app.services.demo import load_demo
from larp_app.services.events import change_settings

from .test_console_in_chromium import open_console


@pytest.fixture
def athkri(app):
    """An Athkri demo character; its event's turn is a minute, so a save can be watched."""
    with app.app_context():
        event = db.session.get(Event, load_demo().athkri_event_id)
        change_settings(event, {**event.settings, "turn_seconds": 60})
        db.session.commit()
        chosen = next(
            c
            for c in db.session.scalars(
                db.select(Character).where(Character.event_id == event.id).order_by(Character.id)
            )
            # knocked out, not killed, by a blow of all its points
            if c.larp["hp_max"] < c.larp["thresholds"]["dead_at_damage"]
        )
        return {
            "id": chosen.id,
            "hp": chosen.larp["hp_max"],
            "fisico": chosen.larp["attributes"]["fisico"],
        }


@pytest.fixture
def phone_locale():
    """The phone asks for English."""
    return "en-GB"


def knock_out(page, points):
    """One pierce blow of ``points`` damage, typed."""
    page.fill("[data-damage]", str(points))
    expect(page.locator("[data-damage]")).to_have_value(str(points))
    page.click("[data-pierce]")
    expect(page.locator("[data-hit-copy]")).to_have_text(f"1 × {points}")  # what it logs
    page.locator('.bar-main [data-action="hit"]').click()


def more(page):
    """The "More" sheet, open."""
    page.locator('.bar-main [data-open="more"]').click()
    sheet = page.locator('[data-dialog="more"]')
    expect(sheet).to_be_visible()
    return sheet


def put_on(page, condition):
    """A condition put on through the console's status picker."""
    more(page).get_by_role("button", name="Status", exact=True).click()
    page.locator("[data-status-picker] button", has_text=condition).click()
    expect(page.locator("[data-statuses] li", has_text=condition)).to_have_count(1)


def roll(page, condition):
    """Roll a held condition's check from the "More" sheet; the answer that says it."""
    more(page).get_by_role("button", name=f"Roll {condition}").click()
    said = page.locator('[data-feedback][data-kind="roll"]')
    expect(said).to_be_visible()
    return said


def test_a_fresh_athkri_character_is_stable_and_shows_no_save(live_server, phone, athkri):
    open_console(phone, live_server, athkri["id"])
    expect(phone.locator("[data-wound-word]")).to_have_text("Estable (stable)")
    expect(phone.locator("[data-save]")).to_be_hidden()
    # The checks offered are those of the conditions held: none yet, Confused once put on.
    expect(more(phone).get_by_role("button", name="Roll Confused")).to_be_hidden()
    # The seed has no coup de grâce, nor damage types (larp_app/rulesets/athkri/README.md).
    expect(phone.locator('[data-open="coup"]')).to_be_hidden()
    expect(phone.locator("[data-damage-type]")).to_have_count(0)
    phone.get_by_role("button", name="Cancel").first.click()
    put_on(phone, "Confused")
    expect(more(phone).get_by_role("button", name="Roll Confused")).to_be_visible()


def test_a_pierce_blow_of_every_point_knocks_out_with_a_save_ticking(live_server, phone, athkri):
    open_console(phone, live_server, athkri["id"])
    knock_out(phone, athkri["hp"])
    expect(phone.locator("[data-hp]")).to_have_text("0")
    expect(phone.locator("[data-wound-word]")).to_have_text("Inconsciente (unconscious)")
    expect(phone.locator("[data-save]")).to_be_visible()
    expect(phone.locator("[data-save-left]")).to_have_text(re.compile(r"^0[01]:\d\d$"))
    first = phone.inner_text("[data-save-left]")
    expect(phone.locator("[data-save-left]")).not_to_have_text(first, timeout=3000)  # ticking
    expect(phone.locator("[data-failure-cost]")).to_have_text(str(athkri["fisico"]))
    expect(phone.locator("[data-referee-saves]")).to_be_hidden()  # the app rolls the saves
    turns = int(phone.inner_text("[data-turns-left]"))
    assert turns >= 1
    assert f"Turns until death if every save fails: {turns}" in phone.inner_text(".console")
    assert "a failure: −" in phone.inner_text("[data-track]")


def test_where_referees_roll_saves_a_failed_one_costs_fisico(app, live_server, phone, athkri):
    """ "Al comienzo de cada Turno, ha de realizar una Tirada de salvación": one a turn, the
    first when the turn after the knock-out begins; a tap too soon is refused in words."""
    with app.app_context():
        event = db.session.get(Character, athkri["id"]).event
        change_settings(event, {**event.settings, "saves": "referee", "turn_seconds": 6})
        db.session.commit()
    open_console(phone, live_server, athkri["id"])
    knock_out(phone, athkri["hp"])
    expect(phone.locator("[data-failure-cost]")).to_have_text(str(athkri["fisico"]))
    expect(phone.locator("[data-save-left]")).to_have_text("00:00", timeout=10000)
    more(phone).get_by_role("button", name="Save failed").click()
    expect(phone.locator("[data-hp]")).to_have_text(str(-athkri["fisico"]))
    expect(phone.locator("[data-failure-cost]")).to_have_text(str(2 * athkri["fisico"]))
    more(phone).get_by_role("button", name="Save failed").click()  # a second, the same turn
    expect(phone.locator("[data-feedback]")).to_contain_text("one save a turn")
    expect(phone.locator("[data-hp]")).to_have_text(str(-athkri["fisico"]))


def test_where_referees_roll_saves_the_console_asks_for_the_indefenso_save(
    app, live_server, phone, athkri
):
    """The seed: "Si un personaje sufre daño estando Indefenso, y el resultado es igual o más
    que su valor de Físico x2, ha de superar una Tirada de salvación de Físico a Dificultad
    13; si falla, muere sin remedio"."""
    with app.app_context():
        event = db.session.get(Character, athkri["id"]).event
        change_settings(event, {**event.settings, "saves": "referee"})
        db.session.commit()
    open_console(phone, live_server, athkri["id"])
    expect(phone.locator(".sheet-row[data-due]")).to_be_hidden()
    phone.get_by_role("button", name="More", exact=True).click()
    phone.get_by_role("button", name="Status", exact=True).click()
    phone.locator("[data-status-picker] button", has_text="Helpless").click()
    expect(phone.locator("[data-statuses] li")).to_have_count(1)
    knock_out(phone, 2 * athkri["fisico"])
    expect(phone.locator("p[data-due]")).to_contain_text("a failure kills")
    asked = more(phone).locator(".sheet-row[data-due]")
    expect(asked).to_be_visible()
    asked.get_by_role("button", name=re.compile("failed")).click()
    expect(phone.locator("[data-wound-word]")).to_have_text("Muerto (dead)")
    expect(asked).to_be_hidden()


def test_roll_confusion_shows_the_d100_and_the_behaviour(live_server, phone, athkri):
    open_console(phone, live_server, athkri["id"])
    put_on(phone, "Confused")
    result = roll(phone, "Confused")
    die = int(re.search(r"d100 (\d+)", result.inner_text()).group(1))
    assert 1 <= die <= 100
    behaviours = {
        range(1, 26): "Acts normally.",
        range(26, 51): "Does nothing, only babbles incoherently.",
        range(51, 76): "Hits itself with its equipped weapon.",
        range(76, 101): "Attacks the nearest creature with whatever it can.",
    }
    expected = next(text for rows, text in behaviours.items() if die in rows)
    assert expected in result.inner_text()
    assert f"d100 {die}" in result.inner_text()
    # and the roll is listed with the recent ones, with what it meant
    expect(phone.locator("[data-rolls] li").first).to_contain_text(f"d100 {die}: ")
    expect(phone.locator("[data-rolls] li").first).to_contain_text(expected)


def test_a_percentage_check_says_whether_it_failed(live_server, phone, athkri):
    open_console(phone, live_server, athkri["id"])
    put_on(phone, "Paralysed")
    result = roll(phone, "Paralysed")
    text = result.inner_text()
    die = int(re.search(r"d100 (\d+)", text).group(1))
    if die <= 50:
        assert "failed" in text and "the declared Action is lost" in text
    else:
        assert "no effect" in text


def test_the_athkri_console_fits_a_360_px_phone(live_server, phone, athkri):
    open_console(phone, live_server, athkri["id"])
    knock_out(phone, athkri["hp"])
    expect(phone.locator("[data-save]")).to_be_visible()
    put_on(phone, "Confused")
    roll(phone, "Confused")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    small = phone.evaluate("""() => [...document.querySelectorAll('.console button')]
        .filter(e => e.offsetParent && e.getBoundingClientRect().height < 47.5)
        .map(e => e.outerHTML.slice(0, 60))""")
    assert small == []
