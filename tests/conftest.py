"""Fixtures shared by every level: a fresh app and database per test, its client and runner."""

import os

import pytest
import sqlalchemy
from flask_migrate import upgrade

from larp_app import create_app, database_uri

POSTGRES_URL = os.environ.get("LARP_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")


def pytest_generate_tests(metafunc):
    """Tests marked ``both_databases`` run once on SQLite and once on PostgreSQL."""
    marked = metafunc.definition.get_closest_marker("both_databases")
    if marked and "database_url" in metafunc.fixturenames:
        metafunc.parametrize("database_url", ["sqlite", "postgresql"], indirect=True)


def empty_postgres() -> str | None:
    """Empty the test database; return why PostgreSQL cannot be used here, or None."""
    engine = sqlalchemy.create_engine(database_uri(POSTGRES_URL, None))
    try:
        with engine.begin() as conn:
            conn.execute(sqlalchemy.text("DROP SCHEMA IF EXISTS public CASCADE"))
            conn.execute(sqlalchemy.text("CREATE SCHEMA public"))
    except sqlalchemy.exc.OperationalError as exc:
        return f"no PostgreSQL server at {POSTGRES_URL}: {str(exc).splitlines()[0]}"
    finally:
        engine.dispose()
    return None


@pytest.fixture
def database_url(request, tmp_path):
    if getattr(request, "param", "sqlite") == "postgresql":
        reason = empty_postgres()
        if reason:
            pytest.skip(reason)
        return POSTGRES_URL
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


@pytest.fixture
def app(database_url, tmp_path):
    """A fresh app in testing mode, its database made by the migrations, for each test."""
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "PRINT_FOLDER": str(tmp_path / "prints"),
            "PUBLIC_BASE_URL": None,  # whatever the environment says
        }
    )
    with app.app_context():
        upgrade()
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
