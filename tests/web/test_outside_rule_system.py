"""A rule system installed with pip (tests/outside_ruleset: its own package, entry point,
catalogues, refusal code and a kind ``roll`` named like Sistema Athkri's) runs end to end with
nothing of the app edited or told of it, speaking its own words in Italian, Spanish and
English; Athkri's ``roll`` still works beside it."""

import dataclasses
import html
import importlib
import json
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from openapi_spec_validator import validate

from larp_app import rules
from larp_app.services.clock import now_utc

from .helpers import data_sheet, log_in, make_user, post_form

PACKAGE = Path(__file__).resolve().parents[1] / "outside_ruleset"
REFUSED = {
    "it": "la lanterna è già piena: non c'è niente da riaccendere (3 d'olio)",
    "es": "el farol ya está lleno: no hay nada que reavivar (3 de aceite)",
    "en": "the lantern is already full: nothing to relight (3 oil)",
}
KIND = {"it": "Tiro della lanterna", "es": "Tirada del farol", "en": "Lantern roll"}
SHEET = {"ruleset": "lanterns", "player": "Ada", "character": "Lume", "oil": 3}


@pytest.fixture(scope="session")
def pip_installed(tmp_path_factory):
    """The outside package, installed by pip into a folder of its own (built by its own
    backend: nothing downloaded)."""
    target = tmp_path_factory.mktemp("site-packages")
    pip = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index"]
    subprocess.run(
        [*pip, "--target", str(target), str(PACKAGE)],
        check=True,
        capture_output=True,
    )
    return target


@pytest.fixture
def lanterns(pip_installed):
    """The installed package on the path, found through its entry point like any other."""
    sys.path.insert(0, str(pip_installed))
    importlib.invalidate_caches()
    rules.rediscover()
    yield rules.get_ruleset("lanterns")
    sys.path.remove(str(pip_installed))
    for name in [m for m in sys.modules if m.split(".")[0] == "larp_lanterns"]:
        del sys.modules[name]
    rules.rediscover()


def entry(kind, **fields):
    return {"id": str(uuid.uuid4()), "kind": kind, "at": rules.format_instant(now_utc()), **fields}


@pytest.fixture
def lantern(lanterns, client, organiser):
    made = client.post(
        "/api/v1/events",
        json={"name": "Notte di lanterne", "ruleset": "lanterns"},
        headers=organiser,
    )
    assert made.status_code == 201, made.json
    imported = client.post(
        f"/api/v1/events/{made.json['id']}/characters", json=[SHEET], headers=organiser
    )
    assert imported.status_code == 201, imported.json
    return made.json["id"], imported.json["characters"][0]["id"]


def test_the_installed_package_is_found_through_its_entry_point(lanterns):
    assert "larp_lanterns" not in rules.Ruleset.__module__
    assert str(lanterns.package_dir).startswith(str(sys.path[0]))
    assert "lanterns" in rules.ruleset_keys()


def test_its_own_roll_is_logged_and_relights_the_lantern(client, referee, lantern):
    _, character = lantern
    url = f"/api/v1/characters/{character}/entries"
    assert client.post(url, json=entry("hit", damage=2), headers=referee).json["state"]["hp"] == 1
    relit = client.post(url, json=entry("roll", flame=5), headers=referee)
    assert relit.status_code == 201, relit.json
    assert relit.json["state"]["hp"] == 3


@pytest.mark.parametrize("language", ["it", "es", "en"])
def test_its_own_refusal_is_given_in_its_own_words(client, referee, lantern, language):
    _, character = lantern
    url = f"/api/v1/characters/{character}/entries"
    headers = {**referee, "Accept-Language": language}
    refused = client.post(url, json=entry("roll", flame=2), headers=headers)
    assert refused.status_code == 409
    assert refused.json["error"] == "already_fresh"
    assert refused.json["message"] == REFUSED[language]


@pytest.mark.parametrize("language", ["it", "es", "en"])
def test_a_phones_batch_hears_the_refusal_in_its_words(client, referee, lantern, language):
    _, character = lantern
    batch = [{**entry("roll", flame=2), "character": character}]
    answer = client.post(
        "/api/v1/sync", json={"entries": batch}, headers={**referee, "Accept-Language": language}
    )
    assert answer.status_code == 200, answer.json
    [item] = answer.json["results"]
    assert (item["status"], item["message"]) == ("refused", REFUSED[language])


@pytest.fixture
def browser(app, client):
    make_user(app, "boss", "organiser")
    log_in(client, "boss")
    return client


def speak(client, language):
    post_form(client, "/language", {"lang": language}, page="/events")


