"""What an operator would otherwise write SQL for, as commands: disable and enable an
account, log its phones out, revoke its tokens (by label, by id, or all), and say who
works an event. Each is seen at once by a worker that knew the caller."""

from __future__ import annotations

import pytest

from larp_app.extensions import db
from larp_app.models import ApiToken, Event, RefereeEvent, User
from larp_app.services.users import new_token

from .conftest import auth

pytestmark = pytest.mark.both_databases


def user(app, name) -> User:
    with app.app_context():
        found = db.session.scalar(db.select(User).where(User.username == name))
        db.session.expunge(found)
        return found


def polls(client, character_id, token) -> int:
    """The status of a state poll by a worker that knows the caller (a 304 until told)."""
    url = f"/api/v1/characters/{character_id}/state"
    first = client.get(url, headers=auth(token))
    if first.status_code != 200:
        return first.status_code
    return client.get(
        url, headers={**auth(token), "If-None-Match": first.headers["ETag"]}
    ).status_code


def test_users_disable_refuses_the_account_at_once_and_enable_lets_it_in_again(
    app, client, runner, tokens, character_id
):
    assert polls(client, character_id, tokens["referee"]) == 304
    done = runner.invoke(args=["users", "disable", "referee-1"])
    assert done.exit_code == 0, done.output
    assert "referee-1: disabled" in done.output
    assert not user(app, "referee-1").active
    assert (
        client.get(
            f"/api/v1/characters/{character_id}/state", headers=auth(tokens["referee"])
        ).status_code
        == 401
    )
    done = runner.invoke(args=["users", "enable", "referee-1"])
    assert done.exit_code == 0, done.output
    assert user(app, "referee-1").active
    with app.app_context():
        fresh = new_token(db.session.get(User, user(app, "referee-1").id))
        db.session.commit()
    assert polls(client, character_id, fresh) == 304


def test_users_disable_refuses_the_last_organiser_and_an_unknown_name(runner, tokens):
    last = runner.invoke(args=["users", "disable", "organiser-1"])
    assert last.exit_code == 2
    assert "last" in last.stderr
    unknown = runner.invoke(args=["users", "disable", "nobody"])
    assert unknown.exit_code == 2
    assert "NAME" in unknown.stderr


def test_users_logout_ends_every_session_and_token_of_the_account(
    app, client, runner, tokens, character_id
):
    assert polls(client, character_id, tokens["referee"]) == 304
    done = runner.invoke(args=["users", "logout", "referee-1"])
    assert done.exit_code == 0, done.output
    assert polls(client, character_id, tokens["referee"]) == 401
    assert user(app, "referee-1").active


@pytest.mark.parametrize("how", ["--label", "--id", "--all"])
def test_tokens_revoke_by_label_by_id_or_all_of_an_account(
    app, client, runner, tokens, character_id, how
):
    with app.app_context():
        rita = db.session.get(User, user(app, "referee-1").id)
        other = new_token(rita, "tablet")
        db.session.commit()
        tablet = db.session.scalar(db.select(ApiToken.id).where(ApiToken.label == "tablet"))
    assert polls(client, character_id, other) == 304
    assert polls(client, character_id, tokens["referee"]) == 304
    value = {"--label": ["tablet"], "--id": [str(tablet)], "--all": []}[how]
    done = runner.invoke(args=["tokens", "revoke", "referee-1", how, *value])
    assert done.exit_code == 0, done.output
    assert polls(client, character_id, other) == 401
    first = 401 if how == "--all" else 304
    assert polls(client, character_id, tokens["referee"]) == first
    nothing = runner.invoke(args=["tokens", "revoke", "referee-1", "--label", "tablet"])
    assert nothing.exit_code == 2  # none left of that label


def test_tokens_revoke_needs_one_way_to_name_the_tokens(runner, tokens):
    both = runner.invoke(args=["tokens", "revoke", "referee-1", "--all", "--label", "script"])
    assert both.exit_code == 2
    neither = runner.invoke(args=["tokens", "revoke", "referee-1"])
    assert neither.exit_code == 2


def test_event_referees_adds_and_takes_off_a_referee_seen_at_once(
    app, client, runner, tokens, organiser, event_id, character_id
):
    other = client.post(
        "/api/v1/events", json={"name": "Altra", "ruleset": "ex-nihilo"}, headers=organiser
    ).json["id"]
    for event in (event_id, other):
        done = runner.invoke(args=["event", "referees", str(event), "--add", "referee-1"])
        assert done.exit_code == 0, done.output
        assert "referee-1" in done.output
    assert polls(client, character_id, tokens["referee"]) == 304
    done = runner.invoke(args=["event", "referees", str(event_id), "--remove", "referee-1"])
    assert done.exit_code == 0, done.output
    with app.app_context():
        assert db.session.scalars(db.select(RefereeEvent.event_id)).all() == [other]
        assert db.session.get(Event, event_id).name == "Notte"
    refused = client.get(
        f"/api/v1/characters/{character_id}/state", headers=auth(tokens["referee"])
    )
    assert refused.status_code == 403
    listed = runner.invoke(args=["event", "referees", str(other)])
    assert listed.output.strip().splitlines() == ["referee-1"]
    wrong = runner.invoke(args=["event", "referees", str(other), "--add", "organiser-1"])
    assert wrong.exit_code == 2
