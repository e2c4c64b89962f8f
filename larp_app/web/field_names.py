"""Fields named as the reader calls them: a sheet's by its rule system's schema ("Armi 1 · Mani"
for ``weapons[0].hands``), a spreadsheet's columns by their names in the page's language, never
a bare path."""

from __future__ import annotations

import re

from flask_babel import get_locale
from flask_babel import gettext as _

from .. import rules
from ..messages import problem_message
from ..services.sheet_csv import columns

_COLUMN = re.compile(r"columns\.(.+)")
_NAMELESS_COLUMN = re.compile(r"columns\[(\d+)\]")


def _schema(ruleset: str | None):
    if ruleset is None:
        return None
    try:
        return rules.get_ruleset(ruleset).schema()
    except KeyError:
        return None


def field_name(path: str, ruleset: str | None = None) -> str:
    """``path`` as the reader names it in the page's language; the path itself for what no
    schema knows."""
    locale = str(get_locale())
    schema = _schema(ruleset)
    if schema is not None:
        named = schema.path_label(path, locale)
        if named:
            return named
    if match := _COLUMN.fullmatch(path):
        name = match.group(1)
        if schema is not None:
            known = next((c for c in columns(schema) if c.key == name), None)
            name = known.names(locale)[0] if known else name
        return _("Column %(name)s", name=name)
    if match := _NAMELESS_COLUMN.fullmatch(path):
        return _("Column %(number)d (no name)", number=int(match.group(1)) + 1)
    shared = {
        "file": _("File"),
        "sheet": _("Sheet"),
        "sheets": _("Sheets"),
        "ruleset": _("Rule system"),
        "event": _("Event"),
        "id": _("Character id"),
        "": _("Sheets"),
    }
    return shared.get(path, path)


def problem_line(problem: rules.Problem, ruleset: str | None = None) -> str:
    """``Caratteristiche · Corpo: must be 8–22, got 25``."""
    return problem_message(problem, field_name(problem.path, ruleset))
