"""Between events: fix a sheet, re-import without duplicates, withdraw, archive,
check players in, read the report, export, and carry the survivors to the next event."""

import csv
import io
import json
import re
import uuid
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
from openpyxl import load_workbook

from larp_app.extensions import db
from larp_app.models import Badge, Character, Entry, Event, SheetChange
from larp_app.rules import format_instant, parse_instant
from larp_app.services.clock import now_utc
from tests.spreadsheets import write_csv

from .helpers import data_sheet, form_values, log_in, make_user, post_form
from .test_organiser_pages import confirm
from .test_organiser_pages import preview as upload

SHEET = data_sheet()
SHEET.pop("ruleset")


def sheet(name, **attributes):
    raw = json.loads(json.dumps(SHEET))
    raw["character"] = name
    raw["attributes"].update(attributes)
    return raw


@pytest.fixture
def organiser(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    return client


@pytest.fixture
def event_url(organiser):
    answer = post_form(
        organiser, "/events", {"name": "Notte di Ghiaccio", "ruleset": "ex-nihilo"}, page="/events"
    )
    return answer.headers["Location"]


def event_id_of(url):
    return int(url.rstrip("/").rsplit("/", 1)[1])


def import_csv(client, event_url, sheets):
    answer = upload(client, event_url, write_csv(sheets))
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert confirm(client, event_url, answer.get_data(as_text=True)).status_code == 302


def characters(app, event_id):
    with app.app_context():
        rows = db.session.scalars(
            db.select(Character).where(Character.event_id == event_id).order_by(Character.name)
        ).all()
        return {c.name: c.id for c in rows}


def api(app, client, role="organiser"):
    """Bearer headers for a fresh account of ``role``."""
    from larp_app.services.users import create_user

    with app.app_context():
        _user, _password, token = create_user(f"{role}-{uuid.uuid4().hex[:6]}", role)
        db.session.commit()
    return {"Authorization": f"Bearer {token}"}


def log_entry(client, headers, character_id, kind, **fields):
    raw = {"id": str(uuid.uuid4()), "kind": kind, "at": format_instant(now_utc()), **fields}
    return client.post(f"/api/v1/characters/{character_id}/entries", json=raw, headers=headers)


def entry_count(app, character_id):
    with app.app_context():
        return db.session.query(Entry).filter_by(character_id=character_id).count()


# 1. Editing sheets and re-importing --------------------------------------------------------


@pytest.mark.both_databases
def test_a_reimport_changing_one_field_of_one_character_updates_it_once_and_keeps_its_log(
    app, organiser, event_url
):
    event_id = event_id_of(event_url)
    import_csv(organiser, event_url, [sheet("Vera"), sheet("Bruno")])
    ids = characters(app, event_id)
    referee = api(app, organiser, "referee")
    assert log_entry(organiser, referee, ids["Vera"], "hit", damage=2).status_code == 201

    answer = upload(organiser, event_url, write_csv([sheet("Vera", corpo=20), sheet("Bruno")]))
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert re.search(r'data-change="updated".*?Vera.*?attributes\.corpo', page, re.S)
    assert page.count('data-change="unchanged"') == 1
    assert page.count('data-change="added"') == 0
    assert confirm(organiser, event_url, page).status_code == 302

    assert characters(app, event_id) == ids  # no duplicate
    assert entry_count(app, ids["Vera"]) == 1  # the log intact
    with app.app_context():
        vera = db.session.get(Character, ids["Vera"])
        assert vera.tabletop["attributes"]["corpo"] == 20
        changes = db.session.scalars(
            db.select(SheetChange).where(SheetChange.before.is_not(None))
        ).all()
        assert [(c.character_id, c.source, c.author) for c in changes] == [
            (ids["Vera"], "import", "olga")
        ]
        assert changes[0].before["attributes"]["corpo"] == 16
        assert changes[0].after["attributes"]["corpo"] == 20
    shown = organiser.get(f"/characters/{ids['Vera']}").get_data(as_text=True)
    assert "Attributes · Corpo" in shown and "olga" in shown


def test_the_same_csv_uploaded_twice_adds_nobody_the_second_time(app, organiser, event_url):
    cast = [sheet(f"Vera {i}") for i in range(5)]
    import_csv(organiser, event_url, cast)
    answer = upload(organiser, event_url, write_csv(cast))
    page = answer.get_data(as_text=True)
    assert page.count('data-change="unchanged"') == 5
    assert 'name="sheets"' not in page  # nothing to import: no button to press
    assert "No character changes" in page
    assert len(characters(app, event_id_of(event_url))) == 5


def test_a_row_with_an_id_column_updates_that_character_even_under_a_new_name(
    app, organiser, event_url
):
    import_csv(organiser, event_url, [sheet("Vera")])
    vera_id = characters(app, event_id_of(event_url))["Vera"]
    text = write_csv([sheet("Vera Lanz")])
    lines = text.split("\r\n")
    text = "\r\n".join([lines[0] + ",id", lines[1] + f",{vera_id}", *lines[2:]])
    answer = upload(organiser, event_url, text)
    assert re.search(r'data-change="updated".*?character', answer.get_data(as_text=True), re.S)
    confirm(organiser, event_url, answer.get_data(as_text=True))
    assert characters(app, event_id_of(event_url)) == {"Vera Lanz": vera_id}


def test_a_row_naming_an_id_of_no_character_of_the_event_is_an_error_by_row(organiser, event_url):
    text = write_csv([sheet("Vera")])
    lines = text.split("\r\n")
    text = "\r\n".join([lines[0] + ",id", lines[1] + ",9999", *lines[2:]])
    answer = upload(organiser, event_url, text)
    assert answer.status_code == 422
    assert "id: 9999 does not exist" in answer.get_data(as_text=True)


def test_two_rows_for_the_same_character_are_refused_by_row(app, organiser, event_url):
    import_csv(organiser, event_url, [sheet("Vera")])
    answer = upload(
        organiser,
        event_url,
        write_csv([sheet("Vera"), sheet("Vera", corpo=20), sheet("Bruno"), sheet("Bruno")]),
    )
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert page.count("Character: appears twice") == 2
    assert list(characters(app, event_id_of(event_url))) == ["Vera"]


def test_the_sheet_form_shows_each_error_at_its_field_and_saves_nothing(app, organiser, event_url):
    import_csv(organiser, event_url, [sheet("Vera")])
    vera_id = characters(app, event_id_of(event_url))["Vera"]
    url = f"/characters/{vera_id}/sheet"
    form = organiser.get(url).get_data(as_text=True)
    assert 'name="attributes.corpo" value="16"' in form
    answer = post_form(organiser, url, {**form_values(form), "attributes.corpo": "99"}, page=url)
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422
    assert 'id="err-attributes.corpo">⚠ must be 8–22, got 99' in page
    with app.app_context():
        assert db.session.get(Character, vera_id).tabletop["attributes"]["corpo"] == 16


def test_saving_the_sheet_form_recomputes_the_larp_sheet_and_records_who_changed_what(
    app, organiser, event_url
):
    import_csv(organiser, event_url, [sheet("Vera")])
    vera_id = characters(app, event_id_of(event_url))["Vera"]
    url = f"/characters/{vera_id}/sheet"
    with app.app_context():
        armour_before = db.session.get(Character, vera_id).larp["ap_max"]
    values = form_values(organiser.get(url).get_data(as_text=True))
    answer = post_form(organiser, url, {**values, "attributes.corpo": "22"}, page=url)
    assert answer.status_code == 302
    with app.app_context():
        vera = db.session.get(Character, vera_id)
        assert vera.tabletop["attributes"]["corpo"] == 22
        assert vera.tabletop["weapons"] == SHEET["weapons"]  # the lists round-trip
        assert vera.larp["ap_max"] == armour_before + 1  # more Corpo, more armour points
        change = db.session.scalars(
            db.select(SheetChange).where(SheetChange.before.is_not(None))
        ).one()
        assert (change.source, change.author) == ("form", "olga")


# 2. Withdrawing and archiving --------------------------------------------------------------


def test_a_withdrawn_characters_badge_is_refused_and_no_entry_is_logged(app, organiser, event_url):
    import_csv(organiser, event_url, [sheet("Vera")])
    vera_id = characters(app, event_id_of(event_url))["Vera"]
    post_form(organiser, f"/characters/{vera_id}/withdraw", {}, page=f"/characters/{vera_id}")
    referee = api(app, organiser, "referee")
    with app.app_context():
        code = db.session.scalars(db.select(Badge.short_code)).one()
    scan = organiser.get(f"/api/v1/badges/{code}", headers=referee)
    assert (scan.status_code, scan.json["error"]) == (404, "withdrawn")
    assert scan.json["message"] == "this character was withdrawn from the event"
    hit = log_entry(organiser, referee, vera_id, "hit")
    assert (hit.status_code, hit.json["error"]) == (409, "character_withdrawn")
    assert entry_count(app, vera_id) == 0
    with app.app_context():
        assert db.session.get(Character, vera_id) is not None  # kept


def test_a_roster_delta_tells_the_phone_to_forget_a_withdrawn_character(app, organiser, event_url):
    import_csv(organiser, event_url, [sheet("Vera"), sheet("Ugo")])
    found = characters(app, event_id_of(event_url))
    referee = api(app, organiser, "referee")
    whole = organiser.get("/api/v1/roster", headers=referee).json
    assert whole["withdrawn"] == [] and found["Vera"] in [c["id"] for c in whole["characters"]]
    post_form(organiser, f"/characters/{found['Vera']}/withdraw", {}, page="/events")
    since = whole["version"]
    delta = organiser.get("/api/v1/roster", headers=referee, query_string={"since": since}).json
    assert delta["full"] is False
    assert delta["withdrawn"] == [found["Vera"]]
    assert found["Vera"] not in [c["id"] for c in delta["characters"]]


def test_an_archived_event_refuses_entries_in_words_and_leaves_the_phone_roster(
    app, organiser, event_url
):
    import_csv(organiser, event_url, [sheet("Vera")])
    event_id = event_id_of(event_url)
    vera_id = characters(app, event_id)["Vera"]
    referee = api(app, organiser, "referee")
    assert log_entry(organiser, referee, vera_id, "hit").status_code == 201
    post_form(organiser, f"{event_url}/archive", {}, page=event_url)

    hit = log_entry(organiser, referee, vera_id, "hit")
    assert (hit.status_code, hit.json["error"]) == (409, "event_archived")
    assert hit.json["message"] == "the event is archived: nothing more can be logged"
    roster = organiser.get("/api/v1/roster", headers=referee).json
    assert event_id not in [e["id"] for e in roster["events"]]
    assert vera_id not in [c["id"] for c in roster["characters"]]
    assert roster["badges"] == {}
    kill = post_form(organiser, f"/characters/{vera_id}/kill", {}, page=f"/characters/{vera_id}")
    assert kill.status_code == 302
    page = organiser.get(f"/characters/{vera_id}").get_data(as_text=True)
    assert "the event is archived: nothing more can be logged" in page
    assert entry_count(app, vera_id) == 1  # nothing deleted, nothing added


def test_an_archived_event_refuses_a_reimport_in_words(app, organiser, event_url):
    import_csv(organiser, event_url, [sheet("Vera")])
    post_form(organiser, f"{event_url}/archive", {}, page=event_url)
    answer = upload(organiser, event_url, write_csv([sheet("Vera", corpo=20)]))
    assert answer.status_code == 422
    assert "the event is archived" in answer.get_data(as_text=True)


def test_the_api_edits_a_sheet_withdraws_and_archives(app, client):
    headers = api(app, client)
    event = client.post(
        "/api/v1/events", json={"name": "N", "ruleset": "ex-nihilo"}, headers=headers
    )
    event_id = event.json["id"]
    vera = client.post(
        f"/api/v1/events/{event_id}/characters", json=sheet("Vera"), headers=headers
    ).json["characters"][0]["id"]
    bad = client.put(
        f"/api/v1/characters/{vera}/sheet", json=sheet("Vera", corpo=99), headers=headers
    )
    assert (bad.status_code, list(bad.json["fields"])) == (422, ["attributes.corpo"])
    good = client.put(
        f"/api/v1/characters/{vera}/sheet", json=sheet("Vera", corpo=20), headers=headers
    )
    assert (good.status_code, good.json["changed"]) == (200, True)
    assert client.post(f"/api/v1/characters/{vera}/withdraw", headers=headers).json["withdrawn"]
    assert client.post(f"/api/v1/events/{event_id}/archive", headers=headers).json["archived"]
    with app.app_context():
        assert db.session.get(Event, event_id).archived_at is not None
        assert db.session.get(Character, vera).withdrawn_at is not None


def test_an_archived_event_takes_no_new_characters_nor_check_ins(app, organiser, event_url):
    import_csv(organiser, event_url, [sheet("Vera")])
    event_id = event_id_of(event_url)
    vera_id = characters(app, event_id)["Vera"]
    headers = api(app, organiser)
    assert organiser.post(f"/api/v1/events/{event_id}/archive", headers=headers).status_code == 200
    added = organiser.post(
        f"/api/v1/events/{event_id}/characters", json=sheet("Bruno"), headers=headers
    )
    assert (added.status_code, added.json["fields"]) == (
        422,
        {"event": "the event is archived: it can be read, not changed"},
    )
    post_form(organiser, f"/characters/{vera_id}/present", {}, page=f"{event_url}/checkin")
    with app.app_context():
        assert db.session.get(Character, vera_id).present_at is None
    assert list(characters(app, event_id)) == ["Vera"]


# 3. Check-in desk --------------------------------------------------------------------------


def test_the_desk_finds_a_player_by_badge_code_lists_what_to_hand_out_and_marks_present(
    app, organiser, event_url
):
    import_csv(organiser, event_url, [sheet("Vera"), sheet("Bruno")])
    ids = characters(app, event_id_of(event_url))
    with app.app_context():
        code = db.session.scalar(
            db.select(Badge.short_code).where(Badge.character_id == ids["Vera"])
        )
    page = organiser.get(f"{event_url}/checkin?q={code}").get_data(as_text=True)
    assert page.count('class="desk-card"') == 1
    assert "Vera" in page and "Bruno" not in page
    assert "Giubbotto rinforzato" in page and "Pistola" in page and "Coltello" in page
    assert "not printed yet" in page
    assert "0 of 2 present" in page
    done = post_form(
        organiser,
        f"/characters/{ids['Vera']}/present",
        {"q": code},
        page=page and f"{event_url}/checkin",
    )
    assert done.status_code == 302
    after = organiser.get(f"{event_url}/checkin").get_data(as_text=True)
    assert "1 of 2 present" in after
    board = organiser.get(f"{event_url}/board.json").json
    assert {c["name"]: c["present"] for c in board["characters"]} == {"Vera": True, "Bruno": False}
    assert "✓ present" in organiser.get(f"{event_url}/board").get_data(as_text=True)


# 4. Report and 5. exports ------------------------------------------------------------------


@pytest.fixture
def played(app, organiser, event_url):
    """Vera killed by a referee's coup de grâce after falling, Bruno healed, Ciro untouched."""
    import_csv(organiser, event_url, [sheet("Vera"), sheet("Bruno"), sheet("Ciro")])
    ids = characters(app, event_id_of(event_url))
    referee = api(app, organiser, "referee")
    for _ in range(3):
        assert log_entry(organiser, referee, ids["Vera"], "hit", damage=12).status_code == 201
    assert log_entry(organiser, referee, ids["Vera"], "coup_de_grace").status_code == 201
    assert log_entry(organiser, referee, ids["Bruno"], "hit", damage=5).status_code == 201
    assert log_entry(organiser, referee, ids["Bruno"], "heal", amount=1).status_code == 201
    return ids


def test_the_report_draws_every_chart_as_svg_and_lists_the_dead(organiser, event_url, played):
    page = organiser.get(f"{event_url}/report").get_data(as_text=True)
    for chart in (
        "chart-falls",
        "chart-per-hour",
        "chart-referees",
        "chart-statuses",
        "chart-problems",
    ):
        assert f'<svg class="chart" id="{chart}"' in page
    assert "Deaths and knock-outs over time" in page
    assert "<polyline" in page and "<rect" in page
    ended = page.split('id="ended"')[1].split('id="timelines"')[0]
    assert "Vera" in ended and "Coup de grâce" in ended and "Ciro" not in ended


def test_a_characters_timeline_draws_points_and_energy_from_the_log(organiser, played):
    page = organiser.get(f"/characters/{played['Bruno']}/timeline").get_data(as_text=True)
    assert '<svg class="chart" id="chart-timeline"' in page
    assert page.count("<polyline") == 2


def test_the_states_export_is_excel_csv_one_row_per_character_with_the_death(
    organiser, event_url, played
):
    answer = organiser.get(f"{event_url}/export/states.csv")
    assert answer.data.startswith("\ufeff".encode())
    rows = {r["Character"]: r for r in csv.DictReader(io.StringIO(answer.data.decode("utf-8-sig")))}
    assert set(rows) == {"Vera", "Bruno", "Ciro"}
    assert (rows["Vera"]["Alive"], rows["Vera"]["Died by (what)"]) == ("no", "Coup de grâce")
    assert rows["Vera"]["Died at"] and rows["Vera"]["Died by (entry)"]
    assert (rows["Ciro"]["Alive"], rows["Ciro"]["Points lost"]) == ("yes", "0")
    assert rows["Bruno"]["Alive"] == "yes"


def test_the_log_exports_list_every_entry_in_csv_and_json(organiser, event_url, played):
    log = organiser.get(f"{event_url}/export/log.csv").data.decode("utf-8-sig")
    assert len(list(csv.DictReader(io.StringIO(log)))) == 6
    data = json.loads(organiser.get(f"{event_url}/export.json").data.decode("utf-8-sig"))
    assert len(data["log"]) == 6
    assert {c["character"]: c["alive"] for c in data["characters"]} == {
        "Vera": False,
        "Bruno": True,
        "Ciro": True,
    }


# For any Excel: the reader's separator and words, local instants, .xlsx beside CSV.

ROME = ZoneInfo("Europe/Rome")
LOCAL = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")


def speak(client, lang):
    """The reader's language, chosen with the switcher."""
    client.post("/language", data={"lang": lang, "csrf_token": csrf(client)})


def csrf(client):
    page = client.get("/events").get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)


