"""Resolving a scan, reissuing a lost badge, and every refused lookup kept."""

import pytest

from larp_app.extensions import db
from larp_app.models import Badge, BadgeLookup

from .helpers import data_sheet, log_in, make_user

SHEET = data_sheet()

pytestmark = pytest.mark.both_databases


@pytest.fixture
def tokens(tokens):
    """The shared API tokens, as Authorization headers."""
    return {role: {"Authorization": f"Bearer {token}"} for role, token in tokens.items()}


@pytest.fixture
def cast(client, tokens):
    """Two events with a character each; returns (event ids, character ids)."""
    events, characters = [], []
    for name in ("Notte", "Giorno"):
        event = client.post(
            "/api/v1/events",
            json={"name": name, "ruleset": "ex-nihilo"},
            headers=tokens["organiser"],
        ).json["id"]
        made = client.post(
            f"/api/v1/events/{event}/characters", json=SHEET, headers=tokens["organiser"]
        ).json["characters"]
        events.append(event)
        characters.append(made[0]["id"])
    return events, characters


def badge_of(app, character_id):
    with app.app_context():
        badge = db.session.scalar(
            db.select(Badge).where(Badge.character_id == character_id, Badge.revoked_at.is_(None))
        )
        return badge.secret, badge.short_code


def refused(app):
    with app.app_context():
        return [
            (r.reason, r.presented)
            for r in db.session.scalars(db.select(BadgeLookup).order_by(BadgeLookup.id))
        ]


def test_every_imported_character_gets_a_badge_and_a_player_secret(app, cast):
    secret, code = badge_of(app, cast[1][0])
    assert len(secret) == 26 and len(code) == 11


def test_a_scanned_secret_names_its_character(app, client, tokens, cast):
    secret, code = badge_of(app, cast[1][0])
    answer = client.get(f"/api/v1/badges/{secret}", headers=tokens["referee"])
    assert answer.status_code == 200
    assert (answer.json["character"]["id"], answer.json["badge"]["short_code"]) == (
        cast[1][0],
        code,
    )


def test_the_whole_scanned_url_and_the_typed_short_code_work_too(app, client, tokens, cast):
    secret, code = badge_of(app, cast[1][0])
    url = f"http://192.168.1.10:5000/b/{secret}?v=1"
    for presented in (url, code, code.lower().replace("-", "")):
        answer = client.get(f"/api/v1/badges/{presented}", headers=tokens["referee"])
        assert answer.json["character"]["id"] == cast[1][0], presented


def test_a_short_code_with_a_typo_is_refused_and_recorded(app, client, tokens, cast):
    _, code = badge_of(app, cast[1][0])
    typo = code[:-1] + ("2" if code[-1] != "2" else "3")
    answer = client.get(f"/api/v1/badges/{typo}", headers=tokens["referee"])
    assert (answer.status_code, answer.json["error"]) == (404, "bad_short_code")
    assert refused(app) == [("bad_short_code", typo)]


def test_a_forged_secret_is_refused_and_recorded(app, client, tokens, cast):
    answer = client.get("/api/v1/badges/" + "A" * 26, headers=tokens["referee"])
    assert (answer.status_code, answer.json["error"]) == (404, "unknown")
    assert refused(app) == [("unknown", "A" * 26)]


def test_a_badge_of_another_event_is_refused_when_scanned_for_this_one(app, client, tokens, cast):
    (first_event, _), (_, other_character) = cast
    secret, _ = badge_of(app, other_character)
    answer = client.get(
        f"/api/v1/badges/{secret}", query_string={"event": first_event}, headers=tokens["referee"]
    )
    assert (answer.status_code, answer.json["error"]) == (404, "other_event")


def test_a_reissued_badge_works_and_the_old_one_is_refused_at_once(app, client, tokens, cast):
    character = cast[1][0]
    old_secret, old_code = badge_of(app, character)
    answer = client.post(f"/api/v1/characters/{character}/badge", headers=tokens["organiser"])
    assert answer.status_code == 201
    assert answer.headers["Cache-Control"] == "no-store"  # no cache keeps the new secret
    new_secret = answer.json["secret"]
    assert new_secret != old_secret and answer.json["scan_url"].endswith(f"/b/{new_secret}?v=1")
    for presented in (old_secret, old_code):
        gone = client.get(f"/api/v1/badges/{presented}", headers=tokens["referee"])
        assert (gone.status_code, gone.json["error"]) == (404, "revoked")
    fresh = client.get(f"/api/v1/badges/{new_secret}", headers=tokens["referee"])
    assert fresh.json["character"]["id"] == character


def test_a_referee_cannot_reissue_a_badge(client, tokens, cast):
    answer = client.post(f"/api/v1/characters/{cast[1][0]}/badge", headers=tokens["referee"])
    assert answer.status_code == 403


def test_a_badge_url_opened_by_a_stranger_shows_nothing_about_the_character(app, client, cast):
    secret, _ = badge_of(app, cast[1][0])
    page = client.get(f"/b/{secret}").get_data(as_text=True)
    assert "Vera" not in page and "Giulia" not in page
    assert "/login" in page


def test_a_badge_url_opened_by_a_logged_in_referee_leads_to_the_character(app, client, cast):
    secret, _ = badge_of(app, cast[1][0])
    make_user(app, "rita", "referee")
    log_in(client, "rita")
    answer = client.get(f"/b/{secret}")
    assert answer.status_code == 302
    assert answer.headers["Location"].endswith(f"/console/{cast[1][0]}")
