"""An acknowledged entry counts: an entry that later stops counting is told to its author;
one id is one entry; a refusal is kept once and answered alike on both paths; a database
that cannot be reached gets a 503; an entry past the event's window waits for an organiser."""

import logging
from datetime import timedelta

import pytest

from larp_app import create_app
from larp_app.extensions import db
from larp_app.models import Entry, RefusedEntry
from larp_app.rules import format_instant, parse_instant
from larp_app.services.clock import now_utc
from larp_app.services.users import create_user

from .helpers import data_sheet, log_in, make_user, post_form
from .test_api import auth, entry
from .test_organiser_pages import settings_form

pytestmark = pytest.mark.both_databases

SHEET = data_sheet()


@pytest.fixture
def api(app):
    """Tokens of an organiser and two referees, as Authorization headers, by name."""
    with app.app_context():
        made = {
            name: create_user(name, role)[2]
            for name, role in (("olga", "organiser"), ("rita", "referee"), ("remo", "referee"))
        }
        db.session.commit()
    return {name: auth(token) for name, token in made.items()}


@pytest.fixture
def event_id(client, api):
    answer = client.post(
        "/api/v1/events", json={"name": "Notte", "ruleset": "ex-nihilo"}, headers=api["olga"]
    )
    return answer.json["id"]


@pytest.fixture
def characters(client, api, event_id):
    made = client.post(
        f"/api/v1/events/{event_id}/characters",
        json=[SHEET, {**SHEET, "character": "Bruno"}],  # one file names each character once
        headers=api["olga"],
    )
    return [c["id"] for c in made.json["characters"]]


def post(client, headers, character_id, body):
    return client.post(f"/api/v1/characters/{character_id}/entries", json=body, headers=headers)


def sync(client, headers, *items):
    return client.post("/api/v1/sync", json={"entries": list(items)}, headers=headers)


def queued(character_id, body, sent_ago=0):
    """An outbox item: the entry, its character, and the phone's clock when sent."""
    sent = format_instant(now_utc() - timedelta(seconds=sent_ago))
    return {"character": character_id, **body, "sent_at": sent}


def test_a_late_offline_kill_voids_an_earlier_hit_and_the_hit_author_is_told_until_dismissed(
    client, api, characters
):
    victim = characters[0]
    hit = entry("hit", 120)
    assert post(client, api["rita"], victim, hit).status_code == 201
    kill = entry("kill", 300, reason="ambush")  # logged offline before the hit, sent now
    answer = sync(client, api["remo"], queued(victim, kill))
    assert answer.json["results"][0]["status"] == "stored"
    assert answer.json["conflicts"] == []  # remo's own entries all count

    state = client.get(f"/api/v1/characters/{victim}/state", headers=api["rita"]).json
    [told] = state["your_conflicts"]
    assert (told["id"], told["kind"], told["code"]) == (hit["id"], "hit", "dead")
    assert told["message"] == "the character is dead"
    assert (told["because"]["id"], told["because"]["kind"], told["because"]["author"]) == (
        kill["id"],
        "kill",
        "remo",
    )
    assert (
        client.get(f"/api/v1/characters/{victim}/state", headers=api["remo"]).json["your_conflicts"]
        == []
    )
    listed = sync(client, api["rita"]).json["conflicts"]
    assert [c["id"] for c in listed] == [hit["id"]]
    assert [
        c["id"] for c in client.get("/api/v1/conflicts", headers=api["rita"]).json["conflicts"]
    ] == [hit["id"]]

    told = client.get(f"/api/v1/characters/{victim}/state", headers=api["rita"])
    dismissed = client.post(f"/api/v1/conflicts/{hit['id']}/dismiss", headers=api["rita"])
    assert dismissed.status_code == 204
    polled = client.get(  # a phone holding the told state learns that it is gone
        f"/api/v1/characters/{victim}/state",
        headers={**api["rita"], "If-None-Match": told.headers["ETag"]},
    )
    assert (polled.status_code, polled.json["your_conflicts"]) == (200, [])
    assert sync(client, api["rita"]).json["conflicts"] == []


def test_only_its_author_dismisses_a_conflict(client, api, characters):
    hit = entry("hit", 60)
    post(client, api["rita"], characters[0], hit)
    answer = client.post(f"/api/v1/conflicts/{hit['id']}/dismiss", headers=api["remo"])
    assert (answer.status_code, answer.json["error"]) == (404, "not_found")


def test_an_online_entry_a_moment_older_than_the_last_one_is_judged_after_it(
    client, api, characters
):
    """Two referees a few seconds apart: the one stored first is never voided."""
    character = characters[0]
    for _ in range(2):  # energy 3 → 1
        assert post(client, api["rita"], character, entry("spend_energy", amount=1)).status_code
    first = post(client, api["rita"], character, entry("spend_energy", 0, amount=1))
    assert first.status_code == 201
    second = post(client, api["remo"], character, entry("spend_energy", 3, amount=1))
    assert (second.status_code, second.json["error"]) == (409, "not_enough_energy")
    state = client.get(f"/api/v1/characters/{character}/state", headers=api["rita"]).json
    assert (state["energy"], state["conflicts"], state["your_conflicts"]) == (0, [], [])


