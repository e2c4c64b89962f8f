"""The demo loader: one EX Nihilo event, 24 characters, two accounts, idempotent."""

from sqlalchemy import func, select

from larp_app.extensions import db
from larp_app.models import Character, Event, User
from larp_app.services.characters import larp_sheet
from larp_app.services.demo import EVENT_NAME, load_demo
from larp_app.services.users import password_matches


def counts() -> tuple[int, int, int]:
    return tuple(
        db.session.scalar(select(func.count()).select_from(model))
        for model in (Event, Character, User)
    )


def test_demo_creates_event_cast_and_users(app):
    with app.app_context():
        result = load_demo()
        db.session.commit()
        assert result.created
        event = db.session.get(Event, result.event_id)
        assert event.name == EVENT_NAME
        assert event.ruleset == "ex-nihilo"
        assert len(event.characters) == 24
        assert counts() == (1, 24, 2)
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
        assert second.logins == first.logins
        assert counts() == (1, 24, 2)


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
