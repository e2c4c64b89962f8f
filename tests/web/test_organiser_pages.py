"""The organiser's week before the event: create, import, check, fix, print."""

import io
import json
import re

import pytest

from larp_app.extensions import db
from larp_app.models import Character
from tests.spreadsheets import template_csv, write_csv

from .helpers import data_sheet, log_in, make_user, post_form

SHEET = data_sheet()


@pytest.fixture
def organiser(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    return client


@pytest.fixture
def event_url(organiser):
    answer = post_form(
        organiser, "/events", {"name": "Notte di Ghiaccio", "ruleset": "ex-nihilo"}, page="/events"
    )
    assert answer.status_code == 302
    return answer.headers["Location"]


def sheet(**changes):
    raw = json.loads(json.dumps(SHEET))
    raw.pop("ruleset")
    for key, value in changes.items():
        if key in raw["attributes"]:
            raw["attributes"][key] = value
        else:
            raw[key] = value
    return raw


def preview(client, event_url, text, filename="cast.csv"):
    return post_form(
        client,
        f"{event_url}/import/preview",
        {"file": (io.BytesIO(text.encode()), filename)},
        page=f"{event_url}/import",
        content_type="multipart/form-data",
    )


def confirm(client, event_url, page_html):
    payload = re.search(r'name="sheets" value="([^"]*)"', page_html).group(1)
    import html

    return post_form(
        client,
        f"{event_url}/import/confirm",
        {"sheets": html.unescape(payload)},
        page=f"{event_url}/import",
    )


def count_characters(app):
    with app.app_context():
        return db.session.query(Character).count()


def test_an_event_needs_a_name(organiser):
    answer = post_form(organiser, "/events", {"name": " ", "ruleset": "ex-nihilo"}, page="/events")
    assert answer.status_code == 422
    assert "is required" in answer.get_data(as_text=True)


def test_a_mixed_csv_shows_every_error_by_row_and_field_and_saves_nothing(
    app, organiser, event_url
):
    good = sheet(character="Vera")
    bad = sheet(character="Bruno", corpo=25)
    worse = sheet(character="Ciro", skills={"cucina": 2})
    text = write_csv([good, bad, good | {"character": "Dario"}, worse])
    answer = preview(organiser, event_url, text)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert "Attributes · Corpo: must be 8–22, got 25" in page
    assert "Skills · cucina: is not a skill of this ruleset" in page
    assert 'name="sheets"' not in page  # no way to confirm while anything is wrong
    assert count_characters(app) == 0


def test_a_fixed_csv_is_imported_after_the_preview_is_confirmed(app, organiser, event_url):
    text = write_csv([sheet(character=f"Vera {i}") for i in range(3)])
    answer = preview(organiser, event_url, text)
    assert answer.status_code == 200
    assert count_characters(app) == 0  # nothing saved until confirmed
    done = confirm(organiser, event_url, answer.get_data(as_text=True))
    assert done.status_code == 302
    assert count_characters(app) == 3


def test_warnings_are_listed_in_the_preview_without_stopping_the_import(organiser, event_url):
    answer = preview(organiser, event_url, json.dumps([sheet(mente=8)]), "cast.json")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "too many skills (3) for 1 Mente skill slot" in page


def test_pasted_json_works_like_an_upload(organiser, event_url):
    answer = post_form(
        organiser,
        f"{event_url}/import/preview",
        {"pasted": json.dumps(sheet())},
        page=f"{event_url}/import",
    )
    assert answer.status_code == 200
    assert "Dott.ssa Vera Lanz" in answer.get_data(as_text=True)


def test_a_file_that_is_neither_json_nor_a_known_csv_is_refused_clearly(organiser, event_url):
    answer = preview(organiser, event_url, "name,age\nVera,40\n")
    assert answer.status_code == 422
    assert "Column name: is not a column of the template" in answer.get_data(as_text=True)


def test_the_csv_template_downloads_and_imports_as_is(organiser, event_url):
    answer = organiser.get(f"{event_url}/import/template.csv")
    assert answer.mimetype == "text/csv"
    assert answer.data.decode("utf-8-sig") == template_csv()  # with a BOM, for Excel
    assert preview(organiser, event_url, template_csv()).status_code == 200


@pytest.fixture
def cast(app, organiser, event_url):
    sheets = [
        sheet(character="Vera Lanz", player="Niccolò Sestri", faction="Corporazione"),
        sheet(character="Ugo Bassi", player="Marco", faction="Esploratori"),
        sheet(character="<script>alert(1)</script>", faction="Esploratori"),
    ]
    confirm(
        organiser,
        event_url,
        preview(organiser, event_url, write_csv(sheets)).get_data(as_text=True),
    )
    with app.app_context():
        return {c.name: c.id for c in db.session.query(Character)}


def test_the_roster_is_searchable_and_filtered_by_faction(organiser, event_url, cast):
    page = organiser.get(event_url, query_string={"q": "ugo"}).get_data(as_text=True)
    assert "Ugo Bassi" in page and "Vera Lanz" not in page
    page = organiser.get(event_url, query_string={"faction": "Corporazione"}).get_data(as_text=True)
    assert "Vera Lanz" in page and "Ugo Bassi" not in page


def test_the_roster_search_ignores_accents_and_case(organiser, event_url, cast):
    for query in ("niccolo", "NICCOLÒ", "Niccolò"):
        page = organiser.get(event_url, query_string={"q": query}).get_data(as_text=True)
        assert "Vera Lanz" in page and "Ugo Bassi" not in page, query


def test_a_character_named_like_a_script_is_shown_as_text(organiser, event_url, cast):
    page = organiser.get(event_url).get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_character_page_shows_the_tabletop_sheet_beside_the_larp_sheet(organiser, cast):
    page = organiser.get(f"/characters/{cast['Vera Lanz']}").get_data(as_text=True)
    assert "Tabletop sheet" in page and "Larp sheet" in page
    assert "<dt>Initiative bonus</dt>" in page and "initiative_bonus" not in page  # derived
    assert "Sguardo del Vuoto" in page
    # Every field of the tabletop sheet by its label, a choice by its label too.
    assert "<dt>Armour</dt><dd>Name Giubbotto rinforzato, Weight Medium," in page
    assert "Pistola · Ranged · Damage 12 · Range (m) 25 · Hands 1 |" in page


def test_an_organiser_undoes_an_entry_from_the_characters_log(app, organiser, cast):
    import uuid

    from larp_app.rules import format_instant
    from larp_app.services.clock import now_utc
    from larp_app.services.entries import record_entry, state_of

    character_id = cast["Vera Lanz"]
    with app.app_context():
        character = db.session.get(Character, character_id)
        hit = {
            "id": str(uuid.uuid4()),
            "kind": "hit",
            "at": format_instant(now_utc()),
            "pierce": True,
        }
        record_entry(character, hit, None)
        db.session.commit()
    page = f"/characters/{character_id}"
    assert "Undo" in organiser.get(page).get_data(as_text=True)
    post_form(organiser, f"{page}/undo", {"target": hit["id"]}, page=page)
    with app.app_context():
        assert state_of(db.session.get(Character, character_id), now_utc()).state.hp == 3
    assert "undone" in organiser.get(page).get_data(as_text=True)


def test_print_all_puts_every_larp_sheet_on_its_own_page(organiser, event_url, cast):
    page = organiser.get(f"{event_url}/print").get_data(as_text=True)
    assert page.count('class="larp-sheet"') == 3
    assert "css/print.css" in page


def test_print_faction_prints_only_that_faction(organiser, event_url, cast):
    page = organiser.get(f"{event_url}/print", query_string={"faction": "Esploratori"})
    assert page.get_data(as_text=True).count('class="larp-sheet"') == 2


def test_changing_the_armour_table_recomputes_every_larp_sheet(app, organiser, event_url, cast):
    form = settings_form(organiser, event_url)
    form["tables.armour.points.media"] = "5"
    answer = post_form(organiser, f"{event_url}/settings", form, page=f"{event_url}/settings")
    assert answer.status_code == 302
    with app.app_context():
        vera = db.session.get(Character, cast["Vera Lanz"])
        assert (vera.larp["ap_max"], vera.larp["tables"]["armour"]) == (6, "event")


def test_bad_settings_are_refused_naming_each_field_and_nothing_changes(
    app, organiser, event_url, cast
):
    form = settings_form(organiser, event_url)
    form["turn_seconds"] = "0"
    form["tables.attributes.rows[2].skill_slots"] = "tre"
    answer = post_form(organiser, f"{event_url}/settings", form, page=f"{event_url}/settings")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert "must be 0.1–60, got 0" in page and "must be a whole number, got tre" in page
    with app.app_context():
        assert db.session.get(Character, cast["Vera Lanz"]).larp["ap_max"] == 3


def settings_form(client, event_url):
    """Read back every input of the settings form, as a browser would submit it."""
    page = client.get(f"{event_url}/settings").get_data(as_text=True)
    form = dict(re.findall(r'<input name="([^"]+)"[^>]*value="([^"]*)"', page))
    form.update(re.findall(r'<input type="hidden" name="(rows)" value="([^"]*)"', page))
    for name, options in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', page, re.S):
        chosen = re.search(r'<option(?: value="([^"]*)")?[^>]*selected[^>]*>([^<]+)<', options)
        form[name] = chosen.group(1) or chosen.group(2)
    return form


def test_an_organiser_kills_for_the_plot_and_revives_from_the_character_page(app, organiser, cast):
    from larp_app.services.clock import now_utc
    from larp_app.services.entries import state_of

    page = f"/characters/{cast['Vera Lanz']}"
    post_form(organiser, f"{page}/kill", {"reason": "trama"}, page=page)
    with app.app_context():
        assert state_of(db.session.get(Character, cast["Vera Lanz"]), now_utc()).wound == "dead"
    assert "Revive" in organiser.get(page).get_data(as_text=True)
    post_form(organiser, f"{page}/revive", {"hp": "1"}, page=page)
    with app.app_context():
        s = state_of(db.session.get(Character, cast["Vera Lanz"]), now_utc())
        assert (s.wound, s.state.hp) == ("ok", 1)


def test_reviving_a_living_character_is_refused_in_words(organiser, cast):
    page = f"/characters/{cast['Vera Lanz']}"
    answer = post_form(organiser, f"{page}/revive", {"hp": "1"}, page=page, follow_redirects=True)
    assert "only a dead character can be revived" in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    ("lang", "button", "done"),
    [
        ("it", "Aggiungi 1 personaggio", "Importato 1 personaggio."),
        ("es", "Añadir 1 personaje", "Importado 1 personaje."),
        ("en", "Add 1 character", "Imported 1 character."),
    ],
)
def test_importing_one_character_is_said_in_the_singular(organiser, event_url, lang, button, done):
    post_form(organiser, "/language", {"lang": lang, "next": "/events"})
    text = write_csv([sheet(character="Vera Lanz")])
    page = preview(organiser, event_url, text).get_data(as_text=True)
    assert button in page
    answer = confirm(organiser, event_url, page)
    assert done in organiser.get(answer.headers["Location"]).get_data(as_text=True)
