"""Upgrading the database keeps every event's data."""

import pytest
import sqlalchemy
from flask_migrate import downgrade, upgrade

from larp_app.extensions import db
from larp_app.models import Character, Event

pytestmark = pytest.mark.both_databases

FIRST = "6f641f96a4eb"


def test_an_event_made_on_the_first_schema_survives_every_upgrade(app):
    with app.app_context():
        downgrade(revision=FIRST)
        with db.engine.begin() as conn:
            conn.execute(
                sqlalchemy.text(
                    "INSERT INTO event (id, name, ruleset, settings, created_at) "
                    "VALUES (7, 'Notte', 'ex-nihilo', '{}', '2027-03-06 15:00:00')"
                )
            )
            conn.execute(
                sqlalchemy.text(
                    "INSERT INTO character (id, event_id, player, name, faction, tabletop, larp, "
                    "created_at) VALUES (3, 7, 'Giulia', 'Vera', NULL, '{}', '{\"hp_max\": 3}', "
                    "'2027-03-06 15:00:00')"
                )
            )
        upgrade()
        db.session.remove()
        event = db.session.get(Event, 7)
        character = db.session.get(Character, 3)
        assert (event.name, event.faction_colours) == ("Notte", {})
        assert (character.name, character.larp, character.player_secret) == (
            "Vera",
            {"hp_max": 3},
            None,
        )
