"""What the phone needs to speak the chosen language with no network, and to keep it.

The service worker keeps each page in every language (``?lang=`` asks a page in one without
changing anyone's choice; every page says its language); the phone's roster carries each
event's words in every language; the switcher's choice is not undone by an answer to a poll
that was on its way when it was made.
"""

from __future__ import annotations

import time

from larp_app.extensions import db
from larp_app.models import Event
from larp_app.services.events import change_settings
from larp_app.web import security

from .helpers import csrf_token, data_sheet, log_in, make_user, new_event, post_form


def session_cookies(answer):
    return [c for c in answer.headers.getlist("Set-Cookie") if c.startswith("session=")]


def test_a_page_asked_in_a_language_speaks_it_and_changes_no_choice(app, client):
    make_user(app, "remo", "referee")
    log_in(client, "remo")
    post_form(client, "/language", {"lang": "it", "next": "/scan"}, page="/scan")
    spanish = client.get("/scan?lang=es")
    assert spanish.headers["Content-Language"] == "es"
    assert '<html lang="es"' in spanish.get_data(as_text=True)
    # The switcher on a page asked in a language returns to the page without it.
    assert 'name="next" value="/scan"' in spanish.get_data(as_text=True)
    chosen = client.get("/scan")
    assert chosen.headers["Content-Language"] == "it"
    assert client.get("/scan?lang=xx").headers["Content-Language"] == "it"


def test_the_phones_roster_carries_each_events_words_in_every_language(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    new_event(client, "athkri")
    post_form(client, "/language", {"lang": "it", "next": "/events"}, page="/events")
    kit = client.get("/api/v1/roster").json["events"][0]
    assert set(kit["languages"]) == {"it", "es", "en"}
    assert kit["languages"]["es"]["words"]["wounds"]["grievous"]["word"] == "Malherido"
    assert kit["languages"]["en"]["words"]["quantities"]["hp"]["name"] == (
        "Puntos de Salud (health)"
    )
    # The page's language at the top, as before.
    assert kit["words"] == kit["languages"]["it"]["words"]
    assert kit["statuses"] == kit["languages"]["it"]["statuses"]


def test_an_answer_to_a_poll_in_flight_does_not_undo_a_language_just_chosen(app, client):
    make_user(app, "remo", "referee")
    log_in(client, "remo")
    post_form(client, "/language", {"lang": "it", "next": "/scan"}, page="/scan")
    before = client.get_cookie("session").value  # what a poll on its way carries
    chosen = post_form(client, "/language", {"lang": "es", "next": "/scan"}, page="/scan")
    assert session_cookies(chosen)
    # The poll's answer arrives after the choice: it signs nothing again.
    client.set_cookie("session", before)
    polled = client.get("/api/v1/me")
    assert polled.status_code == 200
    assert session_cookies(polled) == []


def test_a_cookie_signed_over_an_hour_ago_is_signed_again(app, client, monkeypatch):
    make_user(app, "remo", "referee")
    log_in(client, "remo")
    assert session_cookies(client.get("/api/v1/me")) == []  # just signed
    later = time.time() + security.FRESH_COOKIE.total_seconds() + 60
    monkeypatch.setattr(security.time, "time", lambda: later)
    assert session_cookies(client.get("/api/v1/me"))  # the session slides on


def test_a_roster_delta_sends_an_events_kit_only_when_the_phone_does_not_hold_it(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    new_event(client, "ex-nihilo")
    whole = client.get("/api/v1/roster").json
    kit = whole["events"][0]
    assert kit["ruleset"] == "ex-nihilo" and len(kit["kit"]) == 16
    since = whole["version"]
    # Something changes (a character is added): the delta names the kit the phone holds.
    made = client.post(
        "/api/v1/events/1/characters",
        json=data_sheet(),
        headers={"X-CSRFToken": csrf_token(client, "/events")},
    )
    assert made.status_code in (200, 201), made.json
    held = client.get("/api/v1/roster", query_string={"since": since, "kits": kit["kit"]}).json
    assert held["full"] is False and held["events"] == [{"id": 1, "kit": kit["kit"]}]
    # Not named as held (or another digest): the whole kit.
    other = client.get("/api/v1/roster", query_string={"since": since, "kits": "0" * 16}).json
    assert other["events"][0]["languages"] == kit["languages"]
    # New settings make a new kit: sent whole, though the old one is named.
    with app.app_context():
        event = db.session.get(Event, 1)
        change_settings(event, {**(event.settings or {}), "turn_seconds": 2})
        db.session.commit()
    after = client.get("/api/v1/roster", query_string={"since": since, "kits": kit["kit"]}).json
    assert after["events"][0]["kit"] != kit["kit"] and after["events"][0]["turn_seconds"] == 2
