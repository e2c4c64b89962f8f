"""Sistema Athkri in the same engine: every wound rule as a readable test
(larp_app/rulesets/athkri/README.md)."""

import json
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from larp_app.rules import InvalidInput, convert_sheet, read_entry, read_settings, state_at
from larp_app.rules.dice import d, rng_for
from larp_app.rulesets.athkri.one_of_three import one_of_three_d10

DATA = Path(__file__).resolve().parents[1] / "data"
T0 = datetime(2027, 3, 6, 15, 0, tzinfo=UTC)
RAW = json.loads((DATA / "athkri-sheet.json").read_text(encoding="utf-8"))
SHEET = convert_sheet(RAW)  # Físico 4, PS 20, Blindaje 2: Malherido at 4, dead at 24 damage
# PS 10: unconscious at 10 damage, so saves can fail twice before the 24 that kill.
FRAIL = convert_sheet({**RAW, "ps_max": 10})
APP = read_settings({"seed": "naufragio"}, "athkri")
REFEREE = read_settings({"seed": "naufragio", "saves": "referee"}, "athkri")


def entry(kind, t=0, **fields):
    at = T0 + timedelta(seconds=t)
    return read_entry({"id": str(uuid.uuid4()), "kind": kind, "at": at.isoformat(), **fields})


def state(entries, t, settings=APP, sheet=SHEET):
    return state_at(sheet, settings, entries, T0 + timedelta(seconds=t))


def knocked_out(t=0, damage=20):
    """A piercing blow that takes PS from 20 to 0: unconscious."""
    return entry("hit", t, damage=damage, pierce=True)


def test_an_athkri_sheet_becomes_a_larp_sheet_with_its_thresholds():
    data = SHEET.to_dict()
    assert (data["hp_max"], data["ap_max"], data["energy_max"]) == (20, 2, 15)
    assert data["thresholds"] == {"malherido_at_ps": 4, "dead_at_damage": 24, "indefenso_blow": 8}
    assert [a.name for a in SHEET.advancements] == ["Toque sanador"]


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"attributes": {**RAW["attributes"], "fisico": 11}}, "attributes.fisico"),
        ({"ps_max": 0}, "ps_max"),
        ({"skills": {"aguante": 12}}, "skills.aguante"),
        ({"powers": [{"name": "x", "mana_cost": -1}]}, "powers[0].mana_cost"),
    ],
)
def test_a_bad_athkri_sheet_names_its_field(change, path):
    with pytest.raises(InvalidInput) as caught:
        convert_sheet({**RAW, **change})
    assert path in [p.path for p in caught.value.problems]


def test_blindaje_takes_blows_first_then_puntos_de_salud():
    s = state([entry("hit", damage=5)], 1)
    assert (s.state.ap, s.state.hp, s.extra["level"]) == (0, 17, "estable")


def test_malherido_from_fisico_points_down_to_one():
    s = state([entry("hit", damage=16, pierce=True)], 1)
    assert (s.state.hp, s.extra["level"], s.wound) == (4, "malherido", "grievous")


def test_at_zero_points_the_character_is_unconscious_and_a_save_comes_each_turn():
    s = state([knocked_out()], 0)
    assert (s.extra["level"], s.wound) == ("inconsciente", "dying")
    assert s.extra["next_save_at"] == "2027-03-06T15:00:01Z"
    assert s.extra["next_failure_damage"] == 4


def test_the_kth_failed_save_deals_k_times_fisico():
    log = [knocked_out(damage=10), entry("save", 1, success=False), entry("save", 2, success=False)]
    assert state(log[:2], 1, REFEREE, FRAIL).state.hp == -4
    assert state(log, 2, REFEREE, FRAIL).state.hp == -12
    assert state(log, 2, REFEREE, FRAIL).extra["turns_until_death_worst_case"] == 1


def test_death_comes_exactly_when_damage_reaches_fisico_times_six():
    assert state([entry("hit", damage=23, pierce=True)], 0).wound == "dying"
    dead = state([entry("hit", damage=24, pierce=True)], 0)
    assert (dead.wound, dead.extra["level"], dead.state.died_at) == ("dead", "muerto", T0)


def test_a_successful_save_stabilises_at_one_point_and_wakes_within_six_minutes():
    s = state([knocked_out(), entry("save", 1, success=True)], 1, REFEREE)
    assert (s.state.hp, s.extra["level"], s.extra["next_save_at"]) == (1, "inconsciente", None)
    awake = datetime.fromisoformat(s.extra["awake_at"])
    assert timedelta(minutes=1) <= awake - (T0 + timedelta(seconds=1)) <= timedelta(minutes=6)
    later = state([knocked_out(), entry("save", 1, success=True)], 7 * 60, REFEREE)
    assert (later.extra["level"], later.wound) == ("malherido", "grievous")


