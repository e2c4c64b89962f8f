"""The interface speaks Italian and English: from the browser, or as chosen."""

from pathlib import Path

from babel.messages.pofile import read_po

from .helpers import post_form

CATALOGUES = Path(__file__).resolve().parents[2] / "larp_app" / "translations"


def test_the_login_page_speaks_the_browsers_language(client):
    italian = client.get("/login", headers={"Accept-Language": "it-IT,it;q=0.9"})
    english = client.get("/login", headers={"Accept-Language": "en-GB"})
    assert "Accedi" in italian.get_data(as_text=True)
    assert '<html lang="it">' in italian.get_data(as_text=True)
    assert "Log in" in english.get_data(as_text=True)


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


def test_every_message_has_an_italian_translation():
    with (CATALOGUES / "it" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalogue = read_po(handle)
    missing = [
        m.id
        for m in catalogue
        if m.id and (m.fuzzy or not all(m.string if isinstance(m.string, tuple) else [m.string]))
    ]
    assert missing == []


def test_the_catalogue_holds_every_string_marked_in_the_code(tmp_path):
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
    with (CATALOGUES / "it" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        known = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}
    assert sorted(marked - known) == []
