"""Files at rest are readable by the app's account only: the SQLite database, backups of
either kind, event archives and badge prints are 0600, the folders the app makes 0700 —
also when a file of that name was left 0644 before."""

from pathlib import Path

import pytest
from flask_migrate import upgrade

from larp_app import create_app
from larp_app.extensions import db
from larp_app.services.demo import load_demo

from .helpers import log_in, post_form
from .test_print_jobs import finished


def mode(path: Path) -> int:
    return path.stat().st_mode & 0o777


def left_open(path: Path) -> Path:
    """A file of that name as an older version left it: readable by everyone."""
    path.write_bytes(b"")
    path.chmod(0o644)
    return path


@pytest.fixture
def demo(app):
    with app.app_context():
        load_demo()
        db.session.commit()


def test_a_new_sqlite_database_and_its_journal_are_readable_by_the_app_only(tmp_path):
    path = tmp_path / "new" / "larp.sqlite3"
    path.parent.mkdir()
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    assert mode(path) == 0o600
    for journal in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        if journal.exists():
            assert mode(journal) == 0o600, journal


def test_a_sqlite_database_left_readable_by_everyone_is_made_private_on_connecting(
    app, database_url
):
    path = Path(database_url.removeprefix("sqlite:///"))
    path.chmod(0o644)
    with app.app_context():
        db.engine.dispose()
        db.session.execute(db.text("SELECT 1"))
    assert mode(path) == 0o600


@pytest.mark.both_databases
def test_backups_of_either_kind_are_readable_by_the_app_only(app, runner, tmp_path):
    target = left_open(tmp_path / "backup.file")
    done = runner.invoke(args=["backup", "create", str(target)])
    assert done.exit_code == 0, done.output
    assert mode(target) == 0o600
    assert target.stat().st_size > 0


def test_the_default_backup_folder_and_its_backups_are_the_apps_only(app, runner, tmp_path):
    app.instance_path = str(tmp_path / "instance")
    done = runner.invoke(args=["backup", "create"])
    assert done.exit_code == 0, done.output
    folder = tmp_path / "instance" / "backups"
    assert mode(folder) == 0o700
    (backup,) = folder.iterdir()
    assert mode(backup) == 0o600


def test_an_event_archive_is_readable_by_the_app_only(app, demo, runner, tmp_path):
    target = left_open(tmp_path / "event.json")
    done = runner.invoke(args=["event", "export", "1", "--out", str(target)])
    assert done.exit_code == 0, done.output
    assert mode(target) == 0o600
    assert target.stat().st_size > 0


def test_a_badge_print_written_by_the_command_is_readable_by_the_app_only(
    app, demo, runner, tmp_path
):
    target = left_open(tmp_path / "badges.pdf")
    args = ["badges", "print", "1", "--out", str(target), "--base-url", "http://x"]
    done = runner.invoke(args=args)
    assert done.exit_code == 0, done.output
    assert mode(target) == 0o600
    assert target.read_bytes().startswith(b"%PDF")


def test_a_badge_print_of_the_organisers_page_and_its_folder_are_the_apps_only(
    app, demo, client, tmp_path
):
    folder = Path(app.config["PRINT_FOLDER"])
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    log_in(client, "organiser", "organiser-demo")
    answer = post_form(
        client,
        "/events/1/badges/print",
        {"layout": "a6-4up", "paper": "a4"},
        page="/events/1/badges",
    )
    job_id = int(answer.headers["Location"].rsplit("/", 1)[1])
    assert finished(app, job_id) == "done"
    assert mode(folder) == 0o700
    (pdf,) = folder.iterdir()
    assert mode(pdf) == 0o600
