"""EX Nihilo sheets (larp_app/rulesets/ex_nihilo/README.md): validation and conversion through
the engine API."""

import json
import re
from pathlib import Path

import pytest

from larp_app.messages import problem_message
from larp_app.rules import (
    InvalidInput,
    check_sheet,
    convert_sheet,
    read_settings,
    tabletop_values,
)

DATA = Path(__file__).resolve().parents[1] / "data"
DROP = object()  # ``set_at`` removes the field instead of setting it

# The house-default attribute-modifier table (larp_app/rulesets/ex_nihilo/README.md), a row a line.
ROW_KEYS = (
    "min",
    "max",
    "equipment",
    "armour_bonus",
    "initiative",
    "skill_slots",
    "energy_slots",
    "energy_recovery_minutes",
)
HOUSE_ROWS = (
    (8, 9, "standard", 0, 0, 1, 0, None),
    (10, 12, "standard", 0, 1, 2, 0, None),
    (13, 15, "pesante", 1, 2, 3, 0, None),
    (16, 17, "pesante", 1, 3, 4, 0, None),
    (18, 19, "pesante", 1, 4, 5, 0, None),
    (20, 20, "speciale", 2, 5, 6, 2, 30),
    (21, 21, "speciale", 2, 5, 6, 3, 20),
    (22, 22, "speciale", 2, 6, 7, 4, 15),
)
HOUSE_ARMOUR = {"leggera": 1, "media": 2, "pesante": 3, "multistrato": 4}


def example(**attributes):
    """A fresh copy of the example tabletop sheet, with some attributes changed."""
    raw = json.loads((DATA / "ex-nihilo-sheet.json").read_text(encoding="utf-8"))
    raw["attributes"].update(attributes)
    return raw


def set_at(raw, path, value):
    """Set the value at a field path such as ``weapons[0].hands`` (remove it with DROP)."""
    steps = [int(s[1:-1]) if s.startswith("[") else s for s in re.findall(r"\[\d+\]|[^.\[]+", path)]
    target = raw
    for step in steps[:-1]:
        target = target[step]
    if value is DROP:
        del target[steps[-1]]
    else:
        target[steps[-1]] = value
    return raw


def problems(raw, settings=None):
    """The (field, code) of every error that rejects ``raw``."""
    with pytest.raises(InvalidInput) as caught:
        convert_sheet(raw, settings)
    return [(p.path, p.code) for p in caught.value.problems]


def settings_problems(raw):
    with pytest.raises(InvalidInput) as caught:
        read_settings(raw, "ex-nihilo")
    return [(p.path, p.code) for p in caught.value.problems]


def attribute_table(rows=HOUSE_ROWS):
    return {"rows": [dict(zip(ROW_KEYS, row, strict=True)) for row in rows]}


def armour_table(**points):
    return {"points": {**HOUSE_ARMOUR, **points}}


