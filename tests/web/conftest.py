"""Fixtures of the web level."""

import pytest
import sqlalchemy

from larp_app import create_app, database_uri
from larp_app.extensions import db
from larp_app.services.users import create_user

from .helpers import data_sheet


@pytest.fixture
def other_worker(app):
    """A second app on the same database, as another gunicorn worker with its own kept
    folds and what it knows: its test client."""
    other = create_app(dict(app.config))
    yield other.test_client()
    with other.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def tokens(app):
    """An organiser's and a referee's API tokens, by role."""
    with app.app_context():
        made = {role: create_user(f"{role}-1", role)[2] for role in ("organiser", "referee")}
        db.session.commit()
    return made


def auth(token):
    return {"Authorization": f"Bearer {token}"}


# The API's callers, and an event with one character made through the API (a test module
# may name its own fixtures so, e.g. a logged-in browser as ``organiser``).
@pytest.fixture
def organiser(tokens):
    return auth(tokens["organiser"])


@pytest.fixture
def referee(tokens):
    return auth(tokens["referee"])


@pytest.fixture
def event_id(client, organiser):
    answer = client.post(
        "/api/v1/events", json={"name": "Notte", "ruleset": "ex-nihilo"}, headers=organiser
    )
    assert answer.status_code == 201, answer.json
    return answer.json["id"]


@pytest.fixture
def character_id(client, organiser, event_id):
    answer = client.post(
        f"/api/v1/events/{event_id}/characters", json=data_sheet(), headers=organiser
    )
    assert answer.status_code == 201, answer.json
    return answer.json["characters"][0]["id"]


@pytest.fixture
def sql(app):
    """An operator's plain SQL, on a connection of its own (no app, no ORM): run(statement,
    **params) commits at once."""
    engine = sqlalchemy.create_engine(database_uri(app.config["SQLALCHEMY_DATABASE_URI"], None))

    def run(statement: str, **params):
        with engine.begin() as connection:
            return connection.execute(sqlalchemy.text(statement), params)

    yield run
    engine.dispose()
