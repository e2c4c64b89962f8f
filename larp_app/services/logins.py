"""Slow down guessing: failed logins per account and per address, counted in the database."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, func, or_, select

from ..extensions import db
from ..models import LoginAttempt, User
from .users import password_matches

WINDOW = timedelta(minutes=15)
FREE_FAILURES = 5  # then each further failure doubles the wait, from 2 s up to 15 min
MAX_WAIT = timedelta(minutes=15)


def wait_before_next(username: str, address: str, now: datetime) -> timedelta:
    """How long this account or this address must wait before trying again."""
    recent = select(func.count(), func.max(LoginAttempt.at)).where(
        LoginAttempt.at > now - WINDOW,
        or_(LoginAttempt.username == username, LoginAttempt.address == address),
    )
    failures, last = db.session.execute(recent).one()
    if failures < FREE_FAILURES:
        return timedelta(0)
    wait = min(MAX_WAIT, timedelta(seconds=2 ** (failures - FREE_FAILURES + 1)))
    return max(timedelta(0), last + wait - now)


def attempt_login(username: str, password: str, address: str, now: datetime):
    """Return ``(user, None)``, or ``(None, wait)`` with the wait (zero: wrong credentials)."""
    wait = wait_before_next(username, address, now)
    if wait:
        return None, wait
    user = db.session.scalar(select(User).where(User.username == username))
    if user is not None and user.active and password_matches(user, password):
        db.session.execute(delete(LoginAttempt).where(LoginAttempt.username == username))
        return user, None
    db.session.add(LoginAttempt(username=username[:80], address=address[:64], at=now))
    db.session.flush()
    return None, timedelta(0)
