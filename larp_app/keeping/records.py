"""A character's record: its log folded once per worker and kept, so a state costs what
changed.

A character's *record* is its log folded to the last entry (``rules.Folded``) with the
character's version and the event settings it was computed from; the state at any instant
from the last entry on is that record advanced in time (``rules.snapshot_at``), pure and
cheap. An entry, a new sheet or new settings raise the character's version (the
database's triggers, whoever writes: keeping/versions.py), and the next reader folds that
character again, and only it. An entry's write folds on from the worker's record instead
(``fold_before``) and keeps the new record once its transaction commits
(``keep_after_commit``). A record is a cache: dropping every one changes no answer
(tests/web/test_snapshots.py proves it against the full fold).

A record is compact: the fold's state and the answer's data, and of the character's sheet
only what a fold reads (``rules.wire.fold_sheet``: its figures, its advancements' costs,
the details its rule system's fold reads), with which the record is folded on, stepped in
time and answered. The whole sheet (its texts, what only its pages show) is parsed again
from the stored larp sheet when the full path needs it; a few hundred parsed ones are kept,
the most recently used (a 10,000-character event would otherwise hold every sheet in every
worker). A sheet whose stored text is the one a record was folded with (known by the
text's digest) is not parsed again to fold that record on.

An event's views (keeping/views.py) are made of these records. Both are forgotten at once
when the database's epoch moves (a restore, a rewritten log: keeping/known.py drops them).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property, lru_cache
from typing import Any

from flask import current_app
from sqlalchemy import String, and_, bindparam, cast, select, text
from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session

from .. import rules
from ..extensions import db
from ..models import Character, Entry, Event
from ..rules.wire import fold_sheet, sheet_to_wire, state_to_wire
from ..services.events import event_settings, settings_read
from . import tags
from .logs import log_cache, log_of
from .tags import micros
from .versions import UNCOMMITTED, uncommitted

KEPT_CONTEXTS = 512  # parsed sheets kept per worker, the most recently used


def settings_key(event: Event) -> str:
    return settings_key_of(event.settings)


def settings_key_of(settings: dict | None) -> str:
    return json.dumps(settings or {}, sort_keys=True)


@lru_cache(maxsize=64)
def settings_key_of_text(settings_text: str | None) -> str:
    """``settings_key_of`` the settings' stored text (a few events' settings: kept)."""
    return settings_key_of(json.loads(settings_text or "{}"))


@dataclass
class Record:
    """A character's log folded once, and its state at the view's instant."""

    version: int
    settings: str
    wire_sheet: dict[str, Any]  # what the phone's fold reads of the sheet (rules.wire)
    # Its sheet as a fold reads it (rules.wire.fold_sheet) with the settings: what the
    # record is folded on, stepped and answered with.
    ctx: rules.Context
    folded: rules.Folded
    conflict_entries: dict[str, rules.Entry]  # the entries the fold refused, by id
    snapshot: rules.Snapshot | None = None  # at the view's instant
    stamp: datetime | None = None  # the latest change at or before that instant
    stamp_us: int = 0  # the same in microseconds since the epoch (0: none), as tokens say it
    due: datetime | None = None  # the next change after it
    state_json: dict | None = None  # the snapshot as data, without its instant
    fold_json: dict | None = None  # the state's inner values, for the phone's fold (rules.wire)
    html: dict[str, str] = field(default_factory=dict)  # board rows, by locale
    roster_json: str | None = None  # its line of the phones' roster, as JSON text
    # The row id of the log's last entry and the digest of the sheet it was folded with
    # (KeptContext): the entries stored after that row are folded on from here.
    last_row: int | None = None
    sheet_digest: bytes | None = None
    # A poll's answer: (from, until, the last change): between the two instants the state's
    # last change is this one, so a poll then is answered from memory (``known_change``).
    poll: tuple[datetime, datetime | None, datetime | None] | None = None
    # The character's name, player and faction at this version, when read with it (the quick
    # answers' catch-up): a player's page made from it reads them no more. None: not read.
    who: tuple[str, str, str | None] | None = None
    # Answers rendered once (keeping/answers.py): (tag, what, encoding) -> bytes, of one tag
    # at a time (the state's latest).
    answers: dict[tuple, Any] = field(default_factory=dict)

    @property
    def sheet(self) -> rules.LarpSheet:
        """The sheet as a fold reads it (what a kept snapshot shows)."""
        return self.ctx.sheet

    def answer(self, key: tuple) -> Any:
        return self.answers.get(key)

    def keep_answer(self, key: tuple, data: Any) -> None:
        """Keep ``data`` under ``key`` (its tag first); those of another tag go (replaced
        whole: a reader holds one dict or the other, never a mix)."""
        kept = self.answers
        if kept and next(iter(kept))[0] != key[0]:
            kept = {}
        self.answers = {**kept, key: data}

    def at(
        self,
        ctx: rules.Context,
        now: datetime,
        log: list[rules.Entry] | None = None,
        committed: bool = True,
    ) -> None:
        """Advance to ``now``; an entry dated later (a phone's clock) needs the log again.
        ``committed``: the record is of committed rows, so a poll may be answered from it
        until its next change (``poll``)."""
        last = self.folded.last_at
        if last is None or last <= now:
            snapshot = rules.snapshot_at(self.folded, ctx, now)
            self.stamp, until = rules.last_and_next_change(self.folded, ctx, now)
            if committed:
                self.poll = (now, until, self.stamp)
            due = rules.next_change(snapshot.state, ctx)
            self.due = None if due is None else max(due, now + rules.fold.TICK)
        else:
            snapshot = rules.snapshot_at(rules.fold_log(ctx, log, now), ctx, now)
            self.stamp = now  # said changed: the client asks again; rare and brief
            due = rules.next_change(snapshot.state, ctx)
            self.due = min(
                [e.at for e in log if e.at > now]
                + ([] if due is None else [max(due, now + rules.fold.TICK)])
            )
        self.stamp_us = 0 if self.stamp is None else micros(self.stamp)
        self.snapshot = replace(snapshot, sheet=self.sheet)  # kept without the whole sheet
        self.state_json = self.snapshot.to_dict()
        del self.state_json["at"]
        self.fold_json = state_to_wire(self.snapshot.state)
        self.html.clear()
        self.roster_json = None


def fold_record(
    sheet: KeptContext,
    version: int,
    log: list[rules.Entry] | None,
    folded: rules.Folded | None = None,
    conflicts: dict[str, rules.Entry] | None = None,
    last_row: int | None = None,
    forms: tuple[dict[str, Any], rules.Context] | None = None,
) -> Record:
    """The record of ``log`` folded with ``sheet``; ``folded``: already folded whole by the
    caller, and ``conflicts``, the entries it refused, when ``log`` was not read; ``forms``:
    the sheet's as a record keeps them (``KeptContext.forms``), when known already."""
    folded = rules.fold_log(sheet.ctx, log) if folded is None else folded
    if conflicts is None:
        refused = {c.id for c in folded.conflicts}
        conflicts = {e.id: e for e in log if e.id in refused}
    wire_sheet, ctx = sheet.forms() if forms is None else forms
    return Record(
        version=version,
        settings=sheet.settings,
        wire_sheet=wire_sheet,
        ctx=ctx,
        folded=folded,
        conflict_entries=conflicts,
        last_row=last_row,
        sheet_digest=sheet.digest,
    )


# Characters whose entries since are read in one statement: SQLite refuses an expression
# nested deeper than 1,000, and each character's range is one level of its OR.
RANGES_AT_ONCE = 400


def rows_after(last_rows: dict[int, int], ruleset: str) -> dict[int, list]:
    """The entries stored after each character's row (``last_rows``), as (row id, entry),
    in arrival order: one query for a few hundred characters."""
    found: dict[int, list] = {}
    asked = list(last_rows.items())
    for start in range(0, len(asked), RANGES_AT_ONCE):
        _read_rows_after(asked[start : start + RANGES_AT_ONCE], ruleset, found)
    return found


def _read_rows_after(last_rows: list[tuple[int, int]], ruleset: str, found: dict) -> None:
    # Each character's own range of rows (the index on (character_id, id) holds its rows in
    # order, on either database): never the rows of the others after its last one. Written as
    # text: a worker warming up asks it for thousands of characters, and expressions made
    # one by one cost it half a second per 10,000.
    ranges, params = [], {}
    for n, (character_id, row_id) in enumerate(last_rows):
        ranges.append(f"(character_id = :c{n} AND id > :r{n})")
        params[f"c{n}"], params[f"r{n}"] = character_id, row_id
    query = text(
        f"SELECT character_id, id, fields FROM entry WHERE {' OR '.join(ranges)} ORDER BY id"
    ).columns(Entry.character_id, Entry.id, Entry.fields)
    for character_id, row_id, fields in db.session.execute(query, params):
        found.setdefault(character_id, []).append(
            (row_id, rules.entry_from_stored(fields, ruleset))
        )


def folded_on(record: Record, sheet: KeptContext, version: int, rows: list) -> Record | None:
    """``record`` at ``version`` with ``rows`` (the entries stored after its last row)
    folded on; None when one of them cannot be (an undo, a late entry: fold it whole)."""
    folded, conflicts, last_row = record.folded, record.conflict_entries, record.last_row
    for row_id, entry in rows:
        folded = rules.fold_on(folded, entry, sheet.ctx)
        if folded is None:
            return None
        if folded.conflicts and folded.conflicts[-1].id == entry.id:
            conflicts = {**conflicts, entry.id: entry}  # refused with the same sheet: rare
        last_row = row_id
    # The same sheet and settings as the record's: its forms are the sheet's, made once.
    same = record.sheet_digest == sheet.digest and record.settings == sheet.settings
    forms = (record.wire_sheet, record.ctx) if same else None
    return fold_record(sheet, version, None, folded, conflicts, last_row, forms)


def larp_digest(larp: dict) -> bytes:
    """A larp sheet's content, as a short digest: two parses with the same one are alike."""
    text = json.dumps(larp, sort_keys=True, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


class LarpDigests:
    """``larp_digest`` of larp sheets parsed from stored text, found by the text's own
    blake2b: a text seen before is not written again with sorted keys to find it (for a day's
    sheet of 5 KB, 3 µs against 50; an event's view and its player pages read sheets no
    longer kept parsed all day). A pure function's values: never stale, whoever writes. The
    most recent ``most``, about 200 bytes each."""

    def __init__(self, most: int = 16_384):
        self.most = most
        self.known: dict[bytes, bytes] = {}
        self.lock = threading.Lock()

    @staticmethod
    def _key(larp_text: str) -> bytes:
        return hashlib.blake2b(larp_text.encode(), digest_size=16).digest()

    def of(self, larp_text: str, larp: dict) -> bytes:
        """The digest of ``larp``, parsed from ``larp_text``."""
        key = self._key(larp_text)
        found = self.known.get(key)
        if found is None:
            found = larp_digest(larp)
            with self.lock:
                while len(self.known) >= self.most:
                    del self.known[next(iter(self.known))]
                self.known[key] = found
        return found

    def of_text(self, larp_text: str) -> bytes | None:
        """The digest of the larp sheet stored as ``larp_text``, when known (no parse)."""
        return self.known.get(self._key(larp_text))


@dataclass
class EventRow:
    """An event as an entry's write reads it past the ORM (services/entries.py
    ``locked_character``): what that path reads of an ``Event``, its settings as stored text."""

    id: int
    name: str
    ruleset: str
    archived_at: datetime | None
    settings_text: str | None

    @cached_property
    def settings(self) -> dict[str, Any]:
        return json.loads(self.settings_text or "{}")


@dataclass
class CharacterRow:
    """A character as an entry's write reads it past the ORM, its larp sheet as stored text
    (a sheet kept parsed from that text is not parsed again: ``Records.kept_context``).
    Read in place of a ``Character`` by that path, and by what it calls."""

    id: int
    event_id: int
    version: int
    withdrawn_at: datetime | None
    larp_text: str
    event: EventRow
    locked: bool = False  # read under its write lock, in the transaction at hand
    # Read with it, under the lock: an entry id, and the rows that hold it in the log and
    # among the refused entries (None: none), or None when no id was asked after.
    seen: tuple[str, int | None, int | None] | None = None

    @cached_property
    def larp(self) -> dict[str, Any]:
        return json.loads(self.larp_text)

    @classmethod
    def of(cls, found, locked: bool = False) -> CharacterRow:
        """A row read as ``CHARACTER_ROW`` then ``EVENT_ROW`` (``locked``: under the
        character's write lock, in the transaction at hand)."""
        split = len(CHARACTER_ROW)
        return cls(*found[:split], event=EventRow(*found[split:]), locked=locked)


# What ``CharacterRow`` and ``EventRow`` hold, in the order of their fields: the character's
# and its event's values, the larp sheet and the settings as stored text.
CHARACTER_ROW = (
    Character.id,
    Character.event_id,
    Character.version,
    Character.withdrawn_at,
    cast(Character.larp, String),
)
EVENT_ROW = (Event.id, Event.name, Event.ruleset, Event.archived_at, cast(Event.settings, String))


@dataclass
class KeptContext:
    settings: str  # the settings key
    larp: dict | None  # the larp sheet as stored, parsed into ``ctx`` (None: a record's own)
    ctx: rules.Context
    digest: bytes  # of ``larp`` (larp_digest)
    _forms: tuple[dict[str, Any], rules.Context] | None = None
    # The larp sheet's and the settings' stored texts once found to be these (``read_from``,
    # ``larp_read_from``).
    _larp_text: str | None = None
    _settings_text: str | None = None

    def was_read_from(self, larp_text: str, settings_text: str | None) -> bool:
        """Whether these stored texts of a larp sheet and settings are known to be this one's."""
        return larp_text == self._larp_text and (settings_text or "{}") == self._settings_text

    def read_from(self, larp_text: str, settings_text: str | None) -> None:
        """These stored texts are this sheet's (``was_read_from`` says so from now on)."""
        self._larp_text, self._settings_text = larp_text, settings_text or "{}"

    def larp_read_from(self, larp_text: str) -> bool:
        """Whether this stored text of a larp sheet is known to be this one's."""
        return larp_text == self._larp_text

    def read_larp_from(self, larp_text: str) -> None:
        """This stored text of a larp sheet is this one's (``larp_read_from`` says so)."""
        self._larp_text = larp_text

    def forms(self) -> tuple[dict[str, Any], rules.Context]:
        """The sheet as a record keeps it: as the phone's fold reads it, and as a fold
        reads it (``fold_sheet``) with the settings."""
        if self._forms is None:
            sheet = fold_sheet(self.ctx.sheet)
            self._forms = sheet_to_wire(sheet), rules.Context.of(sheet, self.ctx.settings)
        return self._forms

    @classmethod
    def of_record(cls, record: Record) -> KeptContext:
        """The sheet ``record`` was folded with, as the record keeps it (``Record.ctx``):
        to fold it on and answer from, with no sheet parsed; never kept among the parsed."""
        forms = (record.wire_sheet, record.ctx)
        return cls(record.settings, None, record.ctx, record.sheet_digest, forms)


@dataclass
class Held:
    """A character's log as its write lock found it, as an entry's write holds it
    (``Records.hold``): folded before the entry when the worker could, read otherwise.
    The write folds the entry on (``fold_on``), stores it, then keeps the record
    (``keep``): one call into the keeping room, one out."""

    records: Records
    character: Character
    sheet: KeptContext
    fresh: bool  # the character in hand is as the lock found it
    before: rules.Folded | None  # the log folded, when it was not read
    refused_before: dict[str, rules.Entry] | None  # the entries that fold refused, by id
    read: list[rules.Entry] | None  # the log, when it was read

    @property
    def ctx(self) -> rules.Context:
        return self.sheet.ctx

    def log(self) -> list[rules.Entry]:
        """The log before the entry (read now if it was not)."""
        if self.read is None:
            self.read = log_of(self.character)
        return self.read

    def latest(self, default: datetime) -> datetime:
        """The instant of the log's last entry; ``default`` for an empty log."""
        known = [self.before.last_at] if self.read is None else [e.at for e in self.read]
        return max(filter(None, known), default=default)

    def fold_on(self, entry: rules.Entry, judged_at: datetime) -> tuple[rules.Folded, bool]:
        """The log with ``entry``, folded, and whether that fold holds every entry (none is
        dated after ``judged_at``): stepped on from the fold before when the entry comes
        last, else the whole log folded again."""
        folded = None if self.before is None else rules.fold_on(self.before, entry, self.ctx)
        if folded is not None:
            self.read = None  # the entry is the latest: every entry is at or before it
            return folded, True
        self.read = [*self.log(), entry]
        whole = all(e.at <= judged_at for e in self.read)
        return rules.fold_log(self.ctx, self.read, judged_at), whole

    def keep(self, version: int, row_id: int, entry: rules.Entry, folded, whole: bool) -> None:
        """The entry is stored (row ``row_id``, the character now at ``version``): this
        worker keeps it in the character's log at once (a rolled-back row is harmless there:
        LogCache compares the client ids the database holds), and the record of the log with
        it once the transaction commits (``folded`` is the whole log's only when ``whole``)."""
        log_cache().add(self.character.id, row_id, entry)
        self.records.keep_after_commit(
            self.character,
            version,
            self.sheet,
            folded if whole and self.fresh else None,
            row_id,
            self.read,
            self.refused_before,
        )


# A character's version, sheet, settings, rule system, name, player and faction now
# (``Records.caught_up``), with each of its entries stored after a row (its row id and
# fields; none: one row of nulls), read at once.
CAUGHT_UP = (
    select(
        Character.version,
        cast(Character.larp, String),
        cast(Event.settings, String),
        Event.ruleset,
        Character.name,
        Character.player,
        Character.faction,
        Entry.id,
        cast(Entry.fields, String),
    )
    .select_from(Character)
    .join(Event, Event.id == Character.event_id)
    .outerjoin(Entry, and_(Entry.character_id == Character.id, Entry.id > bindparam("after")))
    .where(Character.id == bindparam("character"))
    .order_by(Entry.id)
)
# A character's name, player and faction, its event's rule system and settings (a player's
# page rendered before Flask).
PLAYER_FACTS = (
    select(
        Character.name,
        Character.player,
        Character.faction,
        Event.ruleset,
        cast(Event.settings, String),
    )
    .join(Event, Event.id == Character.event_id)
    .where(Character.id == bindparam("character"))
)
# The entries of a character stored after a row (services/entries.py, built once).
LOG_AFTER = (
    select(Entry.fields)
    .where(Entry.character_id == bindparam("character"), Entry.id > bindparam("after"))
    .order_by(Entry.id)
)


class Records:
    """A worker's records, by character id, and a few parsed sheets."""

    def __init__(self, kept_contexts: int = KEPT_CONTEXTS):
        self.records: dict[int, Record] = {}
        # (character id) -> the sheet parsed: the most recently used last
        self.contexts: OrderedDict[int, KeptContext] = OrderedDict()
        self.kept_contexts = kept_contexts
        self.digests = LarpDigests()
        self.lock = threading.RLock()  # for a threaded server; gunicorn's sync workers: one

    # Parsed sheets: a few, the most recently used, kept while the sheet and settings are the
    # same (compared, not trusted to a version: an entry's new version changes neither).
    def sheet_of(
        self,
        character_id: int,
        key: str,
        larp: dict,
        settings: rules.Settings,
        larp_text: str | None = None,
    ) -> KeptContext:
        """``larp_text``: the stored text ``larp`` was parsed from (its digest is found by it)."""
        kept = self.contexts.get(character_id)
        if kept is not None and kept.settings == key and kept.larp == larp:
            self.contexts.move_to_end(character_id)
            return kept
        ctx = rules.Context.of(rules.LarpSheet.from_dict(larp), settings)
        digest = larp_digest(larp) if larp_text is None else self.digests.of(larp_text, larp)
        kept = KeptContext(key, larp, ctx, digest)
        self.contexts[character_id] = kept
        self.contexts.move_to_end(character_id)
        while len(self.contexts) > self.kept_contexts:
            self.contexts.popitem(last=False)
        return kept

    def sheet_from_text(
        self, character_id: int, key: str, larp_text: str, settings: rules.Settings
    ) -> KeptContext:
        """``sheet_of`` from the larp sheet's stored text (as an event's view reads it): the
        one kept when it was read from that very text, with no parse; else parsed and kept
        (``sheet_of`` compares the content), the text known to be its own from now on."""
        kept = self.contexts.get(character_id)
        if kept is not None and kept.settings == key and kept.larp_read_from(larp_text):
            self.contexts.move_to_end(character_id)
            return kept
        sheet = self.sheet_of(character_id, key, json.loads(larp_text), settings, larp_text)
        sheet.read_larp_from(larp_text)
        return sheet

    def kept_context(self, character: Character | CharacterRow) -> KeptContext:
        """The character's sheet parsed, with its digest: two records folded with the same
        digest and settings key were folded with the same sheet and settings. A character
        read as its row's texts: the sheet kept parsed from those very texts, or its
        record's own as a fold reads it, unparsed (``_sheet_read``)."""
        event = character.event
        if isinstance(character, CharacterRow):
            sheet = self._sheet_read(
                character.id, character.larp_text, event.settings_text, event.ruleset
            )
            if sheet is not None:
                return sheet  # (unreadable: parsed below, which says why)
        return self.sheet_of(
            character.id, settings_key(event), character.larp, event_settings(event)
        )

    def context(self, character: Character) -> rules.Context:
        return self.kept_context(character).ctx

    # One character (a console's poll, the player's page, an entry's answer).
    def record(self, character: Character) -> Record:
        """The character's record; its version alone tells it current (new settings raise
        every character's version), so a current one costs no query."""
        written = uncommitted()
        if character.id in written:  # changed in this transaction: nothing kept before it ends
            record = written.get(character.id)
            if record is None or record.version != character.version:
                return self._fold(character, keep=False)
            return record
        record = self.records.get(character.id)
        if record is None or record.version != character.version:
            with self.lock:
                return self._fold(character)
        return record

    def caught_up(self, rows: Callable, character_id: int, version: int) -> Record | None:
        """The character's record at ``version``, from the one this worker keeps with the
        entries stored since folded on, read with ``rows`` (the quick answers' own reads,
        before Flask: keeping/known.py ``Known.rows``): no ORM object, one small query.
        None when it cannot be had so (no record kept, another sheet or settings since, an
        entry that is not folded on, the character moved on meanwhile): the full path folds
        then.

        The character's version, sheet and entries are read in one statement, of one moment:
        the record is never newer in name than in content. A sheet no longer kept parsed
        (a few hundred are, the most recently used: in a 10,000-character event, nearly
        every player page's character is one) is the record's own when the text read there
        is the one it was folded with (``_records_own``), else parsed from that text."""
        held = self.records.get(character_id)
        # The row after which entries were stored since (0: the record folded none).
        after = held and (held.last_row if held.folded.last_at is not None else 0)
        if held is None or after is None or held.version >= version:
            return None
        found = rows(CAUGHT_UP, {"character": character_id, "after": after})
        if not found or found[0][0] != version:
            return None
        sheet = self._sheet_read(character_id, *found[0][1:4])
        if sheet is None or held.settings != sheet.settings or held.sheet_digest != sheet.digest:
            return None
        ruleset = sheet.ctx.ruleset.key
        new = [
            (row_id, rules.entry_from_stored(json.loads(fields), ruleset))
            for *_character, row_id, fields in found
            if row_id is not None
        ]
        record = folded_on(held, sheet, version, new)
        if record is None:
            return None
        record.who = found[0][4:7]
        with self.lock:
            kept = self.records.get(character_id)
            if kept is None or kept.version < version:
                self.records[character_id] = record
        return record

    def _sheet_read(
        self, character_id: int, larp_text: str, settings_text: str | None, ruleset: str
    ) -> KeptContext | None:
        """The character's sheet from its stored texts (a larp sheet, its event's settings,
        as ``CAUGHT_UP`` and ``locked_character`` read them): the one kept parsed when it
        holds them; the record's own (``_records_own``) when they are the ones it was folded
        with, unparsed, as a fold reads it (what folding on, judging an entry and answering
        read); else parsed now and kept (None: the texts cannot be read, the full path says
        why), as ``sheet_from_text`` reads the larp sheet's text."""
        kept = self.contexts.get(character_id)
        if kept is not None and kept.was_read_from(larp_text, settings_text):
            return kept
        try:
            key = settings_key_of_text(settings_text)
            own = self._records_own(character_id, larp_text, key)
            if own is not None:
                return own
            sheet = self.sheet_from_text(character_id, key, larp_text, settings_read(ruleset, key))
        except (TypeError, ValueError, KeyError, rules.InvalidInput):
            return None
        sheet.read_from(larp_text, settings_text)
        return sheet

    def _records_own(self, character_id: int, larp_text: str, key: str) -> KeptContext | None:
        """The sheet of the record kept of the character, when ``larp_text`` (and the
        settings' key ``key``) are those it was folded with: known by the text's digest,
        not parsed. None: no record, another sheet or settings, or a text not seen here."""
        record = self.records.get(character_id)
        if record is None or record.settings != key or record.sheet_digest is None:
            return None
        if self.digests.of_text(larp_text) != record.sheet_digest:
            return None
        return KeptContext.of_record(record)

    def poll_tag(self, record: Record, at: datetime) -> str | None:
        """``state_etag`` at ``at`` of a record this worker keeps (its poll window made now
        when it has none that holds ``at``); None when an entry is dated after ``at``."""
        known = known_change(record, record.version, at)
        if known is NOT_KNOWN:
            if record.folded.last_at is not None and record.folded.last_at > at:
                return None
            known, due = rules.last_and_next_change(record.folded, record.ctx, at)
            record.poll = (at, due, known)
        return tags.state(record.version, known)

    def _held(self, character: Character) -> Record | None:
        """The record this worker holds for the character: this transaction's own when it
        changed the character, else the last one kept (of any version)."""
        written = uncommitted()
        if character.id in written:
            return written.get(character.id)
        return self.records.get(character.id)

    def fold_before(
        self, character: Character, sheet: KeptContext
    ) -> tuple[rules.Folded, dict[str, rules.Entry]] | None:
        """The character's log folded, as its write lock found it, without reading the log
        when this worker can: its record at the character's version, or a record of an
        earlier version folded with the same sheet (``sheet``'s digest) and settings, with
        the entries stored since folded on. None: the log must be read and folded whole.

        The entries stored since are those after the record's last row: a character's
        entries are written one at a time under its lock, so their row ids grow with their
        commits. A version raised by anything but an entry (a badge, a check-in) adds none;
        a new sheet or new settings are another digest or key. With the fold, the entries
        it refused (by id) as far as they are known: those of the record."""
        record = self._held(character)
        if record is None or record.settings != sheet.settings:
            return None
        if record.version == character.version:
            return record.folded, record.conflict_entries
        if record.sheet_digest != sheet.digest or record.last_row is None:
            return None
        folded = record.folded
        since = {"character": character.id, "after": record.last_row}
        for fields in db.session.connection().execute(LOG_AFTER, since).scalars():
            entry = rules.entry_from_stored(fields, sheet.ctx.ruleset.key)
            folded = rules.fold_on(folded, entry, sheet.ctx)
            if folded is None:  # an undo or a late entry among them
                return None
        return folded, record.conflict_entries

    def hold(self, character: Character, fresh: bool, undo: bool = False) -> Held:
        """What an entry's write needs of the character, held under its write lock: its
        sheet parsed and its log folded before the entry (``fold_before``) when this worker
        can, the log read otherwise. ``fresh``: the character in hand is as the lock found
        it; ``undo``: the entry voids another, so the log is read and folded whole."""
        sheet = self.kept_context(character)
        before = self.fold_before(character, sheet) if fresh and not undo else None
        folded, refused = (None, None) if before is None else before
        log = log_of(character) if folded is None else None
        return Held(self, character, sheet, fresh, folded, refused, log)

    def keep_after_commit(
        self,
        character: Character,
        version: int,
        sheet: KeptContext,
        folded: rules.Folded | None,
        last_row: int,
        log: list[rules.Entry] | None = None,
        refused_before: dict[str, rules.Entry] | None = None,
    ) -> None:
        """This transaction stores an entry (row ``last_row``) for ``character``: once it
        commits, keep the record at ``version`` of the log with it, ``folded`` whole with
        ``sheet`` (None: not known here). ``log``: the log with the entry, when it was read;
        else ``refused_before``, the entries refused before it (``fold_before``), must be
        the fold's conflicts still, or no record is kept.

        Never before the commit: a rolled-back transaction's version number is given again
        to the next change, which would then find a record of a log that never was."""
        record = None
        if folded is not None and log is not None:
            record = fold_record(sheet, version, log, folded, last_row=last_row)
        elif (
            folded is not None
            and refused_before is not None
            and refused_before.keys() == {c.id for c in folded.conflicts}
        ):
            record = fold_record(sheet, version, None, folded, refused_before, last_row)
        uncommitted()[character.id] = record
        db.session.info[KEEPER] = self

    def _fold(self, character: Character, keep: bool = True) -> Record:
        """The character's record at its version: the one kept folded on with the entries
        stored since, when it is of the same sheet and settings; else its log folded whole."""
        sheet = self.kept_context(character)
        ruleset = character.event.ruleset
        held = self.records.get(character.id)
        record = None
        if (
            held is not None
            and held.settings == sheet.settings
            and held.sheet_digest == sheet.digest
            and held.last_row is not None
        ):
            since = rows_after({character.id: held.last_row}, ruleset)
            record = folded_on(held, sheet, character.version, since.get(character.id, []))
        if record is None:
            log, last_row = log_cache().log_and_last_row(character.id, ruleset)
            record = fold_record(sheet, character.version, log, last_row=last_row)
        if keep:
            self.records[character.id] = record
        return record

    # A whole event (the roster, the board).


RECORDS = "larp_records"  # in the app's extensions: this worker's Records
KEEPER = "larp_records"  # in the session's info: the Records that keeps its records


@sa_event.listens_for(Session, "after_commit")
def _keep_committed(session: Session) -> None:
    records = session.info.pop(UNCOMMITTED, {})
    kept = session.info.pop(KEEPER, None)
    if kept is None:
        return
    with kept.lock:
        for character_id, record in records.items():
            known = kept.records.get(character_id)
            if record is not None and (known is None or known.version < record.version):
                kept.records[character_id] = record


@sa_event.listens_for(Session, "after_rollback")
@sa_event.listens_for(Session, "after_soft_rollback")
def _forget_rolled_back(session: Session, *_previous) -> None:
    session.info.pop(UNCOMMITTED, None)
    session.info.pop(KEEPER, None)


def records() -> Records:
    """This worker's records (a cache: dropping it changes no answer)."""
    return current_app.extensions.setdefault(RECORDS, Records())


def state_of(character: Character, at: datetime) -> rules.Snapshot:
    """The character's state at ``at``: its record advanced, or, for an instant before its
    last entry, the log folded up to ``at``."""
    kept = records()
    record = kept.record(character)
    ctx = kept.context(character)
    if record.folded.last_at is None or at >= record.folded.last_at:
        return rules.snapshot_at(record.folded, ctx, at)
    return rules.snapshot_at(rules.fold_log(ctx, log_of(character), at), ctx, at)


def last_change_of(character: Character, at: datetime) -> datetime | None:
    """The latest instant at or before ``at`` at which the character's state changed."""
    kept = records()
    record = kept.record(character)
    if record.folded.last_at is not None and record.folded.last_at > at:
        return at
    known = known_change(record, character.version, at)
    if known is not NOT_KNOWN:
        return known
    last, due = rules.last_and_next_change(record.folded, kept.context(character), at)
    if character.id not in uncommitted():  # a record of this transaction may be rolled back
        record.poll = (at, due, last)
    return last


NOT_KNOWN = object()


def known_change(record: Record | None, version: int, at: datetime):
    """The last change at ``at`` of the character whose kept ``record`` it is, when this
    worker knows it without folding (its version is ``version``); else ``NOT_KNOWN``."""
    if record is None or record.version != version or record.poll is None:
        return NOT_KNOWN
    start, until, last = record.poll
    if start <= at and (until is None or at < until):
        return last
    return NOT_KNOWN


def state_etag(character: Character, at: datetime) -> str:
    """The version of a character's state at ``at``: its own version and its latest change.
    Two instants with the same tag see the same state."""
    return tags.state(character.version, last_change_of(character, at))
