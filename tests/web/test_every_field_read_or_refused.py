"""Every field is read or refused: an entry (API, /sync, the command line) or a sheet (JSON,
the API, the command line, the edit form) with a field its declaration does not name is
refused, naming the field and the nearest declared one in the reader's language, and nothing
is stored. Entries stored before keep folding as they did."""

import json
import uuid

import pytest

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character, Entry
from larp_app.services.clock import now_utc

from .helpers import data_sheet

pytestmark = pytest.mark.both_databases

NOW = "2027-03-06T15:00:00Z"  # a replay's instant


def entry(kind, **fields):
    """An entry made now (the live API refuses one far from its clock)."""
    at = rules.format_instant(now_utc())
    return {"id": str(uuid.uuid4()), "kind": kind, "at": at, **fields}


def stored(app):
    with app.app_context():
        return db.session.scalar(db.select(db.func.count(Entry.id)))


def athkri_character(client, organiser) -> int:
    """A character of a new Sistema Athkri event, made through the API: its id."""
    event = client.post(
        "/api/v1/events", json={"name": "Noche", "ruleset": "athkri"}, headers=organiser
    ).json["id"]
    sheet = data_sheet("athkri-sheet.json")
    made = client.post(f"/api/v1/events/{event}/characters", json=sheet, headers=organiser)
    return made.json["characters"][0]["id"]


WORDS = {
    "en": "dmg: is not a field of a “Hit” entry: did you mean `damage`?",
    "it": "dmg: non è un campo di una voce «Colpo»: intendevi `damage`?",
    "es": "dmg: no es un campo de una entrada «Golpe»: ¿quería decir `damage`?",
}


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_a_misspelt_field_of_a_hit_is_refused_naming_the_nearest_field_in_the_readers_language(
    app, client, referee, character_id, language
):
    answer = client.post(
        f"/api/v1/characters/{character_id}/entries",
        json=entry("hit", dmg=5),
        headers={**referee, "Accept-Language": language},
    )
    assert answer.status_code == 422, answer.json
    assert answer.json["message"] == WORDS[language]
    assert "dmg" in answer.json["fields"]
    assert stored(app) == 0


def test_the_sync_answers_a_misspelt_entry_on_its_own_and_stores_the_others(
    app, client, referee, character_id
):
    good, bad = entry("hit", damage=2), entry("heal", amout=1)
    answer = client.post(
        "/api/v1/sync",
        json={"entries": [{**good, "character": character_id}, {**bad, "character": character_id}]},
        headers=referee,
    )
    assert answer.status_code == 200, answer.json
    first, second = answer.json["results"]
    assert first["status"] == "stored"
    assert (second["status"], second["code"]) == ("refused", "invalid")
    assert "amout" in second["message"] and "`amount`" in second["message"]
    assert stored(app) == 1


def test_an_athkri_roll_reads_its_difficulty_by_the_name_the_readme_gives(
    app, client, organiser, referee
):
    character = athkri_character(client, organiser)
    url = f"/api/v1/characters/{character}/entries"
    answer = client.post(url, json=entry("dice", difficulty=18), headers=referee)
    assert answer.status_code == 201, answer.json
    assert answer.json["entry"]["difficulty"] == 18
    assert [r["target"] for r in answer.json["state"]["rolls"] if r["what"] == "dice"] == [18]
    # The name it had before is read as it: a phone's outbox kept from then still counts.
    again = client.post(url, json=entry("dice", target=15), headers=referee)
    assert again.status_code == 201, again.json
    assert again.json["entry"]["difficulty"] == 15
    wrong = client.post(url, json=entry("dice", dificultad=12), headers=referee)
    assert wrong.status_code == 422
    assert "`difficulty`" in wrong.json["message"]


def test_an_athkri_entry_stored_with_the_former_name_folds_as_it_did(
    app, client, organiser, referee
):
    """Data is forever: a 1o3d10 stored as ``target`` keeps its difficulty."""
    character = athkri_character(client, organiser)
    made = client.post(
        f"/api/v1/characters/{character}/entries",
        json=entry("dice", difficulty=17),
        headers=referee,
    ).json["entry"]
    with app.app_context():
        row = db.session.scalar(db.select(Entry).where(Entry.client_id == made["id"]))
        fields = {k: v for k, v in row.fields.items() if k != "difficulty"}
        row.fields = {**fields, "target": 17}  # as an earlier version stored it
        db.session.commit()
    state = client.get(f"/api/v1/characters/{character}/state", headers=referee).json
    assert [r["target"] for r in state["rolls"] if r["what"] == "dice"] == [17]


def test_the_command_lines_replay_refuses_a_misspelt_field(app, runner, tmp_path):
    sheet = tmp_path / "sheet.json"
    sheet.write_text(json.dumps(data_sheet()), encoding="utf-8")
    log = tmp_path / "log.json"
    log.write_text(json.dumps([entry("hit", blow=2)]), encoding="utf-8")
    result = runner.invoke(args=["log", "replay", str(sheet), str(log), "--at", NOW])
    assert result.exit_code == 2, result.output
    assert "[0].blow" in result.output and "`blows`" in result.output


