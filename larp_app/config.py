"""Defaults; instance/config.py overrides them, and LARP_* environment variables override both."""

import os

# Replaced by instance/config.py or LARP_SECRET_KEY on any real deployment.
SECRET_KEY = "dev-only-change-me"

# None: SQLite in instance/ (set by create_app). DATABASE_URL points at PostgreSQL.
SQLALCHEMY_DATABASE_URI = os.environ.get("DATABASE_URL") or None
SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True}

# The live API refuses entries dated further ahead or further back than these.
ENTRY_MAX_FUTURE_SECONDS = 10
ENTRY_MAX_AGE_HOURS = 24
