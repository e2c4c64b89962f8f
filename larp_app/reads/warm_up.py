"""A worker's kept views made before it takes requests: the first roster of a big event
costs what a warm one costs, also after a restart in the middle of the event."""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import select

from ..extensions import db
from ..keeping.known import known
from ..keeping.views import views
from ..models import Event
from ..services.clock import now_utc
from .roster import row_json


def warm_open_events(alive: Callable[[], None] = lambda: None) -> list[tuple[int, int, float]]:
    """Build the kept view of every open event and its roster lines, and know each of their
    characters (its version and player link: a phone's first poll then reads nothing but
    the marks); ``alive`` is called between pieces of the work (a worker tells its master
    it is not stuck). Returns each event's id, characters and seconds taken. The database's
    marks are read first: what is built is of them or newer, and a restore after it is seen
    (keeping/known.py)."""
    kept = known()
    kept.current()
    kept.learn_open_events()
    done = []
    events = db.session.scalars(select(Event).where(Event.archived_at.is_(None))).all()
    for event in events:
        started = time.monotonic()
        view = views().view(event, now_utc(), alive)
        for n, row in enumerate(view.rows.values()):
            row_json(row, event.id)
            if n % 500 == 499:
                alive()
        done.append((event.id, len(view.rows), time.monotonic() - started))
        alive()
    db.session.rollback()  # nothing written; the connection goes back to the pool
    return done
