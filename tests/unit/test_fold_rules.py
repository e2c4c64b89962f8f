"""Every worked rule of the log and of EX Nihilo's wounds (larp_app/rules/README.md,
larp_app/rulesets/ex_nihilo/README.md), one readable test each."""

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from larp_app.rules import convert_sheet, default_settings, read_entry, read_settings, state_at

DATA = Path(__file__).resolve().parents[1] / "data"
T0 = datetime(2027, 3, 6, 15, 0, tzinfo=UTC)
SETTINGS = default_settings("ex-nihilo")


def example_sheet(**changes):
    raw = json.loads((DATA / "ex-nihilo-sheet.json").read_text(encoding="utf-8"))
    for key, value in changes.items():
        if key in ("corpo", "equilibrio", "mente", "spirito"):
            raw["attributes"][key] = value
        else:
            raw[key] = value
    return convert_sheet(raw)


SHEET = example_sheet()  # hp 3, ap 3, energy 3 recovering 1 every 20 min


def entry(kind, t=0, **fields):
    """An entry ``t`` seconds after 15:00, with a fresh client id unless one is given."""
    at = T0 + timedelta(seconds=t)
    fields.setdefault("id", str(uuid.uuid4()))
    return read_entry({"kind": kind, "at": at.isoformat(), **fields})


def state(entries, t, sheet=SHEET, settings=SETTINGS):
    return state_at(sheet, settings, entries, T0 + timedelta(seconds=t))


def dying_at(t):
    """Two piercing blows: the first takes all three points, the second starts the countdown."""
    return [entry("hit", t - 1, damage=3, pierce=True), entry("hit", t, pierce=True)]


def at(seconds):
    return T0 + timedelta(seconds=seconds)


def test_at_check_in_everything_is_full():
    s = state([], 0)
    assert (s.state.hp, s.state.ap, s.state.energy, s.wound) == (3, 3, 3, "ok")


def test_armour_points_absorb_blows_before_hit_points():
    s = state([entry("hit", blows=2)], 1)
    assert (s.state.ap, s.state.hp) == (1, 3)


def test_a_pierce_blow_ignores_the_armour():
    s = state([entry("hit", pierce=True)], 1)
    assert (s.state.ap, s.state.hp) == (3, 2)


def test_a_damage_call_spills_over_from_armour_into_hit_points():
    s = state([entry("hit", damage=5)], 1)
    assert (s.state.ap, s.state.hp, s.wound) == (0, 1, "ok")


def test_the_blow_that_takes_the_last_point_leaves_the_character_gravely_wounded_at_zero():
    s = state([entry("hit", damage=10, pierce=True)], 1)
    assert (s.state.hp, s.wound, s.state.death_at) == (0, "grievous", None)


def test_a_blow_at_zero_points_starts_the_death_countdown_of_600_turns():
    log = [entry("hit", damage=3, pierce=True), entry("hit", 30, pierce=True)]
    s = state(log, 31)
    assert (s.state.hp, s.wound, s.state.death_at) == (-1, "dying", at(630))


def test_blows_of_one_hit_are_taken_in_turn_down_to_dying():
    s = state([entry("hit", blows=7)], 1)
    assert (s.state.ap, s.state.hp, s.wound, s.state.death_at) == (0, -1, "dying", at(600))


def test_further_blows_on_a_dying_character_change_nothing_armour_included():
    log = [*dying_at(4), entry("hit", 10, damage=9), entry("hit", 20)]
    s = state(log, 21)
    assert (s.state.hp, s.state.ap, s.state.death_at) == (-1, 3, at(604))


def test_a_dying_character_is_dead_when_the_countdown_ends():
    log = dying_at(1)
    assert state(log, 600).wound == "dying"
    dead = state(log, 601)
    assert (dead.wound, dead.state.died_at, dead.state.death_at) == ("dead", at(601), None)


def test_the_death_countdown_follows_the_events_turn_length():
    settings = read_settings({"turn_seconds": 2}, "ex-nihilo")
    s = state(dying_at(1), 1, settings=settings)
    assert s.state.death_at == at(1201)


def test_healing_a_dying_character_counts_from_minus_one_and_ends_the_countdown():
    log = [*dying_at(1), entry("heal", 60, amount=2)]
    s = state(log, 3600)
    assert (s.state.hp, s.wound, s.state.death_at) == (1, "ok", None)


def test_healing_never_goes_above_the_maximum():
    log = [entry("hit", pierce=True), entry("heal", 5, amount=10)]
    assert state(log, 6).state.hp == 3


