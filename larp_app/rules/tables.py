"""Rule tables: shipped as data inside the package, replaceable per event."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .problems import Checker

HOUSE_DEFAULT = "house default"
EVENT = "event"

# A table parser reads raw JSON data, records problems under ``path`` and returns the table.
TableParser = Callable[[Any, Checker, str], Any]


@dataclass(frozen=True)
class TableSet:
    """The tables an event uses, and where each came from (house default or event)."""

    values: Mapping[str, Any]
    sources: Mapping[str, str]

    def __getitem__(self, name: str) -> Any:
        return self.values[name]


def build_tables(
    parsers: Mapping[str, TableParser],
    shipped: Callable[[str], Any],
    overrides: Mapping[str, Any],
    checker: Checker,
) -> TableSet:
    """Parse each table from the event's override or the shipped default (``shipped(name)``)."""
    for name in overrides:
        if name not in parsers:
            checker.error(f"tables.{name}", "unknown_table", allowed=sorted(parsers))
    values, sources = {}, {}
    for name, parse in parsers.items():
        if name in overrides:
            values[name] = parse(overrides[name], checker, f"tables.{name}")
            sources[name] = EVENT
        else:
            values[name] = parse(shipped(name), checker, f"tables.{name}")
            sources[name] = HOUSE_DEFAULT
    return TableSet(values=values, sources=sources)
