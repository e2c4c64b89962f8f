"""A third rule system defined only under tests/ (tests/toy_ruleset) runs end to end
through the same interface as EX Nihilo and Sistema Athkri: nothing in the app names it."""

import dataclasses
import html
import json
import re
import uuid

import pytest

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character

from .helpers import log_in, make_user

SHEETS = [
    {
        "ruleset": "toy",
        "player": "Ada",
        "character": "Brom the Bold",
        "faction": "Hill",
        "vigour": 4,
        "knacks": ["Juggling", "Bellowing"],
    },
    {"ruleset": "toy", "player": "Bea", "character": "Quill", "vigour": 2},
]


@pytest.fixture
def toy_event(client, organiser, toy_ruleset):
    made = client.post(
        "/api/v1/events", json={"name": "Toy night", "ruleset": "toy"}, headers=organiser
    )
    assert made.status_code == 201, made.json
    event_id = made.json["id"]
    imported = client.post(f"/api/v1/events/{event_id}/characters", json=SHEETS, headers=organiser)
    assert imported.status_code == 201, imported.json
    return event_id, [c["id"] for c in imported.json["characters"]]


def rally(cry="Onward!", **more):
    return {
        "id": str(uuid.uuid4()),
        "kind": "rally",
        "at": rules.format_instant(rules.parse_instant("2020-01-01T00:00:00Z")),
        "cry": cry,
        **more,
    }


def now_entry(kind, **fields):
    from larp_app.services.clock import now_utc

    return {"id": str(uuid.uuid4()), "kind": kind, "at": rules.format_instant(now_utc()), **fields}


def text(answer) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", answer.get_data(as_text=True)))


@pytest.fixture
def browser(app, client):
    make_user(app, "boss", "organiser")
    log_in(client, "boss")
    return client


def test_toy_sheets_import_into_larp_sheets_of_its_own(client, organiser, toy_event):
    _, (brom, _) = toy_event
    sheet = client.get(f"/api/v1/characters/{brom}", headers=organiser).json
    assert sheet["larp_sheet"]["hp_max"] == 4
    assert sheet["larp_sheet"]["knacks"] == ["Juggling", "Bellowing"]


def test_a_bad_toy_sheet_is_refused_naming_the_field(client, organiser, toy_event):
    event_id, _ = toy_event
    bad = {**SHEETS[1], "vigour": 11}
    answer = client.post(f"/api/v1/events/{event_id}/characters", json=bad, headers=organiser)
    assert answer.status_code == 422
    assert "vigour" in json.dumps(answer.json)


def test_the_toy_larp_sheet_prints_with_its_own_part(browser, toy_event):
    event_id, _ = toy_event
    page = browser.get(f"/events/{event_id}/print")
    assert page.status_code == 200
    shown = text(page)
    assert "Brom the Bold" in shown and "Quill" in shown
    assert "Vigour4" in shown.replace(" ", "").replace("\n", "")
    assert "Juggling" in shown and "Bellowing" in shown


def test_the_toy_kind_is_logged_through_the_api_and_changes_the_state(
    client, organiser, referee, toy_event
):
    _, (brom, _) = toy_event
    url = f"/api/v1/characters/{brom}/entries"
    hit = client.post(url, json=now_entry("hit", damage=3), headers=referee)
    assert hit.json["state"]["hp"] == 1
    rallied = client.post(
        url, json=now_entry("rally", cry="For the hill!", points=2), headers=referee
    )
    assert rallied.status_code == 201, rallied.json
    assert rallied.json["state"]["hp"] == 3
    bad = client.post(url, json=now_entry("rally", points=2), headers=referee)
    assert bad.status_code == 422
    assert "cry" in json.dumps(bad.json)


def test_an_ex_nihilo_event_refuses_the_toy_kind_by_name(
    client, referee, character_id, toy_ruleset
):
    url = f"/api/v1/characters/{character_id}/entries"
    answer = client.post(url, json=now_entry("rally", cry="Onward"), headers=referee)
    assert answer.status_code in (409, 422), answer.json
    assert "rally" in json.dumps(answer.json)