def test_the_same_id_with_other_content_is_refused_naming_both_on_either_path(
    client, api, characters
):
    heal = entry("hit", damage=1)
    assert post(client, api["rita"], characters[0], heal).status_code == 201
    changed = {**heal, "damage": 3}
    answer = post(client, api["rita"], characters[0], changed)
    assert (answer.status_code, answer.json["error"]) == (409, "id_reused")
    assert (answer.json["fields"]["stored"]["damage"], answer.json["fields"]["sent"]["damage"]) == (
        1,
        3,
    )
    assert "damage 1" in answer.json["message"] and "damage 3" in answer.json["message"]
    result = sync(client, api["rita"], queued(characters[0], changed)).json["results"][0]
    assert (result["status"], result["code"]) == ("refused", "id_reused")
    same = sync(client, api["rita"], queued(characters[0], heal)).json["results"][0]
    assert same["status"] == "duplicate"
    with client.application.app_context():
        assert db.session.query(Entry).filter_by(client_id=heal["id"]).one().fields["damage"] == 1


def test_a_refusal_is_kept_once_and_answered_alike_on_both_paths(client, api, characters):
    spend = entry("spend_energy", amount=5)  # the sheet has 3
    batch = [queued(characters[0], spend)]
    first = sync(client, api["rita"], *batch).json["results"][0]
    again = sync(client, api["rita"], *batch).json["results"][0]
    assert (first["code"], again["code"]) == ("not_enough_energy", "not_enough_energy")
    direct = post(client, api["rita"], characters[0], spend)
    assert (direct.status_code, direct.json["error"]) == (409, "not_enough_energy")
    with client.application.app_context():
        assert db.session.query(RefusedEntry).filter_by(client_id=spend["id"]).count() == 1
        assert db.session.query(Entry).filter_by(client_id=spend["id"]).count() == 0


def test_an_item_refused_as_invalid_is_stored_when_sent_again_corrected_on_either_path(
    client, api, characters
):
    hit = entry("hit")
    broken = {**queued(characters[0], hit), "sent_at": "yesterday"}
    result = sync(client, api["rita"], broken).json["results"][0]
    assert (result["status"], result["code"]) == ("refused", "invalid")
    assert "sent_at" in result["message"]
    fixed = sync(client, api["rita"], queued(characters[0], hit)).json["results"][0]
    assert fixed["status"] == "stored"
    with client.application.app_context():
        assert db.session.query(RefusedEntry).filter_by(client_id=hit["id"]).count() == 0
    other = entry("hit")
    sync(client, api["rita"], {**queued(characters[0], other), "sent_at": "yesterday"})
    assert post(client, api["rita"], characters[0], other).status_code == 201


def test_the_board_lists_a_refusal_once_in_the_organisers_language(
    app, client, api, characters, event_id
):
    spend = entry("spend_energy", amount=5)
    spanish = {**api["rita"], "Accept-Language": "es"}
    for _ in range(2):
        sync(client, spanish, queued(characters[0], spend))
    make_user(app, "oscar", "organiser")
    browser = app.test_client()
    log_in(browser, "oscar")
    board = browser.get(f"/events/{event_id}/board.json", headers={"Accept-Language": "it"}).json
    [refused] = [r for r in board["refused"] if r["id"] == spend["id"]]
    assert refused["message"] == "servono 5 punti Energia, ne ha 3"


def test_an_entry_past_the_events_window_waits_for_an_organiser_who_accepts_it(
    app, client, api, characters, event_id
):
    make_user(app, "oscar", "organiser")
    browser = app.test_client()
    log_in(browser, "oscar")
    form = {**settings_form(browser, f"/events/{event_id}"), "entry_max_age_hours": "48"}
    saved = post_form(browser, f"/events/{event_id}/settings", form)
    assert saved.status_code == 302
    weekend = queued(characters[0], entry("hit", 30 * 3600))
    assert sync(client, api["rita"], weekend).json["results"][0]["status"] == "stored"
    too_old = entry("hit", 50 * 3600)
    result = sync(client, api["rita"], queued(characters[0], too_old)).json["results"][0]
    assert (result["status"], result["code"]) == ("refused", "too_old")
    assert "48" in result["message"]

    page = browser.get(f"/events/{event_id}/board").get_data(as_text=True)
    with app.app_context():
        row = db.session.query(RefusedEntry).filter_by(client_id=too_old["id"]).one()
        refusal_id = row.id
    assert f"/refused/{refusal_id}/accept" in page
    accepted = post_form(
        browser, f"/refused/{refusal_id}/accept", {}, page=f"/events/{event_id}/board"
    )
    assert accepted.status_code == 302
    with app.app_context():
        stored = db.session.query(Entry).filter_by(client_id=too_old["id"]).one()
        assert stored.fields["author"] == "rita"  # the referee who logged it
        late = parse_instant(stored.fields["at"]) - parse_instant(too_old["at"])
        assert timedelta(0) <= late < timedelta(seconds=2)  # the phone's instant
        assert db.session.query(RefusedEntry).filter_by(client_id=too_old["id"]).count() == 0
    state = client.get(f"/api/v1/characters/{characters[0]}/state", headers=api["rita"]).json
    assert state["log_position"] == 2


