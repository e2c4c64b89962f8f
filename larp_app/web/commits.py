"""Commits: a use case flushes, the web view or command that called it commits."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import IntegrityError, OperationalError

from ..extensions import db

T = TypeVar("T")
TRIES = 8


def commit_retrying(work: Callable[[], T], tries: int = TRIES) -> T:
    """Run ``work`` (use cases that flush) and commit. When it collides with a concurrent
    writer (a unique key another request took first, SQLite's file locked), everything is
    rolled back and ``work`` runs again, from what that writer committed."""
    for attempt in range(tries):
        try:
            result = work()
            db.session.commit()
            return result
        except (IntegrityError, OperationalError) as exc:
            db.session.rollback()
            collided = isinstance(exc, IntegrityError) or "locked" in str(exc.orig).lower()
            if not collided or attempt == tries - 1:
                raise
    raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises
