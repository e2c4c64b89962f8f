"""``states_at``: the states at many instants in one fold, as a report reads the event."""

import json
from datetime import timedelta
from pathlib import Path

from larp_app.rules import (
    convert_sheet,
    default_settings,
    read_entry,
    read_log,
    state_at,
    states_at,
)

DATA = Path(__file__).resolve().parents[1] / "data"
SETTINGS = default_settings("ex-nihilo")
SHEET = convert_sheet(json.loads((DATA / "ex-nihilo-sheet.json").read_text(encoding="utf-8")))
LOG = read_log(json.loads((DATA / "ex-nihilo-log.json").read_text(encoding="utf-8")))


def test_without_undos_each_state_is_the_state_at_that_instant():
    log = [e for e in LOG if e.kind != "undo"]
    instants = sorted({e.at for e in log} | {log[-1].at + timedelta(minutes=30)})
    folded = states_at(SHEET, SETTINGS, log, instants)
    expected = [state_at(SHEET, SETTINGS, log, t) for t in instants]
    assert [(t, s.hp, s.ap, s.energy, w) for t, s, w in folded] == [
        (e.at, e.state.hp, e.state.ap, e.state.energy, e.wound) for e in expected
    ]
    assert {w for _, _, w in folded} >= {"ok", "dying"}  # the example falls


def test_an_entry_undone_later_never_happened_at_any_instant():
    hit = next(e for e in LOG if e.kind == "hit")
    undo = read_entry(
        {
            "id": "00000000-0000-4000-8000-0000000000aa",
            "kind": "undo",
            "at": (hit.at + timedelta(minutes=5)).isoformat(),
            "target": hit.id,
        }
    )
    ((_, before, _),) = states_at(SHEET, SETTINGS, [hit, undo], [hit.at])
    assert before.hp == SHEET.hp_max and before.ap == SHEET.ap_max
    assert state_at(SHEET, SETTINGS, [hit, undo], hit.at).state.ap < SHEET.ap_max  # then
