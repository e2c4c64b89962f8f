"""One entry folded onto a kept fold (an entry's answer) is the whole log folded again."""

from __future__ import annotations

import random
import uuid

import pytest

from larp_app.rules import Context, fold_log, fold_on
from larp_app.rules.entries import read_entry
from tests import vectors

A = str(uuid.UUID(int=1))
LOGS = 400  # random logs per rule system (tests/vectors.py's generator)


@pytest.mark.parametrize("ruleset", vectors.rulesets())
def test_an_entry_folded_onto_the_fold_of_the_log_before_it_equals_the_whole_fold(ruleset):
    rng = random.Random(f"fold_on:{ruleset}")
    make_sheet, make_settings = vectors.MAKERS[ruleset]
    stepped = declined = 0
    with vectors.known_rulesets():
        for n in range(LOGS):
            ctx = Context.of(make_sheet(rng), make_settings(rng))
            entries = [read_entry(raw) for raw in vectors._log(rng, ctx)]
            for k, entry in enumerate(entries):
                if any(e.id == entry.id for e in entries[:k]):
                    continue  # an id stored before is answered again, never folded on
                on = fold_on(fold_log(ctx, entries[:k]), entry, ctx)
                if on is None:
                    declined += 1
                    continue
                stepped += 1
                assert on == fold_log(ctx, entries[: k + 1]), f"log {n}, entry {k}: {entry}"
    assert stepped > declined > 0  # most entries come in order; undos and late ones not


def test_an_undo_or_an_entry_dated_before_the_last_is_not_folded_on():
    make_sheet, make_settings = vectors.MAKERS["ex-nihilo"]
    rng = random.Random(1)
    ctx = Context.of(make_sheet(rng), make_settings(rng))
    first = read_entry({"id": A, "kind": "hit", "damage": 1, "at": "2027-03-06T15:10:00Z"})
    folded = fold_log(ctx, [first])
    undo = read_entry(
        {"id": str(uuid.UUID(int=2)), "kind": "undo", "target": A, "at": "2027-03-06T15:11:00Z"}
    )
    late = read_entry(
        {"id": str(uuid.UUID(int=3)), "kind": "heal", "amount": 1, "at": "2027-03-06T15:09:59Z"}
    )
    assert fold_on(folded, undo, ctx) is None
    assert fold_on(folded, late, ctx) is None
