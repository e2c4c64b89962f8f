"""Size limits and CSV files in the encodings spreadsheets save (5)."""

import io

import pytest

from larp_app.extensions import db
from larp_app.models import Character
from tests.spreadsheets import template_csv

from .helpers import csrf_token, data_sheet, log_in, make_user, post_form

pytestmark = pytest.mark.both_databases

CSV = template_csv().replace("Giulia Rossi", "Niccolò Àlvarez")


@pytest.fixture
def organiser(tokens):
    return {"Authorization": f"Bearer {tokens['organiser']}"}


@pytest.fixture
def event_id(client, organiser):
    answer = client.post(
        "/api/v1/events", json={"name": "Notte", "ruleset": "ex-nihilo"}, headers=organiser
    )
    return answer.json["id"]


@pytest.fixture
def browser(app, client):
    make_user(app, "boss", "organiser")
    log_in(client, "boss")
    return client


def upload(client, event_id, data: bytes, filename="cast.csv"):
    return post_form(
        client,
        f"/events/{event_id}/import/preview",
        {"file": (io.BytesIO(data), filename)},
        page=f"/events/{event_id}/import",
        content_type="multipart/form-data",
    )


def test_a_request_body_over_the_limit_gets_413_and_a_json_error_on_the_api(
    client, organiser, event_id
):
    body = b'{"entries": ["' + b"x" * (5 * 1024 * 1024) + b'"]}'
    answer = client.post(
        "/api/v1/sync", data=body, headers={**organiser, "Content-Type": "application/json"}
    )
    assert answer.status_code == 413
    assert answer.json["error"] == "request_entity_too_large"


def test_a_huge_csv_upload_is_refused_before_it_is_read(app, browser, event_id):
    page = f"/events/{event_id}/import"
    token = csrf_token(browser, page)
    body = (
        f'--b\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{token}\r\n'
        '--b\r\nContent-Disposition: form-data; name="file"; filename="cast.csv"\r\n'
        "Content-Type: text/csv\r\n\r\n"
    ).encode()
    body += CSV.encode() + b"x" * (5 * 1024 * 1024) + b"\r\n--b--\r\n"
    answer = browser.post(
        f"{page}/preview", data=body, content_type="multipart/form-data; boundary=b"
    )
    assert answer.status_code == 413


def test_an_import_of_more_than_a_thousand_sheets_is_refused_naming_the_limit(
    app, client, organiser, event_id
):
    sheets = [data_sheet()] * 1001
    answer = client.post(f"/api/v1/events/{event_id}/characters", json=sheets, headers=organiser)
    assert answer.status_code == 422
    assert "sheets" in answer.json["fields"]
    with app.app_context():
        assert db.session.query(Character).count() == 0


@pytest.mark.parametrize(
    ("encoding", "shown"),
    [
        ("utf-8", "UTF-8"),
        ("utf-8-sig", "UTF-8"),
        ("cp1252", "Windows-1252"),
        ("latin-1", "Windows-1252"),
        ("utf-16", "UTF-16"),
        ("utf-16-le", "UTF-16"),
    ],
)
def test_a_csv_in_the_encodings_excel_saves_is_read_with_its_accents(
    browser, event_id, encoding, shown
):
    answer = upload(browser, event_id, CSV.encode(encoding))
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200, page
    assert "Niccolò Àlvarez" in page
    assert "\ufffd" not in page
    assert shown in page


def test_a_csv_in_no_known_encoding_asks_for_csv_utf8(browser, event_id):
    answer = upload(browser, event_id, CSV.encode("cp1252") + b"\x81\x8d")
    assert answer.status_code == 422
    assert "CSV UTF-8" in answer.get_data(as_text=True)


def test_italian_and_spanish_column_headings_are_accepted(browser, event_id):
    header, rest = CSV.split("\n", 1)
    italian = header.replace("player", "Giocatore").replace("character", "Personaggio")
    spanish = header.replace("player", "Jugador").replace("notes", "Notas")
    for heading in (italian, spanish):
        answer = upload(browser, event_id, f"{heading}\n{rest}".encode())
        assert answer.status_code == 200, answer.get_data(as_text=True)


def test_an_unknown_heading_lists_the_expected_ones(browser, event_id):
    header, rest = CSV.split("\n", 1)
    answer = upload(browser, event_id, f"{header.replace('notes', 'appunti')}\n{rest}".encode())
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert "appunti" in page
    assert "armour_max_equilibrio" in page
