"""The rules the seeds state, as referees and organisers meet them: a save refused at once in
words, the console offering only what the rule system has, the end of session only where
the rule system declares it (larp_app/rulesets/athkri/README.md, ex_nihilo/README.md)."""

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
from larp_app.services.events import change_settings

from .helpers import csrf_token, data_sheet, log_in, make_user
from .test_athkri_event import make_event

ATHKRI = data_sheet("athkri-sheet.json")  # PS 20, Físico 4: dead at 24 damage
FRAIL = {**ATHKRI, "ps_max": 10}  # knocked out at 10 damage: a failed save (4) leaves it alive


@pytest.fixture
def organiser(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    return client


def referee_saves(app, turn_seconds=10):
    with app.app_context():
        event = db.session.get(Event, 1)
        change_settings(event, {**event.settings, "saves": "referee", "turn_seconds": turn_seconds})
        db.session.commit()


def post_entry(client, kind, seconds_ago=0, language="en", **fields):
    at = now_utc() - timedelta(seconds=seconds_ago)
    entry = {"id": str(uuid.uuid4()), "kind": kind, "at": format_instant(at), **fields}
    headers = {"X-CSRFToken": csrf_token(client, "/events"), "Accept-Language": language}
    return client.post("/api/v1/characters/1/entries", json=entry, headers=headers)


def console_config(client, language="en"):
    page = client.get("/console/1", headers={"Accept-Language": language}).get_data(as_text=True)
    return json.loads(html.unescape(re.search(r'data-config="([^"]*)"', page).group(1)))


def test_a_save_entered_before_the_first_turn_is_refused_at_once_saying_when(app, organiser):
    """ "Al comienzo de cada Turno, ha de realizar una Tirada de salvación de Físico": a save
    tapped at the knock-out is refused, in the referee's language, with the wait."""
    make_event(organiser, "athkri", ATHKRI)
    referee_saves(app)
    assert post_entry(organiser, "hit", damage=20, pierce=True).status_code == 201
    early = post_entry(organiser, "save", success=False)
    assert (early.status_code, early.json["error"]) == (409, "save_before_first_turn")
    assert re.fullmatch(
        r"the first save comes when the turn after the knock-out begins: in (9|10) s",
        early.json["message"],
    )
    spanish = post_entry(organiser, "save", language="es", success=False)
    assert spanish.json["message"].startswith("la primera tirada de salvación llega")
    state = organiser.get("/api/v1/characters/1/state").json
    assert (state["hp"], state["wound"]) == (0, "dying")


def test_a_second_save_in_the_same_turn_is_refused_in_words(app, organiser):
    """One save a turn: a second referee's tap at the same body is not a second failure."""
    make_event(organiser, "athkri", FRAIL)
    referee_saves(app)
    assert post_entry(organiser, "hit", seconds_ago=15, damage=10, pierce=True).status_code == 201
    assert post_entry(organiser, "save", success=False).status_code == 201
    again = post_entry(organiser, "save", language="it", success=False)
    assert (again.status_code, again.json["error"]) == (409, "save_already_made_this_turn")
    assert again.json["message"].startswith("il tiro salvezza di questo turno è già registrato")
    state = organiser.get("/api/v1/characters/1/state").json
    assert (state["hp"], state["damage"], state["wound"]) == (-4, 14, "dying")


def test_the_athkri_console_offers_no_coup_de_grace_and_no_damage_type(organiser):
    make_event(organiser, "athkri", ATHKRI)
    config = console_config(organiser)["event"]
    assert "coup_de_grace" not in config["handled_kinds"]
    assert {"hit", "heal", "save", "roll", "dice"} <= set(config["handled_kinds"])
    assert config["damage_types"] == []
    refused = post_entry(organiser, "coup_de_grace")
    assert (refused.status_code, refused.json["error"]) == (409, "not_in_ruleset")


def test_the_ex_nihilo_console_offers_the_coup_de_grace_and_its_damage_types_in_words(organiser):
    make_event(organiser, "ex-nihilo", data_sheet())
    config = console_config(organiser, "it")["event"]
    assert "coup_de_grace" in config["handled_kinds"]
    assert [(t["key"], t["name"]) for t in config["damage_types"]] == [
        ("physical", "Fisico"),
        ("heat", "Calore"),
        ("electricity", "Elettricità"),
    ]
    assert config["fold"]["damage_types"] == ["heat", "electricity"]


def test_an_intangible_character_shrugs_off_a_sword_but_not_a_flame_through_the_api(organiser):
    """ "Intangibile: immune ai danni da taglio, punta e contundenti. Continua a ricevere danno
    da Calore ed Elettricità." """
    make_event(organiser, "ex-nihilo", data_sheet())
    post_entry(organiser, "status_on", key="intangibile")
    sword = post_entry(organiser, "hit", damage=2)
    assert sword.status_code == 201
    assert (sword.json["state"]["hp"], sword.json["state"]["ap"]) == (3, 3)
    flame = post_entry(organiser, "hit", damage=4, damage_type="heat")
    assert (flame.json["state"]["hp"], flame.json["state"]["ap"]) == (2, 0)
    cold = post_entry(organiser, "hit", damage_type="cold")
    assert (cold.status_code, cold.json["error"]) == (409, "unknown_damage_type")
    assert cold.json["message"] == (
        "cold is not a damage type of this rule system (Physical, Heat, Electricity)"
    )  # the sender's word as sent, the rule system's types in words, never their keys
    page = organiser.get("/characters/1", headers={"Accept-Language": "it"})
    assert "1 × 4 · Calore" in page.get_data(as_text=True)  # the log names the type in words


@pytest.mark.parametrize(("ruleset", "offered"), [("athkri", False), ("ex-nihilo", True)])
def test_the_end_of_session_is_offered_only_where_the_rule_system_declares_it(
    app, organiser, ruleset, offered
):
    """EX Nihilo: "Un personaggio che finisce una sessione in status incosciente, senza nessun
    guaritore [...] viene automaticamente considerato morto"; Sistema Athkri's seed has no
    such rule: its unconscious save each turn until they stabilise or die."""
    make_event(organiser, ruleset, ATHKRI if ruleset == "athkri" else data_sheet())
    # Athkri: PS 20 to 0, unconscious; EX Nihilo: 3 points to 0, then dying.
    for damage in [20] if ruleset == "athkri" else [3, 1]:
        assert post_entry(organiser, "hit", damage=damage, pierce=True).status_code == 201
    wound = organiser.get("/api/v1/characters/1/state").json["wound"]
    assert wound == "dying"
    board = organiser.get("/events/1/board").get_data(as_text=True)
    assert ("/events/1/end-session" in board) is offered
    page = organiser.get("/events/1/end-session").get_data(as_text=True)
    assert ('name="decision-1"' in page) is offered
    assert ("has no end-of-session rule" in page) is not offered