def test_hurt_again_after_stabilising_alone_no_save_stabilises_without_help():
    log = [
        knocked_out(),
        entry("save", 1, success=True),
        entry("hit", 10, pierce=True),
        entry("save", 11, success=True),
    ]
    s = state(log, 12, REFEREE)
    assert (s.state.hp, s.extra["level"]) == (0, "inconsciente")
    assert s.extra["next_save_at"] is not None  # still rolling, still in danger


def test_healing_an_unconscious_character_starts_from_zero():
    log = [knocked_out(damage=12), entry("save", 1, success=False), entry("heal", 2, amount=3)]
    assert state(log, 1, REFEREE, FRAIL).state.hp == -6
    s = state(log, 3, REFEREE, FRAIL)
    assert (s.state.hp, s.extra["level"], s.extra["next_save_at"]) == (3, "malherido", None)


def test_the_app_rolls_the_saves_from_the_seed_the_same_on_every_replay():
    log = [knocked_out()]
    first, again = state(log, 10), state(list(log), 10)
    assert first.extra["rolls"] == again.extra["rolls"] and first.extra["rolls"]
    roll = first.extra["rolls"][0]
    assert roll["what"] == "save" and len(roll["dice"]) == 3 and roll["target"] == 12
    other = state(log, 10, read_settings({"seed": "another"}, "athkri"))
    assert [r["dice"] for r in other.extra["rolls"]] != [r["dice"] for r in first.extra["rolls"]]


def test_an_app_rolled_save_is_the_middle_die_plus_fisico_against_twelve():
    for seed in range(30):
        s = state([knocked_out()], 1, read_settings({"seed": str(seed)}, "athkri"))
        roll = s.extra["rolls"][0]
        assert roll["kept"] == sorted(roll["dice"])[1]
        assert roll["success"] == (roll["kept"] + 4 >= 12)
        assert s.state.hp == (1 if roll["success"] else -4)


def test_a_big_blow_on_a_helpless_character_calls_a_save_at_13_that_can_kill():
    outcomes = set()
    for seed in range(40):
        settings_ = read_settings({"seed": str(seed)}, "athkri")
        # 18 damage: only the save at 13 can kill. A fixed id: each seed rolls the same dice.
        blow = entry("hit", 0.5, damage=8, pierce=True, id=str(uuid.UUID(int=seed)))
        s = state([knocked_out(damage=10), blow], 0.5, settings_, FRAIL)
        [roll] = [r for r in s.extra["rolls"] if r["what"] == "indefenso"]
        assert roll["target"] == 13
        assert (s.wound == "dead") == (not roll["success"])
        outcomes.add(roll["success"])
    assert outcomes == {True, False}


def test_referees_enter_saves_only_when_the_event_says_so():
    save = entry("save", 0.5, success=True)  # before the app's own save at the next turn
    s = state([knocked_out(), save], 0.5, APP)
    assert [(c.id, c.code) for c in s.conflicts] == [(save.id, "saves_rolled_by_app")]


def test_a_condition_check_is_rolled_on_demand_with_its_die_kept():
    s = state([entry("roll", key="confundido")], 1)
    [roll] = s.extra["rolls"]
    assert roll["what"] == "confundido" and 1 <= roll["kept"] <= 100
    refused = state([entry("roll", key="invisible")], 1)
    assert [c.code for c in refused.conflicts] == ["no_random_check"]


def test_the_conditions_catalogue_has_the_fifteen_conditions_of_the_seed():
    catalogue = APP.tables["conditions"]
    assert len(catalogue) == 15
    assert catalogue["confundido"].texts["check"]["table"][-1]["to"] == 100
    assert catalogue["indefenso"].texts["description"]["es"]


@pytest.mark.parametrize(
    ("kind", "fields"), [("save", {"success": True}), ("roll", {"key": "x"}), ("dice", {})]
)
def test_ex_nihilo_entries_that_athkri_lacks_are_refused_by_name(kind, fields):
    from larp_app.rules import default_settings

    ex = convert_sheet(json.loads((DATA / "ex-nihilo-sheet.json").read_text(encoding="utf-8")))
    s = state_at(ex, default_settings("ex-nihilo"), [entry(kind, **fields)], T0)
    assert [(c.code, c.params) for c in s.conflicts] == [("not_in_ruleset", {"kind": kind})]


# A 1o3d10 on demand ------------------------------------------------------------------------


def test_a_referee_asks_for_a_1o3d10_and_the_app_rolls_it_from_the_seed():
    log = [entry("dice", 1, bonus=4, difficulty=12)]
    [roll] = state(log, 1).extra["rolls"]
    assert (roll["what"], roll["keep"], roll["bonus"], roll["target"]) == ("dice", "middle", 4, 12)
    assert roll["kept"] == sorted(roll["dice"])[1] and roll["total"] == roll["kept"] + 4
    assert roll["success"] == (roll["total"] >= 12)
    assert state(list(log), 5).extra["rolls"] == [roll]  # the same dice on every replay


