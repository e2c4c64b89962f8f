"""The toy rule system of tests/toy_ruleset logs its own kind of entry on the
console, through the form its declaration describes (nothing in static/js names it)."""

import pytest
from playwright.sync_api import expect

from larp_app.extensions import db
from larp_app.services.characters import import_sheets
from larp_app.services.events import create_event
from larp_app.services.users import create_user

from .test_console_in_chromium import open_console


@pytest.fixture
def toy_character(app, toy_ruleset):
    with app.app_context():
        event = create_event("Toy night", "toy")
        (character,) = import_sheets(
            event, [{"ruleset": "toy", "player": "Ada", "character": "Brom", "vigour": 4}]
        )
        create_user("toy-referee", "referee", "a-long-password")
        db.session.commit()
        return character.id


def test_the_console_logs_a_rally_from_its_declared_form(live_server, phone, toy_character):
    open_console(phone, live_server, toy_character, "toy-referee", "a-long-password")
    phone.get_by_role("button", name="Colpo", exact=True).click()
    expect(phone.locator("[data-hp]")).to_have_text("3")
    phone.get_by_role("button", name="Altro", exact=True).click()
    phone.get_by_role("button", name="Riscossa", exact=True).click()
    dialog = phone.locator('[data-dialog="declared"]')
    expect(dialog.locator("[data-declared-title]")).to_have_text("Riscossa")
    dialog.locator("input[name=cry]").fill("Per la collina!")
    dialog.get_by_role("button", name="Registra", exact=True).click()
    expect(phone.locator("[data-hp]")).to_have_text("4")
    expect(phone.locator("[data-feedback]")).to_contain_text("Registrato")
