"""Organisers' commands: events, accounts, sheet import and the demo."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from larp_app import tls
from larp_app.extensions import db
from larp_app.models import Character, Event, User
from larp_app.services.users import password_matches, user_for_token
from tests.spreadsheets import write_csv

from .helpers import data_sheet

SHEET = data_sheet()


def count(app, model):
    with app.app_context():
        return db.session.query(model).count()


def test_users_create_prints_a_generated_password_and_a_working_token(app, runner):
    result = runner.invoke(args=["users", "create", "rita", "--role", "referee"])
    assert result.exit_code == 0, result.output
    lines = dict(line.split(": ", 1) for line in result.output.splitlines() if ": " in line)
    with app.app_context():
        user = db.session.scalar(db.select(User).where(User.username == "rita"))
        assert password_matches(user, lines["password"])
        assert user_for_token(lines["token (for scripts)"]).username == "rita"
        assert lines["password"] not in user.password_hash


def test_users_create_with_a_password_does_not_print_it(runner):
    result = runner.invoke(
        args=["users", "create", "olga", "--role", "organiser", "--password", "a-long-password"]
    )
    assert "password:" not in result.output and "token (for scripts): " in result.output


def test_users_create_refuses_a_taken_name(runner):
    runner.invoke(args=["users", "create", "rita", "--role", "referee"])
    result = runner.invoke(args=["users", "create", "rita", "--role", "referee"])
    assert result.exit_code == 2
    assert "username: rita is already taken" in result.stderr


def test_event_create_then_import_a_csv(app, runner, tmp_path):
    assert runner.invoke(
        args=["event", "create", "Notte", "--ruleset", "ex-nihilo"]
    ).output.startswith("event 1:")
    cast_sheets = [dict(SHEET, character=f"Vera {i}") for i in range(5)]
    for sheet in cast_sheets:
        sheet.pop("ruleset")  # a spreadsheet has no ruleset column: the event says it
    cast = tmp_path / "cast.csv"
    cast.write_text(write_csv(cast_sheets), encoding="utf-8")
    result = runner.invoke(args=["sheets", "import", "1", str(cast)])
    assert result.exit_code == 0, result.output
    assert count(app, Character) == 5


def test_an_import_with_one_bad_row_imports_nothing_and_names_the_row(app, runner, tmp_path):
    runner.invoke(args=["event", "create", "Notte", "--ruleset", "ex-nihilo"])
    sheets = [{**SHEET, "character": f"Vera {i}"} for i in range(200)]
    sheets[150] = {**SHEET, "attributes": {**SHEET["attributes"], "corpo": 25}}
    cast = tmp_path / "cast.json"
    cast.write_text(json.dumps(sheets), encoding="utf-8")
    result = runner.invoke(args=["sheets", "import", "1", str(cast)])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["row 151: attributes.corpo: must be 8–22, got 25"]
    assert count(app, Character) == 0


def test_importing_into_a_missing_event_fails_clearly(runner, tmp_path):
    cast = tmp_path / "cast.json"
    cast.write_text(json.dumps([SHEET]), encoding="utf-8")
    result = runner.invoke(args=["sheets", "import", "9", str(cast)])
    assert result.exit_code == 2 and "EVENT: 9 does not exist" in result.stderr


def test_the_demo_loads_once(app, runner):
    first = runner.invoke(args=["demo"])
    second = runner.invoke(args=["demo"])
    assert first.output.startswith("created") and second.output.startswith("already there")
    assert "login: referee / referee-demo" in first.output
    assert (count(app, Event), count(app, Character), count(app, User)) == (2, 36, 2)


def test_badges_print_writes_the_pdf_of_every_badge(app, runner, tmp_path):
    runner.invoke(args=["demo"])
    out = tmp_path / "badges.pdf"
    result = runner.invoke(
        args=[
            "badges",
            "print",
            "1",
            "--out",
            str(out),
            "--layout",
            "a7-8up",
            "--paper",
            "letter",
            "--base-url",
            "http://192.168.1.10:5000",
        ]
    )
    assert result.exit_code == 0, result.output
    assert result.output.startswith("24 badges written")
    assert out.read_bytes()[:5] == b"%PDF-"
    again = runner.invoke(
        args=[
            "badges",
            "print",
            "1",
            "--out",
            str(out),
            "--only-new",
            "--base-url",
            "http://192.168.1.10:5000",
        ]
    )
    assert again.output.startswith("no badges to print")


def test_badges_print_without_base_url_points_at_the_address_make_run_prints(app, runner, tmp_path):
    app.config["TLS_FOLDER"] = str(tmp_path / "no-tls")  # no certificate: plain HTTP
    runner.invoke(args=["demo"])
    result = runner.invoke(args=["badges", "print", "1", "--out", str(tmp_path / "b.pdf")])
    assert result.exit_code == 0, result.output
    assert "QR codes point at http://" in result.output
    assert ":5000 (--base-url to change)" in result.output


# A password read off a laptop screen and typed on a phone: lower-case words and hyphens.
TYPABLE = re.compile(r"^[a-z]{4}(-[a-z]{4}){3}$")


def test_generated_passwords_are_words_a_person_can_type_on_a_phone(app, runner):
    made = runner.invoke(args=["users", "create", "tea", "--role", "referee"])
    reset = runner.invoke(args=["users", "password", "tea"])
    passwords = [
        line.split(": ", 1)[1]
        for result in (made, reset)
        for line in result.output.splitlines()
        if line.startswith("password: ")
    ]
    assert len(passwords) == 2 and passwords[0] != passwords[1]
    assert all(TYPABLE.match(p) for p in passwords), passwords
    assert not any(ch in "".join(passwords) for ch in "lI10O")  # no look-alikes
    with app.app_context():
        user = db.session.scalar(db.select(User).where(User.username == "tea"))
        assert password_matches(user, passwords[1])


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("make") is None, reason="no make on this machine")
def test_make_run_with_a_host_prints_that_host_never_the_lan_address():
    env = {k: v for k, v in os.environ.items() if not k.startswith("LARP_")}
    shown = subprocess.run(
        ["make", "-n", "run", "HOST=127.0.0.1", "PORT=8123"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    assert "Open https://127.0.0.1:8123/" in shown
    assert "--bind 127.0.0.1:8123" in shown
    for address in tls.lan_addresses():
        assert address not in shown


def test_badges_print_with_a_host_puts_that_host_in_the_qr_codes(app, runner, tmp_path):
    app.config["TLS_FOLDER"] = str(tmp_path / "no-tls")  # no certificate: plain HTTP
    runner.invoke(args=["demo"])
    out = tmp_path / "b.pdf"
    result = runner.invoke(
        args=["badges", "print", "1", "--out", str(out)], env={"HOST": "127.0.0.1"}
    )
    assert result.exit_code == 0, result.output
    assert "QR codes point at http://127.0.0.1:5000 " in result.output