def test_a_1o3d10_without_a_difficulty_has_no_outcome():
    [roll] = state([entry("dice", level=1)], 1).extra["rolls"]
    assert (roll["keep"], roll["target"], roll["success"]) == ("highest", None, None)


@pytest.mark.parametrize(("asked", "keep"), [(1, "middle"), (0, "lowest"), (-1, "lowest")])
def test_a_badly_wounded_character_rolls_one_level_lower(asked, keep):
    log = [entry("hit", damage=16, pierce=True), entry("dice", 1, level=asked)]
    s = state(log, 1)
    assert s.extra["level"] == "malherido"
    assert s.extra["rolls"][-1]["keep"] == keep


def test_a_stable_character_rolls_at_the_level_asked():
    log = [entry("hit", damage=5), entry("dice", 1, level=-1)]
    assert state(log, 1).extra["rolls"][-1]["keep"] == "lowest"


@pytest.mark.parametrize(
    ("fields", "path"),
    [({"level": 2}, "level"), ({"bonus": "4"}, "bonus"), ({"difficulty": 0}, "difficulty")],
)
def test_a_bad_1o3d10_entry_names_its_field(fields, path):
    with pytest.raises(InvalidInput) as caught:
        entry("dice", **fields)
    assert [p.path for p in caught.value.problems] == [path]


# Dice -----------------------------------------------------------------------------------


def test_1o3d10_keeps_the_middle_die_and_a_level_up_or_down_the_highest_or_lowest():
    for level, index, keep in ((0, 1, "middle"), (1, 2, "highest"), (-1, 0, "lowest")):
        for i in range(50):
            roll = one_of_three_d10(rng_for("s", i), level)
            assert roll.kept == sorted(roll.dice)[index]
            assert roll.to_dict()["keep"] == keep


def test_two_levels_down_still_keeps_the_lowest_die():
    assert one_of_three_d10(rng_for("s", 1), -2).to_dict()["keep"] == "lowest"


def test_a_single_die_keeps_no_one_of_three():
    assert d(rng_for("s", 1), 100).to_dict()["keep"] is None


@pytest.mark.parametrize(("fails_at_or_below", "odds"), [(50, 0.5), (30, 0.3)])
def test_percentage_checks_match_their_stated_odds_over_many_seeded_rolls(fails_at_or_below, odds):
    rolls = [d(rng_for("odds", i), 100).kept for i in range(20000)]
    share = sum(r <= fails_at_or_below for r in rolls) / len(rolls)
    assert abs(share - odds) < 0.015


def test_confusion_behaviours_each_come_a_quarter_of_the_time():
    quarters = Counter((d(rng_for("confusion", i), 100).kept - 1) // 25 for i in range(20000))
    assert sorted(quarters) == [0, 1, 2, 3]
    assert all(abs(n / 20000 - 0.25) < 0.015 for n in quarters.values())


# Properties of the wound track -------------------------------------------------------------

EVENTS = st.lists(
    st.tuples(st.sampled_from(["hit", "heal", "wait"]), st.integers(1, 12)), max_size=25
)


@settings(max_examples=100, deadline=None)
@given(events=EVENTS, seed=st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=5))
def test_damage_never_heals_by_itself_and_death_comes_exactly_at_fisico_times_six(events, seed):
    settings_ = read_settings({"seed": seed}, "athkri")
    log, t = [], 0
    for number, (kind, n) in enumerate(events):
        t += n
        # Ids from the example, not random: the dice (seeded by the ids) are the example's.
        fields = {"id": str(uuid.UUID(int=number))}
        if kind == "hit":
            log.append(entry("hit", t, damage=n, pierce=True, **fields))
        elif kind == "heal":
            log.append(entry("heal", t, amount=n, **fields))
    previous = None
    for when in range(0, t + 3):
        s = state(log, when, settings_)
        damage = s.extra["damage"]
        assert (s.wound == "dead") == (damage >= 24 or _killed_by_indefenso(s))
        if previous is not None and s.wound != "dead":
            healed = any(
                e.kind == "heal" and when - 1 < (e.at - T0).total_seconds() <= when for e in log
            )
            # A save passed sets PS to 1 (stabilised alone), though a blow may follow it.
            if not healed and not _stabilised_during(s, when):
                assert damage >= previous.extra["damage"]
        previous = s


def _stabilised_during(s, when):
    """Whether a save passed in the second before ``when`` (the state's own rolls say)."""
    return any(
        r["what"] == "save"
        and r["success"]
        and when - 1 < (datetime.fromisoformat(r["at"]) - T0).total_seconds() <= when
        for r in s.extra["rolls"]
    )


def _killed_by_indefenso(s):
    return any(r["what"] == "indefenso" and not r["success"] for r in s.extra["rolls"])
