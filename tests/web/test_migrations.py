"""Upgrading the database keeps every event's data."""

from hashlib import sha256

import pytest
import sqlalchemy
from flask_migrate import downgrade, upgrade

from larp_app.extensions import db
from larp_app.models import Badge, Character, Event
from larp_app.services.badges import character_for_player, resolve_badge

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


def test_the_upgrade_to_badges_found_by_hash_fills_the_hashes_of_existing_badges(app):
    with app.app_context():
        downgrade(revision="4bfa12e7d7b1")
        with db.engine.begin() as conn:
            conn.execute(
                sqlalchemy.text(
                    "INSERT INTO event (id, name, ruleset, settings, created_at) "
                    "VALUES (7, 'Notte', 'ex-nihilo', '{}', '2027-03-06 15:00:00')"
                )
            )
            for n, name in ((3, "Vera"), (4, "Ugo")):
                link, secret = f"PLAYER{n}SECRETPLAYER{n}SECR", f"BADGE{n}SECRETBADGE{n}SECRETBAD"
                conn.execute(
                    sqlalchemy.text(
                        "INSERT INTO character (id, event_id, player, name, tabletop, larp, "
                        f"created_at, player_secret) VALUES ({n}, 7, 'Giulia', '{name}', '{{}}', "
                        f"'{{\"hp_max\": 3}}', '2027-03-06 15:00:00', '{link}')"
                    )
                )
                conn.execute(
                    sqlalchemy.text(
                        "INSERT INTO badge (character_id, secret, short_code, issued_at) VALUES "
                        f"({n}, '{secret}', 'K7M-Q2X-9H{n}', "
                        "'2027-03-06 15:00:00')"
                    )
                )
            conn.execute(  # a refused scan names a badge: the badge table is rebuilt under it
                sqlalchemy.text(
                    "INSERT INTO badge_lookup (at, badge_id, presented, reason) VALUES "
                    "('2027-03-06 15:00:00', (SELECT min(id) FROM badge), 'x', 'revoked')"
                )
            )
        upgrade()
        db.session.remove()
        for n in (3, 4):
            link, secret = f"PLAYER{n}SECRETPLAYER{n}SECR", f"BADGE{n}SECRETBADGE{n}SECRETBAD"
            badge = db.session.scalar(db.select(Badge).where(Badge.character_id == n))
            character = db.session.get(Character, n)
            assert badge.secret_hash == sha256(secret.encode()).hexdigest()
            assert badge.short_code_hash == sha256(f"K7M-Q2X-9H{n}".encode()).hexdigest()
            assert character.player_secret_hash == sha256(link.encode()).hexdigest()
            assert resolve_badge(f"http://x/b/{secret}?v=1", None) == badge
            assert character_for_player(link) == character
        # Still one active badge each.
        with pytest.raises(sqlalchemy.exc.IntegrityError), db.engine.begin() as conn:
            conn.execute(
                sqlalchemy.text(
                    "INSERT INTO badge (character_id, secret_hash, short_code_hash, "
                    "issued_at) VALUES (3, 'a', 'b', '2027-03-06 15:00:00')"
                )
            )
        db.session.remove()  # its open read would hold the tables the downgrade alters
        downgrade(revision="4bfa12e7d7b1")
        with db.engine.begin() as conn:
            kept = conn.execute(sqlalchemy.text("SELECT secret FROM badge ORDER BY id")).scalars()
            assert list(kept) == ["BADGE3SECRETBADGE3SECRETBAD", "BADGE4SECRETBADGE4SECRETBAD"]
        upgrade()


