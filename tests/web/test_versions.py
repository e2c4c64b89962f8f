"""Changes since a version: the phone's roster, an event's roster and the board answer what
changed after the version a client holds, a 304 of no body when nothing did, checked before
anything is folded or built."""

from datetime import timedelta

import pytest

from larp_app.keeping import records
from larp_app.reads.roster import badge_hash
from larp_app.services import clock

from .helpers import data_sheet, log_in, make_user
from .test_api import auth, entry
from .test_badges_api import badge_of

SHEET = data_sheet()


@pytest.fixture
def api(tokens):
    return {role: auth(token) for role, token in tokens.items()}


@pytest.fixture
def cast(client, api):
    """An event with two characters, each with a badge: (event id, character ids)."""
    event = client.post(
        "/api/v1/events", json={"name": "Notte", "ruleset": "ex-nihilo"}, headers=api["organiser"]
    ).json["id"]
    made = client.post(
        f"/api/v1/events/{event}/characters",
        json=[SHEET, {**SHEET, "character": "Bruno"}],  # one file names each character once
        headers=api["organiser"],
    )
    return event, [c["id"] for c in made.json["characters"]]


@pytest.fixture
def organiser(app):
    make_user(app, "olga", "organiser")
    browser = app.test_client()
    assert log_in(browser, "olga").status_code == 302
    return browser


def roster(client, headers, **params):
    return client.get("/api/v1/roster", headers=headers, query_string=params)


def no_fold(monkeypatch):
    """Make any fold fail: an answer given after this did no folding."""

    def refuse(*args, **kwargs):
        raise AssertionError("folded")

    monkeypatch.setattr(records.rules, "fold_log", refuse)
    monkeypatch.setattr(records.rules, "snapshot_at", refuse)


def test_an_unchanged_phone_roster_answers_304_with_no_body_and_no_fold(
    client, api, cast, monkeypatch
):
    first = roster(client, api["referee"])
    assert first.json["full"] is True
    no_fold(monkeypatch)
    again = roster(
        client,
        {**api["referee"], "If-None-Match": first.headers["ETag"]},
        since=first.json["version"],
    )
    assert again.status_code == 304
    assert again.data == b""
    assert len(str(again.headers)) < 1024


def test_after_one_entry_the_phone_roster_sends_only_that_character(client, api, cast):
    _event_id, (hit, quiet) = cast
    first = roster(client, api["referee"])
    posted = client.post(
        f"/api/v1/characters/{hit}/entries", json=entry("hit", damage=1), headers=api["referee"]
    )
    assert posted.status_code == 201
    delta = roster(client, api["referee"], since=first.json["version"])
    assert delta.status_code == 200
    assert delta.json["full"] is False
    assert [c["id"] for c in delta.json["characters"]] == [hit]
    assert delta.json["characters"][0]["state"] == {
        k: v for k, v in posted.json["state"].items() if k != "at"
    }
    assert delta.json["version"] != first.json["version"]
    assert quiet not in {c["id"] for c in delta.json["characters"]}


def test_a_reissued_badge_comes_in_the_delta_and_the_old_hashes_are_to_forget(
    app, client, api, cast
):
    event_id, (character_id, _other) = cast
    old_secret, old_code = badge_of(app, character_id)
    first = roster(client, api["referee"])
    reissued = client.post(f"/api/v1/characters/{character_id}/badge", headers=api["organiser"])
    delta = roster(client, api["referee"], since=first.json["version"])
    assert [c["id"] for c in delta.json["characters"]] == [character_id]
    assert set(delta.json["revoked"]) == {
        badge_hash(event_id, old_secret),
        badge_hash(event_id, old_code),
    }
    assert delta.json["badges"] == {
        badge_hash(event_id, reissued.json["secret"]): character_id,
        badge_hash(event_id, reissued.json["short_code"]): character_id,
    }


