"""Logging in, roles, throttling, CSRF and the headers every page carries."""

from pathlib import Path

import pytest

from larp_app import create_app
from larp_app.extensions import db
from larp_app.models import ApiToken, User
from larp_app.web.security import instance_secret

from .helpers import csrf_token, log_in, make_user, post_form

pytestmark = pytest.mark.both_databases

ADMIN_PAGES = ["/events", "/users"]


@pytest.fixture
def organiser(app, client):
    make_user(app, "olga", "organiser")
    assert log_in(client, "olga").status_code == 302
    return client


def test_a_stranger_is_sent_to_the_login_page(client):
    answer = client.get("/events")
    assert answer.status_code == 302
    assert answer.headers["Location"].startswith("/login")


def test_the_right_password_logs_in_for_a_whole_weekend(app, client):
    make_user(app, "olga", "organiser")
    answer = log_in(client, "olga")
    assert (answer.status_code, answer.headers["Location"]) == (302, "/")
    cookie = client.get_cookie("session")
    assert cookie.http_only and cookie.same_site == "Lax"
    assert cookie.expires is not None  # permanent: survives closing the phone's browser
    assert client.get("/events").status_code == 200


def test_a_wrong_password_is_refused_without_saying_which_part_was_wrong(app, client):
    make_user(app, "olga", "organiser")
    answer = log_in(client, "olga", "wrong-password")
    assert answer.status_code == 401
    assert "Wrong username or password" in answer.get_data(as_text=True)


def test_repeated_failed_logins_are_slowed_down_for_every_worker(app, client, database_url):
    make_user(app, "olga", "organiser")
    for _ in range(5):
        assert log_in(client, "olga", "guess").status_code == 401
    assert log_in(client, "olga", "guess").status_code == 429
    # Another worker (another app on the same database) counts the same failures.
    other = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "SECRET_KEY": "x"}
    )
    try:
        answer = log_in(other.test_client(), "olga")
        assert answer.status_code == 429
        assert "Too many failed attempts" in answer.get_data(as_text=True)
    finally:
        with other.app_context():
            db.engine.dispose()


@pytest.mark.parametrize("url", ADMIN_PAGES)
def test_a_referee_never_sees_the_admin_pages(app, client, url):
    make_user(app, "rita", "referee")
    log_in(client, "rita")
    assert client.get(url).status_code == 403


def test_a_referee_cannot_change_settings_or_import(app, client):
    make_user(app, "olga", "organiser")
    organiser = app.test_client()
    log_in(organiser, "olga")
    post_form(organiser, "/events", {"name": "Notte", "ruleset": "ex-nihilo"}, page="/events")
    make_user(app, "rita", "referee")
    log_in(client, "rita")
    token = csrf_token(client, "/referee/")
    for url in ("/events/1/settings", "/events/1/import/preview", "/events/1/import/confirm"):
        assert client.post(url, data={"csrf_token": token}).status_code == 403


def test_a_form_without_its_csrf_token_is_refused(organiser):
    answer = organiser.post("/events", data={"name": "Notte", "ruleset": "ex-nihilo"})
    assert answer.status_code == 400


def test_logging_out_ends_the_session(organiser):
    post_form(organiser, "/logout", {}, page="/events")
    assert organiser.get("/events").status_code == 302


def test_an_organiser_creates_a_referee_and_sees_the_password_once(organiser):
    answer = post_form(organiser, "/users", {"username": "rita"}, page="/users")
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "rita" in page
    assert 'class="secret"' in page
    assert answer.headers["Cache-Control"] == "no-store"  # no cache keeps the password
    assert 'class="secret"' not in organiser.get("/users").get_data(as_text=True)


def test_an_account_made_on_the_accounts_page_has_no_token_it_never_asked_for(app, organiser):
    post_form(organiser, "/users", {"username": "rita"}, page="/users")
    page = organiser.get("/users").get_data(as_text=True)
    rows = {row.split("</td>", 1)[0]: row for row in page.split("<tr><td>")[1:]}
    assert "API token" not in rows["rita"]
    assert "API token “script”" in rows["olga"]  # made for scripts (as the command does)
    with app.app_context():
        rita = db.session.scalar(db.select(User).where(User.username == "rita"))
        assert db.session.query(ApiToken).filter_by(user_id=rita.id).count() == 0


def test_disabling_a_referee_logs_them_out_and_keeps_them_out(app, organiser):
    rita = make_user(app, "rita", "referee")
    phone = app.test_client()
    log_in(phone, "rita")
    assert phone.get("/referee/").status_code == 200
    post_form(organiser, f"/users/{rita}/active", {"active": "0"}, page="/users")
    assert phone.get("/referee/").status_code == 302
    assert log_in(phone, "rita").status_code == 401


def test_resetting_a_referees_password_ends_their_sessions(app, organiser):
    rita = make_user(app, "rita", "referee")
    phone = app.test_client()
    log_in(phone, "rita")
    answer = post_form(organiser, f"/users/{rita}/reset", {}, page="/users")
    assert 'class="secret"' in answer.get_data(as_text=True)
    assert phone.get("/referee/").status_code == 302


def test_every_page_carries_a_content_security_policy_without_inline_scripts(client):
    policy = client.get("/login").headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy


def test_no_template_has_an_inline_script():
    templates = Path(__file__).resolve().parents[2] / "templates"
    for path in templates.rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        for tag in text.split("<script")[1:]:
            assert "src=" in tag.split(">")[0], f"inline script in {path.name}"
        assert " on" + "click=" not in text, f"inline handler in {path.name}"


def test_a_secret_key_is_generated_into_the_instance_folder_once(tmp_path):
    first = instance_secret(tmp_path)
    assert len(first) >= 64
    assert instance_secret(tmp_path) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_a_form_still_posts_after_another_page_loaded_beside_it_right_after_login(app, organiser):
    """Two pages fetched at once after login (the form and the service worker's shells) must
    hand out the same CSRF secret: whichever cookie the browser keeps last, the form posts."""
    after_login = organiser.get_cookie("session").value
    beside = app.test_client()
    beside.set_cookie("session", after_login)
    token = csrf_token(organiser, "/events")
    assert beside.get("/events").status_code == 200
    if beside.get_cookie("session") is not None:  # the page beside wrote its own cookie: it wins
        organiser.set_cookie("session", beside.get_cookie("session").value)
    answer = organiser.post(
        "/events", data={"name": "Notte", "ruleset": "ex-nihilo", "csrf_token": token}
    )
    assert answer.status_code == 302, answer.get_data(as_text=True)[:300]
