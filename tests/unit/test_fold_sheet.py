"""A log folded with the sheet as a fold reads it (``rules.wire.fold_sheet``: what a worker
keeps of every character) is the log folded with the whole sheet, at every instant."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from larp_app.rules import (
    Context,
    convert_sheet,
    fold_log,
    last_and_next_change,
    next_change,
    snapshot_at,
)
from larp_app.rules.entries import read_entry
from larp_app.rules.wire import fold_sheet, sheet_to_wire
from tests import vectors

DEMO_SHEET = Path(__file__).parents[2] / "larp_app" / "demo" / "ex-nihilo-sheet.json"
LOGS = 300  # random logs per rule system (tests/vectors.py's generator)


def _seen(snapshot) -> tuple:
    """What a snapshot says: its JSON, its wound and its rule system's figures."""
    return snapshot.to_dict(), snapshot.wound, snapshot.extra


@pytest.mark.parametrize("ruleset", vectors.rulesets())
def test_a_log_folded_with_the_sheet_as_a_fold_reads_it_is_the_whole_sheets_fold(ruleset):
    rng = random.Random(f"fold_sheet:{ruleset}")
    make_sheet, make_settings = vectors.MAKERS[ruleset]
    instants = 0
    with vectors.known_rulesets():
        for n in range(LOGS):
            whole = Context.of(make_sheet(rng), make_settings(rng))
            kept = Context.of(fold_sheet(whole.sheet), whole.settings)
            assert sheet_to_wire(kept.sheet) == sheet_to_wire(whole.sheet)
            entries = [read_entry(raw) for raw in vectors._log(rng, whole)]
            folded, folded_kept = fold_log(whole, entries), fold_log(kept, entries)
            assert folded_kept == folded, f"log {n}"
            for at in vectors._instants(rng, whole, entries):
                instants += 1
                said = f"log {n} at {at}"
                snapshot = snapshot_at(folded, whole, at)
                assert _seen(snapshot_at(folded, kept, at)) == _seen(snapshot), said
                assert next_change(snapshot.state, kept) == next_change(snapshot.state, whole)
                assert last_and_next_change(folded, kept, at) == last_and_next_change(
                    folded, whole, at
                ), said
                partly = fold_log(whole, entries, at)
                assert fold_log(kept, entries, at) == partly, said
    assert instants > LOGS  # several instants a log: the test compared something


def test_the_sheet_as_a_fold_reads_it_leaves_out_what_only_pages_show():
    sheet = convert_sheet(json.loads(DEMO_SHEET.read_text(encoding="utf-8")))
    kept = fold_sheet(sheet)
    assert any(a.text for a in sheet.advancements) and sheet.tables  # the demo's have them
    assert [(a.name, a.energy_cost) for a in kept.advancements] == [
        (a.name, a.energy_cost) for a in sheet.advancements
    ]
    assert not any(a.text for a in kept.advancements) and not kept.tables
    assert "skills" in sheet.details
    assert list(kept.details) == ["armour"]  # EX Nihilo's fold reads the worn armour alone
    assert (kept.hp_max, kept.ap_max, kept.energy_max) == (
        sheet.hp_max,
        sheet.ap_max,
        sheet.energy_max,
    )
