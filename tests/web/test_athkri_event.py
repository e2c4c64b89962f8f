"""An Athkri event through the same app: import, pages, console, API."""

import json
import uuid

import pytest

from larp_app.rules import format_instant
from larp_app.services.clock import now_utc

from .helpers import data_sheet, log_in, make_user, post_form

SHEET = data_sheet("athkri-sheet.json")


@pytest.fixture
def organiser(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    return client


@pytest.fixture
def character(organiser):
    made = post_form(
        organiser, "/events", {"name": "Naufragio", "ruleset": "athkri"}, page="/events"
    )
    event = made.headers["Location"]
    post_form(
        organiser,
        f"{event}/import/preview",
        {"pasted": json.dumps([SHEET])},
        page=f"{event}/import",
    )
    done = post_form(
        organiser,
        f"{event}/import/confirm",
        {"sheets": json.dumps([SHEET])},
        page=f"{event}/import",
    )
    assert done.status_code == 302
    return 1


@pytest.mark.parametrize(
    "page",
    [
        "/events/1",
        "/characters/1",
        "/events/1/print",
        "/events/1/settings",
        "/console/1",
        "/events/1/board",
        "/events/1/badges",
    ],
)
def test_every_page_of_an_athkri_event_opens(organiser, character, page):
    answer = organiser.get(page)
    assert answer.status_code == 200, page
    assert "Maurick" in answer.get_data(as_text=True) or page.endswith(("settings", "badges"))


def test_the_console_offers_the_athkri_conditions(organiser, character):
    page = organiser.get("/console/1").get_data(as_text=True)
    assert "confundido" in page and "Toque sanador" in page


def test_the_api_answers_the_athkri_wound_track(organiser, character):
    from .helpers import csrf_token

    token = csrf_token(organiser, "/events")
    hit = {
        "id": str(uuid.uuid4()),
        "kind": "hit",
        "at": format_instant(now_utc()),
        "damage": 20,
        "pierce": True,
    }
    answer = organiser.post(
        "/api/v1/characters/1/entries", json=hit, headers={"X-CSRFToken": token}
    )
    assert answer.status_code == 201, answer.json
    state = answer.json["state"]
    assert (state["hp"], state["level"], state["wound"]) == (0, "inconsciente", "dying")
    assert state["next_save_at"] is not None and state["next_failure_damage"] == 4


def test_an_athkri_event_saves_its_dice_seed_and_who_rolls_saves(organiser, character):
    from .test_organiser_pages import settings_form

    form = settings_form(organiser, "/events/1")
    form.update({"seed": "luna", "saves": "referee"})
    answer = post_form(organiser, "/events/1/settings", form, page="/events/1/settings")
    assert answer.status_code == 302
    page = organiser.get("/events/1/settings").get_data(as_text=True)
    assert 'value="luna"' in page and 'value="referee" selected' in page
