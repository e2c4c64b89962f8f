"""An Athkri event through the same app: import, pages, console, API."""

import html
import json
import re
import uuid
from datetime import timedelta

import pytest

from larp_app.extensions import db
from larp_app.models import Event
from larp_app.rules import format_instant
from larp_app.services.clock import now_utc

from .helpers import csrf_token, data_sheet, log_in, make_user, post_form

SHEET = data_sheet("athkri-sheet.json")


@pytest.fixture
def organiser(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    return client


def make_event(organiser, ruleset, sheet):
    """Create an event through the form and import one sheet; return the event's address."""
    made = post_form(
        organiser, "/events", {"name": "Naufragio", "ruleset": ruleset}, page="/events"
    )
    event = made.headers["Location"]
    post_form(
        organiser,
        f"{event}/import/preview",
        {"pasted": json.dumps([sheet])},
        page=f"{event}/import",
    )
    done = post_form(
        organiser,
        f"{event}/import/confirm",
        {"sheets": json.dumps([sheet])},
        page=f"{event}/import",
    )
    assert done.status_code == 302
    return event


@pytest.fixture
def character(organiser):
    make_event(organiser, "athkri", SHEET)
    return 1


def log_entry(client, character_id, kind, **fields):
    """Post an entry made now through the JSON API, as the console does."""
    entry = {"id": str(uuid.uuid4()), "kind": kind, "at": format_instant(now_utc()), **fields}
    token = csrf_token(client, "/events")
    return client.post(
        f"/api/v1/characters/{character_id}/entries", json=entry, headers={"X-CSRFToken": token}
    )


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
    answer = log_entry(organiser, character, "hit", damage=20, pierce=True)
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


# A 1o3d10 on demand -------------------------------------------------------------------------


def test_the_api_rolls_a_1o3d10_and_lists_it_with_the_recent_rolls(organiser, character):
    answer = log_entry(organiser, character, "dice", level=1, bonus=3, difficulty=15)
    assert answer.status_code == 201, answer.json
    roll = answer.json["state"]["rolls"][-1]
    assert (roll["what"], roll["keep"], roll["bonus"], roll["target"]) == ("dice", "highest", 3, 15)
    assert roll["kept"] == max(roll["dice"]) and roll["success"] == (roll["total"] >= 15)
    assert answer.json["entry"]["level"] == 1


def test_a_badly_wounded_characters_1o3d10_is_one_level_lower(organiser, character):
    log_entry(organiser, character, "hit", damage=16, pierce=True)  # PS 4 = Físico: Malherido
    roll = log_entry(organiser, character, "dice").json["state"]["rolls"][-1]
    assert (roll["keep"], roll["kept"]) == ("lowest", min(roll["dice"]))


def test_an_ex_nihilo_event_refuses_a_1o3d10_in_words(organiser):
    make_event(organiser, "ex-nihilo", data_sheet())
    answer = log_entry(organiser, 1, "dice")
    assert (answer.status_code, answer.json["error"]) == (409, "not_in_ruleset")
    # The kind named in words (Athkri's), never its key.
    assert answer.json["message"] == "this event's rule system has no 1o3d10 roll entries"


def test_the_console_offers_a_1o3d10_roll_with_the_five_difficulties(organiser, character):
    page = organiser.get("/console/1").get_data(as_text=True)
    # The More sheet's button is shown by the script for a rule system declaring the kind.
    assert "data-dice-open hidden" in page
    assert '<dialog class="dice" data-dialog="dice" data-dice' in page
    options = re.findall(r'<option value="(\d+)">', page)
    assert options == ["9", "12", "15", "18", "21"]


def test_the_1o3d10_script_comes_from_athkris_package_and_is_kept_offline(organiser, character):
    page = organiser.get("/console/1").get_data(as_text=True)
    config = json.loads(html.unescape(re.search(r'data-config="([^"]*)"', page).group(1)))
    script = config["console_modules"]["athkri"]
    assert script == "/rulesets/athkri/static/console.js"
    answer = organiser.get(script)
    assert (answer.status_code, answer.mimetype) == (200, "text/javascript")
    assert "export function setUp" in answer.get_data(as_text=True)
    worker = organiser.get("/sw.js").get_data(as_text=True)
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", worker, re.S).group(1))
    assert script in precache


def test_the_openapi_document_lists_the_1o3d10_entry(client):
    entry = client.get("/api/v1/openapi.json").json["components"]["schemas"]["Entry"]
    assert {"save", "roll", "dice"} <= set(entry["discriminator"]["mapping"])


# Turn length ------------------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "seconds"), [("athkri", 10), ("ex-nihilo", 1)])
def test_a_new_event_takes_its_rule_systems_turn_length(app, organiser, ruleset, seconds):
    made = post_form(organiser, "/events", {"name": "Nueva", "ruleset": ruleset}, page="/events")
    with app.app_context():
        settings = db.session.get(Event, 1).settings
        assert settings == {"turn_seconds": seconds, "secret": settings["secret"]}
    page = organiser.get(f"{made.headers['Location']}/settings").get_data(as_text=True)
    assert f'name="turn_seconds" inputmode="decimal" value="{seconds}"' in page


def test_an_organiser_still_sets_another_turn_length(app, organiser, character):
    from .test_organiser_pages import settings_form

    form = {**settings_form(organiser, "/events/1"), "turn_seconds": "6"}
    post_form(organiser, "/events/1/settings", form, page="/events/1/settings")
    with app.app_context():
        assert db.session.get(Event, 1).settings["turn_seconds"] == 6


def test_an_event_made_through_the_api_keeps_the_turn_length_it_was_given(app, tokens, client):
    answer = client.post(
        "/api/v1/events",
        json={"name": "Api", "ruleset": "athkri", "settings": {"turn_seconds": 3}},
        headers={"Authorization": f"Bearer {tokens['organiser']}"},
    )
    with app.app_context():
        settings = db.session.get(Event, answer.json["id"]).settings
        assert settings == {"turn_seconds": 3, "secret": settings["secret"]}


# Dice no client can steer -------------------------------------------------------------


def test_every_new_event_has_its_own_dice_secret_kept_when_settings_change(app, organiser):
    from .test_organiser_pages import settings_form

    for name in ("Uno", "Dos"):
        post_form(organiser, "/events", {"name": name, "ruleset": "athkri"}, page="/events")
    with app.app_context():
        first, second = (db.session.get(Event, i).settings["secret"] for i in (1, 2))
    assert len(first) >= 32 and first != second
    form = {**settings_form(organiser, "/events/1"), "seed": "luna"}
    post_form(organiser, "/events/1/settings", form, page="/events/1/settings")
    with app.app_context():
        assert db.session.get(Event, 1).settings["secret"] == first
    assert first not in organiser.get("/events/1/settings").get_data(as_text=True)


def test_no_answer_a_referee_gets_holds_the_dice_secret(app, client, character):
    make_user(app, "rita", "referee")
    with app.app_context():
        secret = db.session.get(Event, 1).settings["secret"]
    client.get("/logout")
    log_in(client, "rita")
    answers = [
        log_entry(client, character, "hit", damage=20, pierce=True),
        client.get("/api/v1/roster"),
        client.get("/api/v1/events/1/roster"),
        client.get(f"/api/v1/characters/{character}"),
        client.get(f"/api/v1/characters/{character}/state"),
        client.get(f"/api/v1/characters/{character}/entries"),
        client.get(f"/console/{character}"),
    ]
    for answer in answers:
        assert answer.status_code in (200, 201), answer.request.path
        assert secret not in answer.get_data(as_text=True), answer.request.path


def test_the_apps_dice_come_from_the_events_secret_and_replay_with_its_settings(app, organiser):
    from larp_app import rules
    from larp_app.services.entries import log_of

    make_event(organiser, "athkri", SHEET)
    answer = log_entry(organiser, 1, "hit", damage=20, pierce=True)
    with app.app_context():
        event = db.session.get(Event, 1)
        settings = rules.read_settings(event.settings, "athkri")
        character = event.characters[0]
        sheet = rules.convert_sheet(character.tabletop, settings)
        entries = log_of(character)
    at = rules.parse_instant(answer.json["state"]["at"]) + timedelta(minutes=2)
    replayed = rules.state_at(sheet, settings, entries, at).to_dict()
    with app.app_context():
        served = organiser.get(f"/api/v1/characters/1/state?at={format_instant(at)}").json
    assert replayed["rolls"] == served["rolls"] and served["rolls"]


def test_the_import_preview_warns_about_points_that_disagree_with_fisico(organiser):
    """The warning names the field, in the organiser's preview."""
    made = post_form(
        organiser, "/events", {"name": "Naufragio", "ruleset": "athkri"}, page="/events"
    )
    event = made.headers["Location"]
    answer = post_form(
        organiser,
        f"{event}/import/preview",
        {
            "pasted": json.dumps(
                [{**SHEET, "ps_max": 30}, {**SHEET, "character": "Otra", "ps_max": 3}]
            )
        },
        page=f"{event}/import",
    )
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "Maximum Puntos de Salud (PS): is 30: damage of 24 (Físico × 6) kills while" in page
    assert (
        "Maximum Puntos de Salud (PS): is 3: at or below Físico (4), the character starts Malherido"
        in page
    )


def test_where_referees_enter_saves_the_api_asks_for_the_indefenso_save(organiser, character):
    """The seed: "ha de superar una Tirada de salvación de Físico a Dificultad 13"."""
    from .test_organiser_pages import settings_form

    form = {**settings_form(organiser, "/events/1"), "saves": "referee"}
    post_form(organiser, "/events/1/settings", form, page="/events/1/settings")
    log_entry(organiser, character, "status_on", key="indefenso")
    state = log_entry(organiser, character, "hit", damage=8, pierce=True).json["state"]
    assert state["indefenso_save_due"] == 1
    failed = log_entry(organiser, character, "save", success=False)
    assert failed.status_code == 201, failed.json
    assert (failed.json["state"]["wound"], failed.json["state"]["indefenso_save_due"]) == (
        "dead",
        0,
    )
    assert 'data-due="indefenso_save_due" hidden' in organiser.get("/console/1").get_data(
        as_text=True
    )


@pytest.mark.parametrize("page", ["/characters/1", "/events/1/print"])
def test_the_athkri_larp_sheet_shows_fisico_its_thresholds_and_mana(organiser, character, page):
    """The seed: "Un individuo queda Malherido cuando sus Puntos de Salud son igual o
    menos que su valor en Físico"; death at damage Físico x6; Indefenso at Físico x2."""
    html = organiser.get(page, headers={"Accept-Language": "en"}).get_data(as_text=True)
    text = re.sub(r"<[^>]+>", "", html)
    # Each figure once, in the page's language, the seed's term inside (never doubled).
    assert "Físico (body)4" in text and "(Físico)" not in text
    assert "Malherido (badly wounded) at PS ≤4" in text
    assert "Muerto (dead) at damage ≥ (Físico × 6)24" in text
    assert "calls for a Físico save at 13" in text and "pide una" not in text
    assert "Mana (Maná)15" in text


def test_the_athkri_demo_sheets_carry_the_new_figures(app):
    from larp_app.services.demo import load_demo

    with app.app_context():
        event = db.session.get(Event, load_demo().athkri_event_id)
        larp = event.characters[0].larp
    assert [f["key"] for f in larp["figures"]] == [
        "fisico",
        "malherido_at_ps",
        "dead_at_damage",
        "indefenso_blow",
    ]
    assert larp["energy_name"]["es"] == "Maná"


def test_the_board_and_the_log_name_dice_rolls_and_saves_in_words(organiser, character):
    """Dice, roll and save read in words on the board, not as their keys."""
    assert log_entry(organiser, character, "dice", bonus=2, difficulty=12).status_code == 201
    assert log_entry(organiser, character, "roll", key="confundido").status_code in (201, 409)
    assert log_entry(organiser, character, "save", success=True).status_code == 409  # awake
    board = re.sub(
        r"\s+",
        " ",
        re.sub(r"<[^>]+>", " ", organiser.get("/events/1/board").get_data(as_text=True)),
    )
    assert "1o3d10 roll 1o3d10 +2 / 12" in board
    assert "Condition roll confundido" in board
    assert "Físico save" in board  # among the refused entries
    page = organiser.get("/characters/1", headers={"Accept-Language": "es"}).get_data(as_text=True)
    assert "Tirada 1o3d10" in page and "Tirada de condición" in page