def test_a_coup_de_grace_kills_a_dying_character_at_once():
    log = [*dying_at(1), entry("coup_de_grace", 5)]
    s = state(log, 6)
    assert (s.wound, s.state.died_at) == ("dead", at(5))


def test_a_coup_de_grace_on_a_character_who_is_not_dying_is_refused():
    cdg = entry("coup_de_grace", 5)
    s = state([entry("hit", damage=3, pierce=True), cdg], 6)
    assert s.wound == "grievous"
    assert [(c.id, c.code) for c in s.conflicts] == [(cdg.id, "not_dying")]


def test_repair_restores_armour_points_up_to_the_maximum():
    log = [entry("hit", blows=3), entry("repair", 5, amount=2), entry("repair", 6, amount=5)]
    assert state(log, 5).state.ap == 2
    assert state(log, 7).state.ap == 3


def test_a_blow_of_twice_the_remaining_armour_destroys_it_with_the_optional_rule():
    settings = read_settings({"optional_rules": {"armour_breaks": True}}, "ex-nihilo")
    s = state([entry("hit", damage=6)], 1, settings=settings)
    # The worn armour (2) breaks; Corpo's Armatura +1 stays.
    assert (s.state.ap, s.state.hp, s.state.armour_destroyed) == (1, 3, True)


def test_without_the_optional_rule_a_big_blow_only_goes_through_the_armour():
    s = state([entry("hit", damage=6)], 1)
    assert (s.state.ap, s.state.hp, s.state.armour_destroyed) == (0, 0, False)


def test_destroyed_armour_takes_only_a_full_repair():
    settings = read_settings({"optional_rules": {"armour_breaks": True}}, "ex-nihilo")
    partial = entry("repair", 5, amount=1)
    log = [entry("hit", damage=6), partial, entry("repair", 10, full=True)]
    assert [c.code for c in state(log, 6, settings=settings).conflicts] == ["armour_destroyed"]
    s = state(log, 11, settings=settings)
    assert (s.state.ap, s.state.armour_destroyed) == (3, False)


def test_spending_more_energy_than_the_character_has_is_refused_with_the_numbers():
    log = [entry("spend_energy", amount=2), entry("spend_energy", 1, amount=2)]
    s = state(log, 2)
    assert s.state.energy == 1
    [conflict] = s.conflicts
    assert (conflict.code, conflict.params) == ("not_enough_energy", {"needs": 2, "has": 1})


def test_spending_energy_on_an_advancement_the_character_lacks_is_refused():
    s = state([entry("spend_energy", amount=1, advancement="Volo")], 1)
    assert [c.code for c in s.conflicts] == ["unknown_advancement"]
    assert s.state.energy == 3


def test_energy_recovers_one_point_every_interval_while_below_the_maximum():
    log = [entry("spend_energy", 5, amount=3)]
    assert state(log, 5 + 20 * 60 - 1).state.energy == 0
    s = state(log, 5 + 20 * 60)
    assert (s.state.energy, s.state.next_energy_at) == (1, at(5 + 40 * 60))
    full = state(log, 5 + 3 * 20 * 60 + 3600)
    assert (full.state.energy, full.state.next_energy_at) == (3, None)


def test_the_recovery_timer_keeps_its_progress_across_further_spending():
    log = [entry("spend_energy", 0, amount=1), entry("spend_energy", 600, amount=1)]
    s = state(log, 1200)
    assert (s.state.energy, s.state.next_energy_at) == (2, at(2400))


def test_restoring_energy_to_the_maximum_stops_the_timer():
    log = [entry("spend_energy", 0, amount=2), entry("restore_energy", 60, amount=5)]
    s = state(log, 61)
    assert (s.state.energy, s.state.next_energy_at) == (3, None)


def test_a_character_without_energy_slots_never_recovers_or_spends():
    sheet = example_sheet(spirito=19)
    s = state([entry("spend_energy", amount=1)], 3600, sheet=sheet)
    assert (s.state.energy, s.state.next_energy_at) == (0, None)
    assert [c.code for c in s.conflicts] == ["not_enough_energy"]


def test_a_status_lasts_its_catalogue_turns_and_then_ends():
    log = [entry("status_on", 90, key="paura")]
    [paura] = state(log, 92).state.statuses
    assert (paura.key, paura.since, paura.until) == ("paura", at(90), at(93))
    assert state(log, 93).state.statuses == ()


def test_a_status_with_given_seconds_overrides_the_catalogue():
    [st] = state([entry("status_on", key="paura", seconds=30)], 20).state.statuses
    assert st.until == at(30)