def all_keys(data):
    """Every key at any depth of plain JSON-like data."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in all_keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in all_keys(v)}
    return set()


# The example sheet (examples/ex-nihilo-larp-sheet.expected.md) ------------------------------


def test_the_example_sheet_has_three_larp_hit_points():
    assert convert_sheet(example()).hp_max == 3


def test_the_example_sheet_has_media_armour_plus_armatura_one_for_three_armour_points():
    assert convert_sheet(example()).ap_max == 3


def test_the_example_sheet_has_three_energy_recovering_one_every_twenty_minutes():
    sheet = convert_sheet(example())
    assert (sheet.energy_max, sheet.energy_recovery_minutes) == (3, 20)


def test_the_example_sheet_keeps_who_plays_whom():
    sheet = convert_sheet(example())
    assert (sheet.ruleset, sheet.player, sheet.character, sheet.faction) == (
        "ex-nihilo",
        "Giulia Rossi",
        "Dott.ssa Vera Lanz",
        "Corporazione",
    )


def test_the_example_sheet_has_pesante_equipment_for_corpo_16():
    assert convert_sheet(example()).details["equipment"] == "pesante"


def test_the_example_sheet_has_fascino_33_leadership_39_percezione_30():
    details = convert_sheet(example()).details
    assert (details["fascino"], details["leadership"], details["percezione"]) == (33, 39, 30)


def test_the_example_sheet_has_five_skill_slots_for_mente_18_and_uses_three():
    details = convert_sheet(example()).details
    assert details["skill_slots"] == 5
    assert [(s["key"], s["grade"]) for s in details["skills"]] == [
        ("medicina", 3),
        ("biologia", 2),
        ("ricerca", 1),
    ]


def test_each_skill_on_the_larp_sheet_carries_its_text():
    for skill in convert_sheet(example()).details["skills"]:
        assert skill["name"]["it"]
        assert skill["description"]["it"]


def test_the_example_sheet_converts_without_warnings():
    sheet = convert_sheet(example())
    assert sheet.warnings == ()
    assert sheet.to_dict()["warnings"] == []


def test_the_example_sheet_keeps_both_larp_advancements_with_their_energy_cost():
    sheet = convert_sheet(example())
    assert [(a.name, a.energy_cost) for a in sheet.advancements] == [
        ("Colpo Caricato", 1),
        ("Sguardo del Vuoto", 2),
    ]


def test_the_example_sheet_carries_the_status_reference():
    statuses = {s["key"]: s["turns"] for s in convert_sheet(example()).details["statuses"]}
    assert statuses == {
        "dolore": 3,
        "paura": 3,
        "percepire_alle_spalle": 0,
        "a_terra": 1,
        "stordimento": 5,
        "invisibile": None,
        "intangibile": None,
        "ammaliamento": 60,
        "paralisi": 5,
        "incosciente": 600,
    }


def test_the_larp_sheet_drops_initiative_movement_deflection_absorption_and_weapon_damage():
    data = convert_sheet(example()).to_dict()
    dropped = {
        "initiative",
        "initiative_bonus",
        "move_m",
        "move_and_act_m",
        "sprint_m",
        "melee",
        "ranged",
        "defence",
        "dice",
        "deflection",
        "absorption",
        "damage",
        "max_equilibrio",
    }
    assert all_keys(data) & dropped == set()
    assert data["armour"] == {"name": "Giubbotto rinforzato", "weight": "media", "points": 2}
    assert data["weapons"] == [
        {"name": "Pistola", "kind": "distanza", "hands": 1},
        {"name": "Coltello", "kind": "mischia", "hands": 1},
    ]


def test_the_example_sheet_says_it_used_every_house_default_table():
    assert convert_sheet(example()).tables == {
        "attributes": "house default",
        "armour": "house default",
        "statuses": "house default",
        "skills": "house default",
    }


# Derived larp values --------------------------------------------------------------------------


@pytest.mark.parametrize("corpo", range(8, 16))
def test_corpo_8_to_15_gives_two_larp_hit_points(corpo):
    assert convert_sheet(example(corpo=corpo)).hp_max == 2


@pytest.mark.parametrize("corpo", range(16, 23))
def test_corpo_16_to_22_gives_three_larp_hit_points(corpo):
    assert convert_sheet(example(corpo=corpo)).hp_max == 3


@pytest.mark.parametrize("spirito", range(8, 20))
def test_spirito_below_20_gives_no_energy_and_no_recovery(spirito):
    sheet = convert_sheet(example(spirito=spirito))
    assert (sheet.energy_max, sheet.energy_recovery_minutes) == (0, None)


@pytest.mark.parametrize(
    ("spirito", "energy_max", "recovery_minutes"),
    [(20, 2, 30), (21, 3, 20), (22, 4, 15)],
)
def test_spirito_20_or_more_gives_energy_and_a_recovery_time(spirito, energy_max, recovery_minutes):
    sheet = convert_sheet(example(spirito=spirito))
    assert (sheet.energy_max, sheet.energy_recovery_minutes) == (energy_max, recovery_minutes)


@pytest.mark.parametrize(
    ("weight", "ap_max"),
    [("leggera", 3), ("media", 4), ("pesante", 5), ("multistrato", 6)],
)
def test_armour_points_are_the_worn_armours_points_plus_armatura_two_at_corpo_20(weight, ap_max):
    sheet = convert_sheet(set_at(example(corpo=20), "armour.weight", weight))
    assert sheet.ap_max == ap_max
    assert sheet.warnings == ()  # speciale equipment wears any armour


@pytest.mark.parametrize(
    ("corpo", "armatura"),
    [(8, 0), (9, 0), (10, 0), (12, 0), (13, 1), (15, 1), (16, 1), (19, 1), (20, 2), (22, 2)],
)
def test_without_armour_the_armour_points_are_the_armatura_bonus_of_corpo(corpo, armatura):
    sheet = convert_sheet(set_at(example(corpo=corpo), "armour", None))
    assert sheet.ap_max == armatura
    assert sheet.details["armour"] is None


def test_a_sheet_without_an_armour_field_has_only_the_armatura_bonus():
    assert convert_sheet(set_at(example(), "armour", DROP)).ap_max == 1


@pytest.mark.parametrize(
    ("corpo", "equipment"),
    [(8, "standard"), (12, "standard"), (13, "pesante"), (19, "pesante"), (20, "speciale")],
)
def test_corpo_sets_the_equipment_class(corpo, equipment):
    sheet = convert_sheet(set_at(example(corpo=corpo), "armour", None))
    assert sheet.details["equipment"] == equipment


def test_an_advancement_not_usable_in_larp_is_left_off_the_larp_sheet():
    sheet = convert_sheet(set_at(example(), "advancements[0].larp", False))
    assert [a.name for a in sheet.advancements] == ["Sguardo del Vuoto"]
    assert sheet.advancement("Colpo Caricato") is None


def test_an_advancement_without_a_larp_flag_is_usable_in_larp():
    sheet = convert_sheet(set_at(example(), "advancements[0].larp", DROP))
    assert [a.name for a in sheet.advancements] == ["Colpo Caricato", "Sguardo del Vuoto"]


# Warnings: soft problems that do not stop the conversion ---------------------------------------


def test_more_skills_than_mente_slots_is_a_warning_and_the_sheet_still_converts():
    raw = example(mente=8)  # one skill slot, three skills
    sheet, checker = check_sheet(raw)
    assert checker.errors == []
    assert [(w.path, w.code, w.params) for w in sheet.warnings] == [
        ("skills", "too_many_skills", {"has": 3, "slots": 1})
    ]
    assert convert_sheet(raw).hp_max == 3


def test_armour_above_the_corpo_equipment_class_is_a_warning_and_the_sheet_still_converts():
    raw = example(corpo=10)  # standard equipment wearing media armour
    sheet, checker = check_sheet(raw)
    assert checker.errors == []
    assert [(w.path, w.code, w.params) for w in sheet.warnings] == [
        ("armour.weight", "above_equipment_class", {"needs": "pesante", "has": "standard"})
    ]
    assert convert_sheet(raw).ap_max == 2


@pytest.mark.parametrize("hands", [1.5, 2])
def test_a_two_handed_weapon_with_standard_equipment_is_a_warning_and_the_sheet_still_converts(
    hands,
):
    raw = set_at(set_at(example(corpo=10), "armour", None), "weapons[1].hands", hands)
    sheet, checker = check_sheet(raw)
    assert checker.errors == []
    assert [(w.path, w.code, w.params) for w in sheet.warnings] == [
        ("weapons[1].hands", "above_equipment_class", {"needs": "pesante", "has": "standard"})
    ]
    assert convert_sheet(raw).details["weapons"][1]["hands"] == hands


def test_warnings_are_written_on_the_larp_sheet():
    data = convert_sheet(example(mente=8)).to_dict()
    assert data["warnings"] == [
        {"field": "skills", "code": "too_many_skills", "has": 3, "slots": 1}
    ]


# Errors: bad sheets are rejected, naming the field ----------------------------------------------


@pytest.mark.parametrize(
    ("path", "value", "error"),
    [
        pytest.param("player", DROP, ("player", "required"), id="missing player"),
        pytest.param("player", "   ", ("player", "required"), id="blank player"),
        pytest.param("character", DROP, ("character", "required"), id="missing character"),
        pytest.param("player", "x" * 121, ("player", "too_long"), id="player of 121 chars"),
        pytest.param("attributes.corpo", 7, ("attributes.corpo", "out_of_range"), id="attribute 7"),
        pytest.param(
            "attributes.spirito", 23, ("attributes.spirito", "out_of_range"), id="attribute 23"
        ),
        pytest.param(
            "attributes.mente", 16.5, ("attributes.mente", "not_int"), id="attribute 16.5"
        ),
        pytest.param(
            "attributes.equilibrio", "12", ("attributes.equilibrio", "not_int"), id="attribute '12'"
        ),
        pytest.param(
            "attributes.corpo", True, ("attributes.corpo", "not_int"), id="boolean attribute"
        ),
        pytest.param(
            "attributes.mente", DROP, ("attributes.mente", "required"), id="missing attribute"
        ),
        pytest.param("attributes", DROP, ("attributes", "required"), id="missing attributes"),
        pytest.param(
            "skills.alchimia", 2, ("skills.alchimia", "unknown_skill"), id="unknown skill"
        ),
        pytest.param("skills.medicina", 0, ("skills.medicina", "out_of_range"), id="grade 0"),
        pytest.param("skills.medicina", 4, ("skills.medicina", "out_of_range"), id="grade 4"),
        pytest.param(
            "armour.weight", "pesantissima", ("armour.weight", "not_allowed"), id="armour weight"
        ),
        pytest.param(
            "armour.deflection",
            -1,
            ("armour.deflection", "out_of_range"),
            id="negative deflection",
        ),
        pytest.param(
            "armour.absorption",
            -1,
            ("armour.absorption", "out_of_range"),
            id="negative absorption",
        ),
        pytest.param(
            "weapons[1].kind", "fionda", ("weapons[1].kind", "not_allowed"), id="weapon kind"
        ),
        pytest.param(
            "weapons[0].range_m",
            DROP,
            ("weapons[0].range_m", "required"),
            id="ranged weapon without range",
        ),
        pytest.param("weapons[0].hands", 3, ("weapons[0].hands", "not_allowed"), id="hands 3"),
        pytest.param(
            "advancements[0].energy_cost",
            -1,
            ("advancements[0].energy_cost", "out_of_range"),
            id="negative energy cost",
        ),
        pytest.param(
            "advancements[1].name",
            "Colpo Caricato",
            ("advancements[1].name", "duplicate"),
            id="duplicate advancement",
        ),
        pytest.param(
            "advancements[1].name",
            "colpo caricato",
            ("advancements[1].name", "duplicate"),
            id="duplicate advancement in other case",
        ),
        pytest.param("ruleset", "d&d", ("ruleset", "unknown_ruleset"), id="unknown ruleset"),
    ],
)
def test_a_bad_sheet_is_rejected_naming_the_field(path, value, error):
    assert problems(set_at(example(), path, value)) == [error]


def test_a_thrown_weapon_also_needs_its_range():
    raw = set_at(example(), "weapons[0].kind", "lancio")
    assert problems(set_at(raw, "weapons[0].range_m", DROP)) == [("weapons[0].range_m", "required")]


def test_a_melee_weapon_needs_no_range():
    assert "range_m" not in example()["weapons"][1]
    assert convert_sheet(example()).details["weapons"][1]["kind"] == "mischia"


def test_a_player_name_of_120_characters_is_accepted():
    assert convert_sheet(set_at(example(), "player", "x" * 120)).player == "x" * 120


@pytest.mark.parametrize("raw", [[], "sheet", 42, None], ids=["list", "text", "number", "null"])
def test_a_sheet_that_is_not_an_object_is_rejected(raw):
    assert problems(raw) == [("sheet", "not_object")]


def test_a_sheet_with_several_problems_lists_them_all_at_once():
    raw = example(corpo=25, mente=True)
    set_at(raw, "player", DROP)
    set_at(raw, "skills.alchimia", 1)
    set_at(raw, "armour.deflection", -3)
    set_at(raw, "weapons[0].hands", 3)
    set_at(raw, "advancements[1].energy_cost", -1)
    assert sorted(problems(raw)) == sorted(
        [
            ("player", "required"),
            ("attributes.corpo", "out_of_range"),
            ("attributes.mente", "not_int"),
            ("skills.alchimia", "unknown_skill"),
            ("armour.deflection", "out_of_range"),
            ("weapons[0].hands", "not_allowed"),
            ("advancements[1].energy_cost", "out_of_range"),
        ]
    )


def test_a_rejected_sheet_is_not_half_converted():
    sheet, checker = check_sheet(example(corpo=25))
    assert sheet is None
    assert [(p.path, p.code) for p in checker.errors] == [("attributes.corpo", "out_of_range")]


def test_an_attribute_out_of_range_reads_must_be_8_to_22():
    with pytest.raises(InvalidInput) as caught:
        convert_sheet(example(corpo=25))
    [problem] = caught.value.problems
    assert problem.params == {"min": 8, "max": 22, "got": 25}
    assert problem_message(problem) == "attributes.corpo: must be 8–22, got 25"


# Event tables (larp_app/rules/README.md: "an organiser replaces a table per event") ----------


def test_an_event_armour_table_changes_the_armour_points():
    settings = read_settings({"tables": {"armour": armour_table(media=5)}}, "ex-nihilo")
    assert convert_sheet(example(), settings).ap_max == 6  # media 5 + Armatura +1


def test_the_sheet_says_which_tables_came_from_the_event():
    settings = read_settings({"tables": {"armour": armour_table(media=5)}}, "ex-nihilo")
    sheet = convert_sheet(example(), settings)
    assert sheet.tables == {
        "attributes": "house default",
        "armour": "event",
        "statuses": "house default",
        "skills": "house default",
    }
    assert sheet.to_dict()["tables"]["armour"] == "event"


def test_an_event_attribute_table_equal_to_the_house_default_gives_the_same_values():
    settings = read_settings({"tables": {"attributes": attribute_table()}}, "ex-nihilo")
    sheet, default = convert_sheet(example(), settings), convert_sheet(example())
    assert (sheet.hp_max, sheet.ap_max, sheet.energy_max, sheet.energy_recovery_minutes) == (
        default.hp_max,
        default.ap_max,
        default.energy_max,
        default.energy_recovery_minutes,
    )
    assert sheet.details["skill_slots"] == default.details["skill_slots"]
    assert sheet.tables["attributes"] == "event"


def test_an_event_attribute_table_changes_energy_and_skill_slots():
    rows = [list(row) for row in HOUSE_ROWS]
    rows[4][5] = 2  # Mente 18–19: two skill slots
    rows[6][6:8] = [5, 10]  # Spirito 21: five energy, one back every 10 minutes
    settings = read_settings({"tables": {"attributes": attribute_table(rows)}}, "ex-nihilo")
    sheet = convert_sheet(example(), settings)
    assert (sheet.energy_max, sheet.energy_recovery_minutes) == (5, 10)
    assert sheet.details["skill_slots"] == 2
    assert [(w.path, w.code) for w in sheet.warnings] == [("skills", "too_many_skills")]


def test_an_event_attribute_table_with_a_gap_is_rejected():
    rows = [row for row in HOUSE_ROWS if row[0] != 10]  # nothing covers 10–12
    raw = {"tables": {"attributes": attribute_table(rows)}}
    assert settings_problems(raw) == [("tables.attributes.rows", "must_cover_once")]


def test_an_event_attribute_table_with_overlapping_rows_is_rejected():
    rows = [list(row) for row in HOUSE_ROWS]
    rows[0][1] = 10  # 8–10 overlaps 10–12
    raw = {"tables": {"attributes": attribute_table(rows)}}
    assert settings_problems(raw) == [("tables.attributes.rows", "must_cover_once")]


def test_an_event_attribute_table_with_negative_points_is_rejected():
    rows = [list(row) for row in HOUSE_ROWS]
    rows[2][3] = -1  # Armatura −1 for Corpo 13–15
    raw = {"tables": {"attributes": attribute_table(rows)}}
    assert settings_problems(raw) == [("tables.attributes.rows[2].armour_bonus", "out_of_range")]


def test_an_event_armour_table_with_negative_points_is_rejected():
    raw = {"tables": {"armour": armour_table(media=-2)}}
    assert settings_problems(raw) == [("tables.armour.points.media", "out_of_range")]


def test_an_event_energy_row_without_a_recovery_time_is_rejected():
    rows = [list(row) for row in HOUSE_ROWS]
    rows[5][7] = None  # Spirito 20: energy but no recovery time
    raw = {"tables": {"attributes": attribute_table(rows)}}
    assert settings_problems(raw) == [
        ("tables.attributes.rows[5].energy_recovery_minutes", "required")
    ]


def test_event_settings_with_several_problems_list_them_all_at_once():
    rows = [row for row in HOUSE_ROWS if row[0] != 10]
    raw = {"turn_seconds": 0, "tables": {"attributes": attribute_table(rows)}}
    assert sorted(settings_problems(raw)) == [
        ("tables.attributes.rows", "must_cover_once"),
        ("turn_seconds", "out_of_range"),
    ]


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        pytest.param({"turn_secs": 2}, ("turn_secs", "unknown_field"), id="unknown key"),
        pytest.param(
            {"optional_rules": {"armour_breaks": True, "friendly_fire": True}},
            ("optional_rules.friendly_fire", "unknown_field"),
            id="unknown optional rule",
        ),
        pytest.param(
            {"tables": {"weapons": {}}}, ("tables.weapons", "unknown_table"), id="unknown table"
        ),
    ],
)
def test_unknown_settings_keys_are_rejected(raw, error):
    assert settings_problems(raw) == [error]


def test_settings_of_another_ruleset_are_rejected():
    assert settings_problems({"ruleset": "athkri"}) == [("ruleset", "ruleset_mismatch")]


def test_a_sheet_of_another_ruleset_than_the_events_is_rejected():
    settings = read_settings({}, "ex-nihilo")
    assert problems(set_at(example(), "ruleset", "athkri"), settings) == [
        ("ruleset", "ruleset_mismatch")
    ]


# Tabletop values (ex_nihilo/README.md): kept for the organiser, dropped from the larp sheet --


def test_tabletop_values_of_the_example_sheet():
    assert tabletop_values(example()) == {
        "hp": 26,  # 10 + Corpo
        "fascino": 33,
        "leadership": 39,
        "percezione": 30,
        "move_m": 3,  # 2 m + 1 m per 10 of the better of Corpo 16 / Equilibrio 12
        "move_and_act_m": 2,
        "sprint_m": 8,  # 6 m + 1 m per 10 of Corpo + Equilibrio = 28
        "initiative_bonus": 1,  # Equilibrio 12
        "melee": 28,  # Corpo + Equilibrio
        "ranged": 30,  # Equilibrio + Mente
        "defence": 22,  # Equilibrio + deflection 10 in armour
        "colpo_d_occhio": 30,
    }


def test_without_armour_tabletop_defence_is_equilibrio_twice():
    assert tabletop_values(set_at(example(), "armour", None))["defence"] == 24


def test_tabletop_movement_grows_by_a_metre_every_ten_points():
    values = tabletop_values(example(corpo=22, equilibrio=20))
    assert (values["move_m"], values["move_and_act_m"], values["sprint_m"]) == (4, 3, 10)