def test_a_stored_entry_holding_a_field_its_kind_does_not_declare_folds_as_before_and_is_listed(
    app, client, organiser, referee, character_id
):
    """An entry that reached the database with an undeclared field (an archive, an earlier
    version, an operator's SQL) folds as it always did (the field is not read) and is listed
    for the organiser on the event's review page."""
    made = client.post(
        f"/api/v1/characters/{character_id}/entries", json=entry("hit"), headers=referee
    ).json["entry"]
    before = client.get(f"/api/v1/characters/{character_id}/state", headers=referee).json
    with app.app_context():
        row = db.session.scalar(db.select(Entry).where(Entry.client_id == made["id"]))
        row.fields = {**row.fields, "dmg": 5}
        db.session.commit()
        event_id = db.session.get(Character, character_id).event_id
    after = client.get(f"/api/v1/characters/{character_id}/state", headers=referee).json
    assert (after["hp"], after["ap"]) == (before["hp"], before["ap"])
    from .helpers import log_in, make_user

    make_user(app, "olga", "organiser")
    browser = app.test_client()
    log_in(browser, "olga")
    page = browser.get(f"/events/{event_id}/review").get_data(as_text=True)
    assert made["id"][:8] in page and "dmg" in page
    event_page = browser.get(f"/events/{event_id}").get_data(as_text=True)
    assert f"/events/{event_id}/review" in event_page


def test_every_kind_of_every_rule_system_refuses_a_field_it_does_not_declare(app, toy_ruleset):
    for ruleset in rules.ruleset_keys():
        for kind in rules.entry_kinds(ruleset):
            with pytest.raises(rules.InvalidInput) as refused:
                rules.read_entry(entry(kind.key, zzz_unknown=1), ruleset)
            [problem] = [p for p in refused.value.problems if p.path == "zzz_unknown"]
            assert problem.code in ("not_a_field_of", "no_fields"), (ruleset, kind.key)
            assert problem.params["kind"] == kind.key


# --- sheets -----------------------------------------------------------------------------------


def object_paths(node, path=""):
    """Every object of a sheet schema, with a path to it in an example sheet: the sheet, its
    groups (attributes, armour) and each list's first item (weapons[0], powers[0]...)."""
    found = [(path, node)]
    for key, sub in (node.get("properties") or {}).items():
        types = sub.get("type")
        types = [types] if isinstance(types, str) else list(types or [])
        here = f"{path}.{key}" if path else key
        if "object" in types and "properties" in sub:
            found += object_paths(sub, here)
        elif "array" in types and "properties" in (sub.get("items") or {}):
            found += object_paths(sub["items"], f"{here}[0]")
    return found


def put(sheet, path, key, value):
    """``sheet`` with ``key: value`` added to the object at ``path``."""
    target = sheet
    for name, index in rules.schema._TOKEN.findall(path):
        target = target[int(index)] if index else target[name]
    target[key] = value
    return sheet


EXAMPLES = {
    "ex-nihilo": "ex-nihilo-sheet.json",
    "athkri": "athkri-sheet.json",
}


def test_a_field_no_schema_declares_is_refused_at_every_depth_of_every_sheet(app, toy_ruleset):
    for key in rules.ruleset_keys():
        ruleset = rules.get_ruleset(key)
        document = ruleset.sheet_schema
        if document is None:
            continue
        example = document["examples"][0]
        for path, _node in object_paths(document):
            sheet = json.loads(json.dumps(example))
            try:
                put(sheet, path, "zzz_unknown", 1)
            except (KeyError, IndexError, TypeError):
                continue  # the example has no such object (no weapons, no armour)
            _larp, checker = rules.check_sheet(sheet)
            wanted = f"{path}.zzz_unknown" if path else "zzz_unknown"
            assert [p.code for p in checker.errors if p.path == wanted] == ["not_a_sheet_field"], (
                key,
                path,
            )


SHEET_WORDS = {
    "en": "Armour · weigth: is not a field of “Armour”: did you mean Weight (`weight`)?",
    "it": "Armatura · weigth: non è un campo di «Armatura»: intendevi Peso (`weight`)?",
    "es": "Armadura · weigth: no es un campo de «Armadura»: ¿quería decir Peso (`weight`)?",
}


@pytest.mark.parametrize("language", ["en", "it", "es"])
def test_a_misspelt_field_inside_the_armour_is_refused_in_the_preview_in_three_languages(
    app, language
):
    from .helpers import log_in, make_user, post_form

    make_user(app, "olga", "organiser")
    browser = app.test_client()
    log_in(browser, "olga")
    post_form(browser, "/language", {"lang": language, "next": "/events"}, page="/events")
    made = post_form(browser, "/events", {"name": "Notte", "ruleset": "ex-nihilo"}, page="/events")
    event_url = made.headers["Location"]
    sheet = data_sheet()
    sheet["armour"]["weigth"] = sheet["armour"].pop("weight")
    page = post_form(
        browser,
        f"{event_url}/import/preview",
        {"pasted": json.dumps([sheet])},
        page=f"{event_url}/import",
    )
    assert page.status_code == 422
    text = page.get_data(as_text=True)
    import html

    assert SHEET_WORDS[language] in html.unescape(text)
    assert 'name="sheets"' not in text  # nothing to confirm
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(Character.id))) == 0


