"""EX Nihilo cast spreadsheets as CSV (the columns its sheet schema declares): reading them into
tabletop sheets the engine judges, and back."""

import copy
import json
from pathlib import Path

import pytest

from larp_app import rules
from larp_app.messages import problem_message
from larp_app.rules import InvalidInput
from larp_app.rulesets.ex_nihilo import RULESET
from larp_app.services import sheet_csv

# A spreadsheet's rows name no rule system: they take their event's, EX Nihilo's here.
SETTINGS = rules.default_settings(RULESET.key)


def check_sheet(sheet):
    return rules.check_sheet(sheet, SETTINGS)


def convert_sheet(sheet):
    return rules.convert_sheet(sheet, SETTINGS)


SCHEMA = RULESET.schema()
COLUMNS = sheet_csv.column_names(SCHEMA, "en")


def read_csv_with_rows(text):
    return sheet_csv.read_csv(text, SCHEMA)


def read_csv(text):
    return read_csv_with_rows(text)[0]


def template_csv():
    return sheet_csv.template_csv(SCHEMA)


def write_csv(sheets):
    return sheet_csv.write_csv(sheets, SCHEMA)


DATA = Path(__file__).resolve().parents[1] / "data"
HEADER = ",".join(COLUMNS)
# A minimal valid row, in COLUMNS order.
ROW = "Ada,Vera,,16,12,18,21,,,,,,,,,"


def example():
    """The example tabletop sheet, as the engine's tests know it."""
    return json.loads((DATA / "ex-nihilo-sheet.json").read_text(encoding="utf-8"))


def without_ruleset(sheet):
    return {k: v for k, v in sheet.items() if k != "ruleset"}


def csv_text(*rows, header=HEADER, delimiter=","):
    return "\r\n".join([header.replace(",", delimiter), *rows]) + "\r\n"


def errors(sheet):
    """The (field, code) of every error the engine finds in ``sheet``."""
    return [(p.path, p.code) for p in check_sheet(sheet)[1].errors]


def column_problems(text):
    with pytest.raises(InvalidInput) as caught:
        read_csv(text)
    return [(p.path, p.code) for p in caught.value.problems]


# Template and round trip -------------------------------------------------------------------


def test_the_template_reads_back_as_the_example_sheet_without_its_ruleset():
    assert read_csv(template_csv()) == [without_ruleset(example())]


def test_the_template_is_a_comma_separated_header_and_one_row_with_crlf_line_endings():
    lines = template_csv().split("\r\n")
    assert lines[0] == HEADER
    assert lines[1].startswith("Giulia Rossi,Dott.ssa Vera Lanz,Corporazione,16,12,18,21,")
    assert lines[2:] == [""]
    assert "\n" not in template_csv().replace("\r\n", "")


def test_the_template_example_converts_like_the_json_example():
    assert convert_sheet(read_csv(template_csv())[0]) == convert_sheet(example())


def test_writing_then_reading_gives_back_the_same_sheets():
    bare = {
        "player": "Luca; detto Lu",
        "character": 'Il "Muto"',
        "attributes": {"corpo": 8, "equilibrio": 22, "mente": 10, "spirito": 13},
        "notes": "Due righe,\ncon virgole.",
    }
    odd = copy.deepcopy(without_ruleset(example()))
    odd["advancements"][0].update(passive=True, larp=False, text="Nota: 1) uno; 2) due.")
    odd["weapons"].append(
        {"name": "Spadone", "kind": "mischia", "damage": 9, "hands": 1.5},
    )
    sheets = [without_ruleset(example()), bare, odd]
    assert read_csv(write_csv(sheets)) == sheets


def test_a_sheet_without_armour_or_armour_limit_converts_the_same_after_a_round_trip():
    sheet = example()
    sheet["armour"]["max_equilibrio"] = None
    no_armour = {**example(), "armour": None}
    for raw in (sheet, no_armour):
        assert convert_sheet(read_csv(write_csv([raw]))[0]) == convert_sheet(raw)


def test_writing_refuses_a_separator_inside_an_item_naming_its_field():
    sheet = example()
    sheet["advancements"][1]["text"] = "Paura | Panico"
    sheet["weapons"][0]["name"] = "Pistola: modello 9"
    with pytest.raises(InvalidInput) as caught:
        write_csv([example(), sheet])
    assert [(p.path, p.code) for p in caught.value.problems] == [
        ("[1].advancements[1].text", "csv_separator"),
        ("[1].weapons[0].name", "csv_separator"),
    ]


# Delimiters, byte order mark, header -------------------------------------------------------


