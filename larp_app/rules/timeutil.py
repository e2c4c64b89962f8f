"""Instants as timezone-aware UTC datetimes, read from and written as ISO-8601."""

from __future__ import annotations

from datetime import UTC, datetime

# Instants outside these years are refused: far enough from datetime's own limits that an
# instant moved by a phone's clock error (at most the span between them) stays a datetime.
FIRST_YEAR, LAST_YEAR = 1900, 2999


def parse_instant(value: str, zone: bool = False) -> datetime:
    """Read an ISO-8601 instant. ``zone``: it must say its offset (``Z``, ``+01:00``), as
    every instant a client sends must (ValueError ``no_zone``: a phone's local time read
    as UTC would be hours off); without, one kept without an offset is read as UTC.

    ValueError when it is not one, or falls outside the years FIRST_YEAR..LAST_YEAR.
    """
    if not isinstance(value, str):
        raise ValueError("not_text")
    if len(value) > 64:
        raise ValueError("too_long")
    parsed = datetime.fromisoformat(value.strip())
    if not FIRST_YEAR <= parsed.year <= LAST_YEAR:
        raise ValueError("out_of_range")
    if parsed.tzinfo is None:
        if zone:
            raise ValueError("no_zone")
        return parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def format_instant(value: datetime | None) -> str | None:
    """Write an instant as ISO-8601 UTC with a trailing Z, e.g. ``2027-03-06T15:12:00Z``."""
    if value is None:
        return None
    text = value.astimezone(UTC).isoformat(timespec="auto")
    return text.removesuffix("+00:00") + "Z"
