"""Words as a reader reads them: one case through a line, a plural for more than one, and an
undo that does not read as a second "cancel"."""

import html
import re

import pytest
from flask_babel import force_locale

from larp_app.extensions import db
from larp_app.messages import problem_message
from larp_app.models import Character
from larp_app.rules import Problem
from larp_app.services.demo import load_demo
from tests.spreadsheets import write_csv

from .helpers import data_sheet, log_in
from .test_organiser_pages import preview


@pytest.fixture
def demo(app):
    with app.app_context():
        load_demo()
        db.session.commit()


def speak(client, lang):
    page = client.get("/", follow_redirects=True).get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    client.post("/language", data={"lang": lang, "csrf_token": token})


def test_the_italian_import_preview_names_points_armour_and_energy_in_one_case(client, demo):
    log_in(client, "organiser", "organiser-demo")
    speak(client, "it")
    sheet = data_sheet()
    sheet.pop("ruleset")
    page = html.unescape(preview(client, "/events/1", write_csv([sheet])).get_data(as_text=True))
    line = re.search(r"vita \d+ · armatura \d+ · \w+ \d+", page)
    assert line, page
    assert re.fullmatch(r"vita \d+ · armatura \d+ · energia \d+", line.group(0))


@pytest.mark.parametrize(
    ("lang", "slots", "expected"),
    [
        ("es", 1, "demasiadas habilidades (2) para 1 espacio de habilidad de Mente"),
        ("es", 2, "demasiadas habilidades (3) para 2 espacios de habilidad de Mente"),
        ("en", 1, "too many skills (2) for 1 Mente skill slot"),
    ],
)
def test_too_many_skills_says_one_slot_or_several(app, lang, slots, expected):
    problem = Problem("skills", "too_many_skills", {"has": slots + 1, "slots": slots})
    with app.test_request_context(), force_locale(lang):
        assert problem_message(problem) == f"skills: {expected}"


def test_a_one_handed_weapon_reads_one_hand(client, demo, app):
    with app.app_context():
        character = db.session.scalar(db.select(Character).order_by(Character.id))
        weapons = character.larp["weapons"]
    assert any(w["hands"] == 1 for w in weapons)
    log_in(client, "organiser", "organiser-demo")
    speak(client, "en")
    page = html.unescape(client.get(f"/characters/{character.id}").get_data(as_text=True))
    assert "1 hand)" in page and "1 hands" not in page


def test_the_italian_console_undoes_with_annulla_and_closes_with_another_word(client, demo):
    log_in(client, "referee", "referee-demo")
    speak(client, "it")
    page = client.get("/console/1").get_data(as_text=True)
    undo = re.search(r'data-action="undo"[^>]*>([^<]+)<', page).group(1)
    closing = set(re.findall(r"<button[^>]*data-close[^>]*>([^<]+)</button>", page))
    assert undo == "Annulla"
    assert closing and "Annulla" not in closing and "Lascia perdere" not in closing
    assert closing == {"Chiudi"}
