"""Backups while the app serves: SQLite's online backup API, or pg_dump; and restores, which
the app must not be serving (a worker's heartbeat says whether it is), each giving the
database a new epoch: every worker still running forgets what it kept of the database as it
was (keeping/versions.py)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import SQLAlchemyError

from ..keeping.versions import new_epoch
from ..private_files import make_private, parent_folder, private_file
from ..services.clock import now_utc
from ..services.database_health import last_beat

SQLITE_MAGIC = b"SQLite format 3\x00"
# A worker that answered this recently serves (web/health.py beats every 10 s or so while
# requests come): a restore now would lose what it stores meanwhile.
SERVING_WINDOW = 30
PG_DUMP_MAGIC = b"PGDMP"


class BackupError(Exception):
    """A backup or restore that could not be done; the message says why, in words."""


def default_path(uri: str, folder: Path) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    suffix = "sqlite3" if _kind(uri) == "sqlite" else "pgdump"
    return folder / f"larp-{stamp}.{suffix}"


def create_backup(uri: str, path: Path) -> Path:
    """Write a consistent copy of the database at ``uri`` to ``path``, the app serving meanwhile.

    SQLite: the online backup API copies one consistent snapshot (writers wait a moment, no
    one is refused). PostgreSQL: pg_dump's one transaction, in its custom format. Either is
    readable by this account only (0600), like the database it copies.
    """
    parent_folder(path)
    url = make_url(uri)
    if _kind(uri) == "sqlite":
        partial = private_file(path.with_name(path.name + ".partial"))
        source = sqlite3.connect(_sqlite_file(url), timeout=30)
        target = sqlite3.connect(partial)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        make_private(partial)  # SQLite's journal may have come and gone meanwhile
        partial.replace(path)  # a file at PATH is always a whole backup
        return path
    private_file(path)  # pg_dump writes into it, keeping its mode
    _run(["pg_dump", "--format=custom", "--no-owner", "--file", str(path)], url)
    make_private(path)
    return path


def restore_backup(uri: str, path: Path) -> None:
    """Replace the database at ``uri`` with the backup at ``path`` (refused if of another kind)."""
    try:
        with path.open("rb") as file:
            head = file.read(16)
    except OSError as exc:
        raise BackupError(f"PATH: cannot read {path}: {exc.strerror}") from exc
    url = make_url(uri)
    if _kind(uri) == "sqlite":
        if head != SQLITE_MAGIC:
            raise BackupError(f"PATH: {path} is not a SQLite backup (this app uses SQLite)")
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        target = sqlite3.connect(_sqlite_file(url), timeout=30)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        make_private(Path(_sqlite_file(url)))
        return
    if not head.startswith(PG_DUMP_MAGIC):
        raise BackupError(f"PATH: {path} is not a pg_dump backup (this app uses PostgreSQL)")
    _run(
        ["pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction", str(path)],
        url,
        database_flag=True,
    )


def serving_lately() -> float | None:
    """Seconds since a worker last answered (or /healthz did) when within
    ``SERVING_WINDOW``; None when nothing did lately."""
    last = last_beat()
    if last is None:
        return None
    ago = max(0.0, (now_utc() - last).total_seconds())
    return ago if ago < SERVING_WINDOW else None


def new_epoch_after_restore(engine) -> bool:
    """A new epoch for the restored database, and the stored folds of the old gone (no
    worker would read them again); False when the backup is older than the epoch (then
    ``flask db upgrade`` makes one)."""
    try:
        with engine.begin() as connection:
            moved = new_epoch(connection)
            if moved:
                connection.execute(text("DELETE FROM kept_fold"))
    except SQLAlchemyError:  # a backup from before the marks
        return False
    return moved


def _kind(uri: str) -> str:
    name = make_url(uri).get_backend_name()
    if name not in ("sqlite", "postgresql"):
        raise BackupError(f"DATABASE_URL: backups know SQLite and PostgreSQL, not {name}")
    return name


def _sqlite_file(url: URL) -> str:
    if not url.database or url.database == ":memory:":
        raise BackupError("DATABASE_URL: an in-memory SQLite database has nothing to back up")
    return url.database


def _run(command: list[str], url: URL, database_flag: bool = False) -> None:
    """Run pg_dump or pg_restore on the database at ``url``; its password never on argv."""
    if shutil.which(command[0]) is None:
        raise BackupError(
            f"{command[0]} is not installed (Debian: apt-get install postgresql-client)"
        )
    plain = url.set(drivername="postgresql", password=None)
    target = plain.render_as_string(hide_password=False)
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    command = (
        [*command[:-1], "--dbname", target, command[-1]]
        if database_flag
        else [
            *command,
            target,
        ]
    )
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise BackupError(f"{command[0]} failed: {done.stderr.strip()[-500:]}")
