"""Defaults; instance/config.py overrides them, and LARP_* environment variables override both."""

# Replaced by instance/config.py or LARP_SECRET_KEY on any real deployment.
SECRET_KEY = "dev-only-change-me"