def test_an_open_status_lasts_until_a_referee_ends_it():
    log = [entry("status_on", key="invisibile"), entry("status_off", 7200, key="invisibile")]
    assert [s.until for s in state(log, 7199).state.statuses] == [None]
    assert state(log, 7200).state.statuses == ()


def test_reapplying_a_status_replaces_it():
    log = [entry("status_on", 0, key="paralisi"), entry("status_on", 4, key="paralisi")]
    [st] = state(log, 6).state.statuses
    assert (st.since, st.until) == (at(4), at(9))


def test_a_hit_clears_stordimento_but_not_other_statuses():
    log = [entry("status_on", key="stordimento"), entry("status_on", key="paura"), entry("hit", 1)]
    assert [s.key for s in state(log, 2).state.statuses] == ["paura"]


def test_an_unknown_status_or_ending_an_inactive_one_is_refused():
    s = state([entry("status_on", key="volo"), entry("status_off", 1, key="paura")], 2)
    assert [c.code for c in s.conflicts] == ["unknown_status", "status_not_active"]


def test_a_kill_makes_the_character_dead_and_every_later_entry_but_notes_is_refused():
    heal = entry("heal", 20, amount=1)
    log = [entry("kill", 10, reason="trama"), heal, entry("note", 30, text="morto sul colpo")]
    s = state(log, 40)
    assert (s.wound, s.state.died_at) == ("dead", at(10))
    assert [(c.id, c.code) for c in s.conflicts] == [(heal.id, "dead")]


def test_a_dead_characters_values_and_statuses_freeze():
    log = [entry("spend_energy", amount=2), entry("status_on", 1, key="paura"), entry("kill", 2)]
    s = state(log, 86400)
    assert (s.state.energy, s.state.next_energy_at) == (1, None)
    assert [st.key for st in s.state.statuses] == ["paura"]


def test_revive_brings_a_dead_character_back_with_the_given_points():
    log = [entry("kill", 10), entry("revive", 20, hp=1)]
    s = state(log, 21)
    assert (s.wound, s.state.hp, s.state.died_at) == ("ok", 1, None)


def test_revive_of_a_living_character_is_refused():
    assert [c.code for c in state([entry("revive", hp=2)], 1).conflicts] == ["not_dead"]


def test_an_undone_entry_no_longer_counts():
    hit = entry("hit", pierce=True)
    s = state([hit, entry("undo", 5, target=hit.id)], 6)
    assert (s.state.hp, s.conflicts) == (3, ())


def test_an_undo_counts_only_from_its_own_instant():
    hit = entry("hit", pierce=True)
    assert state([hit, entry("undo", 5, target=hit.id)], 4).state.hp == 2


def test_an_entry_is_undone_once_and_an_undo_is_never_undone():
    hit = entry("hit", pierce=True)
    first = entry("undo", 5, target=hit.id)
    again = entry("undo", 6, target=hit.id)
    of_undo = entry("undo", 7, target=first.id)
    nowhere = entry("undo", 8, target=str(uuid.uuid4()))
    s = state([hit, first, again, of_undo, nowhere], 9)
    assert s.state.hp == 3
    assert [(c.id, c.code) for c in s.conflicts] == [
        (again.id, "already_undone"),
        (of_undo.id, "cannot_undo_undo"),
        (nowhere.id, "unknown_target"),
    ]


def test_the_same_id_sent_twice_counts_once():
    hit = entry("hit", pierce=True)
    assert state([hit, hit, hit], 1).state.hp == 2


def test_a_late_entry_is_placed_by_its_instant_not_its_arrival():
    log = [entry("spend_energy", 60, amount=3), entry("restore_energy", 10, amount=0 + 1)]
    s = state(log, 61)
    # Placed first, the restore meets a full pool; the spend then empties it.
    assert (s.state.energy, s.conflicts) == (0, ())


def test_an_entry_made_impossible_by_a_late_arrival_is_kept_as_a_conflict():
    spend_later = entry("spend_energy", 60, amount=2)
    late = entry("spend_energy", 30, amount=2)  # arrives last, happened first
    s = state([spend_later, late], 61)
    assert s.state.energy == 1
    assert [(c.id, c.code) for c in s.conflicts] == [(spend_later.id, "not_enough_energy")]


def test_entries_at_the_same_instant_keep_their_arrival_order():
    first = entry("spend_energy", 10, amount=3)
    second = entry("restore_energy", 10, amount=1)
    assert state([first, second], 11).state.energy == 1
    assert state([second, first], 11).state.energy == 0