def test_the_window_defaults_to_the_apps_configuration(client, api, characters):
    client.application.config["ENTRY_MAX_AGE_HOURS"] = 72
    assert post(client, api["rita"], characters[0], entry("hit", 60 * 3600)).status_code == 201


def test_a_referee_cannot_accept_a_refused_entry(app, client, api, characters, event_id):
    too_old = entry("hit", 50 * 3600)
    sync(client, api["rita"], queued(characters[0], too_old))
    with app.app_context():
        refusal_id = db.session.query(RefusedEntry).one().id
    make_user(app, "rosa", "referee")
    browser = app.test_client()
    log_in(browser, "rosa")
    answer = post_form(browser, f"/refused/{refusal_id}/accept", {})
    assert answer.status_code == 403


@pytest.mark.parametrize(
    "url",
    ["postgresql://postgres@127.0.0.1:1/test", "sqlite:////nonexistent-folder/larp.sqlite3"],
)
def test_while_the_database_cannot_be_reached_requests_get_503_and_one_log_line(url, caplog):
    down = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "x"})
    client = down.test_client()
    with client.session_transaction() as session:
        session["sid"] = "a-session-kept-on-the-server"
    with caplog.at_level(logging.WARNING):
        api = client.post("/api/v1/sync", json={"entries": []}, headers=auth("whatever"))
        page = client.get("/events")
    assert (api.status_code, api.json["error"], api.headers["Retry-After"]) == (
        503,
        "unavailable",
        "5",
    )
    assert page.status_code == 503 and page.headers["Retry-After"] == "5"
    assert "cannot reach its database" in page.get_data(as_text=True)
    lines = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(lines) == 2
    assert all(r.exc_info is None and "database unreachable" in r.getMessage() for r in lines)


def test_the_settings_form_refuses_a_window_of_no_hours_naming_the_field(app, event_id, characters):
    make_user(app, "oscar", "organiser")
    browser = app.test_client()
    log_in(browser, "oscar")
    form = {**settings_form(browser, f"/events/{event_id}"), "entry_max_age_hours": "0"}
    answer = post_form(browser, f"/events/{event_id}/settings", form)
    assert answer.status_code == 422
    assert "must be 1–720, got 0" in answer.get_data(as_text=True)


def test_an_entrys_answer_tells_its_author_of_their_voided_entries_until_dismissed(
    client, api, characters
):
    victim = characters[0]
    hit = entry("hit", 120)
    assert post(client, api["rita"], victim, hit).status_code == 201
    kill = entry("kill", 300, reason="ambush")  # logged offline before the hit, sent now
    assert sync(client, api["remo"], queued(victim, kill)).json["results"][0]["status"] == "stored"

    answer = post(client, api["rita"], victim, entry("note", text="dopo"))
    [told] = answer.json["your_conflicts"]
    assert (told["id"], told["code"], told["because"]["id"]) == (hit["id"], "dead", kill["id"])
    assert post(client, api["remo"], victim, entry("note", text="io")).json["your_conflicts"] == []

    assert client.post(f"/api/v1/conflicts/{hit['id']}/dismiss", headers=api["rita"]).status_code
    answer = post(client, api["rita"], victim, entry("note", text="visto"))
    assert (answer.status_code, answer.json["your_conflicts"]) == (201, [])


def test_an_entrys_answer_tells_of_voided_entries_when_the_log_holds_one_dated_ahead(
    client, api, characters
):
    """A phone's clock a few seconds ahead: its entry is judged at its own instant, and an
    entry logged earlier still sees it."""
    victim = characters[1]
    hit = entry("hit", 120)
    assert post(client, api["rita"], victim, hit).status_code == 201
    kill = entry("kill", 300, reason="ambush")
    assert sync(client, api["remo"], queued(victim, kill)).json["results"][0]["status"] == "stored"
    assert post(client, api["remo"], victim, entry("note", -8, text="avanti")).status_code == 201

    answer = post(client, api["rita"], victim, entry("note", 30, text="prima"))
    assert answer.status_code == 201
    assert [c["id"] for c in answer.json["your_conflicts"]] == [hit["id"]]
