"""Slow down guessing: failed logins counted in the database, by account and address.

Three counts, each in the last WINDOW: the same account from the same address (the usual
guesser, slowed down to a wait of up to 15 minutes), the same address whatever the account
(one machine trying many names), and the same account from any address — that last one
waits at most ACCOUNT_MAX_WAIT, so that a stranger's wrong passwords cannot keep the owner
out. A name that does not exist costs the same password check as one that does.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache

from sqlalchemy import and_, delete, func, select
from werkzeug.security import check_password_hash, generate_password_hash

from ..extensions import db
from ..models import LoginAttempt, User
from .users import password_matches

WINDOW = timedelta(minutes=15)
MAX_WAIT = timedelta(minutes=15)
ACCOUNT_MAX_WAIT = timedelta(seconds=30)
# (free failures, longest wait) for: this account from this address, this address, this account
PAIR, ADDRESS, ACCOUNT = (5, MAX_WAIT), (20, MAX_WAIT), (20, ACCOUNT_MAX_WAIT)
FREE_FAILURES = PAIR[0]


@cache
def _dummy_hash() -> str:
    """A hash to check a password against when the name is unknown: the same work."""
    return generate_password_hash("no such account")


def _wait(condition, limits, now: datetime) -> timedelta:
    free, longest = limits
    failures, last = db.session.execute(
        select(func.count(), func.max(LoginAttempt.at)).where(
            LoginAttempt.at > now - WINDOW, condition
        )
    ).one()
    if failures < free:
        return timedelta(0)
    wait = min(longest, timedelta(seconds=2 ** min(failures - free + 1, 20)))
    return max(timedelta(0), last + wait - now)


def wait_before_next(username: str, address: str, now: datetime) -> timedelta:
    """How long this account from this address must wait before trying again."""
    name, place = LoginAttempt.username == username[:80], LoginAttempt.address == address[:64]
    return max(
        _wait(and_(name, place), PAIR, now),
        _wait(place, ADDRESS, now),
        _wait(name, ACCOUNT, now),
    )


def attempt_login(username: str, password: str, address: str, now: datetime):
    """Return ``(user, None)``, or ``(None, wait)`` with the wait (zero: wrong credentials)."""
    wait = wait_before_next(username, address, now)
    if wait:
        return None, wait
    user = db.session.scalar(select(User).where(User.username == username[:80]))
    if user is None:
        check_password_hash(_dummy_hash(), password)
    elif user.active and password_matches(user, password):
        db.session.execute(
            delete(LoginAttempt).where(
                LoginAttempt.username == username, LoginAttempt.address == address[:64]
            )
        )
        return user, None
    db.session.add(LoginAttempt(username=username[:80], address=address[:64], at=now))
    db.session.flush()
    return None, timedelta(0)
