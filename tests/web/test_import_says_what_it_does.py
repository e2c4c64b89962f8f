"""The import page says what is wrong and what will happen, in the reader's words: a
spreadsheet row one cell short (Excel drops empty trailing cells; a lost separator shifts the
rest) is named as such, the button says what it will add and update, and a rule system's
template is headed in the reader's language, its own terms kept as its words."""

import html
import io
import re

import pytest

from tests.spreadsheets import template_csv

from .helpers import data_sheet, log_in, make_user, new_event, post_form, speak

pytestmark = pytest.mark.both_databases


@pytest.fixture
def organiser(app):
    make_user(app, "olga", "organiser")
    browser = app.test_client()
    log_in(browser, "olga")
    return browser


def preview(client, event_url, text: str, filename="cast.csv"):
    page = post_form(
        client,
        f"{event_url}/import/preview",
        {"file": (io.BytesIO(text.encode("utf-8")), filename)},
        page=f"{event_url}/import",
        content_type="multipart/form-data",
    )
    return page.status_code, html.unescape(page.get_data(as_text=True))


def italian_row(cells_missing_at: int | None = None) -> list[str]:
    """An EX Nihilo row as the Italian template writes it (16 cells), armour left empty and a
    note at the end; one cell taken out at ``cells_missing_at``, as a lost ``;`` does."""
    cells = template_csv("ex-nihilo", "it", ";").split("\r\n")[1].split(";")
    cells = [*cells[:9], "", "", "", "", "", "", "Medico della Corporazione."]
    if cells_missing_at is not None:
        del cells[cells_missing_at]
    return cells


def test_a_row_one_cell_short_says_how_many_cells_and_which_columns_are_missing(organiser):
    speak(organiser, "it")
    event_url = new_event(organiser, "ex-nihilo")
    header = template_csv("ex-nihilo", "it", ";").split("\r\n")[0]
    short = italian_row(cells_missing_at=11)  # a ";" lost among the empty armour cells
    status, page = preview(organiser, event_url, f"{header}\r\n{';'.join(short)}\r\n")
    assert status == 422
    assert "ha 15 celle dove l'intestazione ne ha 16" in page
    assert "note" in page.split("ha 15 celle", 1)[1].split("</li>", 1)[0]
    assert "deve essere un oggetto" not in page  # the shifted note read as a weapon: not said


def test_a_row_excel_wrote_without_its_empty_last_cells_is_read_as_it_is(organiser):
    event_url = new_event(organiser, "ex-nihilo")
    header = template_csv("ex-nihilo", "it", ";").split("\r\n")[0]
    row = italian_row()[:-1]  # no note: Excel leaves the empty last cell out
    status, page = preview(organiser, event_url, f"{header}\r\n{';'.join(row)}\r\n")
    assert status == 200, page
    assert "cells where the header has" not in page


def button(page: str) -> str:
    found = re.search(r'<button type="submit" class="primary">([^<]*)</button>', page)
    return found.group(1) if found else ""


def test_the_import_button_says_what_it_will_add_and_update(app, organiser):
    import json

    event_url = new_event(organiser, "ex-nihilo")
    cast = [
        {**data_sheet(), "character": f"Personaggio {n}", "player": f"Giocatore {n}"}
        for n in range(6)
    ]
    _status, page = preview(organiser, event_url, json.dumps(cast), "cast.json")
    assert button(page) == "Add 6 characters"
    post_form(
        organiser, f"{event_url}/import/confirm", {"sheets": json.dumps(cast)}, page="/events"
    )
    cast[2]["notes"] = "una cicatrice"
    _status, page = preview(organiser, event_url, json.dumps(cast), "cast.json")
    assert button(page) == "Update 1 character (5 unchanged)"
    cast.append({**data_sheet(), "character": "Nuovo", "player": "Nuova"})
    speak(organiser, "it")
    _status, page = preview(organiser, event_url, json.dumps(cast), "cast.json")
    assert button(page) == "Aggiungi 1 personaggio e aggiornane 1 (5 invariati)"
    del cast[-1]
    cast[2]["notes"] = data_sheet()["notes"]
    _status, page = preview(organiser, event_url, json.dumps(cast), "cast.json")
    assert button(page) == ""  # nothing to do: nothing to press
    assert "Nessun personaggio cambia" in page


ITALIAN = {
    "giocatore", "personaggio", "fazione", "abilità", "poteri", "note", "ps_max", "mente",
}  # fmt: skip


def test_the_athkri_template_is_headed_in_italian_with_its_own_terms_translated_beside(
    organiser,
):
    speak(organiser, "it")
    event_url = new_event(organiser, "athkri")
    text = organiser.get(f"{event_url}/import/template.csv").data.decode("utf-8-sig")
    header = text.split("\r\n")[0].split(";")
    terms = [h for h in header if h not in ITALIAN]
    # Each of the rule system's own terms is its word with the Italian one beside it.
    assert terms == [
        "físico (corpo)",
        "agilidad (agilità)",
        "intuición (intuizione)",
        "presencia (presenza)",
        "defensa (difesa)",
        "voluntad (volontà)",
        "cobertura (copertura)",
        "blindaje (armatura)",
    ]
    assert preview(organiser, event_url, text)[0] == 200  # and it reads back
