"""Make the historic databases again: one per schema `main` ever had, by that version's code.

For each commit below: its tree is unpacked into a temporary folder (`git archive`), and that
version's own code runs its migrations (`flask_migrate.upgrade`, as `flask db upgrade`),
creates two accounts and an event, imports two characters and logs entries through its own
services (`create_user`, `create_event`, `import_sheets`, `record_entry`). The SQLite
database is dumped as SQL (`<name>.sqlite.sql`); the same is then done against a scratch
PostgreSQL database and dumped with `pg_dump` (`<name>.postgresql.sql`). What the version
said about itself (tokens, revision, entries stored) goes to `<name>.json`.

    .venv/bin/python tests/data/historic/regenerate.py [NAME ...]

PostgreSQL: LARP_HISTORIC_POSTGRES_URL (default postgresql://postgres@127.0.0.1:5432/
larp_historic_make), a database this script drops and creates; never the tests' own.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
PYTHON = sys.executable

# name: (commit, what that schema is). Every distinct set of applied migrations `main` has
# held, found with `git log main -- larp_app/migrations/versions` (the re-parented ones are
# the branch commits whose migration was renumbered when merged).
HISTORIC = {
    "first_schema": ("1320e99", "0001 only"),
    "login_attempts": ("a9cc286", "up to 0002"),
    "badges_without_faction_colours": ("2b9562e", "0003 before faction colours were added"),
    "badges": ("7ea1f69", "up to 0003 with faction colours"),
    "user_language": ("6037240", "up to 0004"),
    "refused_entries": ("824fcdf", "up to 0005"),
    "print_heartbeat_alone": ("ab93a59", "0005 then print heartbeat as 0006"),
    "refusals_once": ("3e652c2", "0005 then refusals once as 0006"),
    "between_events_alone": ("6d6912a", "0005 then between events as 0006"),
    "versions_alone": ("4350e41", "0005 then versions as 0006"),
    "revocable_tokens_alone": ("ba06174", "0005 then revocable tokens as 0006"),
    "between_events": ("217e4f2", "up to 0007"),
    "print_heartbeat": ("9ed151c", "up to 0008"),
    "versions": ("3e747ae", "up to 0009"),
    "revocable_tokens": ("c79c1b5", "up to 0010"),
    "referee_events_without_badge_hashes": ("463be14", "0010 then referee events as 0011"),
    "referee_events_indexed_without_badge_hashes": (
        "9f827e5",
        "0010 then referee events and the author index as 0011",
    ),
    "badge_hashes": ("a99dff8", "up to 0011"),
    "referee_events": ("04db2b7", "up to 0012"),
    "entry_instant": ("5b0eb9e", "up to 0013"),
    "historic_schemas_completed_without_heartbeat": (
        "0597e11",
        "0014 before it made the heartbeat table",
    ),
    "historic_schemas_completed": ("2f36f65", "up to 0014"),
    "kept_folds": ("6cca8a2", "up to 0015"),
    "marks": ("b3f1efc", "up to 0016"),
    "marks_moved_by_the_database": ("b579a1a", "up to 0017"),
    "entry_character_row": ("786d9e7", "up to 0018"),
    "character_versions_with_links": ("2c01e68", "up to 0019"),
}

# What older versions needed and today's environment no longer installs.
OLD_DEPENDENCIES = ["font-lato>=0.1,<0.2"]

PASSWORDS = {"organiser": "historic-organiser", "referee": "historic-referee"}

# Run inside the historic version (its folder first on sys.path), one process a database:
# its own migrations, accounts, event, sheets and entries, all through its own code.
MAKE = r"""
import json, sys, uuid
from datetime import timedelta
from flask_migrate import upgrade
import sqlalchemy
from larp_app import create_app
from larp_app.extensions import db
from larp_app.models import Character, Event, User
from larp_app.services.characters import import_sheets
from larp_app.services.clock import now_utc
from larp_app.services.entries import record_entry
from larp_app.services.events import create_event
from larp_app.services.users import create_user

