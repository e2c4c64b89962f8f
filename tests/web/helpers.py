"""Small helpers for driving the HTML pages like a browser would."""

import json
import re
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


def data_sheet(name: str = "ex-nihilo-sheet.json") -> dict:
    """A fresh copy of an example sheet from tests/data."""
    return json.loads((DATA / name).read_text(encoding="utf-8"))
