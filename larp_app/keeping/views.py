"""An event's view: every character's record at the instant last asked, kept per worker,
so the roster and the board answer "what changed since" a version.

A view keeps each character's record (keeping/records.py) and its state at the instant last
asked, with the next instant at which time alone changes each (energy back, a status over, a
countdown's end). Bringing a view up to date reads only the characters whose version grew
and advances only those whose next change is due, so a poll that changed nothing costs two
small queries. Building one stores the folds it made (keeping/kept_folds.py), so a worker
that starts in the middle of a big event reads them instead of folding again.

Views and records are forgotten together when the database's epoch moves (a restore, a
rewritten log: keeping/known.py drops them).
"""

from __future__ import annotations

import heapq
import sys
from bisect import bisect_right, insort
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import String, cast, select

from .. import rules
from ..extensions import db
from ..models import Badge, Character, Entry, Event, Mark
from ..services import clock
from ..services.events import event_settings
from . import kept_folds
from .records import (
    KeptContext,
    Record,
    Records,
    fold_record,
    folded_on,
    records,
    rows_after,
    settings_key,
)
from .tags import micros
from .versions import uncommitted

VIEWS = "larp_views"  # in the app's extensions: this worker's Views
BUILD_CHUNK = 500  # characters whose sheets and logs are read at once when a view is built
# A view asked for an instant before the one it was last brought to (a thread that waited for
# the lock) is answered as of that instant; when the wall clock itself is further back than
# this, the clock was set back: the view is built again.
CLOCK_SLACK = timedelta(seconds=5)
# A view's order of changes is made again (View._reindex) once it holds more stale pairs than
# it has rows, and this many more.
STALE_PAIRS = 1024


@dataclass(frozen=True)
class Since:
    """What a client has: the event's version and the latest change time alone made in
    the answer it holds."""

    version: int
    at: int  # microseconds since the epoch

    def text(self) -> str:
        return f"{self.version}.{self.at}"

    @classmethod
    def read(cls, text: str | None) -> Since | None:
        try:
            version, at = (text or "").split(".")
            return cls(int(version), int(at))
        except ValueError:
            return None


@dataclass
class Row:
    """A character as the roster and the board list it."""

    id: int
    version: int
    name: str
    player: str
    faction: str | None
    advancements: list[dict]  # what costs energy: the console's spending list
    record: Record
    present: bool = False  # checked in at the desk (the board says so)
    withdrawn: bool = False  # out of the event: no phone keeps it
    # Its badges as the database keeps them: (digest, active), for the secret and the code.
    badges: tuple[tuple[str, bool], ...] = ()
    # Its badges as the phones' roster writes them (reads/roster.py ``badge_lines``).
    roster_badges: tuple[tuple[tuple[str, str], ...], tuple[str, ...]] | None = None


@dataclass
class View:
    event_id: int
    version: int
    settings: str
    at: datetime
    rows: dict[int, Row]
    due: list[tuple[datetime, int]]  # (next change, character id), a heap
    latest: datetime | None = None  # the latest stamp of any row
    conflicted: set[int] = field(default_factory=set)  # rows whose log has a refused entry
    dying: set[int] = field(default_factory=set)  # rows dying at their instant
    # The fingerprint of the folds it stores and reads (kept_folds.fingerprint): of the
    # epoch read before its first row, so none outlives a restore.
    stamp: str = ""
    # The rows in the order of their changes, each as (its version, its id) and as (the
    # microsecond of its latest change by time alone, its id), sorted: a row is added
    # again whenever it is placed or advanced (``noted``), its earlier pairs staying until
    # there are too many (``_reindex``). "What changed since" reads their tails alone, not
    # every row: a roster delta of a 10,000-character event no longer looks at 10,000 rows.
    by_version: list[tuple[int, int]] = field(default_factory=list)
    by_stamp: list[tuple[int, int]] = field(default_factory=list)

    def noted(self, row: Row) -> None:
        """Keep the board's lists and the order of changes of the row's record, as it now
        is (called whenever a row is placed or advanced)."""
        record = row.record
        for kept, holds in (
            (self.conflicted, bool(record.folded.conflicts)),
            (self.dying, record.snapshot is not None and record.snapshot.wound == "dying"),
        ):
            if holds:
                kept.add(row.id)
            else:
                kept.discard(row.id)
        insort(self.by_version, (row.version, row.id))
        insort(self.by_stamp, (record.stamp_us, row.id))
        if len(self.by_version) > 2 * len(self.rows) + STALE_PAIRS:
            self._reindex()

    def _reindex(self) -> None:
        """The orders of changes made again from the rows as they are (no stale pair)."""
        rows = self.rows.values()
        self.by_version = sorted((r.version, r.id) for r in rows)
        self.by_stamp = sorted((r.record.stamp_us, r.id) for r in rows)

    def since(self, since: Since | None) -> list[Row]:
        """The rows changed after what the client holds, in the order of their ids; without
        a token, every row in the order placed (the same: a new character's id is the
        largest)."""
        if since is None:
            return list(self.rows.values())
        after = (since.version, sys.maxsize)
        ids = {i for _, i in self.by_version[bisect_right(self.by_version, after) :]}
        after = (since.at, sys.maxsize)
        ids.update(i for _, i in self.by_stamp[bisect_right(self.by_stamp, after) :])
        rows = self.rows
        return [
            row
            for i in sorted(ids)
            if (row := rows[i]).version > since.version or row.record.stamp_us > since.at
        ]

    def unchanged(self, since: Since | None, version: int) -> bool:
        return (
            since is not None
            and since.version == version
            and (self.latest is None or micros(self.latest) <= since.at)
        )

    def token(self) -> Since:
        """What the view holds: the event's version and its latest time-driven change, not
        the instant asked (no row changed between the two), so that the same data keeps
        the same token and an ETag made of it revalidates."""
        return Since(self.version, 0 if self.latest is None else micros(self.latest))


