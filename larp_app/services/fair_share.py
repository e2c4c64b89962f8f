"""Fair share: no account takes more than its share of the server.

Most requests cost a few milliseconds; a few cost much more (a whole roster, every character
folded at another instant, an export, the report). Each such costly read is run:

- one at a time per account: while one runs, the same account's next is refused;
- then the account rests: after a read that took T, its next costly read waits REST × T
  (REST 3: one account, however many loops it runs, keeps at most a quarter of one
  worker busy);
- and at most SLOTS of them run at once over all accounts, so that gunicorn's sync workers
  stay free for everyone's cheap requests (a console's state, an entry): an organiser's
  large export never stalls the referees.

A refused read is answered at once (``Busy``: 429 with Retry-After), never queued. The
counts are shared by every worker on the machine through lock files (``fcntl.flock``) in a
folder of the instance: no database table and no Redis, and a worker that dies releases
its locks with it.
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


def _release(fd: int) -> None:
    fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)


def _read_rest(fd: int) -> tuple[float, float]:
    """(not before, last length) kept in the account's file."""
    os.lseek(fd, 0, os.SEEK_SET)
    text = os.read(fd, 64).decode("ascii", "replace").split()
    try:
        return float(text[0]), float(text[1])
    except (IndexError, ValueError):
        return 0.0, 0.0


def _write_rest(fd: int, not_before: float, took: float) -> None:
    os.ftruncate(fd, 0)
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, f"{not_before:.3f} {took:.3f}".encode("ascii"))


@contextmanager
def costly(folder: Path, account: int, *, rest: float, slots: int) -> Iterator[None]:
    """Run the block as one costly read of ``account``; Busy when it must wait."""
    folder.mkdir(parents=True, exist_ok=True)
    mine = _try_lock(folder / f"account-{account}")
    if mine is None:  # the account's previous costly read is still running
        raise Busy(1, account=True)
    try:
        not_before, took = _read_rest(mine)
        if now() < not_before:
            raise Busy(max(1, math.ceil(not_before - now())), account=True)
        slot = next(
            (fd for n in range(slots) if (fd := _try_lock(folder / f"slot-{n}")) is not None),
            None,
        )
        if slot is None:
            raise Busy(max(1, math.ceil(took)), account=False)
        started = now()
        try:
            yield
        finally:
            _release(slot)
            took = max(0.0, now() - started)
            _write_rest(mine, now() + rest * took, took)
    finally:
        _release(mine)
