"""Every rule system reads its cast from a spreadsheet in the columns its sheet schema declares,
headed in Italian, Spanish or English; the template is written in the reader's language."""

import pytest

from larp_app.messages import problem_message
from larp_app.rules import (
    InvalidInput,
    check_sheet,
    convert_sheet,
    get_ruleset,
    register,
    unregister,
)
from larp_app.services import sheet_csv
from tests.toy_ruleset import RULESET as TOY

ATHKRI = get_ruleset("athkri").schema()
EX_NIHILO = get_ruleset("ex-nihilo").schema()

SPANISH_ATHKRI = (
    "Jugador;Personaje;Facción;Físico;Agilidad;Mente;Intuición;Presencia;PS máx;Defensa;"
    "Voluntad;Cobertura;Blindaje;Habilidades;Poderes;Notas\r\n"
    "Lucía Fernández;Maese Ildefonso;Hermandad del Faro;4;3;7;5;6;16;11;14;0;1;"
    '"Medicina:5 | Erudición:4 | Aguante:2";'
    '"Toque sanador:2:Cura 1d6 PS: primero a 0 PS. | Luz del Faro:3:";'
    "Guardián del faro\r\n"
)


def without_ruleset(sheet):
    return {k: v for k, v in sheet.items() if k != "ruleset"}


def problems(text, schema, locale="en"):
    with pytest.raises(InvalidInput) as caught:
        sheet_csv.read_csv(text, schema, locale)
    return caught.value.problems


def test_an_athkri_spreadsheet_with_spanish_headers_reads_into_athkri_sheets():
    sheets, rows = sheet_csv.read_csv(SPANISH_ATHKRI, ATHKRI, "es")
    assert rows == [2]
    assert sheets == [
        {
            "player": "Lucía Fernández",
            "character": "Maese Ildefonso",
            "faction": "Hermandad del Faro",
            "attributes": {"fisico": 4, "agilidad": 3, "mente": 7, "intuicion": 5, "presencia": 6},
            "ps_max": 16,
            "defensa": 11,
            "voluntad": 14,
            "cobertura": 0,
            "blindaje": 1,
            "skills": {"Medicina": 5, "Erudición": 4, "Aguante": 2},
            "powers": [
                {"name": "Toque sanador", "mana_cost": 2, "text": "Cura 1d6 PS: primero a 0 PS."},
                {"name": "Luz del Faro", "mana_cost": 3},
            ],
            "notes": "Guardián del faro",
        }
    ]
    larp = convert_sheet({"ruleset": "athkri", **sheets[0]})
    assert (larp.hp_max, larp.energy_max) == (16, 21)
    # Keyed as the seed's checks name them (Aguante + Físico), shown as the sheet writes them.
    assert [(s["key"], s["name"]["es"]) for s in larp.details["skills"]] == [
        ("medicina", "Medicina"),
        ("erudicion", "Erudición"),
        ("aguante", "Aguante"),
    ]


@pytest.mark.parametrize("locale", ["it", "es", "en"])
@pytest.mark.parametrize("schema", [ATHKRI, EX_NIHILO], ids=["athkri", "ex-nihilo"])
def test_each_template_is_headed_in_the_readers_language_and_reads_back_as_its_example(
    schema, locale
):
    text = sheet_csv.template_csv(schema, locale, ";")
    assert text.split("\r\n")[0].split(";") == sheet_csv.column_names(schema, locale)
    assert sheet_csv.read_csv(text, schema)[0] == [without_ruleset(e) for e in schema.examples]


def test_the_spanish_athkri_template_has_spanish_headers():
    header = sheet_csv.template_csv(ATHKRI, "es").split("\r\n")[0]
    assert header.startswith("jugador,personaje,facción,físico,agilidad,mente,intuición,")
    assert header.endswith(",habilidades,poderes,notas")


