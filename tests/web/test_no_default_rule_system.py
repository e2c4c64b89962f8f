"""There is no default rule system: an event is created for the one its organiser chooses, and
a sheet names its rule system or takes its event's."""

import html
import re

import pytest
from flask_babel import force_locale

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Event
from larp_app.reads.words import ruleset_name

from .helpers import data_sheet, log_in, make_user, post_form
from .test_wording import speak


def test_a_sheet_naming_no_rule_system_and_read_for_no_event_is_refused_at_its_ruleset():
    sheet = {k: v for k, v in data_sheet().items() if k != "ruleset"}
    with pytest.raises(rules.InvalidInput) as refused:
        rules.convert_sheet(sheet)
    assert [(p.path, p.code) for p in refused.value.problems] == [("ruleset", "required")]


def test_a_sheet_naming_no_rule_system_takes_its_events(client, organiser, event_id):
    sheet = {k: v for k, v in data_sheet().items() if k != "ruleset"}
    imported = client.post(f"/api/v1/events/{event_id}/characters", json=sheet, headers=organiser)
    assert imported.status_code == 201, imported.json


@pytest.mark.parametrize("body", [{"name": "Notte"}, {"name": "Notte", "ruleset": ""}])
def test_an_event_without_a_chosen_rule_system_is_refused_naming_the_field(client, organiser, body):
    answer = client.post("/api/v1/events", json=body, headers=organiser)
    assert answer.status_code == 422
    assert answer.json["fields"] == {"ruleset": "is required"}


def test_the_command_line_asks_for_the_rule_system(runner):
    answer = runner.invoke(args=["event", "create", "Notte"])
    assert answer.exit_code != 0
    assert "--ruleset" in answer.output


@pytest.fixture
def organiser_page(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    return client


def rule_system_select(page: str) -> str:
    return re.search(r'<select[^>]*name="ruleset"[^>]*>.*?</select>', page, re.S).group(0)


@pytest.mark.parametrize(
    ("lang", "choose"), [("en", "— choose —"), ("it", "— scegli —"), ("es", "— elige —")]
)
def test_the_event_form_asks_for_a_rule_system_with_an_empty_first_choice(
    organiser_page, lang, choose
):
    speak(organiser_page, lang)
    page = html.unescape(organiser_page.get("/events").get_data(as_text=True))
    select = rule_system_select(page)
    assert "required" in select.split(">", 1)[0]
    options = re.findall(r'<option value="([^"]*)"([^>]*)>([^<]*)</option>', select)
    assert options[0][0] == "" and options[0][2].strip() == choose
    assert [value for value, _, _ in options[1:]] == rules.ruleset_keys()
    assert not any("selected" in extra for _, extra, _ in options[1:])
    with force_locale(lang), organiser_page.application.test_request_context():
        names = [ruleset_name(key) for key in rules.ruleset_keys()]
    assert [label.strip() for _, _, label in options[1:]] == names
    assert not set(names) & set(rules.ruleset_keys())  # names, never the keys


@pytest.mark.parametrize(
    ("lang", "required"), [("en", "is required"), ("it", "obbligatorio"), ("es", "obligatorio")]
)
def test_an_event_form_left_without_a_rule_system_is_refused_at_the_field(
    app, organiser_page, lang, required
):
    speak(organiser_page, lang)
    answer = post_form(organiser_page, "/events", {"name": "Notte", "ruleset": ""}, page="/events")
    assert answer.status_code == 422
    page = html.unescape(answer.get_data(as_text=True))
    error = re.search(r'id="err-ruleset">([^<]*)<', page)
    assert error and required in error.group(1)
    assert 'value="Notte"' in page  # nothing typed is lost
    assert '<option value="" selected' in rule_system_select(page)
    with app.app_context():
        assert db.session.query(Event).count() == 0
