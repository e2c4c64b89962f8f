"""Answers that keep people safe: bad requests refused in words (never a server error),
exports that a spreadsheet cannot run, HTTPS that stays HTTPS, and private pages that no
cache keeps for the next person at the computer."""

import csv
import io
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from larp_app.reads.exports import formula_safe
from tests.spreadsheets import write_csv

from .helpers import data_sheet, log_in, make_user, post_form
from .test_organiser_pages import preview

CADDYFILE = Path(__file__).resolve().parents[2] / "deploy" / "Caddyfile"


@pytest.fixture
def organiser(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    return client


@pytest.fixture
def event_url(organiser):
    answer = post_form(
        organiser, "/events", {"name": "Notte", "ruleset": "ex-nihilo"}, page="/events"
    )
    return answer.headers["Location"]


def sheet(player, name, faction=""):
    raw = data_sheet()
    raw.pop("ruleset")
    raw.update(player=player, character=name, faction=faction)
    return raw


def test_a_web_import_of_more_than_a_thousand_sheets_is_refused_in_words(organiser, event_url):
    # Small rows: the count is refused before any row is read.
    many = [{"player": f"P{n}", "character": f"C{n}"} for n in range(1001)]
    uploaded = preview(organiser, event_url, json.dumps(many), "cast.json")
    assert uploaded.status_code == 422
    assert "at most 1000" in uploaded.get_data(as_text=True)
    pasted = post_form(
        organiser,
        f"{event_url}/import/preview",
        {"pasted": write_csv([sheet(f"P{n}", f"C{n}") for n in range(1001)])},
        page=f"{event_url}/import",
    )
    assert pasted.status_code == 422
    assert "at most 1000" in pasted.get_data(as_text=True)


@pytest.mark.both_databases
def test_a_roster_asked_for_an_event_beyond_the_databases_integers_is_refused_in_words(
    client, referee
):
    for asked in ("2147483648", "1,99999999999999999999", "-1"):
        answer = client.get(f"/api/v1/roster?event={asked}", headers=referee)
        assert answer.status_code == 422, answer.get_data(as_text=True)
        assert answer.json["error"] == "invalid" and "event" in answer.json["fields"]


def test_exports_write_formula_like_names_as_plain_text(organiser, event_url):
    cast = [
        sheet('=HYPERLINK("http://evil.example","x")', "Vera", "@SUM(1+1)"),
        sheet("+cmd|' /C calc'!A0", "-2+3"),
    ]
    answer = preview(organiser, event_url, json.dumps(cast), "cast.json")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    from .test_organiser_pages import confirm

    assert confirm(organiser, event_url, answer.get_data(as_text=True)).status_code == 302
    for what in ("states", "log"):
        text = organiser.get(f"{event_url}/export/{what}.csv").data.decode("utf-8-sig")
        for row in csv.reader(io.StringIO(text)):
            for cell in row:
                assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), (what, cell)
    states = organiser.get(f"{event_url}/export/states.csv").data.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(states)))
    assert {r["Player"] for r in rows} == {
        '\'=HYPERLINK("http://evil.example","x")',
        "'+cmd|' /C calc'!A0",
    }
    assert {r["Faction"] for r in rows} >= {"'@SUM(1+1)"}
    assert {r["Character"] for r in rows} == {"Vera", "'-2+3"}
    assert {r["Hit points"] for r in rows} != {""}  # numbers stay numbers
    # Names cannot hold a tab or a line break (refused on import); any other text that
    # starts with one is written the same way.
    assert [formula_safe(t) for t in ("\tx", "\rx", "-1", "a=b")] == ["'\tx", "'\rx", "'-1", "a=b"]


def test_https_answers_keep_browsers_on_https_and_plain_http_ones_do_not(client):
    secure = client.get("/login", base_url="https://larp.example.org")
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in client.get("/login").headers


@pytest.mark.skipif(shutil.which("caddy") is None, reason="Debian's caddy is not installed")
def test_the_caddyfile_keeps_browsers_on_https():
    adapted = subprocess.run(
        ["caddy", "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        check=True,
        env={"LARP_SITE": "larp.example.org", "PATH": "/usr/bin:/bin"},
    )
    config = json.loads(adapted.stdout)
    text = json.dumps(config)
    assert '"Strict-Transport-Security": ["max-age=31536000"]' in text


def test_private_pages_and_exports_are_kept_by_no_cache(app, organiser, event_url, referee):
    answer = preview(organiser, event_url, json.dumps([sheet("Ada", "Vera")]), "cast.json")
    from .test_organiser_pages import confirm

    confirm(organiser, event_url, answer.get_data(as_text=True))
    event_id = event_url.rstrip("/").rsplit("/", 1)[1]
    pages = [
        "/events",
        event_url,
        "/users",
        "/characters/1",  # the tabletop sheet
        "/console/1",
        "/scan",
        "/referee/",
        f"/referee/events/{event_id}",
        f"{event_url}/report",
        f"{event_url}/export/states.csv",
        f"{event_url}/export/log.csv",
        f"{event_url}/export.json",
    ]
    for page in pages:
        got = organiser.get(page)
        assert got.status_code == 200, page
        assert got.headers.get("Cache-Control") == "no-store", page
    export = organiser.get(f"/api/v1/events/{event_id}/export", headers=referee)
    assert export.status_code == 403
    make_user(app, "api-org", "organiser")
    from larp_app.extensions import db
    from larp_app.services.users import create_user

    with app.app_context():
        token = create_user("api-org-2", "organiser")[2]
        db.session.commit()
    export = app.test_client().get(
        f"/api/v1/events/{event_id}/export", headers={"Authorization": f"Bearer {token}"}
    )
    assert (export.status_code, export.headers["Cache-Control"]) == (200, "no-store")
    # The login page is nobody's: browsers may keep it.
    assert app.test_client().get("/login").headers.get("Cache-Control") != "no-store"
