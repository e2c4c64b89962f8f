"""What a rule system's sheet schema gives the organiser's pages: the spreadsheet template and
columns in each language, the sheet format and its JSON Schema, an edit form of typed inputs
with items to add and remove, errors that name the field in the reader's language, a preview
of old → new values, and the command line reading the encodings the web reads."""

import html
import io
import json
import re

import pytest

from larp_app.extensions import db
from larp_app.models import Character
from tests.spreadsheets import template_csv, write_csv

from . import helpers
from .helpers import data_sheet, form_values, log_in, make_user, post_form, speak

ATHKRI = data_sheet("athkri-sheet.json")
EX_NIHILO = data_sheet()
SPANISH_HEADER = (
    "Jugador;Personaje;Facción;Físico;Agilidad;Mente;Intuición;Presencia;PS máx;Defensa;"
    "Voluntad;Cobertura;Blindaje;Habilidades;Poderes;Notas"
)
SPANISH_ROWS = [
    "Niccolò Carrà;Maese Ildefonso;Hermandad del Faro;4;3;7;5;6;16;11;14;0;1;"
    '"Medicina:5 | Aguante:2";"Toque sanador:2:Cura 1d6 PS.";Guardián del faro',
    'Lucía Fernández;Rodrigo «el Cuervo»;Corsarios de Ámbar;7;6;2;4;3;26;13;9;2;3;"Atletismo:4";;',
]


