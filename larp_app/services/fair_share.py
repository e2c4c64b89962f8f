"""Fair share: no account takes more than its share of the server, and a person is never
turned away by a limit meant for a loop.

Most requests cost a few milliseconds; a few cost much more (a whole roster, every character
folded at another instant, an export, the report). Each such costly read is run:

- one at a time per account: while one runs, the same account's next is refused;
- from the account's allowance of costly-read time, a token bucket: it holds at most BURST
  seconds (a person's burst: the report, then the CSV, then the workbook; a phone's roster
  twice) and fills at PART seconds a second (0.25: however many loops an account runs, it
  keeps at most a quarter of one worker busy over time). A read is taken while the allowance
  is not overdrawn, and what it took is drawn from it; an overdrawn account waits until its
  part has paid the rest back;
- and at most SLOTS of them run at once over all accounts, so that gunicorn's workers stay
  free for everyone's cheap requests (a console's state, an entry): an organiser's large
  export never stalls the referees.

A refused read is answered at once (``Busy``: 429 with Retry-After; a page waits and asks
again by itself), never queued. The counts are shared by every worker on the machine through
lock files (``fcntl.flock``) in a folder of the instance: no database table and no Redis,
and a worker that dies releases its locks with it.
"""

from __future__ import annotations

import fcntl
import hashlib
import math
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


class Busy(Exception):
    """The costly read must wait ``retry_after`` seconds (``account``: this account's own
    share is used; else the server's costly slots are all taken)."""

    def __init__(self, retry_after: int, account: bool):
        super().__init__(f"retry after {retry_after} s")
        self.retry_after = retry_after
        self.account = account


def now() -> float:
    """The clock the rests are measured on (shared by every worker of the machine)."""
    return time.time()


def folder_for(instance: Path, database_uri: str) -> Path:
    """The lock files' folder: one per database (two apps on one laptop, tests side by side)."""
    return instance / "fair-share" / hashlib.sha256(database_uri.encode()).hexdigest()[:12]


def _try_lock(path: Path) -> int | None:
    """An open, exclusively locked file descriptor, or None when another holds the lock."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        return None
    return fd


def free_slot(folder: Path, name: str, slots: int) -> int | None:
    """One of ``slots`` slots named ``name`` in ``folder``, taken (its locked file
    descriptor: give it back with ``release``); None when every one is taken. A process
    that dies gives its slots back with it."""
    return next(
        (fd for n in range(slots) if (fd := _try_lock(folder / f"{name}-{n}")) is not None),
        None,
    )


def release(fd: int) -> None:
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def _read_allowance(fd: int, burst: float) -> tuple[float, float | None]:
    """(allowance in seconds, when it was reckoned) kept in the account's file; a new
    account's is full."""
    os.lseek(fd, 0, os.SEEK_SET)
    text = os.read(fd, 64).decode("ascii", "replace").split()
    try:
        return float(text[0]), float(text[1])
    except (IndexError, ValueError):
        return burst, None


def _write_allowance(fd: int, allowance: float, at: float) -> None:
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, f"{allowance:.3f} {at:.3f}".encode("ascii"))


def _filled(allowance: float, since: float | None, at: float, burst: float, part: float) -> float:
    return allowance if since is None else min(burst, allowance + max(0.0, at - since) * part)


@contextmanager
def costly(folder: Path, account: int, *, burst: float, part: float, slots: int) -> Iterator[None]:
    """Run the block as one costly read of ``account``; Busy when it must wait."""
    folder.mkdir(parents=True, exist_ok=True)
    mine = _try_lock(folder / f"account-{account}")
    if mine is None:  # the account's previous costly read is still running
        raise Busy(1, account=True)
    try:
        allowance, since = _read_allowance(mine, burst)
        started = now()
        allowance = _filled(allowance, since, started, burst, part)
        if allowance < -OWED_NOTHING:  # overdrawn: wait until the part has paid it back
            raise Busy(max(1, math.ceil(-allowance / part - OWED_NOTHING)), account=True)
        slot = free_slot(folder, "slot", slots)
        if slot is None:
            raise Busy(1, account=False)
        try:
            yield
        finally:
            release(slot)
            ended = now()
            took = max(0.0, ended - started)
            _write_allowance(mine, _filled(allowance, started, ended, burst, part) - took, ended)
    finally:
        release(mine)


OWED_NOTHING = 1e-6  # seconds: an allowance paid back to 0, give or take a float's rounding
