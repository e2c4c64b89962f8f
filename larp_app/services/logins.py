"""Slow down guessing: failed logins counted in the database, by account and address.

Four counts, each over the last WINDOW:

- this account from this address (the usual guesser): 5 free failures, then a wait doubling
  from 2 s up to MAX_WAIT;
- this address, whatever the account (one machine trying many names): 20, likewise;
- this account from the addresses that keep failing on it (more than TYPOS failures each:
  many machines guessing one password): 20 free failures of theirs together, then a wait
  since the last of them of up to ACCOUNT_MAX_WAIT, which they share;
- this account from an address that has not been failing on it (the owner's phone, or one
  typo): while the account is under attack, at most NEW_ADDRESS_WAIT after another such
  address last failed. So the owner's right password gets in at once, or after one short
  wait: however fast the attackers' addresses fail, they never lengthen it; only a stranger
  who brings a brand-new address for every guess can delay it again, a few seconds at a time.

A name that does not exist costs the same password check as one that does.
"""

from __future__ import annotations

from collections import Counter
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
NEW_ADDRESS_WAIT = timedelta(seconds=5)
TYPOS = 1  # failures of an address on an account that do not make it a failing address
# (free failures, longest wait) for: this account from this address, this address, this account
PAIR, ADDRESS, ACCOUNT = (5, MAX_WAIT), (20, MAX_WAIT), (20, ACCOUNT_MAX_WAIT)


@cache
def _dummy_hash() -> str:
    """A hash to check a password against when the name is unknown: the same work."""
    return generate_password_hash("no such account")


def _doubling(failures: int, limits) -> timedelta | None:
    """The wait after ``failures`` counted under ``limits``; None while they are free."""
    free, longest = limits
    if failures < free:
        return None
    return min(longest, timedelta(seconds=2 ** min(failures - free + 1, 20)))


def _wait(condition, limits, now: datetime) -> timedelta:
    failures, last = db.session.execute(
        select(func.count(), func.max(LoginAttempt.at)).where(
            LoginAttempt.at > now - WINDOW, condition
        )
    ).one()
    wait = _doubling(failures, limits)
    return timedelta(0) if wait is None else max(timedelta(0), last + wait - now)


def _account_wait(username: str, address: str, now: datetime) -> timedelta:
    """The wait the account's own count asks of this address (see the module's docstring)."""
    failures = db.session.execute(
        select(LoginAttempt.address, LoginAttempt.at)
        .where(LoginAttempt.username == username, LoginAttempt.at > now - WINDOW)
        .order_by(LoginAttempt.at)
    ).all()
    wait = _doubling(len(failures), ACCOUNT)
    if wait is None:
        return timedelta(0)
    seen: Counter[str] = Counter()
    last_newcomer = None  # the last failure of an address that was not failing yet
    for place, at in failures:
        seen[place] += 1
        if seen[place] <= TYPOS:
            last_newcomer = at
    if seen[address] > TYPOS:  # a failing address: the attackers' shared wait
        return max(timedelta(0), failures[-1].at + wait - now)
    if last_newcomer is None:
        return timedelta(0)
    return max(timedelta(0), last_newcomer + NEW_ADDRESS_WAIT - now)


def wait_before_next(username: str, address: str, now: datetime) -> timedelta:
    """How long this account from this address must wait before trying again."""
    username, address = username[:80], address[:64]
    name, place = LoginAttempt.username == username, LoginAttempt.address == address
    return max(
        _wait(and_(name, place), PAIR, now),
        _wait(place, ADDRESS, now),
        _account_wait(username, address, now),
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
