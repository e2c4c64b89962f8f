"""The demo: an EX Nihilo event with 24 made-up characters and two demo accounts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from sqlalchemy import select

from ..extensions import db
from ..models import Event, User
from .characters import import_sheets
from .events import create_event
from .users import create_user

EVENT_NAME = "EX Nihilo — Demo"
RULESET = "ex-nihilo"
CAST_FILE = "ex-nihilo-cast.json"
# Fixed and published: the demo is for trying the app out, never for a real event.
LOGINS = (("organiser", "organiser", "organiser-demo"), ("referee", "referee", "referee-demo"))


@dataclass(frozen=True)
class DemoResult:
    created: bool  # False when everything was already there
    event_id: int
    logins: tuple[tuple[str, str], ...]  # (username, password) of each demo account


def demo_sheets() -> list[dict[str, Any]]:
    """The demo cast: EX Nihilo tabletop sheets, as shipped with the app."""
    text = resources.files("larp_app").joinpath("demo", CAST_FILE).read_text(encoding="utf-8")
    return json.loads(text)


def load_demo() -> DemoResult:
    """Create the demo event, its cast and the demo accounts, each only when missing.

    The demo event is found by its name. An account that already exists is left as it is.
    Flushes; the caller commits.
    """
    created = False
    event = db.session.scalar(select(Event).where(Event.name == EVENT_NAME).order_by(Event.id))
    if event is None:
        event = create_event(EVENT_NAME, RULESET)
        import_sheets(event, demo_sheets())
        created = True
    for username, role, password in LOGINS:
        if db.session.scalar(select(User).where(User.username == username)) is None:
            create_user(username, role, password)
            created = True
    db.session.flush()
    return DemoResult(
        created=created,
        event_id=event.id,
        logins=tuple((username, password) for username, _, password in LOGINS),
    )
