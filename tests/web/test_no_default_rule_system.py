"""There is no default rule system: an event is created for the one its organiser chooses, and
a sheet names its rule system or takes its event's."""

import pytest

from larp_app import rules

from .helpers import data_sheet


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
