"""Invariants of Sistema Athkri's wound track over random logs, with the saves
rolled by the app and entered by referees: a note never changes anything, arrival order does
not matter, and no roll is dated while the character lay dead.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from larp_app.rules import convert_sheet, read_settings, state_at
from larp_app.rules.entries import (
    CoupDeGrace,
    Heal,
    Hit,
    Kill,
    Note,
    Revive,
    StatusOff,
    StatusOn,
)
from larp_app.rulesets.athkri.entries import CheckRoll, DiceRoll, Save

DATA = Path(__file__).resolve().parents[1] / "data"
T0 = datetime(2027, 3, 6, 15, 0, tzinfo=UTC)
RAW = json.loads((DATA / "athkri-sheet.json").read_text(encoding="utf-8"))
# Físico 4 and PS 10 or 20: knocked out often, dead at 24 damage; Físico 8 and PS 12: saves
# mostly pass, so characters stabilise alone and fall asleep for 1d6 minutes.
SHEETS = [
    *(convert_sheet({**RAW, "ps_max": ps}) for ps in (10, 20)),
    convert_sheet({**RAW, "ps_max": 12, "attributes": {**RAW["attributes"], "fisico": 8}}),
]
EVENTS = [
    read_settings({"seed": "prop", "secret": "s3cret", "turn_seconds": 10}, "athkri"),
    read_settings({"seed": "prop", "saves": "referee", "turn_seconds": 10}, "athkri"),
]
PLAY_SECONDS = 15 * 60  # a fight and the minutes after it: saves, waking, 1d6 minutes asleep
CONDITIONS = ("indefenso", "enfermo", "asustado", "petrificado", "dano_continuo")

KINDS = {
    "hit": st.builds(Hit, damage=st.integers(1, 12), blows=st.integers(1, 2), pierce=st.booleans()),
    "heal": st.builds(Heal, amount=st.integers(1, 6)),
    "save": st.builds(Save, success=st.booleans()),
    "status_on": st.builds(StatusOn, key=st.sampled_from(CONDITIONS)),
    "status_off": st.builds(StatusOff, key=st.sampled_from(CONDITIONS)),
    "coup_de_grace": st.builds(CoupDeGrace),
    "kill": st.builds(Kill),
    "revive": st.builds(Revive, hp=st.one_of(st.none(), st.integers(0, 5))),
    "dice": st.builds(DiceRoll, bonus=st.integers(0, 4), difficulty=st.just(12)),
    "roll": st.builds(CheckRoll, key=st.sampled_from(["confundido", "dano_continuo"])),
}
MIX = (
    ["hit"] * 6
    + ["heal"] * 2
    + ["save"] * 3
    + ["status_on", "status_off"] * 2
    + [
        "coup_de_grace",
        "kill",
        "revive",
        "revive",
        "dice",
        "roll",
    ]
)
athkri_settings = settings(max_examples=60, deadline=None)


def _entry(kind_and_maker, seconds, number):
    """A generated entry with its id and instant (``st.builds`` cannot give these)."""
    made = kind_and_maker
    values = {f: getattr(made, f) for f in made.__slots__ if f not in ("id", "at", "author")}
    return type(made)(id=str(uuid.UUID(int=number)), at=T0 + timedelta(seconds=seconds), **values)


def athkri_logs(distinct_ats=False):
    kinds = st.sampled_from(MIX).flatmap(lambda kind: KINDS[kind])
    seconds = st.integers(0, PLAY_SECONDS)
    specs = st.lists(
        st.tuples(kinds, seconds),
        max_size=14,
        unique_by=(lambda spec: spec[1]) if distinct_ats else None,
    )
    return specs.map(lambda drawn: [_entry(e, t, i + 1) for i, (e, t) in enumerate(drawn)])


def comparable(snapshot) -> dict:
    data = snapshot.to_dict()
    del data["log_position"]  # the notes make the log longer, and only that
    return data


def instants(log, extra):
    """Every entry's instant, a second after each, and ``extra``: every change, and after."""
    ats = {e.at for e in log} | {e.at + timedelta(seconds=1) for e in log}
    return sorted(ats | {T0 + timedelta(seconds=s) for s in extra})


asked = st.lists(st.integers(0, PLAY_SECONDS + 600), min_size=1, max_size=3)


@athkri_settings
@given(
    st.sampled_from(SHEETS),
    st.sampled_from(EVENTS),
    athkri_logs(),
    # Each note: where it arrives, and when: some seconds after an entry (or the start).
    st.lists(st.tuples(st.integers(0, 20), st.integers(0, 20), st.integers(0, 420)), max_size=6),
    asked,
)
def test_inserting_notes_anywhere_never_changes_any_state(sheet, event, log, notes, extra):
    noted = list(log)
    for number, (where, after, seconds) in enumerate(notes, start=1000):
        start = log[after % len(log)].at if log else T0
        note = Note(id=str(uuid.UUID(int=number)), at=start + timedelta(seconds=seconds), text="n")
        noted.insert(where % (len(noted) + 1), note)
    for t in instants(noted, extra):
        assert comparable(state_at(sheet, event, noted, t)) == comparable(
            state_at(sheet, event, log, t)
        ), t


@athkri_settings
@given(
    st.sampled_from(SHEETS),
    st.sampled_from(EVENTS),
    athkri_logs(distinct_ats=True),
    asked,
    st.data(),
)
def test_entries_with_distinct_instants_give_the_same_state_in_any_arrival_order(
    sheet, event, log, extra, data
):
    shuffled = data.draw(st.permutations(log), label="arrival order")
    for t in instants(log, extra):
        assert state_at(sheet, event, shuffled, t).to_dict() == (
            state_at(sheet, event, log, t).to_dict()
        )


@athkri_settings
@given(st.sampled_from(SHEETS), st.sampled_from(EVENTS), athkri_logs(), asked)
def test_a_revived_character_has_no_roll_dated_while_it_was_dead(sheet, event, log, extra):
    for t in instants(log, extra):
        for roll in state_at(sheet, event, log, t).extra["rolls"]:
            rolled = datetime.fromisoformat(roll["at"])
            before = state_at(sheet, event, log, rolled - timedelta(microseconds=1))
            assert before.state.died_at is None, (roll, before.to_dict())
