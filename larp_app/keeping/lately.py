"""What a worker keeps of each referee's recent work: the characters they logged for
lately, and their entries that stopped counting, both kept under the conflicts mark (a
cache: dropping it changes no answer; the epoch moving drops it whole, known.py)."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import func, select

from ..extensions import db
from ..models import Entry, User

# A referee is told about their entries on the characters they logged for this recently.
RECENT = timedelta(hours=24)

# An entry's ``received_at`` is its request's instant, committed before the request ends:
# entries committed since a worker last looked were received at most this long before it.
IN_FLIGHT = timedelta(minutes=5)


@dataclass
class _Logged:
    looked: datetime  # when the worker last read the user's entries
    latest: dict[int, datetime]  # character id -> the user's latest entry there
    mark: int | None = None  # the conflicts mark when they were last read whole


class LoggedLately:
    """A worker's note of the characters each user logged entries for lately: read whole
    once, and again whenever the conflicts mark moved (an entry stored by other means than
    the app's, e.g. an operator's SQL with any ``received_at``, moves it); else only the
    entries received since it last looked."""

    def __init__(self):
        self.users: dict[int, _Logged] = {}
        self.lock = threading.Lock()

    def characters(self, user: User, now: datetime, mark: int | None = None) -> list[int]:
        """The ids of the characters ``user`` logged entries for in the ``RECENT`` before
        ``now``; ``mark``: the conflicts mark now."""
        with self.lock:
            known = self.users.get(user.id)
        if known is None or now < known.looked or known.mark != mark:
            since, latest = now - RECENT, {}  # (a clock set back too: read whole again)
        else:
            since, latest = max(now - RECENT, known.looked - IN_FLIGHT), dict(known.latest)
        found = db.session.execute(
            select(Entry.character_id, func.max(Entry.received_at))
            .where(Entry.author_id == user.id, Entry.received_at >= since)
            .group_by(Entry.character_id)
        )
        for character_id, at in found:
            if character_id not in latest or at > latest[character_id]:
                latest[character_id] = at
        oldest = now - RECENT
        latest = {c: at for c, at in latest.items() if at >= oldest}
        with self.lock:
            self.users[user.id] = _Logged(now, latest, mark)
        return sorted(latest)

    def latest(self, user: User) -> dict[int, datetime]:
        """The user's latest entry on each character, as last read (``characters``)."""
        known = self.users.get(user.id)
        return {} if known is None else known.latest


def logged_lately() -> LoggedLately:
    return current_app.extensions.setdefault("larp_logged_lately", LoggedLately())


@dataclass(frozen=True)
class KeptVoided:
    """One user's entries that stopped counting, as a worker found them."""

    mark: int  # the conflicts mark they were found under
    voided: list  # the user's own, dismissed or not (reads/conflicts.Voided, no ORM object)
    latest: dict[int, datetime]  # character id -> the user's latest entry there then


class KeptConflicts:
    """Each user's entries that stopped counting, kept while the conflicts mark stays: only
    a write that may change which entries count moves it (the database's triggers, whoever
    writes: versions.py), so an entry's answer reads nothing more to tell them."""

    def __init__(self):
        self.users: dict[int, KeptVoided] = {}
        self.lock = threading.Lock()

    def under(self, user: User, mark: int) -> KeptVoided | None:
        """What is kept for ``user`` under the conflicts mark ``mark``, if anything."""
        held = self.users.get(user.id)
        return held if held is not None and held.mark == mark else None

    def keep(self, user: User, held: KeptVoided) -> None:
        with self.lock:
            self.users[user.id] = held


def kept_conflicts() -> KeptConflicts:
    return current_app.extensions.setdefault("larp_kept_conflicts", KeptConflicts())
