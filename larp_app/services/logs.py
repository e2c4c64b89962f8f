"""A character's log as the engine reads it, cached per worker (the log is append-only)."""

from __future__ import annotations

from collections import OrderedDict

from flask import current_app
from sqlalchemy import select

from .. import rules
from ..extensions import db
from ..models import Character, Entry


class LogCache:
    """Entries already read, by row id, for the characters most recently asked about.

    The log is append-only, so an entry read once never changes: each request reads only
    the ids of a character's log and the rows this worker has not seen yet. Ids, not a
    "last id seen", because PostgreSQL may commit a lower id after a higher one; each with
    its client id, because SQLite gives a rolled-back row's id to the next row.
    """

    def __init__(self, characters: int = 2000):
        self.characters = characters
        self.known: OrderedDict[int, dict[int, rules.Entry]] = OrderedDict()

    def log(self, character_id: int) -> list[rules.Entry]:
        known = self.known.pop(character_id, None) or {}
        self.known[character_id] = known
        if len(self.known) > self.characters:
            self.known.popitem(last=False)
        stored = db.session.execute(
            select(Entry.id, Entry.client_id)
            .where(Entry.character_id == character_id)
            .order_by(Entry.id)
        ).all()
        ids = [row_id for row_id, _ in stored]
        missing = [i for i, client_id in stored if i not in known or known[i].id != client_id]
        if missing:
            rows = db.session.execute(select(Entry.id, Entry.fields).where(Entry.id.in_(missing)))
            known.update((row_id, rules.entry_from_stored(fields)) for row_id, fields in rows)
        return [known[i] for i in ids]


def log_of(character: Character) -> list[rules.Entry]:
    """The character's entries in arrival order, as the engine reads them."""
    cache = current_app.extensions.setdefault("larp_log_cache", LogCache())
    return cache.log(character.id)
