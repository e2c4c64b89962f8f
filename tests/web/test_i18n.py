"""The interface speaks Italian, Spanish and English: from the browser, or as chosen."""

from datetime import UTC, datetime
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from .helpers import log_in, make_user, post_form

CATALOGUES = Path(__file__).resolve().parents[2] / "larp_app" / "translations"
TRANSLATED = ("it", "es")  # English is the msgids themselves
# A Saturday afternoon, UTC (the zone the server writes times in).
SATURDAY = datetime(2026, 3, 7, 15, 12, 0, tzinfo=UTC)


def read_catalogue(lang):
    with (CATALOGUES / lang / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        return read_po(handle)


def test_the_login_page_speaks_the_browsers_language(client):
    italian = client.get("/login", headers={"Accept-Language": "it-IT,it;q=0.9"})
    english = client.get("/login", headers={"Accept-Language": "en-GB"})
    assert "Accedi" in italian.get_data(as_text=True)
    assert '<html lang="it">' in italian.get_data(as_text=True)
    assert "Log in" in english.get_data(as_text=True)


def test_the_login_page_speaks_spanish_to_a_spanish_browser(client):
    page = client.get("/login", headers={"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"})
    text = page.get_data(as_text=True)
    assert '<html lang="es">' in text
    assert "Iniciar sesión" in text and "Contraseña" in text
    assert "Log in" not in text


def test_the_switcher_offers_every_language(client):
    page = client.get("/login").get_data(as_text=True)
    for code, label in (("it", "Italiano"), ("es", "Español"), ("en", "English")):
        assert f'value="{code}" lang="{code}"' in page and label in page


def test_the_language_switcher_overrides_the_browser(client):
    post_form(client, "/language", {"lang": "it", "next": "/login"})
    page = client.get("/login", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "Accedi" in page


def test_field_errors_are_translated_too(client):
    from larp_app.messages import problem_message
    from larp_app.rules import Problem

    with client.application.test_request_context(headers={"Accept-Language": "it"}):
        text = problem_message(Problem("player", "required"))
    assert text.startswith("player: ") and "required" not in text


def test_a_visitors_choice_stays_in_the_session_only(app, client):
    from larp_app.extensions import db
    from larp_app.models import User

    make_user(app, "rita", "referee")
    post_form(client, "/language", {"lang": "es", "next": "/login"})
    assert "Iniciar sesión" in client.get("/login").get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(User.language).where(User.username == "rita")) is None


def test_the_chosen_language_follows_the_user_to_another_device(app, client):
    from larp_app.extensions import db
    from larp_app.models import User

    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    post_form(client, "/language", {"lang": "es", "next": "/events"}, page="/events")
    assert "Eventos" in client.get("/events").get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(User.language).where(User.username == "olga")) == "es"

    phone = app.test_client()  # another device: a new session, an English browser
    assert "Log in" in phone.get("/login", headers={"Accept-Language": "en"}).get_data(as_text=True)
    log_in(phone, "olga")
    page = phone.get("/events", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert '<html lang="es">' in page
    assert "Eventos" in page and "Salir" in page

    # A choice made on this device wins here, and becomes the user's new language.
    post_form(phone, "/language", {"lang": "it", "next": "/events"}, page="/events")
    assert "Eventi" in phone.get("/events").get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(db.select(User.language).where(User.username == "olga")) == "it"


def test_logging_out_forgets_the_users_language_on_that_device(app, client):
    make_user(app, "olga", "organiser")
    log_in(client, "olga")
    post_form(client, "/language", {"lang": "es", "next": "/events"}, page="/events")
    post_form(client, "/logout", {}, page="/events")
    page = client.get("/login", headers={"Accept-Language": "it"}).get_data(as_text=True)
    assert "Accedi" in page


@pytest.mark.parametrize(
    ("lang", "clock", "weekday_clock", "number"),
    [
        ("it", "15:12:00", "sab 15:12:00", "1.234,5"),
        ("es", "15:12:00", "sáb 15:12:00", "1.234,5"),
        ("en", "3:12:00\u202fPM", "Sat 3:12:00\u202fPM", "1,234.5"),
    ],
)
def test_times_and_numbers_are_written_as_each_language_writes_them(
    app, lang, clock, weekday_clock, number
):
    with app.test_request_context(headers={"Accept-Language": lang}):
        env = app.jinja_env
        assert env.from_string("{{ t|clock }}").render(t=SATURDAY) == clock
        assert env.from_string("{{ t|weekday_clock }}").render(t=SATURDAY) == weekday_clock
        assert env.from_string("{{ n|number }}").render(n=1234.5) == number
        assert env.from_string("{{ t|clock }}{{ n|number }}").render(t=None, n=None) == ""


def test_the_characters_log_shows_its_times_in_the_pages_language(app, client):
    from datetime import timedelta

    from larp_app import rules
    from larp_app.extensions import db
    from larp_app.models import Character
    from larp_app.services.demo import load_demo
    from larp_app.services.entries import record_entry

    with app.app_context():
        load_demo()
        character = db.session.scalars(db.select(Character).order_by(Character.id)).first()
        forever = (timedelta(days=36500), timedelta(days=36500))
        entry = {"id": "3f0c6a52-4a53-4a4e-9d51-0c1d2b3a4f5e", "kind": "note", "text": "ciao"}
        entry["at"] = rules.format_instant(SATURDAY)
        record_entry(character, entry, None, limits=forever)
        db.session.commit()
        url = f"/characters/{character.id}"
    log_in(client, "organiser", "organiser-demo")

    def page(lang):
        return client.get(url, headers={"Accept-Language": lang}).get_data(as_text=True)

    italian, spanish, english = page("it"), page("es"), page("en")
    stamp = '<time datetime="2026-03-07T15:12:00Z">'
    assert f"{stamp}sab 15:12:00</time>" in italian
    assert f"{stamp}sáb 15:12:00</time>" in spanish
    assert f"{stamp}Sat 3:12:00\u202fPM</time>" in english


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(lang):
    catalogue = read_catalogue(lang)
    assert catalogue.locale_identifier == lang
    missing = [
        m.id
        for m in catalogue
        if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else [m.string]))
    ]
    assert missing == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_translation_keeps_the_placeholders_of_its_message(lang):
    import re

    placeholder = re.compile(r"%\(\w+\)[sd]|\{\w+\}")
    wrong = []
    for m in read_catalogue(lang):
        if not m.id:
            continue
        source = m.id if isinstance(m.id, str) else m.id[-1]
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        expected = sorted(placeholder.findall(source))
        wrong += [(m.id, s) for s in strings if sorted(placeholder.findall(s)) != expected]
    assert wrong == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_catalogue_holds_every_string_marked_in_the_code(tmp_path, lang):
    import subprocess
    import sys

    root = CATALOGUES.parents[1]
    pot = tmp_path / "fresh.pot"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "babel.messages.frontend",
            "extract",
            "--ignore-dirs",
            ".* tests",
            "-F",
            "babel.cfg",
            "-k",
            "_l",
            "-k",
            "lazy_gettext",
            "-o",
            str(pot),
            ".",
        ],
        cwd=root,
        check=True,
        capture_output=True,
    )
    with pot.open("rb") as handle:
        marked = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}
    known = {m.id if isinstance(m.id, str) else m.id[0] for m in read_catalogue(lang) if m.id}
    assert sorted(marked - known) == []


def test_a_language_chosen_on_the_login_page_survives_logging_in(app, client):
    from .helpers import log_in, make_user

    make_user(app, "rita", "referee")
    post_form(client, "/language", {"lang": "es", "next": "/login"})
    log_in(client, "rita")
    page = client.get("/referee/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert 'lang="es"' in page