def rows(text, separator):
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=separator))


def test_an_italian_organisers_csv_splits_on_semicolons_in_words_at_local_seconds(
    organiser, event_url, played
):
    speak(organiser, "it")
    data = json.loads(organiser.get(f"{event_url}/export.json").data.decode("utf-8-sig"))
    answer = organiser.get(f"{event_url}/export/states.csv?tz=Europe/Rome")
    assert answer.data.startswith("\ufeff".encode())
    states = rows(answer.data.decode("utf-8"), ";")
    head, *body = states
    assert head[:3] == ["Id del personaggio", "Giocatore", "Personaggio"]
    by_name = {row[2]: dict(zip(head, row, strict=True)) for row in body}
    vera = by_name["Vera"]
    assert vera["Ferita"] == "morto" and vera["Vivo"] == "no"
    assert vera["Ucciso da (cosa)"].startswith("Colpo di grazia")
    died = next(c for c in data["characters"] if c["character"] == "Vera")["died_at"]
    assert LOCAL.match(vera["Morto alle"])
    expected = parse_instant(died).astimezone(ROME).strftime("%Y-%m-%d %H:%M:%S")
    assert vera["Morto alle"] == expected
    assert by_name["Ciro"]["Ferita"] == "in piedi"

    log = rows(organiser.get(f"{event_url}/export/log.csv?tz=Europe/Rome").data.decode(), ";")
    head, *body = log
    assert len(body) == 6
    entries = [dict(zip(head, row, strict=True)) for row in body]
    assert all(LOCAL.match(e["Alle"]) for e in entries)  # no T, no Z, no microseconds
    assert {e["Cosa"] for e in entries} >= {"Colpo", "Cura", "Colpo di grazia"}
    assert not any(e["Dettagli"].startswith("{") for e in entries)  # no JSON of fields

    comma = organiser.get(f"{event_url}/export/log.csv?sep=comma").data.decode()
    assert len(rows(comma, ",")[0]) == len(head)


