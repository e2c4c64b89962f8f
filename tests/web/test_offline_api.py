"""The offline referee app, server side: the phone's roster, the outbox's sync, the installable
app (manifest, icons, service worker), a lost phone logged out, the roster's maximum age."""

import io
import json
import re
import shutil
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from PIL import Image

from larp_app.extensions import db
from larp_app.models import Character, Entry, RefusedEntry
from larp_app.reads.roster import badge_hash
from larp_app.rules import format_instant, parse_instant
from larp_app.services.clock import now_utc

from .helpers import csrf_token, data_sheet, log_in, make_user, post_form
from .test_api import auth, entry
from .test_badges_api import badge_of
from .test_organiser_pages import settings_form

SHEET = data_sheet()
VERSION = re.compile(r'const VERSION = "([0-9a-f]+)";')
PRECACHE = re.compile(r"const PRECACHE = (\[.*?\]);", re.S)


@pytest.fixture
def api(tokens):
    """The shared API tokens, as Authorization headers."""
    return {role: auth(token) for role, token in tokens.items()}


@pytest.fixture
def cast(client, api):
    """An event with two characters, each with a badge; returns (event id, character ids)."""
    event = client.post(
        "/api/v1/events", json={"name": "Notte", "ruleset": "ex-nihilo"}, headers=api["organiser"]
    )
    assert event.status_code == 201, event.json
    made = client.post(
        f"/api/v1/events/{event.json['id']}/characters",
        json=[SHEET, {**SHEET, "character": "Bruno"}],  # one file names each character once
        headers=api["organiser"],
    )
    assert made.status_code == 201, made.json
    return event.json["id"], [c["id"] for c in made.json["characters"]]


@pytest.fixture
def organiser(app):
    """The organiser's browser, logged in."""
    make_user(app, "olga", "organiser")
    browser = app.test_client()
    assert log_in(browser, "olga").status_code == 302
    return browser


def queued(character_id, kind, seconds_ago=0, **fields):
    """An outbox item as the phone sends it: the entry, its character, when it is sent."""
    return {
        "character": character_id,
        **entry(kind, seconds_ago, **fields),
        "sent_at": format_instant(now_utc()),
    }


def sync(client, items, headers=None):
    return client.post("/api/v1/sync", json={"entries": items}, headers=headers or {})


def count(app, model):
    with app.app_context():
        return db.session.query(model).count()


def refused_rows(app):
    with app.app_context():
        return [
            (r.client_id, r.character_id, r.code, r.message, r.fields["kind"])
            for r in db.session.scalars(db.select(RefusedEntry).order_by(RefusedEntry.id))
        ]


# --- the phone's roster ---------------------------------------------------------------------


def test_the_phone_roster_holds_badge_hashes_and_never_a_secret_or_short_code(
    app, client, api, cast
):
    event_id, characters = cast
    answer = client.get("/api/v1/roster", headers=api["referee"])
    assert answer.status_code == 200
    text = answer.get_data(as_text=True)
    for character_id in characters:
        secret, code = badge_of(app, character_id)
        for shown in (secret, code, code.replace("-", "")):
            assert shown not in text, f"{shown} of character {character_id} is in the roster"
        assert answer.json["badges"][badge_hash(event_id, secret)] == character_id
        assert answer.json["badges"][badge_hash(event_id, code)] == character_id
    assert len(answer.json["badges"]) == 2 * len(characters)
    assert [c["id"] for c in answer.json["characters"]] == characters
    assert [(e["id"], e["roster_max_age_minutes"]) for e in answer.json["events"]] == [
        (event_id, 30)
    ]


def test_the_phone_roster_holds_no_player_link(app, client, api, cast):
    with app.app_context():
        links = [db.session.get(Character, c).player_secret for c in cast[1]]
    text = client.get("/api/v1/roster", headers=api["referee"]).get_data(as_text=True)
    assert all(link and link not in text for link in links)