@pytest.fixture
def organiser(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    return client


def new_event(client, ruleset):
    return helpers.new_event(client, ruleset, "Naufragio")


def upload(client, event_url, data: bytes, filename="cast.csv"):
    return post_form(
        client,
        f"{event_url}/import/preview",
        {"file": (io.BytesIO(data), filename)},
        page=f"{event_url}/import",
        content_type="multipart/form-data",
    )


def confirm(client, event_url, page):
    payload = html.unescape(re.search(r'name="sheets" value="([^"]*)"', page).group(1))
    answer = post_form(client, f"{event_url}/import/confirm", {"sheets": payload}, page="/events")
    assert answer.status_code == 302
    return answer


def imported(client, event_url, sheets, ruleset="ex-nihilo"):
    page = upload(client, event_url, write_csv(sheets, ruleset).encode()).get_data(as_text=True)
    confirm(client, event_url, page)


def stored(app, name):
    with app.app_context():
        return db.session.scalar(db.select(Character).where(Character.name == name))


def bare(sheet, **changes):
    raw = json.loads(json.dumps(sheet))
    raw.pop("ruleset")
    raw.update(changes)
    return raw


# Spreadsheets ------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", ["utf-8-sig", "cp1252"])
def test_an_athkri_event_imports_a_spreadsheet_with_spanish_headers_in_either_encoding(
    app, organiser, encoding
):
    event_url = new_event(organiser, "athkri")
    text = "\r\n".join([SPANISH_HEADER, *SPANISH_ROWS]) + "\r\n"
    answer = upload(organiser, event_url, text.encode(encoding))
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200, page
    assert "JSON" not in re.sub(r"<[^>]+>", "", page.split("<table", 1)[0])
    confirm(organiser, event_url, page)
    niccolo = stored(app, "Maese Ildefonso")
    assert niccolo.player == "Niccolò Carrà"
    assert niccolo.tabletop["attributes"]["fisico"] == 4
    assert niccolo.tabletop["skills"] == {"Medicina": 5, "Aguante": 2}
    assert niccolo.larp["hp_max"] == 16
    assert stored(app, "Rodrigo «el Cuervo»").faction == "Corsarios de Ámbar"


def test_the_athkri_template_downloads_in_spanish_with_a_byte_order_mark_and_imports(organiser):
    event_url = new_event(organiser, "athkri")
    speak(organiser, "es")
    assert 'import/template.csv"' in organiser.get(f"{event_url}/import").get_data(as_text=True)
    answer = organiser.get(f"{event_url}/import/template.csv")
    assert answer.status_code == 200
    assert answer.data.startswith(b"\xef\xbb\xbf")
    text = answer.data.decode("utf-8-sig")
    assert text.split("\r\n")[0].startswith("jugador;personaje;facción;físico;agilidad;")
    assert upload(organiser, event_url, answer.data).status_code == 200


def test_the_sheet_format_page_and_its_json_schema_speak_the_readers_language(organiser):
    speak(organiser, "es")
    page = organiser.get("/rulesets/athkri/sheet").get_data(as_text=True)
    assert "Hoja de mesa de Sistema Athkri" in page
    assert "Poderes" in page and "<code>mana_cost</code>" in page and "<code>ps_máx</code>" in page
    document = organiser.get("/rulesets/athkri/sheet.schema.json")
    assert document.mimetype == "application/schema+json"
    schema = json.loads(document.data)
    assert schema["properties"]["powers"]["title"] == "Poderes"
    assert schema["required"] == ["player", "character", "attributes", "ps_max"]
    assert organiser.get("/rulesets/nothing/sheet").status_code == 404


def test_an_import_error_names_the_field_in_the_readers_language(organiser):
    event_url = new_event(organiser, "athkri")
    speak(organiser, "es")
    text = "\r\n".join([SPANISH_HEADER, SPANISH_ROWS[0].replace(";4;3;7;", ";11;3;7;")])
    page = upload(organiser, event_url, text.encode()).get_data(as_text=True)
    assert "Atributos · Físico: " in page
    assert "attributes.fisico" not in page


def test_an_unknown_column_lists_the_accepted_columns_in_the_readers_language(organiser):
    event_url = new_event(organiser, "ex-nihilo")
    speak(organiser, "it")
    text = (
        "giocatore,personaggio,corpo,equilibrio,mente,spirito,forza\r\nAda,Vera,16,12,18,21,3\r\n"
    )
    page = html.unescape(upload(organiser, event_url, text.encode()).get_data(as_text=True))
    assert "Colonna forza" in page
    assert "giocatore, personaggio, fazione, corpo" in page
    assert "armatura_equilibrio_max" in page
    assert "player, character" not in page


def test_an_italian_header_and_a_capitalised_choice_are_read(app, organiser):
    event_url = new_event(organiser, "ex-nihilo")
    text = (
        "giocatore;personaggio;corpo;equilibrio;mente;spirito;abilità;armatura_nome;"
        "armatura_peso;armatura_equilibrio_max\r\n"
        "Ada;Vera;16;12;18;21;Biología:2 | Medicine:1;Giacca;Leggera;18\r\n"
    )
    answer = upload(organiser, event_url, text.encode())
    assert answer.status_code == 200, answer.get_data(as_text=True)
    confirm(organiser, event_url, answer.get_data(as_text=True))
    vera = stored(app, "Vera")
    assert vera.tabletop["armour"] == {"name": "Giacca", "weight": "leggera", "max_equilibrio": 18}
    assert vera.tabletop["skills"] == {"biologia": 2, "medicina": 1}


def test_a_reimport_shows_old_and_new_values_and_warns_when_it_undoes_a_web_edit(app, organiser):
    event_url = new_event(organiser, "ex-nihilo")
    imported(organiser, event_url, [bare(EX_NIHILO)])
    vera = stored(app, EX_NIHILO["character"])
    form = f"/characters/{vera.id}/sheet"
    values = form_values(organiser.get(form).get_data(as_text=True))
    saved = post_form(organiser, form, {**values, "attributes.corpo": "18"}, page=form)
    assert saved.status_code == 302

    # This morning's spreadsheet still says Corpo 16, and changes Mente too.
    old = bare(EX_NIHILO)
    old["attributes"]["mente"] = 20
    page = upload(organiser, event_url, write_csv([old]).encode()).get_data(as_text=True)
    changes = re.search(r'<ul class="changed-fields">(.*?)</ul>', page, re.S).group(1)
    corpo = re.search(r'data-field="attributes.corpo">(.*?)</li>', changes, re.S).group(1)
    mente = re.search(r'data-field="attributes.mente">(.*?)</li>', changes, re.S).group(1)
    assert re.sub(r"<[^>]+>|\s+", " ", corpo).split("⚠")[0].split() == [
        "Attributes", "·", "Corpo", ":", "18", "→", "16",
    ]  # fmt: skip
    assert "changed on the web since the last import (olga" in corpo
    assert "1 field changed on the web since the last import would be set back" in page
    assert "18 → 20" in mente and "⚠" not in mente


# The edit form -----------------------------------------------------------------------------


def test_the_form_offers_every_field_of_the_schema_typed_and_labelled(app, organiser):
    event_url = new_event(organiser, "ex-nihilo")
    imported(organiser, event_url, [bare(EX_NIHILO, faction=None)])
    vera = stored(app, EX_NIHILO["character"])
    assert "faction" not in vera.tabletop
    speak(organiser, "it")
    page = organiser.get(f"/characters/{vera.id}/sheet").get_data(as_text=True)
    assert '<input name="faction" value="" type="text"' in page  # a field the sheet lacks
    assert re.search(
        r'name="attributes.corpo" value="16" type="number"[^>]* min="8" max="22"', page
    )
    assert re.search(r'<select name="armour.weight"', page)
    assert '<option value="media" selected>Media</option>' in page
    assert re.search(r'<select name="skills\[0\].key"', page)
    assert "<legend>Caratteristiche</legend>" in page and "<legend>Armi 2</legend>" in page
    assert "attributes · corpo" not in page
    assert not re.search(r'<textarea name="(weapons|advancements|skills)"', page)
    assert "Aggiungi" in page  # add an item, in Italian


@pytest.mark.parametrize("ruleset", ["ex-nihilo", "athkri"])
def test_saving_the_form_untouched_changes_nothing(app, organiser, ruleset):
    sheet = bare(EX_NIHILO if ruleset == "ex-nihilo" else ATHKRI, notes="Due righe:\nla seconda.")
    sheet.pop("faction")  # fields the sheet lacks stay absent
    sheet.pop("weapons" if ruleset == "ex-nihilo" else "powers")
    event_url = new_event(organiser, ruleset)
    page = upload(organiser, event_url, json.dumps([sheet]).encode(), "cast.json")
    confirm(organiser, event_url, page.get_data(as_text=True))
    before = stored(app, sheet["character"])
    url = f"/characters/{before.id}/sheet"
    values = form_values(organiser.get(url).get_data(as_text=True))
    values["notes"] = values["notes"].replace("\n", "\r\n")  # as a browser sends it
    answer = post_form(organiser, url, values)
    assert answer.status_code == 302
    assert stored(app, sheet["character"]).tabletop == before.tabletop == sheet
    assert "Nothing changed" in organiser.get(answer.headers["Location"]).get_data(as_text=True)


def test_a_skill_is_added_and_a_weapon_removed_through_the_form(app, organiser):
    event_url = new_event(organiser, "athkri")
    imported(organiser, event_url, [bare(ATHKRI)], "athkri")
    maurick = stored(app, ATHKRI["character"])
    url = f"/characters/{maurick.id}/sheet"
    values = form_values(organiser.get(url).get_data(as_text=True))
    skills = int(values["skills.count"])
    added = post_form(organiser, url, {**values, "action": "add:skills"}, page=url)
    assert added.status_code == 200
    page = added.get_data(as_text=True)
    values = form_values(page)
    assert values["skills.count"] == str(skills + 1)
    assert values[f"skills[{skills}].key"] == ""
    values |= {f"skills[{skills}].key": "Sigilo", f"skills[{skills}].value": "3"}
    assert stored(app, ATHKRI["character"]).tabletop == maurick.tabletop  # nothing saved yet
    removed = post_form(organiser, url, {**values, "action": "remove:powers[0]"}, page=url)
    values = form_values(removed.get_data(as_text=True))
    assert values["powers.count"] == str(len(ATHKRI["powers"]) - 1)
    assert values[f"skills[{skills}].key"] == "Sigilo"  # what was typed is kept
    assert post_form(organiser, url, {**values, "action": "save"}, page=url).status_code == 302
    after = stored(app, ATHKRI["character"]).tabletop
    assert after["skills"] == {**ATHKRI["skills"], "Sigilo": 3}
    assert after["powers"] == ATHKRI["powers"][1:]


def test_a_form_error_is_shown_at_its_field_in_the_readers_language(app, organiser):
    event_url = new_event(organiser, "athkri")
    imported(organiser, event_url, [bare(ATHKRI)], "athkri")
    maurick = stored(app, ATHKRI["character"])
    url = f"/characters/{maurick.id}/sheet"
    speak(organiser, "es")
    values = form_values(organiser.get(url).get_data(as_text=True))
    values |= {"attributes.fisico": "", "powers[0].mana_cost": "mucho"}
    answer = post_form(organiser, url, {**values, "action": "save"}, page=url)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert re.search(r'name="attributes.fisico"[^>]*aria-invalid="true"', page)
    assert 'id="err-attributes.fisico">⚠ es obligatorio</span>' in page
    assert 'id="err-powers[0].mana_cost">⚠ ' in page
    assert stored(app, ATHKRI["character"]).tabletop == maurick.tabletop


# The command line ----------------------------------------------------------------------------


def test_the_cli_reads_a_windows_1252_spreadsheet_as_the_web_import_does(app, runner, tmp_path):
    assert (
        runner.invoke(args=["event", "create", "Naufragio", "--ruleset", "athkri"]).exit_code == 0
    )
    cast = tmp_path / "cast.csv"
    cast.write_bytes(("\r\n".join([SPANISH_HEADER, *SPANISH_ROWS]) + "\r\n").encode("cp1252"))
    result = runner.invoke(args=["sheets", "import", "1", str(cast)])
    assert result.exit_code == 0, result.output
    assert "Windows-1252" in result.output
    assert stored(app, "Maese Ildefonso").player == "Niccolò Carrà"


def test_the_cli_reads_an_excel_csv_with_accents_in_windows_1252(app, runner, tmp_path):
    assert runner.invoke(args=["event", "create", "Notte", "--ruleset", "ex-nihilo"]).exit_code == 0
    cast = tmp_path / "cast.csv"
    cast.write_bytes(template_csv().replace("Giulia Rossi", "Niccolò Carrà").encode("cp1252"))
    result = runner.invoke(args=["sheets", "import", "1", str(cast)])
    assert result.exit_code == 0, result.output
    assert stored(app, EX_NIHILO["character"]).player == "Niccolò Carrà"


# Print ---------------------------------------------------------------------------------------


def test_the_printed_sheets_recall_the_death_countdown_and_the_inconsciente_saves(organiser):
    ex_nihilo = new_event(organiser, "ex-nihilo")
    imported(organiser, ex_nihilo, [bare(EX_NIHILO)])
    athkri = new_event(organiser, "athkri")
    imported(organiser, athkri, [bare(ATHKRI)], "athkri")
    speak(organiser, "en")
    printed = organiser.get(f"{ex_nihilo}/print").get_data(as_text=True)
    assert "passati 10 minuti (600 turni) senza cure, morto" in printed
    assert "dead after 10 minutes (600 turns) without care" in printed
    printed = html.unescape(organiser.get(f"{athkri}/print").get_data(as_text=True))
    assert "salvación de Físico a 12" in printed and "a Físico save at 12" in printed
    text = re.sub(r"<[^>]+>", "", printed)
    assert "Físico (body) (Físico)" not in text and "(Malherido con PS ≤)" not in text
