"""Small helpers for driving the HTML pages like a browser would."""

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from larp_app.extensions import db
from larp_app.services.users import create_user

DATA = Path(__file__).resolve().parents[1] / "data"
TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def csrf_token(client, url="/login"):
    page = client.get(url)
    match = TOKEN.search(page.get_data(as_text=True))
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def post_form(client, url, data, page=None, **kwargs):
    """POST a form with the CSRF token the page (or the login page) carries."""
    token = csrf_token(client, page or "/login")
    return client.post(url, data={**data, "csrf_token": token}, **kwargs)


def make_user(app, username, role, password="a-long-password"):
    with app.app_context():
        user, _password, _token = create_user(username, role, password)
        db.session.commit()
        return user.id


def log_in(client, username, password="a-long-password"):
    return post_form(client, "/login", {"username": username, "password": password})


def speak(client, lang):
    """Switch the page's language as a person does, with the page's switcher."""
    post_form(client, "/language", {"lang": lang, "next": "/events"}, page="/events")


def new_event(client, ruleset, name="Notte"):
    """Create an event on the organiser's page; its page's address."""
    made = post_form(client, "/events", {"name": name, "ruleset": ruleset}, page="/events")
    assert made.status_code == 302
    return made.headers["Location"]


def data_sheet(name: str = "ex-nihilo-sheet.json") -> dict:
    """A fresh copy of an example sheet from tests/data."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))


class _FormReader(HTMLParser):
    """What a browser sends for the first form of a page with no button pressed: each input's
    value (a checkbox only when ticked), each select's chosen option, each textarea's text."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.values: dict[str, str] = {}
        self.forms = 0
        self._select: str | None = None
        self._first_option: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.forms += 1
        if self.forms != 1 or ("name" not in a and tag in ("input", "select", "textarea")):
            return
        if tag == "input" and a.get("type") not in ("submit", "button"):
            if a.get("type") == "checkbox" and "checked" not in a:
                return
            self.values[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select, self._first_option = a["name"], None
        elif tag == "option" and self._select is not None:
            if self._first_option is None:
                self._first_option = a.get("value", "")
                self.values.setdefault(self._select, self._first_option)
            if "selected" in a:
                self.values[self._select] = a.get("value", "")
        elif tag == "textarea":
            self._textarea = a["name"]
            self.values[a["name"]] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea is not None:
            self.values[self._textarea] += data


def form_values(page: str) -> dict[str, str]:
    """The values the first form of ``page`` sends as it stands (no button pressed)."""
    reader = _FormReader()
    reader.feed(page)
    text = reader.values
    for name, value in text.items():  # a textarea's first line break is the markup's
        text[name] = value.removeprefix("\n")
    return text
