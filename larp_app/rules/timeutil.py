"""Instants as timezone-aware UTC datetimes, read from and written as ISO-8601."""

from __future__ import annotations

from datetime import UTC, datetime


def parse_instant(value: str) -> datetime:
    """Read an ISO-8601 instant; one without an offset is taken as UTC."""
    if not isinstance(value, str):
        raise ValueError("not_text")
    parsed = datetime.fromisoformat(value.strip())
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def format_instant(value: datetime | None) -> str | None:
    """Write an instant as ISO-8601 UTC with a trailing Z, e.g. ``2027-03-06T15:12:00Z``."""
    if value is None:
        return None
    text = value.astimezone(UTC).isoformat(timespec="auto")
    return text.removesuffix("+00:00") + "Z"
