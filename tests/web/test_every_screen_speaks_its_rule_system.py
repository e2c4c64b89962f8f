"""Every screen of an event speaks its own rule system's words, in the reader's language.

For EX Nihilo, Sistema Athkri and the toy rule system of the tests, in Italian, Spanish and
English: the pages (console, referee's list, board, player's page, character's page, report,
end of session, settings, printed sheets) and the exports (CSV, .xlsx, JSON) show no word of
another rule system, no bare key or code, and no English sentence left untranslated.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import time
import uuid
from html.parser import HTMLParser

import pytest
from babel.messages.pofile import read_po
from openpyxl import load_workbook

from larp_app import rules
from larp_app.extensions import db
from larp_app.models import Character
from larp_app.rules import format_instant
from larp_app.rules.vocabulary import NEUTRAL
from larp_app.services.clock import now_utc

from .helpers import csrf_token, data_sheet, log_in, make_user, post_form

LANGUAGES = ("it", "es", "en")
# Ordinary words one rule system uses as a term and any text may hold: "Muerto a las 15:12"
# (died at), a Defensa figure of both sheets, a paralysis a status's description tells of.
ORDINARY = {"Muerto", "Defensa", "Parálisis"}
TOY_SHEET = {
    "ruleset": "toy",
    "player": "Ada",
    "character": "Brom the Bold",
    "faction": "Hill",
    "vigour": 4,
    "knacks": ["Juggling", "Bellowing"],
}
SHEETS = {
    "ex-nihilo": lambda: data_sheet(),
    "athkri": lambda: data_sheet("athkri-sheet.json"),
    "toy": lambda: dict(TOY_SHEET),
}
# A blow that leaves each character badly hurt but alive (Athkri: PS 4, Malherido).
BLOWS = {"ex-nihilo": 12, "athkri": 16, "toy": 4}
PAGES = (
    "/events",
    "/events/1",
    "/events/1/board",
    "/events/1/settings",
    "/events/1/import",
    "/events/1/report",
    "/events/1/end-session",
    "/events/1/print",
    "/events/1/badges",
    "/events/1/checkin",
    "/characters/1",
    "/characters/1/timeline",
    "/characters/1/sheet",
    "/console/1",
    "/referee/events/1",
    "/referee/",
    "/scan",
    "/events/1/continue",
)
EXPORTS = ("/events/1/export/states.csv", "/events/1/export/log.csv")
# snake_case words shown as text: a key or a code where words belong.
BARE_KEY = re.compile(r"(?<![\w./@-])[a-z]+(?:_[a-z0-9]+)+(?![\w.(/])")
APP_NAME = "larp_app"  # the app's own name, in every page's title
# The rule systems' own keys, shown where their names belong.
RULESET_KEY = re.compile(r"(?<![\w/-])(?:ex-nihilo|athkri|toy)(?![\w/-])")


class VisibleText(HTMLParser):
    """The text a reader sees: no tags, no attributes, no scripts, styles or templates, and
    nothing inside an element marked ``hidden``."""

    SKIPPED = frozenset({"script", "style", "template"})
    VOID = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
    )

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0  # open elements since the first skipped one

    def handle_starttag(self, tag, attrs):
        if tag in self.VOID:
            return
        if self.skipping or tag in self.SKIPPED or any(name == "hidden" for name, _ in attrs):
            self.skipping += 1

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if self.skipping and tag not in self.VOID:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def visible(html: str) -> str:
    parser = VisibleText()
    parser.feed(html)
    return re.sub(r"\s+", " ", " ".join(parser.parts))


def catalogue_names(ruleset: rules.Ruleset) -> set[str]:
    table = ruleset.shipped_table(ruleset.catalogue)
    return {text for item in table["statuses"] for text in item.get("name", {}).values()}


def own_words(key: str) -> set[str]:
    """Its terms: quantities, wound levels, own levels, derived values, conditions (not its
    name: the list of events names every rule system; nor the ordinary words of its figures)."""
    ruleset = rules.get_ruleset(key)
    vocabulary = ruleset.words()
    generic = set(vocabulary.name.values())
    generic |= {text for f in vocabulary.figures.values() for text in f.name.values()}
    return (vocabulary.every_word() - generic) | catalogue_names(ruleset)


def own_descriptions(key: str) -> set[str]:
    ruleset = rules.get_ruleset(key)
    table = ruleset.shipped_table(ruleset.catalogue)
    return {
        text
        for item in table["statuses"]
        for text in (item.get("description") or {}).values()
        if isinstance(text, str)
    }


def forbidden_words(key: str) -> set[str]:
    """Words of the other rule systems that are not also this one's or the host's neutral
    ones (the same word may belong to two: "Energia")."""
    mine = own_words(key) | NEUTRAL.every_word()
    others = set()
    for other in ("ex-nihilo", "athkri", "toy"):
        if other != key:
            others |= own_words(other)
    # Three letters or fewer (PS, EN) are abbreviations shared by many.
    return {w for w in others - mine - ORDINARY if len(w) > 3}


def untranslated(language: str) -> list[str]:
    """English sentences of the app's catalogue whose translation into ``language`` differs:
    found on a page in that language, they were left in English."""
    if language == "en":
        return []
    path = f"larp_app/translations/{language}/LC_MESSAGES/messages.po"
    with open(path, "rb") as po:
        catalogue = read_po(po)
    found = []
    for message in catalogue:
        english = message.id if isinstance(message.id, str) else message.id[0]
        text = message.string if isinstance(message.string, str) else message.string[0]
        sentence = len(english) > 14 and " " in english and "%(" not in english
        if sentence and text and english != text:
            found.append(english)
    return found


@pytest.fixture
def event(app, client, toy_ruleset, request):
    """An event of the rule system ``request.param``, one character badly hurt and under a
    condition; returns its key."""
    key = request.param
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    made = post_form(client, "/events", {"name": "Naufragio", "ruleset": key}, page="/events")
    assert made.status_code == 302, made.get_data(as_text=True)[:2000]
    sheet = SHEETS[key]()
    for step in ("preview", "confirm"):
        field = "pasted" if step == "preview" else "sheets"
        answer = post_form(
            client,
            f"/events/1/import/{step}",
            {field: json.dumps([sheet])},
            page="/events/1/import",
        )
        assert answer.status_code in (200, 302)
    ruleset = rules.get_ruleset(key)
    condition = ruleset.shipped_table(ruleset.catalogue)["statuses"][0]["key"]
    token = csrf_token(client, "/events")
    for kind, fields in (
        ("hit", {"damage": BLOWS[key], "pierce": True}),
        ("status_on", {"key": condition}),
    ):
        if kind not in rules.kinds_handled(ruleset):
            continue
        entry = {"id": str(uuid.uuid4()), "kind": kind, "at": format_instant(now_utc()), **fields}
        answer = client.post(
            "/api/v1/characters/1/entries", json=entry, headers={"X-CSRFToken": token}
        )
        assert answer.status_code == 201, answer.json
    return key


def in_language(client, language):
    post_form(client, "/language", {"lang": language, "next": "/events"})


def screens(app, client) -> dict[str, str]:
    """Every screen and export of the event as the text a reader sees."""
    shown = {}
    for page in PAGES:
        answer = client.get(page)
        assert answer.status_code == 200, page
        shown[page] = visible(answer.get_data(as_text=True))
    board = client.get("/events/1/board.json").json
    shown["/events/1/board.json"] = visible(board["html"])
    for export in EXPORTS:
        answer = client.get(export)
        assert answer.status_code == 200, export
        text = answer.get_data(as_text=True).lstrip("\ufeff")
        shown[export] = " ".join(
            " ".join(row) for row in csv.reader(io.StringIO(text), delimiter=";")
        )
    sheet = load_workbook(io.BytesIO(client.get("/events/1/export.xlsx").data), read_only=True)
    shown["/events/1/export.xlsx"] = " ".join(
        str(cell)
        for ws in sheet.worksheets
        for row in ws.iter_rows(values_only=True)
        for cell in row
        if cell is not None
    )
    with app.app_context():
        secret = db.session.get(Character, 1).player_secret
    shown["/p/…"] = visible(client.get(f"/p/{secret}").get_data(as_text=True))
    return shown


ALL = [(key, language) for key in SHEETS for language in LANGUAGES]


@pytest.mark.parametrize(("event", "language"), ALL, indirect=["event"])
def test_no_screen_shows_another_rule_systems_words(app, client, event, language):
    in_language(client, language)
    forbidden = forbidden_words(event)
    # Its own terms and texts first taken out: "Malherido (gravemente ferito)" is Athkri's
    # own, and so is a description of its conditions that tells of fear or paralysis.
    mine = sorted(own_words(event) | own_descriptions(event), key=len, reverse=True)
    found = {}
    for page, text in screens(app, client).items():
        for word in mine:
            text = text.replace(word, " ")
        found[page] = sorted(
            w for w in forbidden if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)
        )
    found = {page: words for page, words in found.items() if words}
    assert found == {}, json.dumps(found, ensure_ascii=False, indent=1)


@pytest.mark.parametrize(("event", "language"), ALL, indirect=["event"])
def test_no_screen_shows_a_bare_key_or_code(app, client, event, language):
    in_language(client, language)
    found = {}
    for page, text in screens(app, client).items():
        keys = [k for k in BARE_KEY.findall(text) if k != APP_NAME] + RULESET_KEY.findall(text)
        if keys:
            found[page] = sorted(set(keys))
    assert found == {}, json.dumps(found, ensure_ascii=False, indent=1)


@pytest.mark.parametrize(("event", "language"), ALL, indirect=["event"])
def test_no_screen_leaves_a_sentence_in_english(app, client, event, language):
    in_language(client, language)
    english = untranslated(language)
    found = {}
    for page, text in screens(app, client).items():
        left = [sentence for sentence in english if sentence in text]
        if left:
            found[page] = left
    assert found == {}, json.dumps(found, ensure_ascii=False, indent=1)


@pytest.mark.parametrize(("event", "language"), ALL, indirect=["event"])
def test_the_console_kit_names_conditions_and_wounds_in_the_readers_language(
    app, client, event, language
):
    in_language(client, language)
    page = client.get("/console/1").get_data(as_text=True)
    config = json.loads(
        __import__("html").unescape(re.search(r'data-config="([^"]*)"', page).group(1))
    )
    kit = config["event"]
    ruleset = rules.get_ruleset(event)
    names = {
        item["key"]: item["name"] for item in ruleset.shipped_table(ruleset.catalogue)["statuses"]
    }
    for status in kit["statuses"]:
        declared = names[status["key"]]
        assert status["name"] == (declared.get(language) or declared.get(ruleset.language))
    said = ruleset.words().in_language(language, ruleset.language)
    assert kit["words"] == said
    assert set(kit["words"]["quantities"]) == set(ruleset.words().quantities)


@pytest.mark.parametrize("event", ["athkri"], indirect=True)
@pytest.mark.parametrize(
    ("language", "word"),
    [("es", "Malherido"), ("it", "Malherido (gravemente ferito)"), ("en", "Malherido")],
)
def test_a_malherido_athkri_character_reads_malherido_in_the_report_and_the_export(
    app, client, event, language, word
):
    in_language(client, language)
    shown = screens(app, client)
    for page in ("/events/1/report", "/events/1/export/states.csv", "/p/…", "/characters/1"):
        assert word in shown[page], page
    assert "gravely wounded" not in " ".join(shown.values())
    assert "grievous" not in " ".join(shown.values())


@pytest.mark.parametrize("event", ["athkri"], indirect=True)
def test_the_athkri_player_page_shows_the_wound_level_and_damage_toward_death(app, client, event):
    in_language(client, "es")
    text = screens(app, client)["/p/…"]
    assert "Malherido" in text and "daño 16 / 24" in text


@pytest.mark.parametrize("event", ["toy"], indirect=True)
def test_a_rule_system_without_armour_or_energy_is_offered_neither(app, client, event):
    in_language(client, "en")
    console = client.get("/console/1").get_data(as_text=True)
    assert re.search(r'<div data-quantity="ap" hidden>', console)
    assert re.search(r'<div data-quantity="energy" data-energy-box hidden>', console)
    states = client.get("/events/1/export/states.csv").get_data(as_text=True)
    assert "Vigour" in states and "Armour" not in states and "Energy" not in states


@pytest.mark.parametrize(
    ("event", "offered", "absent"),
    [
        ("ex-nihilo", ["optional_rules.armour_breaks"], ['name="seed"', 'name="saves"']),
        ("athkri", ['name="seed"', 'name="saves"'], ["optional_rules.armour_breaks"]),
        ("toy", [], ['name="seed"', 'name="saves"', "optional_rules.armour_breaks"]),
    ],
    indirect=["event"],
)
def test_the_settings_form_offers_only_the_rule_systems_own_settings(
    client, event, offered, absent
):
    form = client.get("/events/1/settings").get_data(as_text=True)
    assert all(name in form for name in offered)
    assert not any(name in form for name in absent)


def printed_badges(client, tmp_path) -> str:
    """The text of the event's printed badges (the PDF a print job writes), by ``pdftotext``."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (Debian poppler-utils) is not installed")
    started = post_form(
        client, "/events/1/badges/print", {"layout": "a6-4up"}, page="/events/1/badges"
    )
    assert started.status_code == 302, started.get_data(as_text=True)[:2000]
    job = started.headers["Location"].rsplit("/", 1)[1]
    deadline = time.monotonic() + 60
    while (state := client.get(f"/events/1/badges/jobs/{job}.json").json)["status"] != "done":
        assert state["status"] in ("queued", "running") and time.monotonic() < deadline, state
        time.sleep(0.2)
    download = client.get(state["download"])
    (tmp_path / "badges.pdf").write_bytes(download.data)
    download.close()
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", str(tmp_path / "badges.pdf"), "-"],
        capture_output=True,
        check=True,
        text=True,
    ).stdout
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize(("event", "language"), ALL, indirect=["event"])
def test_the_printed_badges_show_no_other_rule_systems_words_and_no_bare_key(
    app, client, event, language, tmp_path
):
    in_language(client, language)
    text = printed_badges(client, tmp_path)
    vocabulary = rules.get_ruleset(event).words()
    own = vocabulary.in_language(language, rules.get_ruleset(event).language)["quantities"]
    assert all(q["name"] in text for q in own.values()), text  # its quantities, by its names
    host = NEUTRAL.in_language(language, "en")["quantities"]
    untracked = [host[q]["name"] for q in host if q not in own and host[q]["name"] in text]
    assert untracked == [], text  # and only those it tracks
    for word in sorted(own_words(event) | own_descriptions(event), key=len, reverse=True):
        text = text.replace(word, " ")
    others = sorted(
        w for w in forbidden_words(event) if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)
    )
    keys = [k for k in BARE_KEY.findall(text) if k != APP_NAME] + RULESET_KEY.findall(text)
    assert (others, keys) == ([], []), text
