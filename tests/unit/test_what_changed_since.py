"""An event's view answers "what changed since" (a roster delta, the board's changes) from
its order of changes, reading only their tails: the same rows as looking at every row would
find, in the order of their ids, however rows were placed and advanced, and however many
stale pairs it holds before it is made again."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

from hypothesis import given, settings
from hypothesis import strategies as st

from larp_app.keeping import views
from larp_app.keeping.views import Row, Since, View


def record(stamp_us: int) -> SimpleNamespace:
    """What a view reads of a record: its last change by time alone, conflicts and wound."""
    return SimpleNamespace(stamp_us=stamp_us, folded=SimpleNamespace(conflicts=()), snapshot=None)


def row(character: int, version: int, stamp_us: int) -> Row:
    return Row(character, version, f"PG {character}", "", None, [], record(stamp_us))


def every_row_looked_at(view: View, since: Since) -> list[int]:
    return sorted(
        r.id
        for r in view.rows.values()
        if r.version > since.version or r.record.stamp_us > since.at
    )


# Each change: a row placed again at a new version (an entry, a new sheet), or advanced by
# time alone to a later instant, or a new character placed.
changes = st.lists(
    st.tuples(st.sampled_from(["version", "time", "new"]), st.integers(0, 40)), max_size=120
)


@given(changes=changes, asked=st.lists(st.tuples(st.integers(0, 200), st.integers(0, 200))))
@settings(max_examples=150, deadline=None)
def test_the_rows_changed_since_are_those_every_row_looked_at_finds(changes, asked):
    view = View(1, 0, "{}", datetime.now(UTC), {}, [])
    version, instant = 0, 0
    for n in range(20):  # built: the event's characters, in the order of their ids
        version += 1
        view.rows[n] = placed = row(n, version, 0)
        view.noted(placed)
    for kind, pick in changes:
        known = sorted(view.rows)
        if kind == "new":
            version += 1
            character = known[-1] + 1
            view.rows[character] = placed = row(character, version, 0)
        elif kind == "version":
            version += 1
            placed = view.rows[known[pick % len(known)]]
            placed.version = version
        else:
            instant += 1 + pick
            placed = view.rows[known[pick % len(known)]]
            placed.record.stamp_us = instant
        view.noted(placed)
        for held_version, held_at in asked or [(version // 2, instant // 2)]:
            since = Since(held_version, held_at)
            assert [r.id for r in view.since(since)] == every_row_looked_at(view, since)
    assert [r.id for r in view.since(None)] == sorted(view.rows)


def test_stale_pairs_are_dropped_once_they_outnumber_the_rows(monkeypatch):
    monkeypatch.setattr(views, "STALE_PAIRS", 8)
    view = View(1, 0, "{}", datetime.now(UTC), {}, [])
    view.rows[1] = placed = row(1, 1, 0)
    view.noted(placed)
    for version in range(2, 40):
        placed.version = version
        view.noted(placed)
        assert len(view.by_version) <= 2 * len(view.rows) + 8
    assert [r.id for r in view.since(Since(38, 0))] == [1]
    assert view.since(Since(39, 0)) == []
