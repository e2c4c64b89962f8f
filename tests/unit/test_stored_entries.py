"""Entries read back from storage (``entry_from_stored``) without being checked again.

The log is checked once, on the way in (``read_entry``); the services read it back from the
database on every request through the trusted loader. Both must give the same entries.
"""

from __future__ import annotations

import json
from dataclasses import fields
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from larp_app.rules import entry_from_stored, entry_to_dict, read_entry, state_at
from larp_app.rules.entries import Note
from larp_app.rulesets.athkri.entries import DiceRoll

from .test_athkri_properties import EVENTS as ATHKRI_EVENTS
from .test_athkri_properties import SHEETS as ATHKRI_SHEETS
from .test_athkri_properties import athkri_logs
from .test_fold_properties import EVENTS, T0, logs, sheets

authors = st.one_of(st.none(), st.sampled_from(["arbitro-1", "Giulia", "árbitro 2"]))
microseconds = st.integers(0, 999_999)


def stored(entry) -> dict:
    """The entry as the database keeps it: written by ``entry_to_dict``, through JSON."""
    return json.loads(json.dumps(entry_to_dict(entry)))


def varied(log, data) -> list:
    """The log with authors and instants that have fractions of a second, as phones send."""
    out = []
    for entry in log:
        values = {f.name: getattr(entry, f.name) for f in fields(entry)}
        values["author"] = data.draw(authors)
        values["at"] = entry.at + timedelta(microseconds=data.draw(microseconds))
        out.append(type(entry)(**values))
    return out


def both_ways(entries) -> tuple[list, list]:
    rows = [stored(e) for e in entries]
    return [read_entry(row) for row in rows], [entry_from_stored(row) for row in rows]


@settings(max_examples=100, deadline=None)
@given(logs(), st.data())
def test_a_stored_entry_reads_back_as_the_checking_parser_reads_it(log, data):
    checked, trusted = both_ways(varied(log, data))
    assert trusted == checked
    assert [type(e) for e in trusted] == [type(e) for e in checked]


@settings(max_examples=60, deadline=None)
@given(athkri_logs(), st.data())
def test_a_stored_athkri_entry_reads_back_as_the_checking_parser_reads_it(log, data):
    extra = [
        DiceRoll(id="6a1c3b0e-0000-4000-8000-000000000001", at=T0, level=-1, bonus=3),
        Note(id="6a1c3b0e-0000-4000-8000-000000000002", at=T0, text="línea\nsegunda", author="x"),
    ]
    checked, trusted = both_ways(varied([*log, *extra], data))
    assert trusted == checked


@settings(max_examples=60, deadline=None)
@given(sheets, st.sampled_from(sorted(EVENTS)), logs())
def test_a_log_read_back_from_storage_folds_to_the_same_state(sheet, event, log):
    checked, trusted = both_ways(log)
    at = T0 + timedelta(hours=3)
    assert state_at(sheet, EVENTS[event], trusted, at) == state_at(
        sheet, EVENTS[event], checked, at
    )


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ATHKRI_SHEETS), st.sampled_from(ATHKRI_EVENTS), athkri_logs())
def test_an_athkri_log_read_back_from_storage_folds_to_the_same_state(sheet, event, log):
    checked, trusted = both_ways(log)
    at = T0 + timedelta(minutes=30)
    assert state_at(sheet, event, trusted, at) == state_at(sheet, event, checked, at)


def test_a_stored_instant_with_an_offset_is_read_as_utc():
    row = {"id": "6a1c3b0e-0000-4000-8000-000000000003", "kind": "note", "text": "n"}
    row["at"] = "2027-03-06T16:00:00+01:00"
    assert entry_from_stored(row) == read_entry(row)
    assert entry_from_stored(row).at == T0