def test_an_english_organisers_csv_splits_on_commas(organiser, event_url, played):
    speak(organiser, "en")
    text = organiser.get(f"{event_url}/export/states.csv").data.decode()
    head = rows(text, ",")[0]
    assert head[:3] == ["Character id", "Player", "Character"]
    tabbed = organiser.get(f"{event_url}/export/states.csv?sep=tab").data.decode()
    assert rows(tabbed, "\t")[0] == head


def test_the_xlsx_has_both_sheets_numbers_as_numbers_dates_as_dates_texts_never_formulas(
    app, organiser, event_url, played
):
    referee = api(app, organiser, "referee")
    trap = '=HYPERLINK("http://example.invalid","x")'
    assert log_entry(organiser, referee, played["Ciro"], "note", text=trap).status_code == 201
    speak(organiser, "es")
    answer = organiser.get(f"{event_url}/export.xlsx?tz=Europe/Rome")
    assert answer.status_code == 200
    assert answer.mimetype == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    book = load_workbook(io.BytesIO(answer.data))
    assert book.sheetnames == ["Estados finales", "Registro completo"]
    states = list(book["Estados finales"].values)
    head = states[0]
    vera = dict(zip(head, next(r for r in states if r[2] == "Vera"), strict=True))
    assert vera["Herida"] == "muerto" and vera["Vivo"] == "no"
    assert isinstance(vera["Puntos perdidos"], int)
    assert isinstance(vera["Murió a las"], datetime) and vera["Murió a las"].microsecond == 0
    log = book["Registro completo"]
    notes = [row for row in log.iter_rows(min_row=2) if row[4].value == "Nota"]
    assert [cell.value for cell in notes[0]][5] == trap
    assert notes[0][5].data_type == "s"  # a text, never run as a formula