passwords, cast = json.loads(sys.argv[1]), json.load(open(sys.argv[2]))
app = create_app()
said = {"module": __import__("larp_app").__file__}
with app.app_context():
    upgrade()
    for name, password in passwords.items():
        _user, _password, token = create_user(name, name, password)
        said[f"{name}_token"] = token
    db.session.commit()
    event = create_event("Historic event", "ex-nihilo")
    db.session.commit()
    import_sheets(db.session.get(Event, event.id), cast)
    db.session.commit()
    referee = db.session.query(User).filter_by(username="referee").one()
    now = now_utc()
    plans = [
        [("hit", {"damage": 1, "blows": 2}, 50), ("status_on", {"key": "paura"}, 40),
         ("hit", {"damage": 1}, 30)],
        [("spend_energy", {"amount": 1, "advancement": "Colpo Caricato"}, 45),
         ("hit", {"damage": 1, "blows": 3}, 20)],
    ]
    characters = db.session.query(Character).order_by(Character.id).all()
    stored = 0
    for character, plan in zip(characters, plans):
        for n, (kind, fields, minutes_ago) in enumerate(plan):
            raw = {"id": str(uuid.UUID(int=character.id * 100 + n)), "kind": kind,
                   "at": (now - timedelta(minutes=minutes_ago)).isoformat(), **fields}
            record_entry(character, raw, referee)
            db.session.commit()
            stored += 1
    said["entries"] = stored
    said["revision"] = db.session.execute(
        sqlalchemy.text("SELECT version_num FROM alembic_version")
    ).scalar_one()
print(json.dumps(said))
"""


def unpack(commit: str, into: Path) -> None:
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")


def sheets(source: Path) -> list[dict]:
    """Two characters from that version's own example sheet."""
    sheet = json.loads((source / "larp_app/demo/ex-nihilo-sheet.json").read_text())
    second = dict(sheet, player="Marco Bianchi", character="Ugo Ferri", faction="Nomadi")
    return [sheet, second]


def old_dependencies(into: Path) -> Path:
    """The old versions' own dependencies, beside (not in) today's environment."""
    if not into.exists():
        subprocess.run(
            [PYTHON, "-m", "pip", "install", "--quiet", "--target", str(into), *OLD_DEPENDENCIES],
            check=True,
        )
    return into


def run(source: Path, url: str, *args: str) -> str:
    deps = old_dependencies(Path(tempfile.gettempdir()) / "larp-historic-dependencies")
    env = dict(
        os.environ, PYTHONPATH=f"{source}{os.pathsep}{deps}", LARP_SQLALCHEMY_DATABASE_URI=url
    )
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [PYTHON, *args], cwd=source, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode:
        raise SystemExit(f"{' '.join(args[:4])} failed in {source}:\n{done.stdout}{done.stderr}")
    return done.stdout


def make(source: Path, url: str) -> dict:
    cast = source / "historic-cast.json"
    cast.write_text(json.dumps(sheets(source)))
    out = run(source, url, "-c", MAKE, json.dumps(PASSWORDS), str(cast))
    said = json.loads(out.strip().splitlines()[-1])
    if not said.pop("module").startswith(str(source)):
        raise SystemExit("the historic run imported today's code, not its own")
    return said


def dump_sqlite(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        return "\n".join(conn.iterdump()) + "\n"


def recreate_postgres(url: str) -> None:
    name = urlsplit(url).path.lstrip("/")
    admin = urlunsplit(urlsplit(url)._replace(path="/postgres"))
    for sql in (f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)', f'CREATE DATABASE "{name}"'):
        subprocess.run(["psql", admin, "-q", "-c", sql], check=True)


def dump_postgres(url: str) -> str:
    out = subprocess.run(
        ["pg_dump", "--inserts", "--no-owner", "--no-privileges", "--no-comments", url],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # psql's own commands and the empty search path are for psql restores; a test loads the
    # statements through the driver.
    keep = [
        line
        for line in out.splitlines()
        if not line.startswith("\\") and "set_config('search_path'" not in line
    ]
    return "\n".join(keep) + "\n"


def main(names: list[str]) -> None:
    pg_url = os.environ.get(
        "LARP_HISTORIC_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/larp_historic_make"
    )
    for name in names or list(HISTORIC):
        commit, _ = HISTORIC[name]
        with tempfile.TemporaryDirectory() as tmp:
            source = Path(tmp) / "src"
            source.mkdir()
            unpack(commit, source)
            sqlite_path = Path(tmp) / "historic.sqlite3"
            said = make(source, f"sqlite:///{sqlite_path}")
            (HERE / f"{name}.sqlite.sql").write_text(dump_sqlite(sqlite_path))
            recreate_postgres(pg_url)
            said_pg = make(source, pg_url)
            (HERE / f"{name}.postgresql.sql").write_text(dump_postgres(pg_url))
        meta = {"commit": commit, "sqlite": said, "postgresql": said_pg}
        (HERE / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n")
        print(f"{name}: {commit} revision {said['revision']}, {said['entries']} entries")


if __name__ == "__main__":
    main(sys.argv[1:])
