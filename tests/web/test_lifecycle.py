"""Sessions, passwords and tokens that can be taken back."""

from datetime import timedelta

import pytest
from sqlalchemy import select

from larp_app.extensions import db
from larp_app.models import User
from larp_app.services.users import create_user, new_token, tokens_of

from .helpers import log_in, make_user, post_form

pytestmark = pytest.mark.both_databases


def auth(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def organiser(app, client):
    make_user(app, "olga", "organiser")
    assert log_in(client, "olga").status_code == 302
    return client


@pytest.fixture
def referee_token(app):
    with app.app_context():
        user, _password, token = create_user("remo", "referee", "a-long-password")
        db.session.commit()
        return user.id, token


def user_id(app, name):
    with app.app_context():
        return db.session.scalar(select(User.id).where(User.username == name))


# 9. logout ends the session on the server


def test_a_copied_session_cookie_stops_working_after_logout(app, organiser):
    copy = app.test_client()
    copy.set_cookie("session", organiser.get_cookie("session").value)
    assert copy.get("/events").status_code == 200
    post_form(organiser, "/logout", {}, page="/events")
    assert copy.get("/events").status_code == 302
    assert copy.get("/api/v1/me").status_code == 401


def test_logging_out_one_browser_leaves_the_other_logged_in(app, organiser):
    other = app.test_client()
    log_in(other, "olga")
    post_form(organiser, "/logout", {}, page="/events")
    assert other.get("/events").status_code == 200


# 8. API tokens: hashed, listed, revoked, ended with the account's sessions


def test_tokens_are_kept_only_as_hashes_and_listed_per_user(app, referee_token):
    uid, token = referee_token
    with app.app_context():
        user = db.session.get(User, uid)
        second = new_token(user, "backup")
        db.session.commit()
        listed = tokens_of(user)
        assert [t.label for t in listed] == ["script", "backup"]
        assert all(token not in (t.token_hash, second) for t in listed)
        assert all(second != t.token_hash for t in listed)


def test_a_revoked_token_opens_nothing_and_the_others_still_work(
    app, client, organiser, referee_token
):
    uid, token = referee_token
    with app.app_context():
        second = new_token(db.session.get(User, uid), "script")
        db.session.commit()
        first_id = tokens_of(db.session.get(User, uid))[0].id
    page = "/users"
    assert f"/users/{uid}/tokens/{first_id}/revoke" in organiser.get(page).get_data(as_text=True)
    answer = post_form(organiser, f"/users/{uid}/tokens/{first_id}/revoke", {}, page=page)
    assert answer.status_code == 302
    assert client.get("/api/v1/me", headers=auth(token)).status_code == 401
    assert client.get("/api/v1/me", headers=auth(second)).status_code == 200


@pytest.mark.parametrize("action", ["sessions/end", "reset"])
def test_tokens_end_with_log_out_every_phone_and_a_password_reset(
    app, client, organiser, referee_token, action
):
    uid, token = referee_token
    assert client.get("/api/v1/me", headers=auth(token)).status_code == 200
    post_form(organiser, f"/users/{uid}/{action}", {}, page="/users")
    assert client.get("/api/v1/me", headers=auth(token)).status_code == 401


def test_the_cli_lists_makes_and_revokes_tokens(app, runner, referee_token):
    _uid, token = referee_token
    made = runner.invoke(args=["users", "new-token", "remo", "--label", "backup"])
    new = made.output.split("token: ", 1)[1].strip()
    listed = runner.invoke(args=["users", "tokens", "remo"]).output.splitlines()
    assert [line.split("\t")[1] for line in listed] == ["script", "backup"]
    first_id = listed[0].split("\t")[0]
    assert runner.invoke(args=["users", "revoke-token", "remo", first_id]).exit_code == 0
    client = app.test_client()
    assert client.get("/api/v1/me", headers=auth(token)).status_code == 401
    assert client.get("/api/v1/me", headers=auth(new)).status_code == 200


# 13. passwords: one's own, other organisers', from the shell


def test_every_user_changes_their_own_password_and_their_other_sessions_end(app, client):
    make_user(app, "remo", "referee")
    log_in(client, "remo")
    other = app.test_client()
    log_in(other, "remo")
    page = "/account/password"
    wrong = post_form(client, page, {"current": "nope", "new": "brand-new-pass"}, page=page)
    assert wrong.status_code == 422
    short = post_form(client, page, {"current": "a-long-password", "new": "short"}, page=page)
    assert short.status_code == 422
    done = post_form(
        client, page, {"current": "a-long-password", "new": "brand-new-pass"}, page=page
    )
    assert done.status_code == 302
    assert client.get("/api/v1/me").status_code == 200  # this browser stays in
    assert other.get("/api/v1/me").status_code == 401
    fresh = app.test_client()
    assert log_in(fresh, "remo", "a-long-password").status_code == 401
    assert log_in(fresh, "remo", "brand-new-pass").status_code == 302


def test_an_organiser_resets_and_disables_another_organiser_never_themselves(app, organiser):
    make_user(app, "demo", "organiser")
    demo = user_id(app, "demo")
    answer = post_form(organiser, f"/users/{demo}/reset", {}, page="/users")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "no-store"  # 12: a page with a new password
    post_form(organiser, f"/users/{demo}/active", {"active": "0"}, page="/users")
    with app.app_context():
        assert not db.session.get(User, demo).active
    own = post_form(
        organiser, f"/users/{user_id(app, 'olga')}/active", {"active": "0"}, page="/users"
    )
    assert own.status_code == 403


def test_the_last_active_organiser_cannot_be_disabled(app):
    from larp_app.services.users import LastOrganiser, set_active

    make_user(app, "olga", "organiser")
    make_user(app, "ugo", "organiser")
    with app.app_context():
        olga, ugo = (
            db.session.scalar(select(User).where(User.username == n)) for n in ("olga", "ugo")
        )
        set_active(olga, False)
        with pytest.raises(LastOrganiser):
            set_active(ugo, False)
        assert ugo.active


def test_flask_users_password_resets_from_the_shell(app, runner):
    make_user(app, "olga", "organiser")
    result = runner.invoke(args=["users", "password", "olga"])
    assert result.exit_code == 0, result.output
    password = result.output.split("password: ", 1)[1].split()[0]
    client = app.test_client()
    assert log_in(client, "olga").status_code == 401
    assert log_in(client, "olga", password).status_code == 302
    missing = runner.invoke(args=["users", "password", "nobody"])
    assert missing.exit_code == 2


# 10. throttling by account and address


def test_a_strangers_wrong_passwords_do_not_lock_the_owner_out(app):
    make_user(app, "olga", "organiser")
    attacker = app.test_client()
    for _ in range(6):
        log_in(attacker, "olga", "guess")  # from 127.0.0.1
    assert log_in(attacker, "olga", "guess").status_code == 429
    owner = app.test_client()
    answer = post_form(
        owner,
        "/login",
        {"username": "olga", "password": "a-long-password"},
        environ_base={"REMOTE_ADDR": "10.0.0.7"},
    )
    assert answer.status_code == 302


def test_an_unknown_name_costs_the_same_password_check_as_a_known_one(app, monkeypatch):
    from larp_app.services import logins, users

    checks = []
    real = users.check_password_hash

    def counted(pwhash, password):
        checks.append(pwhash)
        return real(pwhash, password)

    monkeypatch.setattr(users, "check_password_hash", counted)
    monkeypatch.setattr(logins, "check_password_hash", counted)
    make_user(app, "olga", "organiser")
    client = app.test_client()
    log_in(client, "olga", "guess")
    log_in(client, "nobody", "guess")
    assert len(checks) == 2
    assert checks[0].split("$")[0] == checks[1].split("$")[0]  # the same method and cost


# 11. badge and short-code lookups


def test_refused_badge_lookups_are_limited_per_user_and_the_record_stays_bounded(
    app, client, referee_token, monkeypatch
):
    from larp_app.models import BadgeLookup
    from larp_app.services import badges

    monkeypatch.setattr(badges, "LOOKUPS_KEPT", 5)
    _uid, token = referee_token
    answers = [
        client.get(f"/api/v1/badges/NOSUCHSECRET{i}", headers=auth(token)).status_code
        for i in range(badges.REFUSED_PER_MINUTE + 3)
    ]
    assert answers == [404] * badges.REFUSED_PER_MINUTE + [429] * 3
    with app.app_context():
        assert db.session.query(BadgeLookup).count() == badges.REFUSED_PER_MINUTE
        for row in db.session.query(BadgeLookup):
            row.at -= timedelta(minutes=2)
        db.session.commit()
    assert client.get("/api/v1/badges/NOSUCHSECRET", headers=auth(token)).status_code == 404
    with app.app_context():
        assert db.session.query(BadgeLookup).count() == 5