@pytest.mark.parametrize("language", ["it", "es", "en"])
def test_the_console_knows_its_kind_and_its_refusal_in_its_words(browser, lantern, language):
    _, character = lantern
    speak(browser, language)
    body = browser.get(f"/console/{character}").get_data(as_text=True)
    config = json.loads(html.unescape(re.search(r'data-config="([^"]*)"', body).group(1)))
    template = REFUSED[language].replace("(3 ", "({oil} ")
    assert config["refusals"]["already_fresh"] == template
    assert config["event"]["refusals"] == {"already_fresh": template}  # kept for offline
    [kind] = config["event"]["kinds"]
    assert (kind["key"], kind["label"]) == ("roll", KIND[language])
    assert kind["fields"][0]["label"] == {"it": "Fiamma", "es": "Llama", "en": "Flame"}[language]
    assert f'data-kind_roll="{KIND[language]}"' in body  # its roll's words, not Athkri's


@pytest.mark.parametrize("language", ["it", "es", "en"])
def test_the_board_and_the_log_say_its_kind_and_refusal_in_its_words(
    browser, client, referee, lantern, language
):
    event, character = lantern
    url = f"/api/v1/characters/{character}/entries"
    client.post(url, json=entry("hit", damage=1), headers=referee)
    client.post(url, json=entry("roll", flame=1), headers=referee)
    client.post(url, json=entry("roll", flame=1), headers=referee)  # full: refused
    speak(browser, language)
    board = " ".join(
        html.unescape(
            re.sub(r"<[^>]+>", " ", browser.get(f"/events/{event}/board").get_data(as_text=True))
        ).split()
    )
    assert f"{KIND[language]} +1" in board
    assert REFUSED[language] in board
    assert "already_fresh" not in board
    log = " ".join(
        html.unescape(
            re.sub(r"<[^>]+>", " ", browser.get(f"/characters/{character}").get_data(as_text=True))
        ).split()
    )
    assert f"{KIND[language]} +1" in log


def test_athkris_roll_still_works_beside_it(client, organiser, referee, lanterns):
    made = client.post(
        "/api/v1/events", json={"name": "Naufragio", "ruleset": "athkri"}, headers=organiser
    )
    event = made.json["id"]
    sheet = data_sheet("athkri-sheet.json")
    imported = client.post(f"/api/v1/events/{event}/characters", json=[sheet], headers=organiser)
    character = imported.json["characters"][0]["id"]
    url = f"/api/v1/characters/{character}/entries"
    on = client.post(url, json=entry("status_on", key="confundido"), headers=referee)
    assert on.status_code == 201, on.json
    rolled = client.post(url, json=entry("roll", key="confundido"), headers=referee)
    assert rolled.status_code == 201, rolled.json
    assert rolled.json["entry"]["key"] == "confundido"
    lantern_roll = client.post(url, json=entry("roll", flame=2), headers=referee)
    assert lantern_roll.status_code == 422  # read as Athkri's roll: its key is missing
    assert "key" in json.dumps(lantern_roll.json)


def test_the_openapi_document_gives_each_rule_systems_roll_its_own_fields(client, lanterns):
    schemas = client.get("/api/v1/openapi.json").json["components"]["schemas"]
    assert schemas["Entry"]["discriminator"]["mapping"]["roll"] == "#/components/schemas/Entry_roll"
    assert [r["$ref"].rsplit("/", 1)[1] for r in schemas["Entry_roll"]["oneOf"]] == [
        "Entry_roll_athkri",
        "Entry_roll_lanterns",
    ]
    assert "key" in schemas["Entry_roll_athkri"]["required"]
    assert "flame" in schemas["Entry_roll_lanterns"]["required"]
    validate(client.get("/api/v1/openapi.json").json)


class _Point:
    """An installed package's entry point, as importlib.metadata gives it."""

    def __init__(self, ruleset):
        self.ruleset = ruleset

    def load(self):
        return self.ruleset


def test_two_installed_rule_systems_of_one_key_stop_the_app_at_start_up(monkeypatch, tmp_path):
    from larp_app import create_app
    from larp_app.rules import registry

    athkri = rules.get_ruleset("athkri")
    twin = dataclasses.replace(athkri, language="en")
    monkeypatch.setattr(registry, "entry_points", lambda group: [_Point(athkri), _Point(twin)])
    rules.rediscover()
    try:
        config = {"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.db'}"}
        with pytest.raises(rules.RulesetClash, match="two rule systems are called 'athkri'"):
            create_app({**config, "PRINT_FOLDER": str(tmp_path)})
    finally:
        monkeypatch.undo()
        rules.rediscover()
    assert rules.get_ruleset("athkri") is athkri