def test_a_revoked_badge_leaves_the_phone_roster(app, client, api, cast):
    event_id, (character_id, _other) = cast
    old_secret, old_code = badge_of(app, character_id)
    reissued = client.post(f"/api/v1/characters/{character_id}/badge", headers=api["organiser"])
    assert reissued.status_code == 201
    badges = client.get("/api/v1/roster", headers=api["referee"]).json["badges"]
    assert badge_hash(event_id, old_secret) not in badges
    assert badge_hash(event_id, old_code) not in badges
    assert badges[badge_hash(event_id, reissued.json["secret"])] == character_id
    assert badges[badge_hash(event_id, reissued.json["short_code"])] == character_id
    assert len(badges) == 4


def test_a_stranger_gets_no_phone_roster(client, cast):
    answer = client.get("/api/v1/roster")
    assert (answer.status_code, answer.json["error"]) == (401, "unauthorized")


# --- the outbox's sync ----------------------------------------------------------------------


@pytest.mark.both_databases
def test_a_referees_outbox_sent_twice_stores_each_entry_once(app, client, api, cast):
    first, second = cast[1]
    outbox = [
        queued(first, "note", 300, text="ha visto il ladro"),
        queued(first, "hit", 200, pierce=True),
        queued(second, "spend_energy", 100, amount=1),
    ]
    sent = sync(client, outbox, api["referee"])
    assert sent.status_code == 200, sent.json
    assert [(r["id"], r["status"]) for r in sent.json["results"]] == [
        (item["id"], "stored") for item in outbox
    ]
    assert count(app, Entry) == 3
    again = sync(client, outbox, api["referee"])
    assert again.status_code == 200, again.json
    assert [(r["id"], r["status"]) for r in again.json["results"]] == [
        (item["id"], "duplicate") for item in outbox
    ]
    assert [r["entry"] for r in again.json["results"]] == [r["entry"] for r in sent.json["results"]]
    assert count(app, Entry) == 3
    assert again.json["results"][1]["state"]["hp"] == 2


def test_a_phone_clock_three_minutes_fast_has_its_entry_placed_by_the_server_clock(
    client, api, cast
):
    before = now_utc()
    phone_now = before + timedelta(minutes=3)
    item = {
        "character": cast[1][0],
        "id": str(uuid.uuid4()),
        "kind": "hit",
        "pierce": True,
        "at": format_instant(phone_now - timedelta(seconds=30)),  # 30 s ago by the phone
        "sent_at": format_instant(phone_now),
    }
    answer = sync(client, [item], api["referee"])
    after = now_utc()
    result = answer.json["results"][0]
    assert result["status"] == "stored", result
    placed = parse_instant(result["entry"]["at"])
    assert before - timedelta(seconds=30) <= placed <= after - timedelta(seconds=30)


def test_an_entry_that_became_impossible_is_refused_in_words_kept_and_shown_on_the_board(
    app, client, api, cast, organiser
):
    event_id, (character_id, _other) = cast
    killed = client.post(
        f"/api/v1/characters/{character_id}/entries",
        json=entry("kill", 60),
        headers=api["organiser"],
    )
    assert killed.status_code == 201
    hit = queued(character_id, "hit", 30, pierce=True)  # logged offline after the kill
    answer = sync(client, [hit], api["referee"])
    assert answer.status_code == 200
    assert answer.json["results"] == [
        {"id": hit["id"], "status": "refused", "code": "dead", "message": "the character is dead"}
    ]
    assert refused_rows(app) == [(hit["id"], character_id, "dead", "the character is dead", "hit")]
    assert count(app, Entry) == 1
    page = organiser.get(f"/events/{event_id}/board").get_data(as_text=True)
    shown = page[page.index('class="board-refused"') : page.index('class="board-recent"')]
    assert f'data-refused="{hit["id"]}"' in shown
    assert "the character is dead" in shown and "referee-1" in shown
    live = organiser.get(f"/events/{event_id}/board.json").json["refused"]
    assert [(r["id"], r["code"], r["author"]) for r in live] == [(hit["id"], "dead", "referee-1")]


def test_a_refused_entry_sent_again_gets_the_same_answer_and_is_listed_once(app, client, api, cast):
    character_id = cast[1][0]
    url = f"/api/v1/characters/{character_id}/entries"
    assert client.post(url, json=entry("kill", 60), headers=api["organiser"]).status_code == 201
    hit = queued(character_id, "hit", 30, pierce=True)
    first = sync(client, [hit], api["referee"]).json["results"]
    again = sync(client, [hit], api["referee"]).json["results"]
    assert again == first and first[0]["code"] == "dead"
    assert len(refused_rows(app)) == 1


