"""Tabletop sheet in, larp sheet out: the one entry point for every rule system."""

from __future__ import annotations

from typing import Any

from .problems import Checker, InvalidInput, Problem
from .registry import get_ruleset, ruleset_keys
from .settings import Settings, default_settings
from .sheet import LarpSheet


def sheet_ruleset(raw: Any) -> str:
    """The rule system a sheet names; InvalidInput when it names none or an unknown one (there
    is no default rule system: a sheet of an event takes its event's, given as settings)."""
    if not isinstance(raw, dict):
        raise InvalidInput([Problem("sheet", "not_object", {})])
    key = raw.get("ruleset")
    if key is None:
        raise InvalidInput([Problem("ruleset", "required", {})])
    if key not in ruleset_keys():
        raise InvalidInput(
            [Problem("ruleset", "unknown_ruleset", {"got": str(key), "allowed": ruleset_keys()})]
        )
    return key


def check_sheet(
    raw: Any, settings: Settings | None = None, stored: Any = None
) -> tuple[LarpSheet | None, Checker]:
    """Validate and convert; the checker holds every error and warning found.

    A field the rule system's sheet schema does not declare is refused at every depth,
    naming the nearest declared one. ``stored``: the sheet as stored before (a re-import, an
    edit, new settings): a field it held as it is was taken when undeclared fields were only
    warned of, and is warned of again, not refused (data is forever; it is never read)."""
    key = settings.ruleset if settings else sheet_ruleset(raw)
    settings = settings or default_settings(key)
    checker = Checker(stored)
    if isinstance(raw, dict) and raw.get("ruleset", key) != key:
        checker.error("ruleset", "ruleset_mismatch", expected=key, got=str(raw["ruleset"]))
        return None, checker
    ruleset = get_ruleset(key)
    schema = ruleset.schema()
    if schema is not None:
        schema.check_fields(raw, checker, key)
    sheet = ruleset.read_sheet(raw, settings.tables, checker)
    return sheet, checker


def convert_sheet(raw: Any, settings: Settings | None = None) -> LarpSheet:
    """Return the larp sheet, or raise InvalidInput listing every problem at once."""
    sheet, checker = check_sheet(raw, settings)
    checker.raise_if_errors()
    return sheet


def tabletop_values(raw: Any, settings: Settings | None = None) -> dict[str, Any]:
    """Derived tabletop values of a valid sheet (initiative, movement, tabletop points...)."""
    settings = settings or default_settings(sheet_ruleset(raw))
    return get_ruleset(settings.ruleset).tabletop_values(raw, settings.tables)
