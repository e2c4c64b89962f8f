"""Files at rest readable by the app's account only.

The database, its backups, event archives and badge prints hold badge secrets, player links
and password hashes: each is written 0600, each folder the app makes for them 0700. The
app and its commands start with the umask 077 (``private_umask``), so whatever a library
creates (SQLite's database and journal files, pg_dump's output) is private too; the
functions here make it so explicitly as well, and turn a file left 0644 by an older version
private again.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import BinaryIO

PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700
UMASK = 0o077


def private_umask() -> None:
    """Files and folders this process creates from now on: its own account's only."""
    os.umask(UMASK)


def private_folder(path: Path) -> Path:
    """Make the app's own folder ``path`` (and its missing parents) 0700, even if it exists."""
    path.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)
    with contextlib.suppress(PermissionError):  # another account's folder: left as it is
        path.chmod(PRIVATE_FOLDER)
    return path


def parent_folder(path: Path) -> None:
    """Make the missing folders above a file the operator named (0700); existing ones such
    as /tmp are not the app's to change."""
    if not path.parent.exists():
        path.parent.mkdir(mode=PRIVATE_FOLDER, parents=True, exist_ok=True)


def private_file(path: Path) -> Path:
    """``path`` exists, empty if it was not there, and is 0600 before anything is written."""
    parent_folder(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, PRIVATE_FILE)
    try:
        os.fchmod(fd, PRIVATE_FILE)
    finally:
        os.close(fd)
    return path


def open_private(path: Path) -> BinaryIO:
    """``path`` opened for writing from scratch (binary), 0600 from its first byte."""
    parent_folder(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, PRIVATE_FILE)
    os.fchmod(fd, PRIVATE_FILE)
    return os.fdopen(fd, "wb")


def make_private(path: Path) -> None:
    """Turn an existing file private (0600); a missing one is nothing to do."""
    with contextlib.suppress(FileNotFoundError, PermissionError):
        path.chmod(PRIVATE_FILE)


def private_sqlite(dbapi_connection) -> None:
    """The SQLite database a connection opened, with its journal files, made 0600 (a file
    left 0644 by an older version too). An in-memory database has no file."""
    for _seq, name, filename in dbapi_connection.execute("PRAGMA database_list").fetchall():
        if name == "main" and filename:
            for suffix in ("", "-wal", "-shm", "-journal"):
                make_private(Path(filename + suffix))
