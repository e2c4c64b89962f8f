"""Record referees' entries in the append-only log, and fold it into states."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError

from .. import rules
from ..extensions import db
from ..keeping.driver import DriverStatement
from ..keeping.logs import log_of, run
from ..keeping.records import CHARACTER_ROW, EVENT_ROW, CharacterRow, records, state_of
from ..keeping.versions import CHARACTER_VERSION, store_entry
from ..messages import refusal_message
from ..models import Character, Entry, Event, RefusedEntry, User
from .characters import check_open
from .clock import now_utc
from .events import event_settings
from .writers import write_transaction


@dataclass(frozen=True)
class Recorded:
    fields: dict[str, Any]  # the entry as stored
    snapshot: rules.Snapshot
    created: bool  # False: the same id was stored before, nothing stored twice
    # ``snapshot`` folds every entry of the log (none is dated after it): the entries that
    # stopped counting are its conflicts.
    whole: bool = False


# Statements of every entry and poll, built once: building one costs more than running it.
SEEN_BEFORE = select(
    select(Entry.id).where(Entry.client_id == bindparam("client_id")).scalar_subquery(),
    select(RefusedEntry.id)
    .where(RefusedEntry.client_id == bindparam("client_id"))
    .scalar_subquery(),
)
LOCK_CHARACTER = CHARACTER_VERSION.with_for_update()


def judged_state(
    character: Character, now: datetime, log: list[rules.Entry] | None = None
) -> rules.Snapshot:
    """The state judged at the later of ``now`` and the last entry's instant: an entry dated
    a few seconds ahead (a phone's clock) is judged at its own instant, not left out.
    ``log``: the character's log, when the caller has just read it."""
    log = log_of(character) if log is None else log
    return state_of(character, max([now, *(e.at for e in log)]))


def entry_window(character: Character) -> tuple[timedelta, timedelta]:
    """How far ahead and how far back an entry may be dated: the event's window, else the
    app's (``ENTRY_MAX_FUTURE_SECONDS``, ``ENTRY_MAX_AGE_HOURS``)."""
    config = current_app.config
    hours = event_settings(character.event).entry_max_age_hours or config["ENTRY_MAX_AGE_HOURS"]
    return timedelta(seconds=config["ENTRY_MAX_FUTURE_SECONDS"]), timedelta(hours=hours)


def _placed(entry: rules.Entry, raw: dict[str, Any], now: datetime, limits) -> datetime:
    """Shift ``at`` by the phone's clock error, then refuse instants out of the live window.

    Dated too far ahead is invalid input; too far back is a refusal (``too_old``), kept so
    that the organiser can accept it.
    """
    at = entry.at
    if raw.get("sent_at") is not None:
        try:
            at = at + (now - rules.parse_instant(raw["sent_at"], zone=True))
        except (ValueError, OverflowError) as wrong:
            code = rules.instant_problem(wrong) if isinstance(wrong, ValueError) else "not_instant"
            raise rules.InvalidInput(
                [rules.Problem("sent_at", code, {"got": str(raw["sent_at"])[:40]})]
            ) from None
    future, age = limits
    if at > now + future:
        raise rules.InvalidInput(
            [rules.Problem("at", "in_future", {"got": rules.format_instant(at)})]
        )
    if at < now - age:
        raise rules.RuleError(
            "too_old", got=rules.format_instant(at), hours=round(age.total_seconds() / 3600)
        )
    return at


def lock_character(character: Character | CharacterRow) -> int:
    """Serialise the writes for one character until this transaction ends; return its
    version as the lock found it (every change to it committed before is in).

    Another request writing for the same character waits here, so each entry is judged
    against a log that already holds every entry stored before it. PostgreSQL locks the
    character's row; SQLite has one writer at a time, so the write transaction begins now,
    before the log is read, rather than at the insert. A character read under its lock
    (``locked_character``) is as the lock found it.
    """
    if isinstance(character, CharacterRow) and character.locked:
        return character.version
    connection = write_transaction()
    params = {"character": character.id}
    if connection.dialect.name == "postgresql":
        return connection.execute(LOCK_CHARACTER, params).scalar_one()
    return connection.execute(CHARACTER_VERSION, params).scalar_one()


# The character and its event as an entry's write reads them, under the character's write
# lock (PostgreSQL's FOR UPDATE; SQLite's write transaction): values, no ORM object (loading
# objects was a third of an entry's cost), on the driver's cursor (keeping/driver.py). With
# them, whether the entry's id is in the log or among the refused entries (``SEEN_BEFORE``):
# one statement fewer under the lock, where each costs a turn of the worker's other threads.
LOCKED_CHARACTER = DriverStatement(
    select(*CHARACTER_ROW, *EVENT_ROW, *SEEN_BEFORE.selected_columns)
    .join(Event, Character.event_id == Event.id)
    .where(Character.id == bindparam("id"))
    .with_for_update(of=Character)
)


def locked_character(character_id: int, client_id: Any = None) -> CharacterRow | None:
    """The character and its event, read in one query under the character's write lock
    (``lock_character``) for an entry's write; None: no such character. ``client_id``: the
    id of the entry about to be written (any other value: none), whether stored or refused
    before read with it (``CharacterRow.seen``)."""
    asked = client_id if isinstance(client_id, str) else None
    params = {"id": character_id, "client_id": asked}
    found = LOCKED_CHARACTER.one_or_none(write_transaction(), params)
    if found is None:
        return None
    character = CharacterRow.of(found[:-2], locked=True)
    if asked is not None:
        character.seen = (asked, *found[-2:])
    return character


IGNORED_IN_CONTENT = ("id", "at", "sent_at", "author", "referee", "character")


def content(fields: dict[str, Any]) -> dict[str, Any]:
    """What an entry does, without its id, instant or author: the same id sent again must
    carry the same content (the instant may move with the phone's clock correction)."""
    return {k: v for k, v in fields.items() if k not in IGNORED_IN_CONTENT}


def _reused(
    client_id: str, stored: dict[str, Any], sent: dict[str, Any], **characters: int
) -> rules.RuleError:
    """The id names another entry: both contents, and both characters when they differ."""
    return rules.RuleError(
        "id_reused", id=client_id, stored=content(stored), sent=content(sent), **characters
    )


def as_read(fields: dict[str, Any], ruleset: str) -> dict[str, Any]:
    """Stored fields as the reader reads them now (a field under its former name, under its
    name), to be compared with an entry just sent; as they are when they cannot be read."""
    try:
        return rules.entry_to_dict(rules.entry_from_stored(fields, ruleset))
    except (KeyError, TypeError, ValueError):
        return fields


def _answer_again(character: Character, sent: dict[str, Any], now: datetime) -> Recorded:
    """The first answer to an id stored before, if it is the same entry; else id_reused."""
    first = db.session.scalar(select(Entry).where(Entry.client_id == sent["id"]))
    if first.character_id != character.id:
        raise _reused(
            sent["id"],
            first.fields,
            sent,
            stored_character=first.character_id,
            sent_character=character.id,
        )
    if content(as_read(first.fields, character.event.ruleset)) != content(sent):
        raise _reused(sent["id"], first.fields, sent)
    return Recorded(first.fields, judged_state(character, max(now, first.at)), created=False)


# Refusals that are no final answer: the same id is judged afresh when sent again (corrected,
# or by its own author).
ANSWERED_AFRESH = frozenset({"invalid", "not_the_author"})


def _refused_before(client_id: str) -> RefusedEntry | None:
    return db.session.scalar(select(RefusedEntry).where(RefusedEntry.client_id == client_id))


def _seen_before(
    client_id: str, character: Character | CharacterRow
) -> tuple[bool, RefusedEntry | None]:
    """Whether a log holds this id (this character's: sent again; another's: an id reused),
    and its refusal if it was refused before: as the character's locked read found them
    (``locked_character``), else one query; a second only for a refusal."""
    seen = getattr(character, "seen", None)
    if seen is not None and seen[0] == client_id:
        stored, refused = seen[1:]
    else:
        stored, refused = run(SEEN_BEFORE, {"client_id": client_id}).one()
    return stored is not None, None if refused is None else db.session.get(RefusedEntry, refused)


def keep_refusal(
    character: Character,
    sent: dict[str, Any],
    author: User | None,
    code: str,
    params: dict[str, Any],
    message: str,
) -> None:
    """Keep a refused entry for the organiser's board (once per id); flushes."""
    existing = _refused_before(str(sent.get("id", ""))[:36])
    if existing is not None and existing.code not in ANSWERED_AFRESH:
        return  # a refusal is final: its first reason stands
    if existing is not None:  # invalid input, or held for its author: answered afresh
        existing.code, existing.params, existing.message = code[:40], params, message[:400]
        existing.fields, existing.at = sent, now_utc()
    else:
        db.session.add(
            RefusedEntry(
                at=now_utc(),
                client_id=str(sent.get("id", ""))[:36],
                character_id=character.id,
                user_id=author.id if author else None,
                fields=sent,
                code=code[:40],
                params=params,
                message=message[:400],
            )
        )
    db.session.flush()


UNDO_WINDOW = timedelta(minutes=10)
# An entry dated up to this much before the last one stored is taken as concurrent with it
# (phones' clocks and networks differ by a few seconds); one dated earlier is a late entry,
# placed where it belongs even if it voids entries stored before it (larp_app/rules/README.md).
CONCURRENT = timedelta(seconds=10)


def _check_undo_allowed(
    undo: rules.Entry, log: list[rules.Entry], author: User | None, now: datetime
) -> None:
    """Referees undo their own entries of the last 10 minutes; organisers undo any."""
    if author is None or author.role == "organiser":
        return
    target = next((e for e in log if e.id == undo.target), None)
    if target is None:
        return  # the fold refuses it as unknown_target
    if target.author != author.username or now - target.at > UNDO_WINDOW:
        raise rules.RuleError("undo_not_allowed", minutes=10)


def record_entry(
    character: Character,
    raw: Any,
    author: User | None,
    *,
    limits: tuple[timedelta, timedelta] | None = None,
) -> Recorded:
    """Store one entry if the state at its instant allows it; RuleError says why not.

    The same rule on every path (the API's entries, a phone's outbox, end of session):
    writes for one character are serialised (``lock_character``), so an entry is judged
    against every entry stored before it and never acknowledged to be voided by a
    concurrent one. An id stored before answers as before (``created`` False) when it
    carries the same content, and is refused as ``id_reused`` when not. An id refused
    before is refused again with the same reason, and a new refusal is kept for the
    organiser (``RefusedEntry``): the caller commits after a RuleError too.
    """
    check_open(character)
    now = now_utc()
    # Invalid input is refused before the lock is taken (an outbox's item is read under it
    # already: services/sync.py); the kind is the rule system's.
    entry = rules.read_entry(raw, character.event.ruleset)
    sent = rules.entry_to_dict(entry)
    version = lock_character(character)
    stored, first = _seen_before(entry.id, character)
    if stored:
        return _answer_again(character, sent, now)
    _check_author(character, raw, sent, author)
    if first is not None and first.code not in ANSWERED_AFRESH:
        kept = as_read(first.fields, character.event.ruleset)
        if first.character_id != character.id or content(kept) != content(sent):
            raise _reused(entry.id, first.fields, sent)
        raise rules.RuleError(first.code, **(first.params or {}))  # already kept: not again
    # Nothing committed for the character since it was read: the sheet in hand is its own.
    fresh = version == character.version
    try:
        recorded = _record(character, entry, raw, author, fresh, now, limits)
    except rules.RuleError as refused:
        refused.ruleset = character.event.ruleset  # whose words its code has
        keep_refusal(
            character,
            {**sent, "at": raw.get("at"), **_sent_at(raw)},
            author,
            refused.code,
            refused.params,
            refusal_message(refused.code, refused.params, refused.ruleset),
        )
        raise
    if first is not None and recorded.created:  # held or invalid before: answered now
        db.session.delete(first)
    return recorded


def _check_author(character: Character, raw: Any, sent: dict[str, Any], user: User | None) -> None:
    """Refuse (``not_the_author``) an entry whose declared author is not the caller: a phone
    sends an entry only in the session of whoever logged it, never under another name. The
    entry is kept for the organiser's board as held, and stored when its author sends it."""
    declared = raw.get("author") if isinstance(raw, dict) else None
    if user is None or declared is None or declared == user.username:
        return
    params = {"author": str(declared)[:80]}
    message = refusal_message("not_the_author", params)
    kept = {**sent, "author": params["author"], "at": raw.get("at"), **_sent_at(raw)}
    keep_refusal(character, kept, user, "not_the_author", params, message)
    raise rules.RuleError("not_the_author", **params)


def _sent_at(raw: dict[str, Any]) -> dict[str, Any]:
    return {"sent_at": raw["sent_at"]} if raw.get("sent_at") is not None else {}


def _record(character, entry, raw, author, fresh, now, limits) -> Recorded:
    """Judge and store the entry: lock (taken by the caller), fold on, store, keep.

    Usually the entry comes last in time and the worker holds a fold of the log before it:
    only the new entry is stepped onto that fold (rules.fold_on is the whole fold,
    tests/unit/test_fold_on.py) and the log is not read. Otherwise (an undo, a late entry,
    a character this worker has not folded) the log is read and folded whole. ``fresh``:
    the character in hand is as the lock found it, so its fold may be kept afterwards.
    """
    held = records().hold(character, fresh, undo=entry.kind == "undo")
    if entry.kind == "undo":
        _check_undo_allowed(entry, held.log(), author, now)
    at = _placed(entry, raw, now, limits or entry_window(character))
    latest = held.latest(default=at)
    referee_at = None
    if latest - CONCURRENT <= at < latest:
        # Concurrent with the last entry stored (two phones a moment apart): judged in the
        # order stored, so that it cannot void an entry already acknowledged. The referee's
        # own instant is kept beside it (the board says it was moved).
        at, referee_at = latest, at
    fields = {**rules.entry_to_dict(entry), "at": rules.format_instant(at)}
    if author is not None:
        fields["author"] = author.username
    # Read as it will be read back: checked above.
    entry = rules.entry_from_stored(fields, held.ctx.ruleset.key)
    judged_at = max(now, at)
    folded, whole = held.fold_on(entry, judged_at)
    # The latest entry, stepped last whichever way it was folded: no other entry's verdict
    # changes, and its insert leaves the conflicts mark alone (keeping/versions.py).
    stepped = whole and entry.kind != "undo" and at >= latest
    snapshot = rules.snapshot_at(folded, held.ctx, judged_at)
    refusal = next((c for c in snapshot.conflicts if c.id == entry.id), None)
    if refusal is not None:
        raise rules.RuleError(refusal.code, **refusal.params)
    row = {
        "client_id": entry.id,
        "character_id": character.id,
        "kind": entry.kind,
        "at": at,
        "sent_at": rules.parse_instant(raw["sent_at"]) if raw.get("sent_at") else None,
        "received_at": now,
        "author_id": author.id if author else None,
        "fields": fields,
        "referee_at": referee_at,
        "stepped_on": stepped,
    }
    # A plain INSERT: the log is append-only, no object needs tracking afterwards. The id
    # is unique across characters: a race with another character's request (which this
    # character's lock does not hold back) ends in an IntegrityError, answered as above.
    try:
        row_id, version = store_entry(row, character)  # the version its trigger gave
    except IntegrityError:
        db.session.rollback()  # only reads came before: nothing else is lost
        return _answer_again(character, rules.entry_to_dict(entry), now)
    held.keep(version, row_id, entry, folded, whole)
    return Recorded(fields, snapshot, created=True, whole=whole)
