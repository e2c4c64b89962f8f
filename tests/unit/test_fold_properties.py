"""Invariants of the fold (TESTING.md "Levels"), on generated sheets, settings and logs.

Sheets vary the example character's attributes (8–22) and armour (or none); logs hold 0–40
entries of every kind over a couple of hours, arriving in any order (late entries included),
with the optional ``armour_breaks`` rule on or off.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from larp_app.rules import convert_sheet, default_settings, read_settings, state_at
from larp_app.rules.entries import (
    CoupDeGrace,
    Entry,
    Heal,
    Hit,
    Kill,
    Note,
    Repair,
    RestoreEnergy,
    Revive,
    SpendEnergy,
    StatusOff,
    StatusOn,
    Undo,
)

T0 = datetime(2027, 3, 6, 15, 0, tzinfo=UTC)
PLAY_SECONDS = 2 * 3600  # entries fall in a couple of hours of play
LATER_SECONDS = 2 * 3600  # states are asked for up to this long after the last entry
MAX_ENTRIES = 40

EVENTS = {
    "default": default_settings("ex-nihilo"),
    "armour_breaks": read_settings({"optional_rules": {"armour_breaks": True}}, "ex-nihilo"),
}
STATUS_KEYS = (*EVENTS["default"].tables["statuses"], "not_a_status")
ADVANCEMENTS = (None, "Colpo Caricato", "Sguardo del Vuoto", "not_an_advancement")
ARMOUR_WEIGHTS = (None, "leggera", "media", "pesante", "multistrato")
WOUNDS = {"ok", "grievous", "dying", "dead"}

# Ids: the log's entries are numbered from 1; these stay clear of any generated log.
UNKNOWN_ID = str(uuid.UUID(int=1_000_001))  # what an undo of nothing in the log targets
LATE_ENTRY_ID = str(uuid.UUID(int=1_000_002))
LATE_UNDO_ID = str(uuid.UUID(int=1_000_003))


def entry_id(number: int) -> str:
    return str(uuid.UUID(int=number))


def instant(seconds: int) -> datetime:
    return T0 + timedelta(seconds=seconds)


@cache
def larp_sheet(corpo: int, equilibrio: int, mente: int, spirito: int, weight: str | None):
    """The example character (tests/data/ex-nihilo-sheet.json) with other attributes and armour."""
    armour = None
    if weight is not None:
        armour = {"name": "Armatura", "weight": weight, "deflection": 10, "absorption": 4}
    return convert_sheet(
        {
            "ruleset": "ex-nihilo",
            "player": "Giulia Rossi",
            "character": "Dott.ssa Vera Lanz",
            "faction": "Corporazione",
            "attributes": {
                "corpo": corpo,
                "equilibrio": equilibrio,
                "mente": mente,
                "spirito": spirito,
            },
            "skills": {"medicina": 1},
            "advancements": [
                {"name": "Colpo Caricato", "energy_cost": 1, "text": "Sbilancia l'avversario."},
                {"name": "Sguardo del Vuoto", "energy_cost": 2, "text": "Il bersaglio ha Paura."},
            ],
            "armour": armour,
            "weapons": [{"name": "Coltello", "kind": "mischia", "damage": 4, "hands": 1}],
        }
    )


attribute = st.integers(8, 22)
sheets = st.builds(
    larp_sheet,
    corpo=attribute,
    equilibrio=attribute,
    mente=attribute,
    spirito=st.one_of(attribute, st.integers(20, 22)),  # energy needs Spirito ≥ 20: ask often
    weight=st.sampled_from(ARMOUR_WEIGHTS),
)
events = st.sampled_from(sorted(EVENTS)).map(EVENTS.get)
amounts = st.integers(1, 4)

# Each kind's fields, except an undo's target: a log position (or None: nothing logged).
FIELDS = {
    "note": st.fixed_dictionaries({"text": st.sampled_from(["parla col medico", "scena 3"])}),
    "hit": st.fixed_dictionaries(
        {
            "damage": st.one_of(st.just(1), st.integers(1, 6)),
            "blows": st.integers(1, 4),
            "pierce": st.booleans(),
        }
    ),
    "heal": st.fixed_dictionaries({"amount": amounts}),
    "repair": st.one_of(st.fixed_dictionaries({"amount": amounts}), st.just({"full": True})),
    "spend_energy": st.fixed_dictionaries(
        {"amount": amounts, "advancement": st.sampled_from(ADVANCEMENTS)}
    ),
    "restore_energy": st.fixed_dictionaries({"amount": amounts}),
    "status_on": st.fixed_dictionaries(
        {
            "key": st.sampled_from(STATUS_KEYS),
            "seconds": st.one_of(st.none(), st.integers(0, 900)),
        }
    ),
    "status_off": st.fixed_dictionaries({"key": st.sampled_from(STATUS_KEYS)}),
    "coup_de_grace": st.just({}),
    "kill": st.fixed_dictionaries({"reason": st.just("trama")}),
    "revive": st.fixed_dictionaries({"hp": st.one_of(st.none(), st.integers(0, 4))}),
    "undo": st.fixed_dictionaries(
        {"target": st.one_of(st.integers(0, MAX_ENTRIES - 1), st.none())}
    ),
}
CLASSES: dict[str, type[Entry]] = {
    "note": Note,
    "hit": Hit,
    "heal": Heal,
    "repair": Repair,
    "spend_energy": SpendEnergy,
    "restore_energy": RestoreEnergy,
    "status_on": StatusOn,
    "status_off": StatusOff,
    "coup_de_grace": CoupDeGrace,
    "kill": Kill,
    "revive": Revive,
    "undo": Undo,
}


# How often each kind is drawn: mostly blows, care and energy; deaths and revivals are rare.
MIX = (
    *["note"] * 2,
    *["hit"] * 6,
    *["heal"] * 3,
    *["repair"] * 2,
    *["spend_energy"] * 3,
    *["restore_energy"] * 1,
    *["status_on"] * 3,
    *["status_off"] * 2,
    *["undo"] * 2,
    "coup_de_grace",
    "kill",
    "revive",
)

# Seconds after the start of play: anywhere in it (whole minutes, so that entries at the
# same instant happen), or crowded into a ten-minute fight where most instants are shared.
spread = st.one_of(
    st.integers(0, PLAY_SECONDS), st.integers(0, PLAY_SECONDS // 60).map(lambda m: m * 60)
)
crowded = st.integers(0, 10).map(lambda m: m * 60)


def specs(kinds=MIX, when=spread):
    """One entry to be: (kind, fields, seconds after the start of play)."""
    return st.sampled_from(kinds).flatmap(lambda kind: st.tuples(st.just(kind), FIELDS[kind], when))


def build(spec, number: int, ids: list[str]) -> Entry:
    kind, fields, seconds = spec
    if kind == "undo":
        target = fields["target"]
        fields = {"target": UNKNOWN_ID if target is None else ids[target % len(ids)]}
    return CLASSES[kind](id=entry_id(number), at=instant(seconds), **fields)


def logs(distinct_ats: bool = False):
    """Logs in arrival order; the same ``at`` twice is common unless ``distinct_ats``."""
    sizes = st.integers(0, MAX_ENTRIES)  # plain lists would be mostly short
    if distinct_ats:
        drawn = sizes.flatmap(
            lambda n: st.lists(specs(), min_size=n, max_size=n, unique_by=lambda spec: spec[2])
        )
    else:
        drawn = st.sampled_from([spread, crowded]).flatmap(
            lambda when: sizes.flatmap(lambda n: st.lists(specs(when=when), min_size=n, max_size=n))
        )
    return drawn.map(
        lambda drawn: [
            build(spec, i + 1, [entry_id(k + 1) for k in range(len(drawn))])
            for i, spec in enumerate(drawn)
        ]
    )


instants = st.integers(0, PLAY_SECONDS + LATER_SECONDS).map(instant)
fold_settings = settings(max_examples=150, deadline=None)


def states_over_time(sheet, event, log, at):
    """The snapshot at every entry's instant and at ``at``: every change and the time after."""
    return [state_at(sheet, event, log, t) for t in sorted({e.at for e in log} | {at})]


