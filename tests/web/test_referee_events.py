"""The events a referee works: an organiser ticks referees on the event's page; a referee
ticked for no event works every open one; one ticked gets only those events on the phone,
and the badge lookup, the scanner, the console and entries refuse the others, naming them."""

import pytest

from larp_app.extensions import db
from larp_app.models import Event, RefereeEvent
from larp_app.services.assignments import assign_referees

from .helpers import csrf_token, data_sheet, log_in, make_user
from .test_api import auth, entry
from .test_badges_api import badge_of

SHEET = data_sheet()


@pytest.fixture
def api(tokens):
    return {role: auth(token) for role, token in tokens.items()}


@pytest.fixture
def two_events(client, api):
    """Two events of one character each: {name: (event id, character id)}."""
    made = {}
    for name in ("Notte", "Alba"):
        event = client.post(
            "/api/v1/events", json={"name": name, "ruleset": "ex-nihilo"}, headers=api["organiser"]
        ).json["id"]
        answer = client.post(
            f"/api/v1/events/{event}/characters", json=[SHEET], headers=api["organiser"]
        )
        made[name] = (event, answer.json["characters"][0]["id"])
    return made


def assign(app, event_id, username):
    with app.app_context():
        from larp_app.models import User

        user = db.session.scalar(db.select(User).where(User.username == username))
        assign_referees(db.session.get(Event, event_id), {user.id})
        db.session.commit()


def roster_events(client, headers, **params):
    answer = client.get("/api/v1/roster", headers=headers, query_string=params)
    assert answer.status_code == 200, answer.json
    return {e["name"] for e in answer.json["events"]}, {
        c["event_id"] for c in answer.json["characters"]
    }


def test_a_referee_assigned_to_no_event_gets_every_open_event(client, api, two_events):
    names, events = roster_events(client, api["referee"])
    assert names == {"Notte", "Alba"}
    assert events == {two_events["Notte"][0], two_events["Alba"][0]}


def test_a_referee_assigned_to_one_event_gets_only_it_on_the_phone(app, client, api, two_events):
    notte, _ = two_events["Notte"]
    assign(app, notte, "referee-1")
    names, events = roster_events(client, api["referee"])
    assert (names, events) == ({"Notte"}, {notte})


def test_a_new_assignment_makes_the_phone_fetch_its_roster_whole(app, client, api, two_events):
    first = client.get("/api/v1/roster", headers=api["referee"])
    assign(app, two_events["Alba"][0], "referee-1")
    again = client.get(
        "/api/v1/roster",
        headers={**api["referee"], "If-None-Match": first.headers["ETag"]},
        query_string={"since": first.json["version"]},
    )
    assert again.status_code == 200
    assert again.json["full"] is True
    assert {e["name"] for e in again.json["events"]} == {"Alba"}


def test_asking_for_an_event_not_worked_is_refused_naming_it(app, client, api, two_events):
    assign(app, two_events["Notte"][0], "referee-1")
    answer = client.get(
        "/api/v1/roster", headers=api["referee"], query_string={"event": two_events["Alba"][0]}
    )
    assert answer.status_code == 403
    assert answer.json["error"] == "not_your_event"
    assert "Alba" in answer.json["message"]


def test_state_console_entries_and_badge_of_another_event_are_refused(app, client, api, two_events):
    assign(app, two_events["Notte"][0], "referee-1")
    alba = two_events["Alba"][1]
    refused = [
        client.get(f"/api/v1/characters/{alba}/state", headers=api["referee"]),
        client.post(
            f"/api/v1/characters/{alba}/entries",
            json=entry("note", text="x"),
            headers=api["referee"],
        ),
        client.get(f"/api/v1/badges/{badge_of(app, alba)[0]}", headers=api["referee"]),
    ]
    for answer in refused:
        assert answer.status_code == 403, answer.json
        assert answer.json["error"] == "not_your_event"
        assert "Alba" in answer.json["message"]
    notte = two_events["Notte"][1]
    assert (
        client.get(f"/api/v1/characters/{notte}/state", headers=api["referee"]).status_code == 200
    )


def test_an_outbox_entry_for_another_event_is_refused_in_words_and_not_stored(
    app, client, api, two_events
):
    assign(app, two_events["Notte"][0], "referee-1")
    alba = two_events["Alba"][1]
    sent = {**entry("note", text="x"), "character": alba, "sent_at": entry("note")["at"]}
    answer = client.post("/api/v1/sync", json={"entries": [sent]}, headers=api["referee"])
    (result,) = answer.json["results"]
    assert (result["status"], result["code"]) == ("refused", "not_your_event")
    assert "Alba" in result["message"]
    log = client.get(f"/api/v1/characters/{alba}/entries", headers=api["organiser"]).json
    assert log["entries"] == []


def test_an_organiser_works_every_event_whatever_is_ticked(app, client, api, two_events):
    names, _ = roster_events(client, api["organiser"])
    assert names == {"Notte", "Alba"}


def test_the_console_and_scanner_pages_of_another_event_say_which_event(app, two_events):
    make_user(app, "rita", "referee")
    assign(app, two_events["Notte"][0], "rita")
    browser = app.test_client()
    assert log_in(browser, "rita").status_code == 302
    alba_event, alba = two_events["Alba"]
    for url in (f"/console/{alba}", f"/scan?event={alba_event}", f"/referee/events/{alba_event}"):
        page = browser.get(url)
        assert page.status_code == 403, url
        assert "Alba" in page.get_data(as_text=True)
    assert browser.get(f"/console/{two_events['Notte'][1]}").status_code == 200
    events_page = browser.get("/referee/").get_data(as_text=True)
    assert "Notte" in events_page and "Alba" not in events_page


def test_the_organiser_ticks_the_referees_of_an_event_on_its_page(app, two_events):
    make_user(app, "olga", "organiser")
    rita = make_user(app, "rita", "referee")
    make_user(app, "remo", "referee")
    browser = app.test_client()
    assert log_in(browser, "olga").status_code == 302
    notte = two_events["Notte"][0]
    page = browser.get(f"/events/{notte}").get_data(as_text=True)
    assert 'name="referee"' in page and "rita" in page and "remo" in page
    token = csrf_token(browser, f"/events/{notte}")
    saved = browser.post(
        f"/events/{notte}/referees", data={"csrf_token": token, "referee": [str(rita)]}
    )
    assert saved.status_code == 303
    with app.app_context():
        rows = db.session.execute(db.select(RefereeEvent.user_id, RefereeEvent.event_id)).all()
    assert rows == [(rita, notte)]
    cleared = browser.post(f"/events/{notte}/referees", data={"csrf_token": token})
    assert cleared.status_code == 303
    with app.app_context():
        assert db.session.execute(db.select(RefereeEvent)).all() == []


def test_ticking_without_the_csrf_token_or_a_stranger_changes_nothing(app, two_events):
    make_user(app, "olga", "organiser")
    rita = make_user(app, "rita", "referee")
    browser = app.test_client()
    assert log_in(browser, "olga").status_code == 302
    notte = two_events["Notte"][0]
    assert browser.post(f"/events/{notte}/referees", data={"referee": [str(rita)]}).status_code in (
        400,
        403,
    )
    token = csrf_token(browser, f"/events/{notte}")
    organiser_id = make_user(app, "otto", "organiser")
    answer = browser.post(
        f"/events/{notte}/referees", data={"csrf_token": token, "referee": [str(organiser_id)]}
    )
    assert answer.status_code == 303
    assert "not a referee" in browser.get(f"/events/{notte}").get_data(as_text=True)
    with app.app_context():
        assert db.session.execute(db.select(RefereeEvent)).all() == []