def test_a_referee_cannot_revive_through_sync_but_an_organiser_can(app, client, api, cast):
    character_id = cast[1][0]
    url = f"/api/v1/characters/{character_id}/entries"
    assert client.post(url, json=entry("kill", 60), headers=api["organiser"]).status_code == 201
    revive = queued(character_id, "revive", 30, hp=2)
    answer = sync(client, [revive], api["referee"])
    assert answer.json["results"] == [
        {
            "id": revive["id"],
            "status": "refused",
            "code": "forbidden",
            "message": "only organisers may revive",
        }
    ]
    assert [row[2:] for row in refused_rows(app)] == [
        ("forbidden", "only organisers may revive", "revive")
    ]
    state = client.get(f"/api/v1/characters/{character_id}/state", headers=api["referee"])
    assert state.json["wound"] == "dead"
    by_organiser = sync(client, [queued(character_id, "revive", 20, hp=2)], api["organiser"])
    assert by_organiser.json["results"][0]["status"] == "stored"
    assert by_organiser.json["results"][0]["state"]["wound"] == "ok"


def test_more_than_200_items_are_refused_naming_the_entries_field(app, client, api, cast):
    outbox = [queued(cast[1][i % 2], "note", text=f"n. {i}") for i in range(201)]
    answer = sync(client, outbox, api["referee"])
    assert (answer.status_code, answer.json["error"]) == (422, "invalid")
    assert answer.json["fields"] == {"entries": "must hold at most 200 items, got 201"}
    assert count(app, Entry) == 0


def test_a_body_without_an_entries_list_is_refused_naming_it(client, api):
    answer = client.post("/api/v1/sync", json={"entry": []}, headers=api["referee"])
    assert (answer.status_code, list(answer.json["fields"])) == (422, ["entries"])


def test_an_item_for_an_unknown_character_answers_so_and_stores_nothing(app, client, api, cast):
    item = queued(999_999, "note", text="chi è costui?")
    answer = sync(client, [item], api["referee"])
    assert answer.status_code == 200
    assert answer.json["results"] == [{"id": item["id"], "status": "unknown_character"}]
    assert (count(app, Entry), count(app, RefusedEntry)) == (0, 0)


def test_sync_from_a_browser_session_needs_the_csrf_header(app, cast):
    make_user(app, "rita", "referee")
    phone = app.test_client()
    log_in(phone, "rita")
    item = queued(cast[1][0], "note", text="dal telefono")
    without = sync(phone, [item])
    assert (without.status_code, without.json["error"]) == (400, "csrf")
    assert count(app, Entry) == 0
    me = phone.get("/api/v1/me").json
    assert (me["username"], me["role"]) == ("rita", "referee")
    answer = sync(phone, [item], {"X-CSRFToken": me["csrf_token"]})
    assert answer.status_code == 200
    assert answer.json["results"][0]["status"] == "stored"


def test_sync_with_a_bearer_token_needs_no_csrf_header(app, client, api, cast):
    answer = sync(client, [queued(cast[1][0], "note", text="via token")], api["referee"])
    assert answer.status_code == 200
    assert answer.json["results"][0]["status"] == "stored"
    assert count(app, Entry) == 1


# --- the installable app --------------------------------------------------------------------


def test_the_manifest_is_a_web_app_manifest_that_opens_the_scanner_standalone(client):
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    manifest = json.loads(answer.get_data(as_text=True))
    assert (manifest["start_url"], manifest["display"]) == ("/scan", "standalone")
    assert manifest["name"] and manifest["short_name"]
    assert [(i["src"], i["sizes"], i["type"]) for i in manifest["icons"]] == [
        ("/icons/192.png", "192x192", "image/png"),
        ("/icons/512.png", "512x512", "image/png"),
    ]


@pytest.mark.parametrize("size", [192, 512])
def test_each_icon_is_a_png_of_its_size(client, size):
    answer = client.get(f"/icons/{size}.png")
    assert (answer.status_code, answer.mimetype) == (200, "image/png")
    with Image.open(io.BytesIO(answer.data)) as image:
        assert (image.format, image.size) == ("PNG", (size, size))


