"""The demo loader: an EX Nihilo event with 24 characters, a Sistema Athkri event with 12,
two accounts; idempotent."""

from sqlalchemy import func, select

from larp_app.extensions import db
from larp_app.models import Character, Event, User
from larp_app.services.characters import larp_sheet
from larp_app.services.demo import ATHKRI_EVENT_NAME, EVENT_NAME, load_demo
from larp_app.services.users import password_matches


def counts() -> tuple[int, int, int]:
    return tuple(
        db.session.scalar(select(func.count()).select_from(model))
        for model in (Event, Character, User)
    )


def test_demo_creates_events_casts_and_users(app):
    with app.app_context():
        result = load_demo()
        db.session.commit()
        assert result.created
        event = db.session.get(Event, result.event_id)
        assert event.name == EVENT_NAME
        assert event.ruleset == "ex-nihilo"
        assert len(event.characters) == 24
        athkri = db.session.get(Event, result.athkri_event_id)
        assert athkri.name == ATHKRI_EVENT_NAME
        assert athkri.ruleset == "athkri"
        # A save every 10 s; the dice come from a secret of its own, never a known seed.
        settings = athkri.settings
        assert settings == {"turn_seconds": 10, "secret": settings["secret"]}
        assert len(settings["secret"]) >= 32
        assert len(athkri.characters) == 12
        assert counts() == (2, 36, 2)
        roles = {u.username: u.role for u in db.session.scalars(select(User))}
        assert roles == {"organiser": "organiser", "referee": "referee"}


def test_demo_twice_creates_nothing_more(app):
    with app.app_context():
        first = load_demo()
        db.session.commit()
        second = load_demo()
        db.session.commit()
        assert first.created
        assert not second.created
        assert second.event_id == first.event_id
        assert second.athkri_event_id == first.athkri_event_id
        assert second.logins == ()  # the passwords were printed once, when made
        assert counts() == (2, 36, 2)


def test_demo_creates_only_the_demo_event_that_is_missing(app):
    """A database whose Athkri demo went away (here: renamed) gets it again, and only it."""
    with app.app_context():
        first = load_demo()
        db.session.get(Event, first.athkri_event_id).name = "Naufragio"
        db.session.commit()
        again = load_demo()
        db.session.commit()
        assert again.created
        assert again.event_id == first.event_id
        assert again.athkri_event_id != first.athkri_event_id
        assert counts() == (3, 48, 2)


def test_demo_characters_have_two_or_three_hit_points(app):
    with app.app_context():
        event = db.session.get(Event, load_demo().event_id)
        assert {larp_sheet(c).hp_max for c in event.characters} == {2, 3}


def test_demo_cast_has_badge_test_names_and_some_energy(app):
    with app.app_context():
        event = db.session.get(Event, load_demo().event_id)
        names = [c.name for c in event.characters]
        assert len(set(names)) == 24
        assert any(any(ch in name for ch in "àèéìòù") for name in names)
        assert max(len(name) for name in names) == 60
        with_energy = [c for c in event.characters if larp_sheet(c).energy_max > 0]
        assert 0 < len(with_energy) < 12


def test_the_athkri_demo_cast_is_varied_and_within_the_rules(app):
    with app.app_context():
        event = db.session.get(Event, load_demo().athkri_event_id)
        characters = event.characters
        assert len({c.name for c in characters}) == 12
        assert 2 <= len({c.faction for c in characters}) <= 3
        for character in characters:
            sheet = larp_sheet(character)
            assert sheet.ruleset == "athkri"
            assert 10 <= sheet.hp_max <= 30
            assert 0 <= sheet.ap_max <= 4
            assert sheet.advancements and all(a.text for a in sheet.advancements)
            assert all(1 <= v <= 10 for v in sheet.details["attributes"].values())
            assert sheet.details["skills"]
        assert any(a.energy_cost > 0 for c in characters for a in larp_sheet(c).advancements)


def test_demo_passwords_let_the_users_in(app):
    with app.app_context():
        result = load_demo()
        db.session.commit()
        assert dict(result.logins) == {
            "organiser": "organiser-demo",
            "referee": "referee-demo",
        }
        for username, password in result.logins:
            user = db.session.scalar(select(User).where(User.username == username))
            assert password_matches(user, password)
            assert not password_matches(user, password + "x")


def test_without_fixed_passwords_the_demo_accounts_get_fresh_random_ones(app):
    app.config["DEMO_PASSWORDS"] = None
    with app.app_context():
        logins = dict(load_demo().logins)
        db.session.commit()
        assert set(logins) == {"organiser", "referee"}
        assert "organiser-demo" not in logins.values() and "referee-demo" not in logins.values()
        assert all(len(password) >= 12 for password in logins.values())
        for username, password in logins.items():
            user = db.session.scalar(select(User).where(User.username == username))
            assert password_matches(user, password)
            assert not password_matches(user, f"{username}-demo")