@fold_settings
@given(sheets, events, logs(), instants)
def test_folding_any_log_never_fails(sheet, event, log, at):
    for snapshot in states_over_time(sheet, event, log, at):
        data = json.loads(json.dumps(snapshot.to_dict()))
        assert data["wound"] in WOUNDS
        assert {c["id"] for c in data["conflicts"]} <= {e.id for e in log}


@fold_settings
@given(sheets, events, logs(), instants)
def test_hit_points_never_exceed_the_maximum_nor_fall_below_minus_one(sheet, event, log, at):
    for snapshot in states_over_time(sheet, event, log, at):
        assert -1 <= snapshot.state.hp <= sheet.hp_max, snapshot.to_dict()


@fold_settings
@given(sheets, events, logs(), instants)
def test_armour_points_stay_between_zero_and_the_maximum(sheet, event, log, at):
    for snapshot in states_over_time(sheet, event, log, at):
        assert 0 <= snapshot.state.ap <= sheet.ap_max, snapshot.to_dict()


@fold_settings
@given(sheets, events, logs(), instants)
def test_energy_stays_between_zero_and_the_maximum(sheet, event, log, at):
    for snapshot in states_over_time(sheet, event, log, at):
        assert 0 <= snapshot.state.energy <= sheet.energy_max, snapshot.to_dict()