def test_an_icon_size_not_offered_is_not_found(client):
    assert client.get("/icons/100.png").status_code == 404


def test_the_service_worker_is_javascript_allowed_to_control_the_whole_site(app, client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Service-Worker-Allowed"] == "/"
    precache = json.loads(PRECACHE.search(answer.get_data(as_text=True)).group(1))
    assert "/static/vendor/barcode-detector/zxing_reader.wasm" in precache
    assert "/static/vendor/barcode-detector/ponyfill.js" in precache
    assert "/static/js/console/main.js" in precache
    static = Path(app.static_folder)
    scripts = {f"/static/{p.relative_to(static).as_posix()}" for p in (static / "js").rglob("*.js")}
    assert scripts and scripts <= set(precache)


@pytest.mark.parametrize(
    "name", ["js/console/main.js", "vendor/barcode-detector/zxing_reader.wasm"]
)
def test_the_service_workers_version_changes_with_a_precached_files_bytes(
    app, client, tmp_path, name
):
    static = tmp_path / "static"
    shutil.copytree(app.static_folder, static)
    app.static_folder = str(static)  # this test's app only: the checkout stays untouched

    def version():
        return VERSION.search(client.get("/sw.js").get_data(as_text=True)).group(1)

    first = version()
    assert version() == first
    changed = static / name
    changed.parent.mkdir(parents=True, exist_ok=True)
    with changed.open("ab") as file:
        file.write(b"\n")
    assert version() != first


# --- a lost phone ---------------------------------------------------------------------------


def test_logging_out_every_phone_of_a_referee_refuses_their_next_api_call(app, organiser):
    rita = make_user(app, "rita", "referee")
    phone = app.test_client()
    log_in(phone, "rita")
    assert phone.get("/api/v1/me").status_code == 200
    assert phone.get("/api/v1/roster").status_code == 200
    ended = post_form(organiser, f"/users/{rita}/sessions/end", {}, page="/users")
    assert ended.status_code == 302
    for url in ("/api/v1/me", "/api/v1/roster"):
        answer = phone.get(url)
        assert (answer.status_code, answer.json["error"]) == (401, "unauthorized"), url
    assert phone.get("/scan").status_code == 302
    assert log_in(phone, "rita").status_code == 302  # the referee may log in again


def test_a_referee_cannot_log_out_another_referees_phones(app, client):
    make_user(app, "rita", "referee")
    remo = make_user(app, "remo", "referee")
    remos_phone = app.test_client()
    log_in(remos_phone, "remo")
    log_in(client, "rita")
    token = csrf_token(client, "/referee/")
    answer = client.post(f"/users/{remo}/sessions/end", data={"csrf_token": token})
    assert answer.status_code == 403
    assert remos_phone.get("/api/v1/me").status_code == 200


# --- the roster's maximum age ---------------------------------------------------------------


@pytest.fixture
def event_url(organiser):
    answer = post_form(
        organiser, "/events", {"name": "Notte", "ruleset": "ex-nihilo"}, page="/events"
    )
    assert answer.status_code == 302
    return answer.headers["Location"]


def max_age_on_phones(browser):
    return [e["roster_max_age_minutes"] for e in browser.get("/api/v1/roster").json["events"]]


def test_the_settings_form_stores_the_rosters_maximum_age(organiser, event_url):
    form = settings_form(organiser, event_url)
    assert form["roster_max_age_minutes"] == "30"
    form["roster_max_age_minutes"] = "90"
    page = f"{event_url}/settings"
    assert post_form(organiser, page, form, page=page).status_code == 302
    assert settings_form(organiser, event_url)["roster_max_age_minutes"] == "90"
    assert max_age_on_phones(organiser) == [90]


def test_a_rosters_maximum_age_of_zero_is_refused_naming_the_field(organiser, event_url):
    form = settings_form(organiser, event_url)
    form["roster_max_age_minutes"] = "0"
    page = f"{event_url}/settings"
    answer = post_form(organiser, page, form, page=page)
    assert answer.status_code == 422
    html = answer.get_data(as_text=True)
    error = re.search(r'id="err-roster_max_age_minutes">([^<]*)<', html)
    assert error and "must be 1–1440, got 0" in error.group(1)
    assert max_age_on_phones(organiser) == [30]
