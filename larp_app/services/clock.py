"""The one place the app reads the wall clock."""

from datetime import UTC, datetime


def now_utc() -> datetime:
    return datetime.now(UTC)