def spending(larp: dict) -> list[dict]:
    """What costs energy (the console's spending list); passive or free ones need no entry."""
    return [
        {"name": a["name"], "energy_cost": a["energy_cost"]}
        for a in larp.get("advancements", [])
        if a.get("energy_cost", 0) > 0 and not a.get("passive")
    ]


CHARACTER_COLUMNS = (
    Character.id,
    Character.version,
    Character.name,
    Character.player,
    Character.faction,
    # As stored: a sheet kept parsed from the same text is not parsed again
    # (keeping/records.py ``Records.sheet_from_text``).
    cast(Character.larp, String).label("larp_text"),
    Character.present_at,
    Character.withdrawn_at,
)


class Logs(dict):
    """Some characters' logs, in arrival order, by character id; ``last_rows``: the row id
    of each one's last entry."""

    def __init__(self) -> None:
        super().__init__()
        self.last_rows: dict[int, int] = {}


def _logs(character_ids: list[int] | None, event_id: int) -> Logs:
    """The logs of some characters (all of the event's when None), in arrival order."""
    query = select(Entry.character_id, Entry.id, Entry.fields).order_by(Entry.id)
    if character_ids is None:
        query = query.join(Character, Entry.character_id == Character.id).where(
            Character.event_id == event_id
        )
    else:
        query = query.where(Entry.character_id.in_(character_ids))
    logs = Logs()
    ruleset = db.session.get(Event, event_id).ruleset  # whose kinds the entries are
    for character_id, row_id, fields in db.session.execute(query):
        logs.setdefault(character_id, []).append(rules.entry_from_stored(fields, ruleset))
        logs.last_rows[character_id] = row_id
    return logs


def _badges_of(character_ids: list[int]) -> dict[int, tuple[tuple[str, bool], ...]]:
    """Each character's badges, as (digest, active) for the secret and for the short code."""
    found: dict[int, list] = {}
    if character_ids:
        query = select(
            Badge.character_id, Badge.secret_hash, Badge.short_code_hash, Badge.revoked_at
        ).where(Badge.character_id.in_(character_ids))
        for character_id, secret, code, revoked_at in db.session.execute(query):
            active = revoked_at is None
            found.setdefault(character_id, []).extend([(secret, active), (code, active)])
    return {character_id: tuple(badges) for character_id, badges in found.items()}


EPOCH_MARK = select(Mark.value).where(Mark.name == "epoch")


