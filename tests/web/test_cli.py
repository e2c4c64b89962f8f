"""The command line: ``flask sheets convert`` and ``flask log replay`` (README,
larp_app/rules/README.md)."""

import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
SHEET = DATA / "ex-nihilo-sheet.json"
LOG = DATA / "ex-nihilo-log.json"


def example_sheet():
    return json.loads(SHEET.read_text(encoding="utf-8"))


def example_log():
    return json.loads(LOG.read_text(encoding="utf-8"))


def write(tmp_path, name, data):
    """Write ``data`` as JSON (or a string as is) under tmp_path; return the path as text."""
    path = tmp_path / name
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    return str(path)


def convert(runner, sheet_file):
    return runner.invoke(args=["sheets", "convert", str(sheet_file)])


def replay(runner, at, sheet_file=SHEET, log_file=LOG, settings_file=None):
    args = ["log", "replay", str(sheet_file), str(log_file), "--at", at]
    if settings_file is not None:
        args += ["--settings", str(settings_file)]
    return runner.invoke(args=args)


def state(result):
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def stderr_lines(result):
    return result.stderr.splitlines()


def assert_rejected(result):
    """Exit status 2, nothing on stdout, and problems rather than a Python traceback."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert "Traceback" not in result.output
    assert isinstance(result.exception, SystemExit)


# sheets convert ---------------------------------------------------------------------------------


def test_sheets_convert_prints_the_larp_sheet_of_the_example_as_json(runner):
    result = convert(runner, SHEET)
    assert result.exit_code == 0, result.output
    sheet = json.loads(result.stdout)
    assert {
        k: sheet[k]
        for k in (
            "ruleset",
            "player",
            "character",
            "hp_max",
            "ap_max",
            "energy_max",
            "energy_recovery_minutes",
            "equipment",
            "fascino",
            "leadership",
            "percezione",
            "skill_slots",
            "warnings",
        )
    } == {
        "ruleset": "ex-nihilo",
        "player": "Giulia Rossi",
        "character": "Dott.ssa Vera Lanz",
        "hp_max": 3,
        "ap_max": 3,
        "energy_max": 3,
        "energy_recovery_minutes": 20,
        "equipment": "pesante",
        "fascino": 33,
        "leadership": 39,
        "percezione": 30,
        "skill_slots": 5,
        "warnings": [],
    }
    assert result.stderr == ""


def test_sheets_convert_keeps_accented_text_readable(runner):
    result = convert(runner, SHEET)
    assert "difficoltà 50" in result.stdout


def test_sheets_convert_prints_warnings_on_the_sheet_and_succeeds(runner, tmp_path):
    raw = example_sheet()
    raw["attributes"]["mente"] = 8  # one skill slot for three skills
    result = convert(runner, write(tmp_path, "sheet.json", raw))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["warnings"] == [
        {"field": "skills", "code": "too_many_skills", "has": 3, "slots": 1}
    ]


def test_an_invalid_sheet_exits_2_with_one_field_message_line_per_problem(runner, tmp_path):
    raw = example_sheet()
    del raw["player"]
    raw["attributes"]["corpo"] = 25
    raw["skills"]["alchimia"] = 1
    raw["weapons"][0]["hands"] = 3
    result = convert(runner, write(tmp_path, "sheet.json", raw))
    assert_rejected(result)
    lines = stderr_lines(result)
    assert len(lines) == 4
    assert "attributes.corpo: must be 8–22, got 25" in lines
    assert "player: is required" in lines
    assert sorted(line.split(": ", 1)[0] for line in lines) == [
        "attributes.corpo",
        "player",
        "skills.alchimia",
        "weapons[0].hands",
    ]


def test_a_sheet_that_is_not_an_object_exits_2(runner, tmp_path):
    result = convert(runner, write(tmp_path, "sheet.json", [1, 2, 3]))
    assert_rejected(result)
    assert stderr_lines(result) == ["sheet: must be an object"]


def test_a_sheet_of_an_unknown_ruleset_exits_2(runner, tmp_path):
    raw = {**example_sheet(), "ruleset": "d&d"}
    result = convert(runner, write(tmp_path, "sheet.json", raw))
    assert_rejected(result)
    [line] = stderr_lines(result)
    assert line.startswith("ruleset: unknown ruleset d&d")


def test_a_sheet_file_that_is_not_json_exits_2_naming_the_problem(runner, tmp_path):
    result = convert(runner, write(tmp_path, "sheet.json", '{"player": "Giulia",'))
    assert_rejected(result)
    [line] = stderr_lines(result)
    assert line.startswith("sheet: is not valid JSON: ")
    assert "line 1" in line


def test_a_missing_sheet_file_exits_2_naming_the_problem(runner, tmp_path):
    result = convert(runner, tmp_path / "nowhere.json")
    assert_rejected(result)
    [line] = stderr_lines(result)
    assert line.startswith("sheet: ")


def test_an_invalid_tabletop_sheet_with_a_stray_hp_max_is_still_checked(runner, tmp_path):
    # larp_app/rulesets/ex_nihilo/README.md: "Bad input is refused with every problem at once,
    # each naming its field". A stray hp_max must not make the CLI skip the checks.
    raw = {**example_sheet(), "hp_max": 3}
    raw["attributes"]["corpo"] = 25
    result = convert(runner, write(tmp_path, "sheet.json", raw))
    assert_rejected(result)
    assert "attributes.corpo: must be 8–22, got 25" in stderr_lines(result)


def test_a_larp_sheet_with_nothing_but_hp_max_is_rejected(runner, tmp_path):
    # Nothing half-imported (larp_app/rules/README.md: "nothing is stored").
    result = convert(runner, write(tmp_path, "sheet.json", {"hp_max": 3}))
    assert_rejected(result)


# log replay: examples/ex-nihilo-log.expected.md ----------------------------------------------


def test_replay_at_15_11_59_the_character_is_dying_with_one_energy(runner):
    s = state(replay(runner, "2027-03-06T15:11:59Z"))
    assert s == {
        "at": "2027-03-06T15:11:59Z",
        "hp": -1,
        "hp_max": 3,
        "ap": 0,
        "ap_max": 3,
        "armour_destroyed": False,
        "energy": 1,
        "energy_max": 3,
        "next_energy_at": "2027-03-06T15:20:05Z",
        "wound": "dying",
        "death_at": "2027-03-06T15:12:00Z",
        "died_at": None,
        "statuses": [],
        "conflicts": [],
        "log_position": 5,
    }


def test_replay_at_15_12_00_the_character_is_dead_with_energy_frozen_at_one(runner):
    s = state(replay(runner, "2027-03-06T15:12:00Z"))
    assert (s["wound"], s["died_at"], s["death_at"]) == ("dead", "2027-03-06T15:12:00Z", None)
    assert (s["hp"], s["ap"], s["energy"]) == (-1, 0, 1)
    assert s["conflicts"] == []


def test_replay_long_after_death_keeps_the_values_frozen(runner):
    s = state(replay(runner, "2027-03-06T16:00:00Z"))
    assert (s["wound"], s["died_at"], s["energy"]) == ("dead", "2027-03-06T15:12:00Z", 1)


@pytest.mark.parametrize(
    ("at", "expected"),
    [
        pytest.param("15:00:00", {"ap": 1, "hp": 3, "wound": "ok"}, id="two blows: armour 3 → 1"),
        pytest.param(
            "15:00:05",
            {"energy": 1, "next_energy_at": "2027-03-06T15:20:05Z"},
            id="energy 3 → 1 and the recovery timer starts",
        ),
        pytest.param(
            "15:01:00",
            {"ap": 0, "hp": 0, "wound": "grievous", "death_at": None},
            id="four blows: gravemente ferito",
        ),
        pytest.param(
            "15:01:30",
            {
                "statuses": [
                    {
                        "key": "paura",
                        "since": "2027-03-06T15:01:30Z",
                        "until": "2027-03-06T15:01:33Z",
                    }
                ]
            },
            id="paura until 15:01:33",
        ),
        pytest.param("15:01:33", {"statuses": []}, id="paura is over at 15:01:33"),
        pytest.param(
            "15:02:00",
            {"hp": -1, "wound": "dying", "death_at": "2027-03-06T15:12:00Z"},
            id="one more blow at 0: Morente",
        ),
    ],
)
def test_replay_follows_the_worked_example_step_by_step(runner, at, expected):
    s = state(replay(runner, f"2027-03-06T{at}Z"))
    assert {k: s[k] for k in expected} == expected


def test_replay_with_a_heal_at_15_10_leaves_the_character_gravely_wounded(runner, tmp_path):
    log = [
        *example_log(),
        {
            "id": "3f0c1c1e-0d4a-4a5e-9d7e-000000000006",
            "kind": "heal",
            "at": "2027-03-06T15:10:00Z",
            "amount": 1,
        },
    ]
    s = state(replay(runner, "2027-03-06T15:25:00Z", log_file=write(tmp_path, "log.json", log)))
    assert (s["hp"], s["wound"], s["death_at"], s["died_at"]) == (0, "grievous", None, None)
    assert (s["energy"], s["next_energy_at"]) == (2, "2027-03-06T15:40:05Z")


def test_replay_with_turns_of_two_seconds_doubles_the_death_countdown(runner, tmp_path):
    settings = write(tmp_path, "settings.json", {"turn_seconds": 2})
    s = state(replay(runner, "2027-03-06T15:12:00Z", settings_file=settings))
    assert (s["wound"], s["death_at"], s["died_at"]) == ("dying", "2027-03-06T15:22:00Z", None)


def test_replay_with_turns_of_two_seconds_doubles_a_status_duration(runner, tmp_path):
    settings = write(tmp_path, "settings.json", {"turn_seconds": 2})
    s = state(replay(runner, "2027-03-06T15:01:35Z", settings_file=settings))
    assert [(st["key"], st["until"]) for st in s["statuses"]] == [("paura", "2027-03-06T15:01:36Z")]


def test_replay_with_an_event_armour_table_uses_its_points(runner, tmp_path):
    points = {"leggera": 1, "media": 5, "pesante": 3, "multistrato": 4}
    settings = write(tmp_path, "settings.json", {"tables": {"armour": {"points": points}}})
    s = state(replay(runner, "2027-03-06T15:00:00Z", settings_file=settings))
    assert (s["ap_max"], s["ap"], s["hp"]) == (6, 4, 3)


def test_replay_with_a_bad_settings_file_exits_2_naming_the_setting(runner, tmp_path):
    settings = write(tmp_path, "settings.json", {"turn_seconds": 0})
    result = replay(runner, "2027-03-06T15:12:00Z", settings_file=settings)
    assert_rejected(result)
    [line] = stderr_lines(result)
    assert line.startswith("settings.turn_seconds: ")
    assert line == "settings.turn_seconds: must be 0.1–60, got 0"


def test_replay_with_a_settings_file_that_is_not_json_exits_2(runner, tmp_path):
    settings = write(tmp_path, "settings.json", "turn_seconds = 2")
    result = replay(runner, "2027-03-06T15:12:00Z", settings_file=settings)
    assert_rejected(result)
    [line] = stderr_lines(result)
    assert line.startswith("settings: is not valid JSON: ")


def test_replay_with_a_malformed_log_entry_exits_2_naming_the_entry_field(runner, tmp_path):
    log = example_log()
    log[0]["damage"] = 0
    result = replay(runner, "2027-03-06T15:12:00Z", log_file=write(tmp_path, "log.json", log))
    assert_rejected(result)
    assert stderr_lines(result) == ["log[0].damage: must be 1–100, got 0"]


def test_replay_lists_every_malformed_log_field_at_once(runner, tmp_path):
    log = example_log()
    log[0]["damage"] = "a lot"
    log[3]["at"] = "yesterday"
    log[4]["kind"] = "fireball"
    result = replay(runner, "2027-03-06T15:12:00Z", log_file=write(tmp_path, "log.json", log))
    assert_rejected(result)
    assert [line.split(": ", 1)[0] for line in stderr_lines(result)] == [
        "log[0].damage",
        "log[3].at",
        "log[4].kind",
    ]


def test_replay_with_an_invalid_sheet_exits_2_naming_the_field(runner, tmp_path):
    raw = example_sheet()
    raw["attributes"]["corpo"] = 25
    result = replay(runner, "2027-03-06T15:12:00Z", sheet_file=write(tmp_path, "sheet.json", raw))
    assert_rejected(result)
    assert stderr_lines(result) == ["attributes.corpo: must be 8–22, got 25"]


def test_replay_with_a_bad_instant_exits_2(runner):
    result = replay(runner, "half past three")
    assert_rejected(result)
    assert stderr_lines(result) == ["--at: must be an ISO-8601 date and time, got half past three"]


def test_replay_lists_an_impossible_entry_as_a_conflict_and_skips_it(runner, tmp_path):
    log = example_log()
    log[1]["amount"] = 5  # the character has 3 energy
    result = replay(runner, "2027-03-06T15:11:59Z", log_file=write(tmp_path, "log.json", log))
    s = state(result)
    assert s["conflicts"] == [
        {"id": "3f0c1c1e-0d4a-4a5e-9d7e-000000000002", "code": "not_enough_energy"}
    ]
    assert (s["energy"], s["next_energy_at"]) == (3, None)  # nothing was spent
    assert (s["hp"], s["wound"]) == (-1, "dying")  # the rest of the log still counts
    assert stderr_lines(result) == [
        "conflict 3f0c1c1e-0d4a-4a5e-9d7e-000000000002: needs 5 energy, has 3"
    ]
