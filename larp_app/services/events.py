"""Create events and read their settings."""

from __future__ import annotations

import json
import secrets
from functools import lru_cache
from typing import Any

from .. import rules
from ..extensions import db
from ..models import Event
from .clock import now_utc


def create_event(name: str, ruleset: str, settings: dict[str, Any] | None = None) -> Event:
    """Create an event; InvalidInput names each bad field (name, ruleset, settings.*).

    Without a turn length the event takes its rule system's, stored with its settings. Every
    new event gets a dice secret (kept on the server, never sent to a phone or a referee): the
    app's rolls depend on it, so no client can foresee or steer them.
    """
    checker = rules.Checker()
    clean_name = checker.text({"name": name}, "name", "name")
    settings = {} if settings is None else settings
    if not ruleset:  # no default rule system: the organiser chooses one
        checker.error("ruleset", "required")
    elif ruleset not in rules.ruleset_keys():
        checker.error("ruleset", "unknown_ruleset", got=str(ruleset), allowed=rules.ruleset_keys())
    else:
        if isinstance(settings, dict):  # anything else: read_settings names the problem
            settings = {
                "turn_seconds": rules.get_ruleset(ruleset).turn_seconds,
                "secret": secrets.token_hex(16),
                **settings,
            }
        try:
            rules.read_settings(settings, ruleset)
        except rules.InvalidInput as exc:
            checker.errors += [
                rules.Problem(f"settings.{p.path}", p.code, p.params) for p in exc.problems
            ]
    checker.raise_if_errors()
    event = Event(name=clean_name, ruleset=ruleset, settings=settings, created_at=now_utc())
    db.session.add(event)
    db.session.flush()
    return event


def event_settings(event: Event) -> rules.Settings:
    return settings_read(event.ruleset, json.dumps(event.settings or {}, sort_keys=True))


@lru_cache(maxsize=64)
def settings_read(ruleset: str, settings_json: str) -> rules.Settings:
    """An event's settings (its rule system's key, its settings as JSON with sorted keys:
    keeping/records.py ``settings_key_of``), read once per worker for each distinct version."""
    return rules.read_settings(json.loads(settings_json), ruleset)


def change_settings(event: Event, raw: dict[str, Any]) -> None:
    """Store new settings and re-convert every character with them, or change nothing.

    InvalidInput names each bad setting, or each character (``characters[id].field``)
    whose sheet the new tables would no longer accept. The event's dice secret stays unless
    ``raw`` gives one (the settings form never shows it).
    """
    secret = (event.settings or {}).get("secret")
    if secret and "secret" not in raw:
        raw = {**raw, "secret": secret}
    settings = rules.read_settings(raw, event.ruleset)
    problems, converted = [], []
    for character in event.characters:
        sheet, checker = rules.check_sheet(character.tabletop, settings, character.tabletop)
        problems += [
            rules.Problem(f"characters[{character.id}].{p.path}", p.code, p.params)
            for p in checker.errors
        ]
        converted.append((character, sheet))
    if problems:
        raise rules.InvalidInput(problems)
    event.settings = raw
    for character, sheet in converted:
        character.larp = sheet.to_dict()
    db.session.flush()


def shipped_tables(ruleset: str) -> dict[str, Any]:
    """The house-default tables, as an organiser would edit them."""
    return {name: rules.shipped_table(ruleset, name) for name in rules.get_ruleset(ruleset).tables}


def status_catalogue(event: Event) -> dict:
    """The statuses or conditions (as its rule system calls them) referees apply at this event."""
    return event_settings(event).tables[rules.get_ruleset(event.ruleset).catalogue]


def archive_event(event: Event, archived: bool = True) -> None:
    """Make an event read-only and take it out of the referees' roster (or open it again)."""
    event.archived_at = now_utc() if archived else None
    db.session.flush()