def test_a_semicolon_file_from_italian_excel_reads_like_a_comma_file():
    semicolons = template_csv().replace(",", ";")  # the example has no comma in its text
    assert ";" in semicolons.splitlines()[0]
    assert read_csv(semicolons) == read_csv(template_csv())


def test_a_semicolon_file_keeps_commas_inside_cells():
    row = "Ada;Vera;;16;12;18;21;;;;;;;;;Cauta, ma curiosa"
    assert read_csv(csv_text(row, delimiter=";"))[0]["notes"] == "Cauta, ma curiosa"


def test_a_byte_order_mark_before_the_header_is_ignored():
    assert read_csv("\ufeff" + template_csv()) == read_csv(template_csv())


def test_header_names_ignore_case_and_surrounding_spaces():
    header = ", ".join(c.upper() for c in COLUMNS)
    assert read_csv(csv_text(ROW, header=header))[0]["player"] == "Ada"


# Cells -------------------------------------------------------------------------------------


def test_number_cells_become_integers_even_with_spaces_around_them():
    row = "Ada,Vera,, 16 ,12,18 ,21,medicina: 3 ,,Giacca,leggera, 2 ,1,,Mazza:mischia: 6 ::2,"
    sheet = read_csv(csv_text(row))[0]
    assert sheet["attributes"] == {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21}
    assert sheet["skills"] == {"medicina": 3}
    assert sheet["armour"] == {
        "name": "Giacca",
        "weight": "leggera",
        "deflection": 2,
        "absorption": 1,
    }
    assert sheet["weapons"] == [{"name": "Mazza", "kind": "mischia", "damage": 6, "hands": 2}]


def test_a_cell_that_is_not_a_number_reaches_the_engine_and_is_reported_at_its_field():
    sheet = read_csv(csv_text("Ada,Vera,,abc,12,18,21,,,,,,,,,"))[0]
    assert sheet["attributes"]["corpo"] == "abc"
    with pytest.raises(InvalidInput) as caught:
        convert_sheet(sheet)
    assert [problem_message(p) for p in caught.value.problems] == [
        "attributes.corpo: must be a whole number, got abc"
    ]


def test_empty_optional_cells_are_left_out_of_the_sheet():
    assert read_csv(csv_text(ROW)) == [
        {
            "player": "Ada",
            "character": "Vera",
            "attributes": {"corpo": 16, "equilibrio": 12, "mente": 18, "spirito": 21},
        }
    ]


def test_an_empty_required_cell_is_reported_as_required_by_the_engine():
    sheet = read_csv(csv_text(",Vera,,16,,18,21,,,,,,,,,"))[0]
    assert errors(sheet) == [("player", "required"), ("attributes.equilibrio", "required")]


def test_advancement_flags_say_passive_and_tabletop_and_the_text_may_hold_colons():
    cell = (
        "Sguardo del Vuoto:2::Il bersaglio subisce Paura. | "
        "Pelle dura:0:passive:Ignora: il primo colpo. | "
        "Studio:0:tabletop: | "
        "Memoria:1: Tabletop , PASSIVE :Ricorda: tutto: sempre."
    )
    sheet = read_csv(csv_text(f'Ada,Vera,,16,12,18,21,,"{cell}",,,,,,,'))[0]
    assert sheet["advancements"] == [
        {
            "name": "Sguardo del Vuoto",
            "energy_cost": 2,
            "passive": False,
            "larp": True,
            "text": "Il bersaglio subisce Paura.",
        },
        {
            "name": "Pelle dura",
            "energy_cost": 0,
            "passive": True,
            "larp": True,
            "text": "Ignora: il primo colpo.",
        },
        {"name": "Studio", "energy_cost": 0, "passive": False, "larp": False},
        {
            "name": "Memoria",
            "energy_cost": 1,
            "passive": True,
            "larp": False,
            "text": "Ricorda: tutto: sempre.",
        },
    ]
    larp = convert_sheet(sheet).advancements
    assert [a.name for a in larp] == ["Sguardo del Vuoto", "Pelle dura"]


def test_a_weapon_with_an_empty_range_has_no_range_and_hands_may_be_left_out():
    cell = (
        "Coltello:mischia:4:: | Pistola:distanza:12:25:1 | Ascia:mischia:7::1,5 | Pugno:mischia:1"
    )
    sheet = read_csv(csv_text(f'Ada,Vera,,16,12,18,21,,,,,,,,"{cell}",'))[0]
    assert sheet["weapons"] == [
        {"name": "Coltello", "kind": "mischia", "damage": 4},
        {"name": "Pistola", "kind": "distanza", "damage": 12, "range_m": 25, "hands": 1},
        {"name": "Ascia", "kind": "mischia", "damage": 7, "hands": 1.5},
        {"name": "Pugno", "kind": "mischia", "damage": 1},
    ]
    assert errors(sheet) == []


