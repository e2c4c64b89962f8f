"""The player's live part (web/live_part.py): every state it can be in, in words and symbols,
every value escaped, and the same part on the page and in its JSON twin."""

from __future__ import annotations

import html
import json
import re
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from larp_app.reads.words import speaking, wound_shown
from larp_app.rules import Context, convert_sheet, fold_log, format_instant, snapshot_at
from larp_app.rules.entries import read_entry
from larp_app.rules.settings import read_settings
from larp_app.rules.state import ActiveStatus
from larp_app.web.live_part import live_part

from .test_player_page import cast  # noqa: F401  (the demo event's fixture)

DEMO_SHEET = Path(__file__).parents[2] / "larp_app" / "demo" / "ex-nihilo-sheet.json"
START = datetime(2027, 3, 6, 15, 0, tzinfo=UTC)


def _snapshot(*entries: dict, seconds: int = 30):
    """The demo sheet's state ``seconds`` after ``entries``, logged one a second from START."""
    sheet = convert_sheet(json.loads(DEMO_SHEET.read_text(encoding="utf-8")))
    ctx = Context.of(sheet, read_settings({}, "ex-nihilo"))
    logged = [
        read_entry(
            {
                "id": str(uuid.UUID(int=n + 1)),
                "at": format_instant(START + timedelta(seconds=n)),
                **entry,
            }
        )
        for n, entry in enumerate(entries)
    ]
    return snapshot_at(fold_log(ctx, logged), ctx, START + timedelta(seconds=seconds))


def _part(snapshot, names=None, language="en") -> str:
    with speaking(language):
        return str(live_part(snapshot, names or {}))


def test_an_unhurt_character_shows_its_numbers_and_no_status_in_words(app):
    part = _part(_snapshot())
    with speaking("en"):
        shown = wound_shown("ok", "ex-nihilo")
    assert (
        f'data-wound="ok"><span class="wound-icon" aria-hidden="true">{shown.icon}</span>' in part
    )
    assert f"</span> {shown.word}</span>" in part
    assert re.search(r'data-stat="hp"><dt>[^<]+</dt><dd><b>(\d+)</b> / \1</dd>', part)
    assert "None." in part and "<ul" not in part
    assert "data-until" not in part  # nothing ticks


def test_a_dying_character_shows_the_countdown_the_phone_ticks_and_the_word(app):
    snapshot = _snapshot({"kind": "hit", "blows": 10, "pierce": True})
    assert snapshot.state.death_at is not None
    part = _part(snapshot)
    until = format_instant(snapshot.state.death_at)
    assert f'<span class="timer big" data-until="{until}" data-refresh-at-zero' in part
    assert "Dies in" in part and "unless a healer reaches you." in part
    assert 'data-wound="dying"' in part and "✚" in part  # a symbol and a word


def test_a_dead_character_shows_the_time_of_death_for_the_phone_to_rewrite(app):
    snapshot = _snapshot({"kind": "kill", "reason": "trama"})
    assert snapshot.state.died_at is not None
    part = _part(snapshot)
    assert f'<time datetime="{format_instant(snapshot.state.died_at)}" data-local>' in part
    assert "Dead since" in part and " UTC</time>" in part
    assert "Dies in" not in part


def test_destroyed_armour_energy_coming_back_and_statuses_are_each_said(app):
    snapshot = _snapshot(
        {"kind": "spend_energy", "amount": 2},
        {"kind": "status_on", "key": "paura", "seconds": 600},
        seconds=3,
    )
    # The demo's armour points are Corpo's, which never break, and its catalogue's statuses
    # all end by themselves: a worn armour destroyed, and a status a referee ends.
    endless = ActiveStatus("stordimento", START, None)
    state = snapshot.state
    state = replace(state, armour_destroyed=True, statuses=(*state.statuses, endless))
    snapshot = replace(snapshot, state=state)
    st = snapshot.state
    assert st.next_energy_at and len(st.statuses) == 2
    part = _part(snapshot, {"paura": "Fear"})
    assert "✖ destroyed" in part
    assert f'+1 in <span class="timer" data-until="{format_instant(st.next_energy_at)}"' in part
    timed = next(s for s in st.statuses if s.until is not None)
    until = format_instant(timed.until)
    assert f'<li><strong>Fear</strong> <span class="timer" data-until="{until}"' in part
    # A status without a name in the page's language is shown by its key; one with no end
    # says who ends it.
    assert '<li><strong>stordimento</strong> <span class="muted">until a referee ends it' in part


def test_every_value_shown_is_escaped():
    snapshot = _snapshot()
    snapshot = replace(
        snapshot, state=replace(snapshot.state, statuses=(ActiveStatus("paura", START, None),))
    )
    hostile = "<script>alert('x')</script> & \"quoted\""
    part = _part(snapshot, {"paura": hostile})
    assert "<script>" not in part and '"quoted"' not in part
    assert html.unescape(part).count(hostile) == 1


@pytest.mark.parametrize("language", ["it", "es", "en"])
def test_the_page_and_its_json_twin_show_the_same_live_part(client, cast, language):  # noqa: F811
    secret = cast["Guardia Tobia Sala"]
    headers = {"Accept-Language": language}
    twin = client.get(f"/p/{secret}/live.json", headers=headers).get_json()["html"]
    page = client.get(f"/p/{secret}", headers=headers).get_data(as_text=True)
    assert twin.strip() and twin in page
