"""A character's log as the engine reads it, cached per worker (the log is append-only)."""

from __future__ import annotations

from collections import OrderedDict

from flask import current_app
from sqlalchemy import bindparam, select

from .. import rules
from ..extensions import db
from ..models import Character, Entry

# Statements of every entry and poll, built once: building one costs more than running it.
LOG_IDS = (
    select(Entry.id, Entry.client_id)
    .where(Entry.character_id == bindparam("character"))
    .order_by(Entry.id)
)
ENTRY_FIELDS = select(Entry.id, Entry.fields).where(Entry.id.in_(bindparam("ids", expanding=True)))


def run(statement, params: dict):
    """Run a Core statement of the log in the session's transaction, past the ORM's layer
    (half the cost): these read and write only the ``entry`` and ``refused_entry`` tables,
    whose rows the session never holds unflushed (``keep_refusal`` flushes)."""
    return db.session.connection().execute(statement, params)


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

    def log(self, character_id: int, ruleset: str | None = None) -> list[rules.Entry]:
        """The log of a character of ``ruleset``, whose kinds its entries are."""
        return self.log_and_last_row(character_id, ruleset)[0]

    def log_and_last_row(
        self, character_id: int, ruleset: str | None = None
    ) -> tuple[list[rules.Entry], int | None]:
        """``log``, and the row id of its last entry (None: no entry)."""
        known = self.known.pop(character_id, None) or {}
        self.known[character_id] = known
        if len(self.known) > self.characters:
            self.known.popitem(last=False)
        stored = run(LOG_IDS, {"character": character_id}).all()
        ids = [row_id for row_id, _ in stored]
        missing = [i for i, client_id in stored if i not in known or known[i].id != client_id]
        if missing:
            rows = run(ENTRY_FIELDS, {"ids": missing})
            known.update(
                (row_id, rules.entry_from_stored(fields, ruleset)) for row_id, fields in rows
            )
        return [known[i] for i in ids], (ids[-1] if ids else None)

    def add(self, character_id: int, row_id: int, entry: rules.Entry) -> None:
        """An entry this worker has just stored: not read back by its next request here."""
        known = self.known.get(character_id)
        if known is not None:
            known[row_id] = entry


def log_cache() -> LogCache:
    return current_app.extensions.setdefault("larp_log_cache", LogCache())


def log_of(character: Character) -> list[rules.Entry]:
    """The character's entries in arrival order, as the engine reads them."""
    return log_cache().log(character.id, character.event.ruleset)