def test_state_can_be_asked_for_any_instant_without_depending_on_when_it_is_asked():
    log = [entry("hit", blows=7)]
    assert state(log, -1).state.hp == 3  # before the blow
    assert state(log, 300).to_dict() == state(list(log), 300).to_dict()


def test_the_example_log_gives_the_states_of_the_worked_example():
    log = json.loads((DATA / "ex-nihilo-log.json").read_text(encoding="utf-8"))
    entries = [read_entry(e) for e in log]
    dying = state_at(SHEET, SETTINGS, entries, datetime(2027, 3, 6, 15, 11, 59, tzinfo=UTC))
    assert dying.to_dict() | {"statuses": None} == {
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
        "statuses": None,
        "conflicts": [],
        "log_position": 5,
    }
    dead = state_at(SHEET, SETTINGS, entries, datetime(2027, 3, 6, 15, 12, tzinfo=UTC))
    assert (dead.wound, dead.to_dict()["died_at"], dead.state.energy) == (
        "dead",
        "2027-03-06T15:12:00Z",
        1,
    )
    healed = [
        *entries,
        read_entry(
            {"id": str(uuid.uuid4()), "kind": "heal", "amount": 1, "at": "2027-03-06T15:10:00Z"}
        ),
    ]
    later = state_at(SHEET, SETTINGS, healed, datetime(2027, 3, 6, 15, 25, tzinfo=UTC)).to_dict()
    assert (
        later["hp"],
        later["wound"],
        later["death_at"],
        later["energy"],
        later["next_energy_at"],
    ) == (0, "grievous", None, 2, "2027-03-06T15:40:05Z")


@pytest.mark.parametrize(
    ("fields", "path", "code"),
    [
        ({"kind": "hit", "damage": 0}, "damage", "out_of_range"),
        ({"kind": "hit", "blows": 21}, "blows", "out_of_range"),
        ({"kind": "heal"}, "amount", "required"),
        ({"kind": "fly"}, "kind", "not_allowed"),
        ({"kind": "undo", "target": "nope"}, "target", "not_uuid"),
        ({"kind": "note", "at": "yesterday"}, "at", "not_instant"),
        ({"kind": "note", "text": "x", "id": "42"}, "id", "not_uuid"),
    ],
)
def test_a_malformed_entry_is_rejected_naming_its_field(fields, path, code):
    from larp_app.rules import InvalidInput

    raw = {"id": str(uuid.uuid4()), "at": T0.isoformat(), "text": "t", **fields}
    with pytest.raises(InvalidInput) as caught:
        read_entry(raw)
    assert (path, code) in [(p.path, p.code) for p in caught.value.problems]


@pytest.mark.parametrize(
    "fields",
    [
        {"kind": "hit", "damage": 2, "blows": 3, "pierce": True},
        {"kind": "coup_de_grace"},
        {"kind": "heal", "amount": 1},
        {"kind": "repair", "full": True},
        {"kind": "spend_energy", "amount": 2, "advancement": "Sguardo del Vuoto"},
        {"kind": "restore_energy", "amount": 1},
        {"kind": "status_on", "key": "paura", "seconds": 9},
        {"kind": "status_off", "key": "paura"},
        {"kind": "kill", "reason": "trama"},
        {"kind": "revive", "hp": 2},
        {"kind": "note", "text": "ok", "author": "rita"},
        {"kind": "undo", "target": str(uuid.uuid4())},
    ],
)
def test_a_stored_entry_reads_back_as_the_entry_that_was_stored(fields):
    from larp_app.rules import entry_from_stored, entry_to_dict

    original = entry(fields.pop("kind"), 5, **fields)
    assert entry_from_stored(entry_to_dict(original)) == original


def test_evolving_a_state_changes_only_the_fields_named_whichever_they_are():
    import dataclasses

    from larp_app.rules.state import ActiveStatus, State

    t = datetime(2027, 3, 6, 15, 0, tzinfo=UTC)
    old = State(hp=3, ap=2, energy=1, next_energy_at=t, statuses=(ActiveStatus("paura", t, t),))
    new_values = {
        "hp": -1,
        "ap": 0,
        "energy": 0,
        "armour_destroyed": True,
        "next_energy_at": None,
        "death_at": t,
        "died_at": t,
        "statuses": (),
        "track": "track",
    }
    assert set(new_values) == {f.name for f in dataclasses.fields(State)}
    for name, value in new_values.items():
        assert old.evolve(**{name: value}) == dataclasses.replace(old, **{name: value}), name
    assert old.evolve(**new_values) == State(**new_values)
    assert old.evolve() == old