def test_column_names_match_without_case_accents_or_spaces():
    header = SPANISH_ATHKRI.split("\r\n")[0]
    shouting = header.upper().replace("FÍSICO", "FISICO").replace("PS MÁX", "ps_max")
    assert (
        sheet_csv.read_csv(SPANISH_ATHKRI.replace(header, shouting), ATHKRI)[0]
        == (sheet_csv.read_csv(SPANISH_ATHKRI, ATHKRI)[0])
    )


def test_an_italian_sheet_may_head_the_armour_limit_in_italian_word_order():
    text = sheet_csv.template_csv(EX_NIHILO, "it")
    assert "armatura_equilibrio_max" in text.split("\r\n")[0]
    assert sheet_csv.read_csv(text, EX_NIHILO)[0][0]["armour"]["max_equilibrio"] == 18


def test_an_unknown_column_lists_the_accepted_names_in_the_readers_language():
    text = (
        "giocatore,personaggio,corpo,equilibrio,mente,spirito,forza\r\nAda,Vera,16,12,18,21,3\r\n"
    )
    (found,) = problems(text, EX_NIHILO, "it")
    assert (found.path, found.code) == ("columns.forza", "unknown_column")
    assert found.params["allowed"][:3] == ["giocatore", "personaggio", "fazione"]
    assert "armatura_equilibrio_max" in found.params["allowed"]
    assert "armour_name" not in found.params["allowed"]
    (spanish,) = problems(text, EX_NIHILO, "es")
    assert spanish.params["allowed"][:3] == ["jugador", "personaje", "facción"]


def test_a_missing_required_column_is_named_in_the_readers_language():
    text = "jugador;personaje;físico;agilidad;mente;intuición;presencia\r\nAna;Mau;3;3;3;3;3\r\n"
    (found,) = problems(text, ATHKRI, "es")
    assert (found.path, found.code, found.params["got"]) == ("columns.ps_max", "required", "ps_máx")


def test_values_are_matched_without_case_or_accents_where_the_rule_system_words_allow():
    row = 'Ada,Vera,16,12,18,21,Giacca,Leggera,"Arco:DISTANZA:5:30:2 | Ascia:Mischia:7::1,5"'
    text = (
        "player,character,corpo,equilibrio,mente,spirito,armour_name,armour_weight,weapons\r\n"
        + row
        + "\r\n"
    )
    sheet = sheet_csv.read_csv(text, EX_NIHILO)[0][0]
    assert sheet["armour"]["weight"] == "leggera"
    assert [w["kind"] for w in sheet["weapons"]] == ["distanza", "mischia"]
    assert check_sheet({"ruleset": "ex-nihilo", **sheet})[1].errors == []
    spanish = sheet_csv.read_csv(text.replace("Leggera", "ligera"), EX_NIHILO)[0][0]
    assert spanish["armour"]["weight"] == "leggera"


def test_a_word_of_no_choice_is_refused_at_its_field_as_written():
    text = "player,character,corpo,equilibrio,mente,spirito,armour_name,armour_weight\r\n"
    sheet = sheet_csv.read_csv(text + "Ada,Vera,16,12,18,21,Giacca,Leggerissima\r\n", EX_NIHILO)
    (error,) = check_sheet({"ruleset": "ex-nihilo", **sheet[0][0]})[1].errors
    assert problem_message(error) == (
        "armour.weight: must be one of leggera, media, pesante, multistrato, got Leggerissima"
    )


def test_the_toy_rule_system_reads_a_spreadsheet_of_its_own_schema():
    register(TOY)
    try:
        schema = TOY.schema()
        text = "Giocatore;Personaggio;Vigore;Talenti\r\nAda;Brom;4;giocoleria | fischio\r\n"
        sheets, _rows = sheet_csv.read_csv(text, schema)
        assert sheets == [
            {"player": "Ada", "character": "Brom", "vigour": 4, "knacks": ["giocoleria", "fischio"]}
        ]
        assert convert_sheet({"ruleset": "toy", **sheets[0]}).hp_max == 4
    finally:
        unregister(TOY.key)