def test_the_apis_import_and_sheet_refuse_an_undeclared_field_and_store_nothing(
    app, client, organiser, event_id, character_id
):
    sheet = data_sheet()
    sheet["weapons"][0]["dammage"] = 3
    answer = client.post(f"/api/v1/events/{event_id}/characters", json=sheet, headers=organiser)
    assert answer.status_code == 422
    assert "`damage`" in answer.json["fields"]["[0].weapons[0].dammage"]
    put_answer = client.put(
        f"/api/v1/characters/{character_id}/sheet",
        json={**data_sheet(), "advancement": []},
        headers=organiser,
    )
    assert put_answer.status_code == 422
    assert "`advancements`" in put_answer.json["fields"]["advancement"]
    with app.app_context():
        assert db.session.get(Character, character_id).tabletop == data_sheet()


def test_the_command_lines_import_refuses_an_undeclared_field(app, runner, tmp_path):
    from larp_app.services.events import create_event

    with app.app_context():
        event = create_event("Notte", "ex-nihilo", None)
        db.session.commit()
        event_id = event.id
    sheet = data_sheet()
    sheet["attributes"]["corpp"] = 12
    path = tmp_path / "cast.json"
    path.write_text(json.dumps([sheet]), encoding="utf-8")
    result = runner.invoke(args=["sheets", "import", str(event_id), str(path)])
    assert result.exit_code != 0
    assert "attributes.corpp" in result.output and "`corpo`" in result.output


def test_a_field_stored_before_does_not_block_the_sheet_it_is_warned_of(
    app, client, organiser, event_id, character_id
):
    """Data is forever: a sheet stored with a field no schema declares (imported when such
    fields were only warned of) is still read, re-imported, edited and re-converted by new
    settings; the field is warned of, never read. A new one is refused."""
    with app.app_context():
        character = db.session.get(Character, character_id)
        character.tabletop = {**character.tabletop, "colore": "blu"}
        db.session.commit()
    stored = {**data_sheet(), "colore": "blu"}
    again = client.post(
        f"/api/v1/events/{event_id}/characters/check", json=stored, headers=organiser
    )
    assert again.json["errors"] == []
    assert [w["code"] for w in again.json["warnings"]] == ["ignored_sheet_field"]
    changed = client.put(
        f"/api/v1/characters/{character_id}/sheet",
        json={**stored, "notes": "una cicatrice"},
        headers=organiser,
    )
    assert changed.status_code == 200, changed.json
    assert [w["code"] for w in changed.json["warnings"]] == ["ignored_sheet_field"]
    with app.app_context():
        from larp_app.services.events import change_settings

        event = db.session.get(Character, character_id).event
        change_settings(event, {"turn_seconds": 2})
        db.session.commit()
    new = client.post(
        f"/api/v1/events/{event_id}/characters/check",
        json={**stored, "colour": "red"},
        headers=organiser,
    )
    assert [e["code"] for e in new.json["errors"]] == ["not_a_sheet_field"]


def test_a_stored_event_whose_outcome_the_armour_correction_changes_is_listed_for_review(
    app, client, organiser, referee
):
    """The optional armour break, applied before to worn + Armatura points, is applied as its
    README writes it: a stored heavy-armour blow of 6 on Corpo 20 now breaks the armour and
    leaves every point. The event's review page lists the character, the blow, and the state
    as it was judged (hp 2) and as it is (hp 3)."""
    event_id = client.post(
        "/api/v1/events",
        json={
            "name": "Notte",
            "ruleset": "ex-nihilo",
            "settings": {"optional_rules": {"armour_breaks": True}},
        },
        headers=organiser,
    ).json["id"]
    sheet = data_sheet()
    sheet["attributes"]["corpo"] = 20
    sheet["armour"]["weight"] = "pesante"
    others = {**data_sheet(), "character": "Senza armatura", "armour": None}
    made = client.post(
        f"/api/v1/events/{event_id}/characters", json=[sheet, others], headers=organiser
    ).json["characters"]
    heavy, bare = made[0]["id"], made[1]["id"]
    blow = client.post(
        f"/api/v1/characters/{heavy}/entries", json=entry("hit", damage=6), headers=referee
    )
    assert (blow.json["state"]["hp"], blow.json["state"]["ap"]) == (3, 2)
    client.post(f"/api/v1/characters/{bare}/entries", json=entry("hit", damage=6), headers=referee)
    from .helpers import log_in, make_user

    make_user(app, "olga", "organiser")
    browser = app.test_client()
    log_in(browser, "olga")
    page = browser.get(f"/events/{event_id}/review").get_data(as_text=True)
    assert f'data-corrected="{heavy}"' in page and f'data-corrected="{bare}"' not in page
    assert "no longer with them plus Corpo" in page
    assert blow.json["entry"]["id"] in page
    assert "HP 2" in page and "HP 3" in page
