"""Fixtures shared by every level: a fresh app per test, and its CLI runner."""

import pytest

from larp_app import create_app


@pytest.fixture
def app():
    """A fresh app in testing mode for each test."""
    return create_app({"TESTING": True})


@pytest.fixture
def runner(app):
    """Run ``flask <noun> <verb>`` commands against the test app."""
    return app.test_cli_runner()
