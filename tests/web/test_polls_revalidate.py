"""Polls revalidate the standard way: an answer's ETag names its data (the version and the
last change time alone made), so ``If-None-Match`` gets a 304 until something changes — a
write, or a timer running out with nobody writing — and never after the caller's access
ended."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character
from larp_app.services.clock import now_utc

from .conftest import auth


@pytest.fixture
def secret(app, character_id):
    with app.app_context():
        return db.session.get(Character, character_id).player_secret


def log(client, character_id, headers, at=None, **body):
    at = rules.format_instant(at or now_utc())
    answer = client.post(
        f"/api/v1/characters/{character_id}/entries",
        json={"id": str(uuid.uuid4()), "at": at, **body},
        headers=headers,
    )
    assert answer.status_code == 201, answer.json
    return answer


def again(client, url, first, headers=None):
    return client.get(url, headers={**(headers or {}), "If-None-Match": first.headers["ETag"]})


def urls(event_id, character_id, secret):
    return {
        "state": f"/api/v1/characters/{character_id}/state",
        "event roster": f"/api/v1/events/{event_id}/roster",
        "phone roster": "/api/v1/roster",
        "player": f"/p/{secret}/live.json",
    }


@pytest.mark.parametrize("kind", ["state", "event roster", "phone roster", "player"])
def test_an_unchanged_poll_revalidates_with_if_none_match(
    client, referee, event_id, character_id, secret, kind
):
    url = urls(event_id, character_id, secret)[kind]
    first = client.get(url, headers=referee)
    assert first.status_code == 200
    unchanged = again(client, url, first, referee)
    assert unchanged.status_code == 304
    assert unchanged.data == b""
    assert unchanged.headers["ETag"] == first.headers["ETag"]


@pytest.mark.parametrize("kind", ["state", "event roster", "phone roster", "player"])
def test_an_entry_in_between_gives_the_new_data_under_a_new_tag(
    client, referee, event_id, character_id, secret, kind
):
    url = urls(event_id, character_id, secret)[kind]
    first = client.get(url, headers=referee)
    log(client, character_id, referee, kind="hit", damage=2, pierce=True)
    changed = again(client, url, first, referee)
    assert changed.status_code == 200
    assert changed.headers["ETag"] != first.headers["ETag"]
    assert changed.json != first.json
    assert again(client, url, changed, referee).status_code == 304


@pytest.mark.parametrize("kind", ["state", "event roster", "phone roster", "player"])
@pytest.mark.parametrize(
    "timer",
    [
        {"kind": "status_on", "key": "paura", "seconds": 30},  # a status runs out
        {"kind": "spend_energy", "amount": 1},  # the energy comes back
        {"kind": "hit", "damage": 40, "blows": 2, "pierce": True},  # the countdown ends
    ],
    ids=["status", "energy", "countdown"],
)
def test_a_timer_that_ends_changes_the_tag_at_that_instant_with_no_write(
    client, referee, event_id, character_id, secret, monkeypatch, kind, timer
):
    url = urls(event_id, character_id, secret)[kind]
    start = now_utc() - timedelta(seconds=1)
    log(client, character_id, referee, at=start, **timer)
    first = client.get(url, headers=referee)
    state = client.get(f"/api/v1/characters/{character_id}/state", headers=referee).json
    ends = min(rules.parse_instant(t) for t in _timers(state))
    for module in ("larp_app.web.api", "larp_app.web.player", "larp_app.services.clock"):
        monkeypatch.setattr(f"{module}.now_utc", lambda: ends - timedelta(microseconds=1))
    assert again(client, url, first, referee).status_code == 304  # not yet
    for module in ("larp_app.web.api", "larp_app.web.player", "larp_app.services.clock"):
        monkeypatch.setattr(f"{module}.now_utc", lambda: ends)
    ended = again(client, url, first, referee)
    assert ended.status_code == 200
    assert ended.headers["ETag"] != first.headers["ETag"]


def _timers(state: dict) -> list[str]:
    """The instants at which time alone changes this state."""
    found = [s["until"] for s in state.get("statuses", []) if s.get("until")]
    found += [state[k] for k in ("death_at", "next_energy_at") if state.get(k)]
    assert found, {k: v for k, v in state.items() if k != "fold"}
    return found


@pytest.mark.both_databases
def test_a_revoked_token_is_refused_though_it_holds_the_current_tag(
    client, tokens, organiser, event_id, character_id
):
    from larp_app.models import ApiToken, User

    headers = auth(tokens["referee"])
    for url in (
        f"/api/v1/characters/{character_id}/state",
        f"/api/v1/events/{event_id}/roster",
        "/api/v1/roster",
    ):
        first = client.get(url, headers=headers)
        assert again(client, url, first, headers).status_code == 304
    with client.application.app_context():
        referee = db.session.scalar(db.select(User).where(User.role == "referee"))
        for token in db.session.scalars(db.select(ApiToken).where(ApiToken.user_id == referee.id)):
            token.revoked_at = now_utc()
        db.session.commit()
    for url in (
        f"/api/v1/characters/{character_id}/state",
        f"/api/v1/events/{event_id}/roster",
        "/api/v1/roster",
    ):
        assert again(client, url, first, headers).status_code == 401


def test_a_referee_taken_off_the_event_is_refused_though_they_hold_the_current_tag(
    client, tokens, event_id, character_id
):
    from larp_app.models import Event, RefereeEvent, User

    headers = auth(tokens["referee"])
    url = f"/api/v1/characters/{character_id}/state"
    first = client.get(url, headers=headers)
    with client.application.app_context():
        referee = db.session.scalar(db.select(User).where(User.role == "referee"))
        other = Event(name="Altra", ruleset="ex-nihilo", created_at=now_utc())
        db.session.add(other)
        db.session.flush()
        db.session.add(RefereeEvent(user_id=referee.id, event_id=other.id))
        db.session.commit()
    refused = again(client, url, first, headers)
    assert refused.status_code == 403
    assert refused.json["error"] == "not_your_event"


def test_an_unchanged_state_poll_loads_no_session_user_or_character_and_folds_nothing(
    client, referee, secret, character_id, monkeypatch
):
    url = f"/api/v1/characters/{character_id}/state"
    first = client.get(url, headers=referee)
    player = client.get(f"/p/{secret}/live.json")

    def refuse(*args, **kwargs):
        raise AssertionError("loaded or folded")

    for name in (
        "larp_app.web.api.user_for_token",
        "larp_app.web.auth.session_user",
        "larp_app.web.api._character",
        "larp_app.web.player.character_for_player",
        "larp_app.keeping.records.rules.fold_log",
        "larp_app.keeping.records.rules.snapshot_at",
        "larp_app.keeping.records.rules.last_and_next_change",
    ):
        monkeypatch.setattr(name, refuse)
    assert again(client, url, first, referee).status_code == 304
    assert again(client, f"/p/{secret}/live.json", player).status_code == 304


def test_a_phone_whose_session_ended_is_refused_though_it_holds_the_current_tag(
    app, client, character_id
):
    from larp_app.models import WebSession

    from .helpers import log_in, make_user

    make_user(app, "rita", "referee")
    phone = app.test_client()
    assert log_in(phone, "rita").status_code == 302
    url = f"/api/v1/characters/{character_id}/state"
    first = phone.get(url)
    assert first.status_code == 200
    assert again(phone, url, first).status_code == 304
    with app.app_context():
        for row in db.session.scalars(db.select(WebSession)):
            row.ended_at = now_utc()
        db.session.commit()
    assert again(phone, url, first).status_code == 401


@pytest.mark.both_databases
def test_a_current_phone_roster_is_answered_without_loading_a_user_or_an_event(
    client, referee, event_id, character_id, monkeypatch
):
    first = client.get("/api/v1/roster", headers=referee)
    held = first.json["version"]

    def refuse(*args, **kwargs):
        raise AssertionError("loaded")

    for name in (
        "larp_app.web.api.user_for_token",
        "larp_app.web.auth.session_user",
        "larp_app.web.api.phone_roster",
        "larp_app.web.api.assigned_events",
    ):
        monkeypatch.setattr(name, refuse)
    polled = client.get("/api/v1/roster", headers=referee, query_string={"since": held})
    assert polled.status_code == 304
    assert again(client, "/api/v1/roster", first, referee).status_code == 304
    asked = client.get(
        "/api/v1/roster", headers=referee, query_string={"since": held, "event": event_id}
    )
    assert asked.status_code == 304


@pytest.mark.both_databases
def test_a_referee_holding_the_current_tag_of_an_event_since_archived_is_refused(
    client, referee, organiser, event_id, character_id
):
    url = f"/api/v1/characters/{character_id}/state"
    first = client.get(url, headers=referee)
    assert again(client, url, first, referee).status_code == 304
    assert client.post(f"/api/v1/events/{event_id}/archive", headers=organiser).status_code == 200
    refused = again(client, url, first, referee)
    assert refused.status_code == 403
    assert refused.json["error"] == "event_archived"


@pytest.mark.both_databases
def test_an_unchanged_poll_opens_no_database_session_and_answers_as_the_full_path(
    client, referee, event_id, character_id, secret, monkeypatch
):
    """The fast path reads its one row past the ORM; its tag is the full path's own."""
    found = urls(event_id, character_id, secret)
    held = {kind: client.get(found[kind], headers=referee) for kind in ("state", "player")}
    roster = client.get("/api/v1/roster", headers=referee)

    def refuse():
        raise AssertionError("an ORM session was opened")

    with client.application.app_context():
        monkeypatch.setattr(db.session.registry, "createfunc", refuse)
    for kind, first in held.items():
        unchanged = again(client, found[kind], first, referee)
        assert unchanged.status_code == 304
        assert unchanged.headers["ETag"] == first.headers["ETag"]
    since = client.get(
        "/api/v1/roster", headers=referee, query_string={"since": roster.json["version"]}
    )
    assert since.status_code == 304
    assert since.headers["ETag"] == roster.headers["ETag"]