def test_a_status_that_runs_out_is_a_change_though_nobody_logged_anything(
    client, api, cast, monkeypatch
):
    _event_id, (character_id, _other) = cast
    client.post(
        f"/api/v1/characters/{character_id}/entries",
        json=entry("status_on", key="paura", seconds=30),
        headers=api["referee"],
    )
    first = roster(client, api["referee"])
    assert [
        s["key"]
        for s in next(c for c in first.json["characters"] if c["id"] == character_id)["state"][
            "statuses"
        ]
    ] == ["paura"]
    later = clock.now_utc() + timedelta(seconds=31)
    for module in ("larp_app.web.api", "larp_app.services.clock"):  # (web/quick.py reads it)
        monkeypatch.setattr(f"{module}.now_utc", lambda: later)
    delta = roster(client, api["referee"], since=first.json["version"])
    assert delta.status_code == 200
    assert [c["id"] for c in delta.json["characters"]] == [character_id]
    assert delta.json["characters"][0]["state"]["statuses"] == []


def test_new_settings_of_an_event_reach_the_phone_though_no_character_changed(app, client, api):
    made = client.post(
        "/api/v1/events", json={"name": "Vuota", "ruleset": "ex-nihilo"}, headers=api["organiser"]
    )
    first = roster(client, api["referee"])
    with app.app_context():
        from larp_app.extensions import db
        from larp_app.models import Event
        from larp_app.services.events import change_settings

        change_settings(db.session.get(Event, made.json["id"]), {"roster_max_age_minutes": 5})
        db.session.commit()
    again = roster(client, api["referee"], since=first.json["version"])
    assert again.status_code == 200
    assert again.json["events"][0]["roster_max_age_minutes"] == 5


def test_the_phone_roster_can_be_limited_to_the_events_asked_for(client, api, cast):
    event_id, characters = cast
    other = client.post(
        "/api/v1/events", json={"name": "Altra", "ruleset": "ex-nihilo"}, headers=api["organiser"]
    ).json["id"]
    client.post(f"/api/v1/events/{other}/characters", json=[SHEET], headers=api["organiser"])
    mine = roster(client, api["referee"], event=str(event_id))
    assert [e["id"] for e in mine.json["events"]] == [event_id]
    assert [c["id"] for c in mine.json["characters"]] == characters
    both = roster(client, api["referee"])
    assert [e["id"] for e in both.json["events"]] == [event_id, other]
    bad = roster(client, api["referee"], event="one")
    assert bad.status_code == 422 and "event" in bad.json["fields"]


def test_the_event_roster_answers_changes_since_and_304_when_none(client, api, cast, monkeypatch):
    event_id, (hit, quiet) = cast
    url = f"/api/v1/events/{event_id}/roster"
    first = client.get(url, headers=api["referee"])
    assert {c["id"] for c in first.json["characters"]} == {hit, quiet}
    client.post(f"/api/v1/characters/{hit}/entries", json=entry("hit"), headers=api["referee"])
    delta = client.get(url, headers=api["referee"], query_string={"since": first.json["version"]})
    assert [c["id"] for c in delta.json["characters"]] == [hit]
    no_fold(monkeypatch)
    same = client.get(url, headers=api["referee"], query_string={"since": delta.json["version"]})
    assert same.status_code == 304


def test_the_board_poll_is_a_304_built_from_nothing_until_an_entry(
    client, api, cast, organiser, monkeypatch
):
    event_id, (hit, quiet) = cast
    url = f"/events/{event_id}/board.json"
    first = organiser.get(url)
    assert first.status_code == 200
    assert {c["id"] for c in first.json["characters"]} == {hit, quiet}
    with monkeypatch.context() as patched:
        no_fold(patched)
        patched.setattr("larp_app.web.organiser.board._board", lambda *a: 1 / 0)
        same = organiser.get(url, headers={"If-None-Match": first.headers["ETag"]})
        assert same.status_code == 304
    client.post(f"/api/v1/characters/{hit}/entries", json=entry("hit"), headers=api["referee"])
    changed = organiser.get(
        url,
        headers={"If-None-Match": first.headers["ETag"]},
        query_string={"since": first.json["version"]},
    )
    assert changed.status_code == 200
    assert [c["id"] for c in changed.json["characters"]] == [hit]
    # The page's part: the changed row only, put in place by the page (board.js).
    assert [row["id"] for row in changed.json["rows"]] == [hit]
    assert "html" not in changed.json