# 6. The next event -------------------------------------------------------------------------


@pytest.mark.both_databases
def test_old_event_report_export_then_next_event_carries_the_survivors(
    app, organiser, event_url, played
):
    assert organiser.get(f"{event_url}/report").status_code == 200
    assert organiser.get(f"{event_url}/export/states.csv").status_code == 200
    form = organiser.get(f"{event_url}/continue").get_data(as_text=True)
    assert f'name="bring_back" value="{played["Vera"]}"' in form
    answer = post_form(
        organiser,
        f"{event_url}/continue",
        {"name": "Notte di Fuoco", "badges": "keep"},
        page=f"{event_url}/continue",
    )
    assert answer.status_code == 302
    new_id = event_id_of(answer.headers["Location"])
    assert set(characters(app, new_id)) == {"Bruno", "Ciro"}
    with app.app_context():
        old = db.session.get(Event, event_id_of(event_url))
        assert old.archived_at is not None
        bruno = db.session.get(Character, characters(app, new_id)["Bruno"])
        assert bruno.tabletop == db.session.get(Character, played["Bruno"]).tabletop
        assert len(bruno.badges) == 1  # the old card, kept
    assert entry_count(app, played["Vera"]) == 4  # the old event's log stays


def test_the_badge_of_a_dead_character_left_out_of_the_next_event_is_refused_saying_why(
    app, organiser, event_url, played
):
    with app.app_context():
        vera = db.session.get(Character, played["Vera"])
        code = next(b.short_code for b in vera.badges if b.revoked_at is None)
        bruno = db.session.get(Character, played["Bruno"])
        kept = next(b.short_code for b in bruno.badges if b.revoked_at is None)
    post_form(
        organiser,
        f"{event_url}/continue",
        {"name": "Notte di Fuoco", "badges": "keep"},
        page=f"{event_url}/continue",
    )
    referee = api(app, organiser, "referee")
    answer = organiser.get(f"/api/v1/badges/{code}", headers=referee)
    assert answer.status_code == 404
    assert answer.json["error"] == "dead_left_out"
    assert "died" in answer.json["message"] and "archived" not in answer.json["message"]
    assert organiser.get(f"/api/v1/badges/{kept}", headers=referee).status_code == 200


def test_a_dead_character_ticked_is_brought_back_with_new_badges(app, organiser, event_url, played):
    with app.app_context():
        old_codes = set(db.session.scalars(db.select(Badge.short_code)))
    answer = post_form(
        organiser,
        f"{event_url}/continue",
        {"name": "Notte di Fuoco", "badges": "reissue", "bring_back": str(played["Vera"])},
        page=f"{event_url}/continue",
    )
    new_id = event_id_of(answer.headers["Location"])
    assert set(characters(app, new_id)) == {"Vera", "Bruno", "Ciro"}
    with app.app_context():
        new_codes = set(
            db.session.scalars(
                db.select(Badge.short_code).join(Character).where(Character.event_id == new_id)
            )
        )
    assert len(new_codes) == 3 and not new_codes & old_codes