def test_an_account_that_logged_entries_survives_the_upgrade_that_rebuilds_its_table(app):
    # SQLite rebuilds a table to drop or change a column (0010 on "user"); with foreign keys
    # enforced, the rows that point at it (an entry's author) must not stop an upgrade nor be
    # lost. From the first schema: every migration is run over them.
    with app.app_context():
        downgrade(revision=FIRST)
        with db.engine.begin() as conn:
            for statement in (
                "INSERT INTO event (id, name, ruleset, settings, created_at) "
                "VALUES (7, 'Notte', 'ex-nihilo', '{}', '2027-03-06 15:00:00')",
                'INSERT INTO "user" (id, username, password_hash, role, token_hash, active, '
                "created_at) VALUES (5, 'remo', 'x', 'referee', 'h5', true, "
                "'2027-03-06 15:00:00')",
                "INSERT INTO character (id, event_id, player, name, tabletop, larp, created_at) "
                "VALUES (3, 7, 'Giulia', 'Vera', '{}', '{\"hp_max\": 3}', '2027-03-06 15:00:00')",
                "INSERT INTO entry (client_id, character_id, kind, at, received_at, author_id, "
                "fields) VALUES ('e1', 3, 'note', '2027-03-06 16:00:00', "
                "'2027-03-06 16:00:00', 5, '{}')",
            ):
                conn.execute(sqlalchemy.text(statement))
        upgrade()
        with db.engine.begin() as conn:
            author = conn.execute(
                sqlalchemy.text(
                    'SELECT u.username FROM entry e JOIN "user" u ON u.id = e.author_id '
                    "WHERE e.client_id = 'e1'"
                )
            ).scalar_one()
        assert author == "remo"


def test_an_upgrade_that_leaves_the_database_short_of_a_column_fails_naming_it(app, capfd):
    with app.app_context():
        with db.engine.begin() as conn:  # the stamp says head; the column never came
            conn.execute(sqlalchemy.text("ALTER TABLE entry DROP COLUMN referee_at"))
        db.engine.dispose()
        with pytest.raises(SystemExit) as exited:  # `flask db upgrade` exits 1
            upgrade()
    assert exited.value.code == 1
    assert "column entry.referee_at is missing" in capfd.readouterr().err


def test_a_characters_entries_after_a_row_are_one_range_of_an_index(app):
    """Folding on reads "the entries of these characters after their last rows" at every
    change a worker catches up: an index on (character_id, id) answers each character's part
    as one range. PostgreSQL had only character_id's, and its planner, its statistics stale
    after a day's import, joined it with every row after R of the primary key instead."""
    with app.app_context():
        indexes = sqlalchemy.inspect(db.engine).get_indexes("entry")
        ranges = [i["name"] for i in indexes if i["column_names"][:2] == ["character_id", "id"]]
        assert ranges == ["ix_entry_character_row"]
        assert not [i for i in indexes if i["column_names"] == ["character_id"]]  # one to write
        downgrade(revision="6a2d8e4f1b37")
        indexes = sqlalchemy.inspect(db.engine).get_indexes("entry")
        assert [i["column_names"] for i in indexes if i["name"] == "ix_entry_character_id"] == [
            ["character_id"]
        ]
        upgrade()


def test_what_changed_since_a_version_is_read_from_one_index(app):
    """Every worker asks, whenever an event's version moves, which of its characters changed
    since the version it knows, with their player links' digests (keeping/known.py
    ``CHANGED``): one index holds all it reads, so no character's row (its sheets, several
    pages) is read for it."""
    from larp_app.keeping.known import CHANGED

    with app.app_context():
        indexes = sqlalchemy.inspect(db.engine).get_indexes("character")
        found = [i["column_names"] for i in indexes if i["column_names"][:1] == ["event_id"]]
        assert ["event_id", "version", "player_secret_hash"] in found
        assert ["event_id", "version"] not in found  # one to write at every change
        if db.engine.dialect.name == "sqlite":
            sql = str(CHANGED.compile(dialect=db.engine.dialect))
            with db.engine.connect() as conn:
                asked = (1, 0)  # (the event, the version since)
                plan = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}", asked).all()
            assert any("COVERING INDEX ix_character_event_version_link" in row[-1] for row in plan)
        downgrade(revision="7c3f9a1e5d48")
        indexes = sqlalchemy.inspect(db.engine).get_indexes("character")
        assert [
            i["column_names"] for i in indexes if i["name"] == "ix_character_event_version"
        ] == [["event_id", "version"]]
        upgrade()