class Views:
    """A worker's views, by event id, made of its records (``kept``) and under their lock:
    loads and refreshes take turns."""

    def __init__(self, kept: Records):
        self.kept = kept
        self.views: dict[int, View] = {}
        # character id -> the log position of its fold as stored (read or written here)
        self.stored: dict[int, int] = {}
        self.unstored: list[dict] = []  # folds to store once the lock is released

    def view(self, event: Event, now: datetime, alive: Callable[[], None] | None = None) -> View:
        """The event's view at ``now``; ``alive``, called after each piece of a long build
        (a worker warming up tells its master it is not stuck)."""
        with self.kept.lock:
            view = self._view(event, now, alive)
            unstored, self.unstored = self.unstored, []
        # Stored once the records are free: the store waits for the database's write lock,
        # and an entry's write that holds it may need the records meanwhile.
        kept_folds.store(unstored)
        return view

    def _view(self, event: Event, now: datetime, alive: Callable[[], None] | None = None) -> View:
        key = settings_key(event)
        view = self.views.get(event.id)
        version = event.version
        if view is not None and now < view.at and clock.now_utc() >= view.at - CLOCK_SLACK:
            # Another thread of this worker brought it to a moment later than this request's
            # "now" while this one waited for the lock (however long: a busy worker's threads
            # wait): answered as of that moment. Only a wall clock set back builds it again.
            now = view.at
        if view is None or view.settings != key or now < view.at:
            # (A clock set back: states are kept only forwards in time; build again.)
            view = self._build(event, key, version, now, alive)
        else:
            if version != view.version:
                self._reread(view, event, key, version, now)
            self._advance(view, event, key, now)
        return view

    def _build(
        self, event: Event, key: str, version: int, now: datetime, alive: Callable | None = None
    ) -> View:
        settings = event_settings(event)
        self.views.pop(event.id, None)  # the old one's rows go before the new ones come
        ids = db.session.scalars(
            select(Character.id).where(Character.event_id == event.id).order_by(Character.id)
        ).all()
        epoch = db.session.scalar(EPOCH_MARK)  # before any row: the rows are of it, or newer
        stamp = kept_folds.fingerprint(event.ruleset, key, epoch)
        view = View(event.id, version, key, now, {}, [], stamp=stamp)
        # A few hundred characters at a time, streamed: a worker never holds a whole event's
        # sheets or entries at once (only each character's compact record is kept).
        for start in range(0, len(ids), BUILD_CHUNK):
            chunk = db.session.execute(
                select(*CHARACTER_COLUMNS).where(Character.id.in_(ids[start : start + BUILD_CHUNK]))
            ).all()
            self._load_stored(chunk, stamp, key, settings)
            records = self._records_now(chunk, settings, key, event)
            badges = _badges_of([c.id for c in chunk])
            for character in chunk:
                self._place(
                    view, character, settings, key, *records[character.id], now,
                    badges.get(character.id, ()),
                )  # fmt: skip
            self._store([c.id for c in chunk], stamp)
            del chunk, records
            if alive is not None:
                alive()
        view.latest = max(
            (r.record.stamp for r in view.rows.values() if r.record.stamp), default=None
        )
        self.views[event.id] = view
        return view

    def _load_stored(self, chunk, stamp: str, key: str, settings) -> None:
        """The stored folds of the characters of ``chunk`` this worker does not keep at
        their version now: one at that version is their record; one of an earlier version,
        of the same sheet, a record that far behind, which ``_records_now`` folds on."""
        busy = uncommitted()  # this transaction's writes: their versions are not yet true
        wanted = {
            c.id: c.version
            for c in chunk
            if c.id not in busy
            and not (
                (kept := self.kept.records.get(c.id)) is not None
                and kept.version == c.version
                and kept.settings == key
            )
        }
        found = kept_folds.read(wanted, stamp)
        for character in chunk:
            if character.id not in found:
                continue
            version, data = found[character.id]
            try:
                folded, refused, last_row, digest = kept_folds.loads(data)
            except Exception:
                continue
            sheet = self.kept.sheet_from_text(character.id, key, character.larp_text, settings)
            if version != character.version and (digest != sheet.digest or last_row is None):
                continue  # another sheet since: folded whole
            kept = self.kept.records.get(character.id)
            if kept is not None and kept.settings == key and kept.version >= version:
                continue  # this worker's own is as new
            self.kept.records[character.id] = fold_record(
                sheet, version, None, folded, refused, last_row
            )
            self.stored[character.id] = folded.log_position

    def _store(self, character_ids: list[int], stamp: str) -> None:
        """Mark for storing the records of these characters whose stored fold (as this
        worker knows it) is none, or ``kept_folds.BEHIND`` entries behind; none while this
        transaction writes (its versions are not yet true)."""
        if not character_ids or uncommitted():
            return
        for character_id in character_ids:
            record = self.kept.records.get(character_id)
            stored = self.stored.get(character_id)
            if record is None or (
                stored is not None and record.folded.log_position - stored < kept_folds.BEHIND
            ):
                continue
            self.stored[character_id] = record.folded.log_position
            data = kept_folds.dumps(
                record.folded, record.conflict_entries, record.last_row, record.sheet_digest
            )
            self.unstored.append(
                {
                    "character_id": character_id,
                    "version": record.version,
                    "fingerprint": stamp,
                    "folded": data,
                }
            )

    def _records_now(self, chunk, settings, key: str, event: Event) -> dict[int, tuple]:
        """Each character's record at its version now (``chunk``: rows of CHARACTER_COLUMNS),
        with its log when it was read: one this worker keeps at that version, as it is; one
        a few entries behind with the same sheet and settings, folded on with the entries
        stored since (one query for them all); any other folded whole (one query)."""
        found: dict[int, tuple] = {}
        behind: dict[int, tuple[Record, KeptContext]] = {}
        whole = []
        for character in chunk:
            record = self.kept.records.get(character.id)
            if record is not None and record.settings == key:
                if record.version == character.version:
                    found[character.id] = (record, None)
                    continue
                sheet = self.kept.sheet_from_text(character.id, key, character.larp_text, settings)
                if record.sheet_digest == sheet.digest and record.last_row is not None:
                    behind[character.id] = (record, sheet)
                    continue
            whole.append(character)
        since = rows_after({c: r.last_row for c, (r, _) in behind.items()}, event.ruleset)
        for character in chunk:
            if character.id not in behind:
                continue
            record, sheet = behind[character.id]
            on = folded_on(record, sheet, character.version, since.get(character.id, []))
            if on is None:
                whole.append(character)
            else:
                found[character.id] = (on, None)
        if whole:
            logs = _logs([c.id for c in whole], event.id)
            for character in whole:
                sheet = self.kept.sheet_from_text(character.id, key, character.larp_text, settings)
                log = logs.get(character.id, [])
                last_row = logs.last_rows.get(character.id)
                found[character.id] = (
                    fold_record(sheet, character.version, log, last_row=last_row),
                    log,
                )
        return found

    def _place(self, view, character, settings, key, record, log, now, badges=()) -> Row:
        sheet = self.kept.sheet_from_text(character.id, key, character.larp_text, settings)
        ctx = sheet.ctx
        committed = character.id not in uncommitted()
        if committed:
            self.kept.records[character.id] = record
        if record.folded.last_at is not None and record.folded.last_at > now and not log:
            log = _logs([character.id], view.event_id).get(character.id, [])  # needed: rare
        record.at(ctx, now, log, committed=committed)
        row = Row(
            character.id,
            character.version,
            character.name,
            character.player,
            character.faction,
            spending(sheet.larp),
            record,
            character.present_at is not None,
            character.withdrawn_at is not None,
            badges,
        )
        view.rows[character.id] = row
        view.noted(row)
        if record.due is not None:
            heapq.heappush(view.due, (record.due, character.id))
        return row

    def _reread(self, view: View, event: Event, key: str, version: int, now: datetime) -> None:
        settings = event_settings(event)
        found = db.session.execute(
            select(*CHARACTER_COLUMNS).where(
                Character.event_id == event.id, Character.version > view.version
            )
        ).all()
        records = self._records_now(found, settings, key, event) if found else {}
        badges = _badges_of([c.id for c in found])
        for character in found:
            row = self._place(
                view, character, settings, key, *records[character.id], now,
                badges.get(character.id, ()),
            )  # fmt: skip
            view.latest = max(filter(None, (view.latest, row.record.stamp)), default=None)
        view.version = version
        self._store([c.id for c in found], view.stamp)

    def _advance(self, view: View, event: Event, key: str, now: datetime) -> None:
        """Advance the rows whose next change is due by ``now``; the rest stay as they are."""
        due_ids = []
        while view.due and view.due[0][0] <= now:
            due, character_id = heapq.heappop(view.due)
            row = view.rows.get(character_id)
            if row is not None and row.record.due == due:
                due_ids.append(character_id)  # (else a stale reminder: folded again since)
        if due_ids:
            settings = event_settings(event)
            for start in range(0, len(due_ids), BUILD_CHUNK):
                chunk = due_ids[start : start + BUILD_CHUNK]
                larps = dict(
                    db.session.execute(
                        select(Character.id, cast(Character.larp, String)).where(
                            Character.id.in_(chunk)
                        )
                    ).all()
                )
                later = [
                    i
                    for i in chunk
                    if (last := view.rows[i].record.folded.last_at) is not None and last > now
                ]
                logs = _logs(later, event.id) if later else {}
                for character_id in chunk:
                    row = view.rows[character_id]
                    ctx = self.kept.sheet_from_text(
                        character_id, key, larps[character_id], settings
                    ).ctx
                    record = row.record
                    log = logs.get(character_id) if character_id in later else None
                    record.at(ctx, now, log, committed=character_id not in uncommitted())
                    view.noted(row)
                    if record.due is not None:
                        heapq.heappush(view.due, (record.due, character_id))
                    view.latest = max(filter(None, (view.latest, record.stamp)), default=None)
        view.at = now


def views() -> Views:
    """This worker's views, of its records (a cache: dropping it changes no answer)."""
    kept = records()
    found = current_app.extensions.get(VIEWS)
    if found is None or found.kept is not kept:
        found = current_app.extensions[VIEWS] = Views(kept)
    return found


def kept_view_token(kept: Views | None, event_id: int, version: int, at: datetime) -> Since | None:
    """The token of an event's view at ``version`` and ``at`` from what this worker keeps
    (``kept``), with no query and no fold: None when it keeps no such view or a change of
    time alone is due by ``at``."""
    view = None if kept is None else kept.views.get(event_id)
    if view is None or view.version != version or at < view.at:
        return None
    if view.due and view.due[0][0] <= at:
        return None
    return view.token()
