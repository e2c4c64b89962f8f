"""Entries the server refused: put in the reader's words, and accepted by an organiser.

An entry dated further back than the event's window (a phone offline for a weekend) is
refused as ``too_old`` and kept; an organiser who knows it is genuine accepts it, and it
is judged by the rules like any entry, at its own instant.
"""

from __future__ import annotations

from datetime import timedelta

from .. import rules
from ..extensions import db
from ..messages import problem_message, refusal_message
from ..models import RefusedEntry, User
from .entries import Recorded, entry_window, record_entry

ACCEPTABLE = frozenset({"too_old"})
ANY_AGE = timedelta(days=365 * 100)


def refusal_words(row: RefusedEntry) -> str:
    """Why the entry was refused, in the current language (the code and its parameters)."""
    if row.params is None:
        return row.message  # kept before codes were: in the sender's language
    if row.code == "invalid":
        problems = [rules.Problem(**p) for p in row.params.get("problems", [])]
        return "; ".join(problem_message(p) for p in problems) or row.message
    return refusal_message(row.code, row.params, row.character.event.ruleset)


def accept_refusal(row: RefusedEntry, organiser: User) -> Recorded:
    """Store a refused entry an organiser vouches for, at the instant the phone meant.

    Its author stays the referee who logged it. The rules still judge it: RuleError says
    why it cannot count (and is kept as the new refusal).
    """
    if row.code not in ACCEPTABLE:
        raise rules.RuleError("not_acceptable", code=row.code)
    fields = dict(row.fields)
    sent_at = fields.pop("sent_at", None)
    at = rules.parse_instant(fields["at"])
    if sent_at is not None:  # the phone's clock error, as when it was first received
        at += row.at - rules.parse_instant(sent_at)
    fields["at"] = rules.format_instant(at)
    author = db.session.get(User, row.user_id) if row.user_id else organiser
    character = row.character
    db.session.delete(row)
    db.session.flush()
    future, _age = entry_window(character)
    return record_entry(character, fields, author, limits=(future, ANY_AGE))
