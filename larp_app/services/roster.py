"""What a referee's phone keeps to scan and log with no signal: the phone's roster.

Every event with its catalogue and settings, every character with what the console needs
and its last state, and the badges as salted SHA-256 hashes of their secrets and short
codes, never the secrets: a lost phone names characters but cannot make a badge.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import selectinload

from .. import rules
from ..extensions import db
from ..models import Badge, Character, Event
from .entries import state_of
from .events import event_settings, status_catalogue


def badge_hash(event_id: int, presented: str) -> str:
    """The hash a phone looks a badge up by: of its secret, or of its short code as stored.

    The phone computes the same from what it reads (static/js/lib/roster.js).
    """
    return hashlib.sha256(f"larp_app:{event_id}:{presented}".encode()).hexdigest()


def in_language(texts: dict, locale: str, fallback: str) -> str:
    """A text in the UI language, else in the ruleset's own language, else any."""
    texts = {k: v for k, v in texts.items() if isinstance(v, str)}
    return texts.get(locale) or texts.get(fallback) or next(iter(texts.values()), "")


def _statuses(event: Event, locale: str) -> list[dict]:
    """The catalogue as the status picker shows it: name in the UI language, default time."""
    fallback = rules.get_ruleset(event.ruleset).language
    settings = event_settings(event)
    return [
        {
            "key": status.key,
            "name": in_language(status.texts.get("name", {}), locale, fallback) or status.key,
            "seconds": None if status.turns is None else status.turns * settings.turn_seconds,
        }
        for status in status_catalogue(event).values()
    ]


def _checks(event: Event, locale: str) -> list[dict]:
    """The catalogue entries with a random check the app rolls on demand (Athkri conditions).

    Each: key, name, die; a d100 ``table`` of rows {from, to, text} (and a ``note``), or
    ``fails_at_or_below`` with ``text``, what a failure means. Texts in the UI language, else
    in the ruleset's own (Spanish for Athkri).
    """
    fallback = rules.get_ruleset(event.ruleset).language
    checks = []
    for status in status_catalogue(event).values():
        check = status.texts.get("check")
        if not isinstance(check, dict):
            continue
        item = {
            "key": status.key,
            "name": in_language(status.texts.get("name", {}), locale, fallback) or status.key,
            "die": check.get("die", "d100"),
        }
        if "table" in check:
            item["table"] = [
                {"from": row["from"], "to": row["to"], "text": in_language(row, locale, fallback)}
                for row in check["table"]
            ]
            item["note"] = in_language(check.get("note") or {}, locale, fallback)
        else:
            item["fails_at_or_below"] = check.get("fails_at_or_below")
            item["text"] = in_language(
                {k: v for k, v in check.items() if k != "die"}, locale, fallback
            )
        checks.append(item)
    return checks


def event_kit(event: Event, locale: str) -> dict[str, Any]:
    settings = event_settings(event)
    return {
        "id": event.id,
        "name": event.name,
        "ruleset": event.ruleset,
        "turn_seconds": settings.turn_seconds,
        "saves": settings.saves,
        "roster_max_age_minutes": settings.roster_max_age_minutes,
        "statuses": _statuses(event, locale),
        "checks": _checks(event, locale),
    }


def character_kit(character: Character, at: datetime) -> dict[str, Any]:
    snapshot = state_of(character, at).to_dict()
    del snapshot["at"]  # so that an unchanged roster keeps its ETag
    return {
        "id": character.id,
        "event_id": character.event_id,
        "name": character.name,
        "player": character.player,
        "faction": character.faction,
        # Spending lists what costs energy; passive or free advancements need no entry.
        "advancements": [
            {"name": a["name"], "energy_cost": a["energy_cost"]}
            for a in character.larp.get("advancements", [])
            if a.get("energy_cost", 0) > 0 and not a.get("passive")
        ],
        "state": snapshot,
    }


def phone_roster(locale: str, at: datetime) -> dict[str, Any]:
    """Every open event, its characters still in play and their active badges, as a referee's
    phone keeps them offline."""
    # An archived event is read-only: none of it goes to the phones.
    events = db.session.scalars(
        select(Event).where(Event.archived_at.is_(None)).order_by(Event.id)
    ).all()
    open_events = select(Event.id).where(Event.archived_at.is_(None))
    characters = db.session.scalars(
        select(Character)
        .options(selectinload(Character.event))
        .where(Character.event_id.in_(open_events), Character.withdrawn_at.is_(None))
        .order_by(Character.id)
    ).all()
    badges = db.session.execute(
        select(Badge.secret, Badge.short_code, Character.id, Character.event_id)
        .join(Character, Badge.character_id == Character.id)
        .where(
            Badge.revoked_at.is_(None),
            Character.event_id.in_(open_events),
            Character.withdrawn_at.is_(None),
        )
    ).all()
    return {
        "events": [event_kit(e, locale) for e in events],
        "characters": [character_kit(c, at) for c in characters],
        "badges": {
            badge_hash(event_id, text): character_id
            for secret, short_code, character_id, event_id in badges
            for text in (secret, short_code)
        },
    }
