"""The demo: an EX Nihilo event with 24 made-up characters, a Sistema Athkri event with 12,
and two demo accounts."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

from flask import current_app
from sqlalchemy import select

from ..extensions import db
from ..models import Event, User
from .characters import import_sheets
from .events import create_event
from .users import create_user

EVENT_NAME = "EX Nihilo — Demo"
RULESET = "ex-nihilo"
CAST_FILE = "ex-nihilo-cast.json"
ATHKRI_EVENT_NAME = "Sistema Athkri — Demo"
ATHKRI_RULESET = "athkri"
ATHKRI_CAST_FILE = "athkri-cast.json"
# The app rolls the saves, from the event's own secret (made when the event is): no known seed.
ATHKRI_SETTINGS: dict[str, Any] = {}
# (username, role); each gets a fresh random password when made, printed once by `flask demo`
# (config DEMO_PASSWORDS, {username: password}, fixes them instead: the tests do).
LOGINS = (("organiser", "organiser"), ("referee", "referee"))


@dataclass(frozen=True)
class DemoResult:
    created: bool  # False when everything was already there
    event_id: int  # the EX Nihilo demo event
    logins: tuple[tuple[str, str], ...]  # (username, password) of each account made now
    athkri_event_id: int | None = None  # the Sistema Athkri demo event


def _cast(file_name: str) -> list[dict[str, Any]]:
    text = resources.files("larp_app").joinpath("demo", file_name).read_text(encoding="utf-8")
    return json.loads(text)


def demo_sheets() -> list[dict[str, Any]]:
    """The demo cast: EX Nihilo tabletop sheets, as shipped with the app."""
    return _cast(CAST_FILE)


def athkri_demo_sheets() -> list[dict[str, Any]]:
    """The Athkri demo cast: Sistema Athkri tabletop sheets, as shipped with the app."""
    return _cast(ATHKRI_CAST_FILE)


def _demo_event(
    name: str, ruleset: str, sheets: list[dict[str, Any]], settings: dict[str, Any] | None = None
) -> tuple[Event, bool]:
    """The demo event called ``name``, created with its cast when missing; (event, created)."""
    event = db.session.scalar(select(Event).where(Event.name == name).order_by(Event.id))
    if event is not None:
        return event, False
    event = create_event(name, ruleset, settings)
    import_sheets(event, sheets)
    return event, True


def load_demo() -> DemoResult:
    """Create the demo events, their casts and the demo accounts, each only when missing.

    Each demo event is found by its name. An account that already exists is left as it is;
    one made now gets a random password (returned in ``logins``, never stored in clear).
    Flushes; the caller commits.
    """
    event, created = _demo_event(EVENT_NAME, RULESET, demo_sheets())
    athkri, athkri_created = _demo_event(
        ATHKRI_EVENT_NAME, ATHKRI_RULESET, athkri_demo_sheets(), dict(ATHKRI_SETTINGS)
    )
    created = created or athkri_created
    fixed = current_app.config.get("DEMO_PASSWORDS") or {}
    logins = []
    for username, role in LOGINS:
        if db.session.scalar(select(User).where(User.username == username)) is None:
            _user, password, _token = create_user(
                username, role, fixed.get(username), token_label=None
            )
            logins.append((username, password))
            created = True
    db.session.flush()
    return DemoResult(
        created=created, event_id=event.id, logins=tuple(logins), athkri_event_id=athkri.id
    )
