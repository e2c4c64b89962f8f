"""A phone's outbox reaching the server: each entry stored once, or refused in words.

A phone that was offline sends what it logged, oldest first, and only the entries of the
user logged in: each item says its ``author``, and one that names someone else is not
stored but held (``held``, kept for the organiser's board) until its author sends it.
Each entry is recorded on its own by ``record_entry``, the same rule as the API's: an id
stored before answers as before, so an outbox sent twice stores nothing twice; an id
refused before gets the same refusal; an entry that became impossible meanwhile is refused
and kept for the organiser's board. Invalid input is refused too, but is no final answer:
the same id sent again corrected is judged afresh, as on the API.
"""

from __future__ import annotations

from types import EllipsisType
from typing import Any

from .. import rules
from ..messages import problem_message, refusal_message
from ..models import User
from ..rules.wire import state_to_wire
from .assignments import works
from .entries import keep_refusal, locked_character, record_entry


def _refused(item: dict, code: str, message: str) -> dict:
    return {"id": item.get("id"), "status": "refused", "code": code, "message": message}


def sync_one(user: User, item: Any, worked: set[int] | EllipsisType | None = ...) -> dict[str, Any]:
    """Record one outbox item ``{character, id, kind, at, sent_at, ...}``; say what became of it.

    ``stored`` or ``duplicate`` (stored before) with the entry and the character's state;
    ``refused`` with a code and a sentence; ``unknown_character`` when there is no such
    character. ``worked``: the user's ``assigned_events``, read once for a batch. Flushes;
    the caller commits.
    """
    if not isinstance(item, dict):
        return {"id": None, "status": "invalid", "message": "each item must be an object"}
    character = locked_character(item["character"], item.get("id")) if _is_id(item) else None
    if character is None:
        return {"id": item.get("id"), "status": "unknown_character"}
    entry = {k: v for k, v in item.items() if k != "character"}
    if not works(user, character.event, worked):
        params = {"event": character.event.name}
        message = refusal_message("not_your_event", params)
        keep_refusal(character, _kept(entry), user, "not_your_event", params, message)
        return _refused(item, "not_your_event", message)
    if not rules.may_log(entry.get("kind"), user.role):  # e.g. only organisers revive
        message = refusal_message("only_organisers", {})
        keep_refusal(character, _kept(entry), user, "forbidden", {}, message)
        return _refused(item, "forbidden", message)
    try:
        recorded = record_entry(character, entry, user)
    except rules.RuleError as refused:
        words = refusal_message(refused.code, refused.params, character.event.ruleset)
        answer = _refused(item, refused.code, words)
        if refused.code == "not_the_author":  # kept on the phone for its author to send
            answer["status"] = "held"
        return answer
    except rules.InvalidInput as invalid:
        message = "; ".join(problem_message(p) for p in invalid.problems)
        if isinstance(item.get("id"), str):
            problems = [p.to_dict() for p in invalid.problems]
            keep_refusal(character, _kept(entry), user, "invalid", {"problems": problems}, message)
        return _refused(item, "invalid", message)
    return {
        "id": recorded.fields["id"],
        "status": "stored" if recorded.created else "duplicate",
        "entry": recorded.fields,
        # With its inner values: the phone's fold goes on from it offline.
        "state": {**recorded.snapshot.to_dict(), "fold": state_to_wire(recorded.snapshot.state)},
    }


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
