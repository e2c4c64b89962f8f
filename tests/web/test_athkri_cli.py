"""The command line on a Sistema Athkri sheet (larp_app/rulesets/athkri/README.md):
``flask sheets convert`` and ``flask log replay`` with saves the app rolls from the event's
seed."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
SHEET = DATA / "athkri-sheet.json"  # Maurick: Físico 4, 20 PS, Blindaje 2, Mente 5
FISICO = 4
KNOCKED_OUT = "2027-05-01T10:00:00Z"
HIT = "a7000000-0000-4000-8000-000000000001"


def example_sheet(**changes):
    return {**json.loads(SHEET.read_text(encoding="utf-8")), **changes}


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return str(path)


def small_log(damage):
    """A pierce blow that knocks the character out, then a confusion check half a turn later."""
    return [
        {"id": HIT, "kind": "hit", "at": KNOCKED_OUT, "damage": damage, "pierce": True},
        {
            "id": "a7000000-0000-4000-8000-000000000002",
            "kind": "roll",
            "at": "2027-05-01T10:00:00.500000Z",
            "key": "confundido",
        },
    ]


@pytest.fixture
def files(tmp_path):
    """A 10-PS Maurick (so several saves can fail before death), the log, and a seed."""

    def make(seed="naufragio", saves=None, sheet=None, log=None):
        settings = {"seed": seed, "turn_seconds": 1} | ({"saves": saves} if saves else {})
        return (
            write(tmp_path, "sheet.json", sheet or example_sheet(ps_max=10)),
            write(tmp_path, "log.json", log or small_log(10)),
            write(tmp_path, "settings.json", settings),
        )

    return make


def replay(runner, sheet, log, settings, at="2027-05-01T10:00:10Z"):
    result = runner.invoke(args=["log", "replay", sheet, log, "--at", at, "--settings", settings])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def saves(state):
    return [r for r in state["rolls"] if r["what"] == "save"]


# sheets convert ---------------------------------------------------------------------------------


def test_sheets_convert_prints_the_athkri_larp_sheet(runner):
    result = runner.invoke(args=["sheets", "convert", str(SHEET)])
    assert result.exit_code == 0, result.output
    sheet = json.loads(result.stdout)
    assert sheet["ruleset"] == "athkri"
    assert (sheet["hp_max"], sheet["ap_max"], sheet["energy_max"]) == (20, 2, 15)
    assert sheet["thresholds"] == {"malherido_at_ps": 4, "dead_at_damage": 24, "indefenso_blow": 8}
    assert {c["key"] for c in sheet["conditions"]} >= {"confundido", "paralizado", "sordo"}
    assert sheet["advancements"][0]["name"] == "Toque sanador"


def test_sheets_convert_lists_every_problem_of_a_bad_athkri_sheet(runner, tmp_path):
    bad = example_sheet(ps_max=0)
    bad["attributes"] = {**bad["attributes"], "fisico": 11}
    result = runner.invoke(args=["sheets", "convert", write(tmp_path, "bad.json", bad)])
    assert result.exit_code == 2
    assert result.stdout == ""
    problems = result.stderr.splitlines()
    assert any(line.startswith("attributes.fisico:") for line in problems)
    assert any(line.startswith("ps_max:") for line in problems)


# log replay -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", ["naufragio", "luna", "mar"])
def test_replay_rolls_a_save_each_turn_and_the_state_follows_the_dice(runner, files, seed):
    """Whatever the dice, the printed state is what the printed saves make of it
    (larp_app/rulesets/athkri/README.md, "Wounds")."""
    state = replay(runner, *files(seed))
    rolled = saves(state)
    assert rolled, state
    hp, level = 10 - 10, "inconsciente"
    for turn, save in enumerate(rolled, start=1):
        assert save["at"] == f"2027-05-01T10:00:{turn:02d}Z"  # one turn (1 s) apart
        assert len(save["dice"]) == 3 and all(1 <= d <= 10 for d in save["dice"])
        assert save["kept"] == sorted(save["dice"])[1]  # 1o3d10: the middle die
        assert (save["bonus"], save["target"]) == (FISICO, 12)
        assert save["total"] == save["kept"] + FISICO
        assert save["success"] == (save["total"] >= 12)
        if save["success"]:
            hp = 1
            break
        hp -= turn * FISICO  # the k-th failure (every save so far failed): k × Físico
        if 10 - hp >= FISICO * 6:
            level = "muerto"
            break
    assert save is rolled[-1]  # nothing rolled after stabilising or dying
    assert (state["hp"], state["level"]) == (hp, level)
    if level == "muerto":
        assert state["died_at"] == rolled[-1]["at"]
    elif hp == 1:
        assert state["awake_at"] is not None and state["next_save_at"] is None


def test_replay_shows_the_condition_check_with_its_d100(runner, files):
    state = replay(runner, *files())
    (check,) = [r for r in state["rolls"] if r["what"] == "confundido"]
    assert check["at"] == "2027-05-01T10:00:00.500000Z"
    assert len(check["dice"]) == 1 and 1 <= check["kept"] <= 100


def test_while_unconscious_the_replay_gives_the_next_save_and_its_cost(runner, files):
    state = replay(runner, *files(), at="2027-05-01T10:00:00.750000Z")  # before the first save
    assert (state["hp"], state["level"], state["wound"]) == (0, "inconsciente", "dying")
    assert state["next_save_at"] == "2027-05-01T10:00:01Z"
    assert state["next_failure_damage"] == FISICO
    assert state["turns_until_death_worst_case"] == 3  # 10 → 14 → 22 → 34 ≥ 24
    assert saves(state) == []


def test_the_same_replay_twice_prints_the_same_dice(runner, files):
    paths = files()
    first = replay(runner, *paths)
    second = replay(runner, *paths)
    assert first == second
    # asked later, the saves already rolled stay as they were
    later = replay(runner, *paths, at="2027-05-01T12:00:00Z")
    assert saves(later) == saves(first)


def test_another_seed_rolls_other_dice(runner, files):
    dice = {
        seed: [s["dice"] for s in saves(replay(runner, *files(seed)))] for seed in ("luna", "sol")
    }
    assert dice["luna"] != dice["sol"]


def test_the_same_command_twice_in_fresh_processes_prints_the_same_dice(files, tmp_path):
    """``flask --app larp_app log replay`` as typed: nothing depends on the process."""
    sheet, log, settings = files()
    command = [sys.executable, "-m", "flask", "--app", "larp_app", "log", "replay"]
    command += [sheet, log, "--at", "2027-05-01T10:00:10Z", "--settings", settings]
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'unused.sqlite3'}"}
    outputs = [
        subprocess.run(command, capture_output=True, text=True, env=env, check=True, timeout=120)
        for _ in range(2)
    ]
    assert outputs[0].stdout == outputs[1].stdout
    assert saves(json.loads(outputs[0].stdout))


def test_referee_saves_come_from_the_log_and_the_app_rolls_none(runner, files):
    log = small_log(10) + [
        {
            "id": f"a7000000-0000-4000-8000-00000000001{i}",
            "kind": "save",
            "at": at,
            "success": False,
        }
        for i, at in enumerate(["2027-05-01T10:00:05Z", "2027-05-01T10:00:09Z"])
    ]
    state = replay(runner, *files(saves="referee", log=log))
    assert saves(state) == []
    assert state["hp"] == 0 - FISICO - 2 * FISICO  # the first failure 4, the second 8
    assert state["next_failure_damage"] == 3 * FISICO
    assert state["level"] == "inconsciente"


def test_a_save_in_the_log_of_an_event_where_the_app_rolls_is_a_conflict(runner, files):
    save = {
        "id": "a7000000-0000-4000-8000-000000000020",
        "kind": "save",
        "at": "2027-05-01T10:00:00.600000Z",
        "success": True,
    }
    log = [*small_log(10), save]
    sheet, log_file, settings = files(log=log)
    result = runner.invoke(
        args=[
            "log",
            "replay",
            sheet,
            log_file,
            "--at",
            "2027-05-01T10:00:10Z",
            "--settings",
            settings,
        ]
    )
    assert result.exit_code == 0, result.output
    assert "conflict a7000000-0000-4000-8000-000000000020" in result.stderr
    state = json.loads(result.stdout)
    assert state["conflicts"] == [
        {"id": "a7000000-0000-4000-8000-000000000020", "code": "saves_rolled_by_app"}
    ]


def test_replay_without_settings_takes_the_rule_systems_turn_of_ten_seconds(runner, tmp_path):
    """As a new Athkri event gets, a save every 10 s, not every second."""
    sheet = write(tmp_path, "sheet.json", example_sheet(ps_max=10))
    log = write(tmp_path, "log.json", small_log(10))
    at = "2027-05-01T10:00:05Z"
    result = runner.invoke(args=["log", "replay", sheet, log, "--at", at])
    assert result.exit_code == 0, result.output
    state = json.loads(result.stdout)
    assert (saves(state), state["next_save_at"]) == ([], "2027-05-01T10:00:10Z")


def test_the_event_settings_command_gives_what_replay_needs_to_roll_the_apps_dice(runner, app):
    """The secret stays on the server, and replay reproduces the dice."""
    created = runner.invoke(args=["event", "create", "Naufragio", "--ruleset", "athkri"])
    assert created.exit_code == 0, created.output
    printed = runner.invoke(args=["event", "settings", "1"])
    assert printed.exit_code == 0, printed.output
    settings = json.loads(printed.stdout)
    assert len(settings["secret"]) >= 32 and settings["turn_seconds"] == 10
    missing = runner.invoke(args=["event", "settings", "99"])
    assert missing.exit_code == 2 and "EVENT" in missing.stderr
