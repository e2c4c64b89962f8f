"""A phone's outbox reaching the server: each entry stored once, or refused in words.

A phone that was offline sends what it logged, oldest first. Each entry is recorded on its
own (``record_entry``): an id stored before answers as before, so an outbox sent twice stores
nothing twice; an entry that became impossible meanwhile is refused and kept for the
organiser's board.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from .. import rules
from ..extensions import db
from ..messages import problem_message, refusal_message
from ..models import Character, RefusedEntry, User
from .clock import now_utc
from .entries import record_entry


def _refuse(user: User, character: Character, item: dict, code: str, message: str) -> dict:
    fields = _kept(item)
    db.session.add(
        RefusedEntry(
            at=now_utc(),
            client_id=str(item.get("id", ""))[:36],
            character_id=character.id,
            user_id=user.id,
            fields=fields,
            code=code[:40],
            message=message[:400],
        )
    )
    db.session.flush()
    return {"id": item.get("id"), "status": "refused", "code": code, "message": message}


def sync_one(user: User, item: Any) -> dict[str, Any]:
    """Record one outbox item ``{character, id, kind, at, sent_at, ...}``; say what became of it.

    ``stored`` or ``duplicate`` (stored before) with the entry and the character's state;
    ``refused`` with a code and a sentence; ``unknown_character`` when there is no such
    character. Flushes; the caller commits.
    """
    if not isinstance(item, dict):
        return {"id": None, "status": "invalid", "message": "each item must be an object"}
    character = db.session.get(Character, item.get("character")) if _is_id(item) else None
    if character is None:
        return {"id": item.get("id"), "status": "unknown_character"}
    entry = {k: v for k, v in item.items() if k != "character"}
    first = _refused_before(item.get("id"), character)
    if first is not None:  # the phone missed the answer: the same one again, listed once
        return {
            "id": first.client_id,
            "status": "refused",
            "code": first.code,
            "message": first.message,
        }
    if entry.get("kind") == "revive" and user.role != "organiser":
        return _refuse(user, character, item, "forbidden", refusal_message("only_organisers", {}))
    try:
        recorded = record_entry(character, entry, user)
    except rules.RuleError as refused:
        return _refuse(
            user, character, item, refused.code, refusal_message(refused.code, refused.params)
        )
    except rules.InvalidInput as invalid:
        message = "; ".join(problem_message(p) for p in invalid.problems)
        return _refuse(user, character, item, "invalid", message)
    return {
        "id": recorded.fields["id"],
        "status": "stored" if recorded.created else "duplicate",
        "entry": recorded.fields,
        "state": recorded.snapshot.to_dict(),
    }


def _refused_before(client_id: Any, character: Character) -> RefusedEntry | None:
    if not isinstance(client_id, str):
        return None
    return db.session.scalar(
        select(RefusedEntry).where(
            RefusedEntry.client_id == client_id, RefusedEntry.character_id == character.id
        )
    )


def _is_id(item: dict) -> bool:
    value = item.get("character")
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**31


KEPT_FIELDS, KEPT_TEXT = 20, 200  # a refused entry is kept small, whatever was sent


def _kept(item: dict) -> dict[str, Any]:
    """The refused item's fields as kept for the board: plain values, long text cut short."""
    kept: dict[str, Any] = {}
    for key, value in item.items():
        if len(kept) >= KEPT_FIELDS:
            break
        if key == "character" or not isinstance(key, str) or len(key) > 40:
            continue
        if isinstance(value, str):
            kept[key] = value[:KEPT_TEXT]
        elif value is None or isinstance(value, bool | int | float):
            kept[key] = value
    return kept