@fold_settings
@given(sheets, events, logs(distinct_ats=True), instants, st.data())
def test_replaying_the_same_entries_in_any_arrival_order_gives_the_same_state(
    sheet, event, log, at, data
):
    # Entries at the same instant keep their arrival order by design, so every `at` differs.
    shuffled = data.draw(st.permutations(log), label="arrival order")
    assert (
        state_at(sheet, event, shuffled, at).to_dict() == state_at(sheet, event, log, at).to_dict()
    )


@fold_settings
@given(sheets, events, logs().filter(bool), instants, st.data())
def test_sending_an_entry_a_second_time_changes_nothing(sheet, event, log, at, data):
    resent = list(log)
    for entry in data.draw(st.lists(st.sampled_from(log), min_size=1, max_size=5), label="sent"):
        first = next(i for i, e in enumerate(resent) if e is entry)
        resent.insert(data.draw(st.integers(first + 1, len(resent)), label="again at"), entry)
    assert state_at(sheet, event, resent, at).to_dict() == state_at(sheet, event, log, at).to_dict()


@fold_settings
@given(sheets, events, logs(), st.data())
def test_undoing_an_entry_equals_never_having_logged_it(sheet, event, log, data):
    # X is not an undo (an undo is never undone) and nothing else in the log targets it
    # (it would be undone twice). Its undo comes after it, both in time and in arrival, and
    # the state is asked for once the undo counts.
    not_undo = tuple(k for k in MIX if k != "undo")
    spec = data.draw(specs(not_undo, when=st.one_of(spread, crowded)), label="X")
    x = CLASSES[spec[0]](id=LATE_ENTRY_ID, at=instant(spec[2]), **spec[1])
    where = data.draw(st.integers(0, len(log)), label="X arrives at")
    arrival = [*log[:where], x, *log[where:]]
    undo_at = x.at + timedelta(seconds=data.draw(st.integers(0, 600), label="undo after"))
    undo = Undo(id=LATE_UNDO_ID, at=undo_at, target=x.id)
    where = data.draw(st.integers(where + 1, len(arrival)), label="undo arrives at")
    arrival.insert(where, undo)
    at = undo_at + timedelta(seconds=data.draw(st.integers(0, LATER_SECONDS), label="asked at"))

    undone = state_at(sheet, event, arrival, at).to_dict()
    own = [c for c in undone["conflicts"] if c["id"] == undo.id]
    undone["conflicts"] = [c for c in undone["conflicts"] if c["id"] != undo.id]
    never = state_at(sheet, event, log, at).to_dict()
    assert undone.pop("log_position") == never.pop("log_position") + 2  # X and its undo
    assert undone == never
    assert own == []  # an undo of a counted, not-yet-undone entry is never refused