def test_the_console_offers_the_toy_kind_as_a_form_with_its_words(browser, toy_event):
    _, (brom, _) = toy_event
    page = browser.get(f"/console/{brom}")
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    assert 'data-kind_rally="Rally"' in body
    config = json.loads(html.unescape(re.search(r'data-config="([^"]*)"', body).group(1)))
    kinds = config["event"]["kinds"]
    assert [k["key"] for k in kinds] == ["rally"]
    assert kinds[0]["label"] == "Rally"
    assert {f["name"]: (f["type"], f["required"], f["label"]) for f in kinds[0]["fields"]} == {
        "cry": ("string", True, "Battle cry"),
        "points": ("integer", False, "Points back"),
    }


def test_the_board_and_the_player_page_show_the_toy_kind_in_words(
    app, client, browser, referee, toy_event
):
    event_id, (brom, _) = toy_event
    url = f"/api/v1/characters/{brom}/entries"
    client.post(url, json=now_entry("hit", damage=1), headers=referee)
    client.post(url, json=now_entry("rally", cry="For the hill!"), headers=referee)
    board = text(browser.get(f"/events/{event_id}/board"))
    assert "Rally +1 · For the hill!" in " ".join(board.split())
    with app.app_context():
        secret = db.session.get(Character, brom).player_secret
    player = client.get(f"/p/{secret}")
    assert player.status_code == 200
    assert "Juggling" in text(player)
    log = text(browser.get(f"/characters/{brom}"))
    assert "Rally +1 · For the hill!" in " ".join(log.split())


def test_the_cli_lists_the_declared_kinds_with_their_fields(runner, toy_ruleset):
    everything = runner.invoke(args=["log", "kinds"])
    assert everything.exit_code == 0, everything.output
    lines = {line.split("\t")[0]: line.split("\t") for line in everything.output.splitlines()}
    assert lines["heal"] == ["heal", "Heal", "organiser,referee", "amount*"]
    assert lines["revive"][2] == "organiser"
    assert lines["rally"] == ["rally", "Rally", "organiser,referee", "cry* points"]
    assert {"dice", "roll", "save"} <= set(lines)
    ex_nihilo = runner.invoke(args=["log", "kinds", "--ruleset", "ex-nihilo"]).output
    assert "rally" not in ex_nihilo and "dice" not in ex_nihilo and "heal" in ex_nihilo
    unknown = runner.invoke(args=["log", "kinds", "--ruleset", "nobody"])
    assert unknown.exit_code != 0


def test_the_toy_sheet_schema_gives_it_a_spreadsheet_and_a_form(browser, toy_event):
    from larp_app.services.sheet_files import read_sheet_file

    event_id, characters = toy_event
    page = browser.get(f"/events/{event_id}/import").get_data(as_text=True)
    assert "template.csv" in page
    template = browser.get(f"/events/{event_id}/import/template.csv")
    assert template.data.decode("utf-8-sig").startswith("player,character,faction,vigour,knacks")
    sheets, rows = read_sheet_file("player,character,vigour\nAda,Brom,4\n", "cast.csv", "toy")
    assert (sheets, rows) == ([{"player": "Ada", "character": "Brom", "vigour": 4}], [2])
    sheets, rows = read_sheet_file(json.dumps(SHEETS), "cast.json", "toy")
    assert (len(sheets), rows) == (2, [1, 2])
    form = browser.get(f"/characters/{characters[0]}/sheet").get_data(as_text=True)
    assert 'name="vigour"' in form and 'type="number"' in form and 'name="knacks.count"' in form


def test_a_rule_system_without_a_sheet_schema_reads_only_json(browser, toy_ruleset):
    from larp_app.services.sheet_files import read_sheet_file

    plain = dataclasses.replace(toy_ruleset, key="plain", sheet_schema=None)
    rules.register(plain)
    try:
        with pytest.raises(rules.InvalidInput) as refused:
            read_sheet_file("player,character\nAda,Brom\n", "cast.csv", "plain")
        assert [(p.path, p.code) for p in refused.value.problems] == [("file", "no_csv_format")]
        assert browser.get("/rulesets/plain/sheet").status_code == 404
    finally:
        rules.unregister("plain")
