"""Fixtures of the web level."""

import pytest

from larp_app.extensions import db
from larp_app.services.users import create_user


@pytest.fixture
def tokens(app):
    """An organiser's and a referee's API tokens, by role."""
    with app.app_context():
        made = {role: create_user(f"{role}-1", role)[2] for role in ("organiser", "referee")}
        db.session.commit()
    return made
