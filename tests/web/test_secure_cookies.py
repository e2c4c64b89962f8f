"""The session cookie is Secure exactly when the request came over HTTPS.

Directly over HTTPS, or from a trusted proxy that says X-Forwarded-Proto: https. Over plain
HTTP on the LAN the cookie stays without Secure, or phones could never log in there.
"""

import pytest

from larp_app import create_app
from larp_app.extensions import db

from .helpers import TOKEN, make_user


@pytest.fixture
def app_behind(database_url):
    """An app for each number of trusted proxies, on the test's database."""
    made = []

    def build(proxies: int):
        app = create_app(
            {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "TRUSTED_PROXIES": proxies}
        )
        made.append(app)
        make_user(app, "remo", "referee")
        return app

    yield build
    for app in made:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


def log_in(client, scheme="http", forwarded=None):
    """GET the login page and POST its form like a browser at ``scheme``://localhost would
    (over HTTPS the CSRF check wants the Referer); ``forwarded``: the X-Forwarded-Proto."""
    base = f"{scheme}://localhost"
    headers = {"Referer": f"{forwarded or scheme}://localhost/login"}
    if forwarded:
        headers["X-Forwarded-Proto"] = forwarded
    page = client.get("/login", base_url=base, headers=headers).get_data(as_text=True)
    form = {"username": "remo", "password": "a-long-password", "csrf_token": TOKEN.search(page)[1]}
    answer = client.post("/login", data=form, base_url=base, headers=headers)
    assert answer.status_code == 302, answer.get_data(as_text=True)
    return answer


def session_cookie_flags(answer) -> set[str]:
    """The attributes of the session's Set-Cookie, lower-cased (``secure``, ``httponly``…)."""
    cookies = [c for c in answer.headers.getlist("Set-Cookie") if c.startswith("session=")]
    assert len(cookies) == 1, answer.headers.getlist("Set-Cookie")
    return {part.strip().split("=")[0].lower() for part in cookies[0].split(";")[1:]}


def test_a_login_over_https_sets_a_secure_session_cookie(app):
    make_user(app, "remo", "referee")
    flags = session_cookie_flags(log_in(app.test_client(), "https"))
    assert "secure" in flags
    assert {"httponly", "samesite"} <= flags


def test_a_login_over_plain_http_sets_a_session_cookie_without_secure(app):
    make_user(app, "remo", "referee")
    flags = session_cookie_flags(log_in(app.test_client(), "http"))
    assert "secure" not in flags
    assert "httponly" in flags


def test_a_login_through_a_trusted_proxy_that_says_https_sets_a_secure_session_cookie(
    app_behind,
):
    client = app_behind(1).test_client()
    answer = log_in(client, forwarded="https")
    assert "secure" in session_cookie_flags(answer)


def test_a_login_with_a_forwarded_https_header_and_no_trusted_proxy_has_no_secure_cookie(
    app_behind,
):
    client = app_behind(0).test_client()
    answer = log_in(client, forwarded="https")
    assert "secure" not in session_cookie_flags(answer)


def test_logging_out_over_https_clears_the_cookie_with_secure_too(app):
    make_user(app, "remo", "referee")
    client = app.test_client()
    log_in(client, "https")
    https = {"base_url": "https://localhost", "headers": {"Referer": "https://localhost/"}}
    page = client.get("/login", **https).get_data(as_text=True)
    answer = client.post("/logout", data={"csrf_token": TOKEN.search(page)[1]}, **https)
    assert answer.status_code == 302
    assert "secure" in session_cookie_flags(answer)
