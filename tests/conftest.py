"""Fixtures shared by every level: a fresh app and database per test, its client and runner.

The migrations run once per test session, into a template database (a SQLite file, a
PostgreSQL template database); each test gets its own copy of it.
"""

import os
import shutil
from urllib.parse import urlsplit, urlunsplit

import pytest
import sqlalchemy
from flask_migrate import upgrade

from larp_app import create_app, database_uri

# The demo's accounts get random passwords; the tests log in with these instead.
DEMO_PASSWORDS = {"organiser": "organiser-demo", "referee": "referee-demo"}
POSTGRES_URL = os.environ.get("LARP_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
# `make test` runs the tests in several processes (pytest-xdist): each its own database.
if worker := os.environ.get("PYTEST_XDIST_WORKER"):
    POSTGRES_URL = f"{POSTGRES_URL}_{worker}"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`make test` runs the tests in one process per core (pytest-xdist), each test wherever a
    process is free, but the browser tests take turns in one process: each runs a Chromium of
    its own, and one phone's "within 5 seconds" must not wait behind another test's browser."""
    from xdist.scheduler import LoadScopeScheduling

    class BrowsersTakeTurns(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return "browser" if nodeid.startswith("tests/e2e/") else nodeid

    return BrowsersTakeTurns(config, log)


def pytest_generate_tests(metafunc):
    """Tests marked ``both_databases`` run once on SQLite and once on PostgreSQL."""
    marked = metafunc.definition.get_closest_marker("both_databases")
    if marked and "database_url" in metafunc.fixturenames:
        metafunc.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)


def migrate(url: str, tmp_path) -> None:
    """Run every migration on the database at ``url``."""
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "PRINT_FOLDER": str(tmp_path)}
    )
    with app.app_context():
        upgrade()
        from larp_app.extensions import db

        db.engine.dispose()


def with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{name}"))


class PostgresCopies:
    """A migrated template database beside the test database, copied for each test."""

    def __init__(self, url: str, tmp_path):
        self.name = urlsplit(url).path.lstrip("/")
        self.template = f"{self.name}_template"
        self.admin = sqlalchemy.create_engine(
            database_uri(with_database(url, "postgres"), None), isolation_level="AUTOCOMMIT"
        )
        self.reason = None
        try:
            self._recreate(self.template, template="template0")
        except sqlalchemy.exc.OperationalError as exc:
            self.reason = f"no PostgreSQL server at {url}: {str(exc).splitlines()[0]}"
            return
        migrate(with_database(url, self.template), tmp_path)

    def _recreate(self, name: str, template: str) -> None:
        with self.admin.connect() as conn:
            conn.execute(sqlalchemy.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            conn.execute(sqlalchemy.text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))

    def fresh(self) -> None:
        self._recreate(self.name, template=self.template)

    def empty(self) -> None:
        """The test database with no tables at all (to load a dump into)."""
        self._recreate(self.name, template="template0")

    def close(self) -> None:
        self.admin.dispose()


@pytest.fixture(scope="session")
def postgres_copies(tmp_path_factory):
    copies = PostgresCopies(POSTGRES_URL, tmp_path_factory.mktemp("pg-template"))
    yield copies
    copies.close()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    """A SQLite file with every migration run, made once per session."""
    path = tmp_path_factory.mktemp("sqlite-template") / "template.sqlite3"
    migrate(f"sqlite:///{path}", path.parent)
    return path


@pytest.fixture
def database_url(request, tmp_path):
    """A migrated database of the test's own: a copy of the session's template."""
    if getattr(request, "param", "sqlite") == "postgresql":
        copies = request.getfixturevalue("postgres_copies")
        if copies.reason:
            pytest.skip(copies.reason)
        copies.fresh()
        return POSTGRES_URL
    path = tmp_path / "test.sqlite3"
    shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
    return f"sqlite:///{path}"


@pytest.fixture
def app(database_url, tmp_path):
    """A fresh app in testing mode on a freshly migrated database, for each test."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "PRINT_FOLDER": str(tmp_path / "prints"),
            # Costly reads take turns per account (tests/web/test_fair_share.py turns it on):
            # elsewhere a test's quick succession of exports must not wait its turn.
            "FAIR_SHARE": False,
            "FAIR_SHARE_FOLDER": str(tmp_path / "fair-share"),
            "PUBLIC_BASE_URL": None,  # whatever the environment says
            "DEMO_PASSWORDS": DEMO_PASSWORDS,
        }
    )
    with app.app_context():
        upgrade()  # already at head: checks the copy, runs nothing
    yield app
    with app.app_context():
        from larp_app.extensions import db

        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    """Run ``flask <noun> <verb>`` commands against the test app."""
    return app.test_cli_runner()


@pytest.fixture
def toy_ruleset():
    """The toy rule system of tests/toy_ruleset, known to the app for one test."""
    from larp_app import rules
    from tests.toy_ruleset import RULESET

    rules.register(RULESET)
    yield RULESET
    rules.unregister(RULESET.key)
