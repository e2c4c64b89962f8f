"""Create events and read their settings."""

from __future__ import annotations

from typing import Any

from .. import rules
from ..extensions import db
from ..models import Event
from .clock import now_utc


def create_event(name: str, ruleset: str, settings: dict[str, Any] | None = None) -> Event:
    """Create an event; InvalidInput names each bad field (name, ruleset, settings.*)."""
    checker = rules.Checker()
    clean_name = checker.text({"name": name}, "name", "name")
    if ruleset not in rules.ruleset_keys():
        checker.error("ruleset", "unknown_ruleset", got=str(ruleset), allowed=rules.ruleset_keys())
    else:
        try:
            rules.read_settings(settings or {}, ruleset)
        except rules.InvalidInput as exc:
            checker.errors += [
                rules.Problem(f"settings.{p.path}", p.code, p.params) for p in exc.problems
            ]
    checker.raise_if_errors()
    event = Event(name=clean_name, ruleset=ruleset, settings=settings or {}, created_at=now_utc())
    db.session.add(event)
    db.session.flush()
    return event


def event_settings(event: Event) -> rules.Settings:
    return rules.read_settings(event.settings, event.ruleset)