def test_a_ranged_weapon_with_an_empty_range_is_reported_by_the_engine():
    sheet = read_csv(csv_text('Ada,Vera,,16,12,18,21,,,,,,,,"Arco:distanza:5::2",'))[0]
    assert errors(sheet) == [("weapons[0].range_m", "required")]


def test_armour_columns_make_an_armour_only_with_a_name_or_a_weight():
    unnamed = read_csv(csv_text("Ada,Vera,,16,12,18,21,,,,,3,1,18,,"))[0]
    weight_only = read_csv(csv_text("Ada,Vera,,16,12,18,21,,,,Media,,,,,"))[0]
    assert "armour" not in unnamed
    assert weight_only["armour"] == {"weight": "media"}
    assert errors(weight_only) == [("armour.name", "required")]


def test_unreadable_items_reach_the_engine_at_their_own_path():
    skills = "medicina | biologia:2 | ricerca:1:2 | biologia:3"
    advancements = "Colpo:1::Testo | Senza due punti:1"
    weapons = "Pistola:distanza:12:25:1 | Pistola"
    row = f'Ada,Vera,,16,12,18,21,"{skills}","{advancements}",,,,,,"{weapons}",'
    sheet = read_csv(csv_text(row))[0]
    assert sheet["advancements"][1] == "Senza due punti:1"
    assert sheet["weapons"][1] == "Pistola"
    assert errors(sheet) == [
        ("skills.medicina", "required"),
        ("skills.biologia", "not_int"),
        ("skills.ricerca", "not_int"),
        ("advancements[1]", "not_object"),
        ("weapons[1]", "not_object"),
    ]


def test_an_unknown_advancement_flag_is_reported_at_passive():
    sheet = read_csv(csv_text('Ada,Vera,,16,12,18,21,,"Colpo:1:pasive:Testo",,,,,,,'))[0]
    assert errors(sheet) == [("advancements[0].passive", "not_bool")]


# Columns and rows --------------------------------------------------------------------------


def test_unknown_and_missing_columns_are_all_reported_at_once():
    header = "Player,character,corpo,Forza,equilibrio,spirito,colore"
    assert column_problems(csv_text("Ada,Vera,16,3,12,21,blu", header=header)) == [
        ("columns.forza", "unknown_column"),
        ("columns.colore", "unknown_column"),
        ("columns.mente", "required"),
    ]


def test_a_column_given_twice_is_reported():
    assert column_problems(csv_text(header=HEADER + ",notes")) == [("columns.notes", "duplicate")]


def test_an_empty_file_lacks_every_required_column():
    assert column_problems("") == [
        ("columns.player", "required"),
        ("columns.character", "required"),
        ("columns.corpo", "required"),
        ("columns.equilibrio", "required"),
        ("columns.mente", "required"),
        ("columns.spirito", "required"),
    ]


def test_trailing_empty_columns_are_ignored_but_data_without_a_header_is_not():
    assert read_csv(csv_text(ROW + ",,", header=HEADER + ",,")) == read_csv(csv_text(ROW))
    assert column_problems(csv_text(ROW + ",,x", header=HEADER + ",,")) == [
        ("columns[17]", "unknown_column")
    ]


def test_empty_rows_are_skipped_and_row_numbers_follow_the_spreadsheet():
    text = csv_text(ROW, ",,,,,,,,,,,,,,,", "", "  ,  ,\t", ROW.replace("Ada", "Bea"))
    sheets, rows = read_csv_with_rows(text)
    assert [s["player"] for s in sheets] == ["Ada", "Bea"]
    assert rows == [2, 6]


def test_a_cell_over_several_lines_is_still_one_spreadsheet_row():
    text = csv_text('Ada,Vera,,16,12,18,21,,,,,,,,,"riga uno\nriga due"', ROW)
    sheets, rows = read_csv_with_rows(text)
    assert sheets[0]["notes"] == "riga uno\nriga due"
    assert rows == [2, 3]


def test_two_hundred_rows_with_one_bad_row_give_errors_on_that_row_only():
    rows = [ROW.replace("Ada", f"Giocatore {i}") for i in range(200)]
    rows[137] = rows[137].replace(",16,", ",25,")
    sheets, numbers = read_csv_with_rows(csv_text(*rows))
    found = {i: errors(sheet) for i, sheet in enumerate(sheets) if errors(sheet)}
    assert len(sheets) == 200
    assert found == {137: [("attributes.corpo", "out_of_range")]}
    assert numbers[137] == 139
