"""Rule tables: shipped as data inside the package, replaceable per event."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
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


@cache
def _shipped_text(ruleset: str, name: str) -> str:
    return (
        resources.files(__package__)
        .joinpath("data", ruleset, f"{name}.json")
        .read_text(encoding="utf-8")
    )


def shipped_table(ruleset: str, name: str) -> Any:
    """Return a fresh copy of a table file shipped with the package."""
    return json.loads(_shipped_text(ruleset, name))


def build_tables(
    ruleset: str, parsers: Mapping[str, TableParser], overrides: Mapping[str, Any], checker: Checker
) -> TableSet:
    """Parse each table from the event's override or the shipped default."""
    for name in overrides:
        if name not in parsers:
            checker.error(f"tables.{name}", "unknown_table", allowed=sorted(parsers))
    values, sources = {}, {}
    for name, parse in parsers.items():
        if name in overrides:
            values[name] = parse(overrides[name], checker, f"tables.{name}")
            sources[name] = EVENT
        else:
            values[name] = parse(shipped_table(ruleset, name), checker, f"tables.{name}")
            sources[name] = HOUSE_DEFAULT
    return TableSet(values=values, sources=sources)
