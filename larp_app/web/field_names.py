"""Fields named as the reader calls them: a sheet's by its rule system's schema ("Oggetti 1 ·
Peso" for ``items[0].weight``), a spreadsheet's columns by their names in the page's language, never
a bare path."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import get_locale
from flask_babel import gettext as _

from .. import rules
from ..messages import problem_message
from ..rules.schema import Field
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
        parent, dot, key = path.rpartition(".")
        if dot and (of := schema.path_label(parent, locale)):
            return f"{of} · {key}"  # a field the schema does not declare, in a part it does
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
        "cells": _("Cells"),
        "": _("Sheets"),
    }
    return shared.get(path, path)


def problem_line(problem: rules.Problem, ruleset: str | None = None) -> str:
    """``Caratteristiche · Forza: must be 1–10, got 25``."""
    return problem_message(problem, field_name(problem.path, ruleset), ruleset)


def _plain(value: Any) -> str:
    if value is None or value == "" or value == [] or value == {}:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, dict):
        return " · ".join(_plain(v) for v in value.values() if v is not None)
    if isinstance(value, list):
        return " | ".join(_plain(v) for v in value)
    return str(value)


def _of_field(f: Field | None, value: Any, locale: str) -> str:
    if f is None or value is None or value == "" or value == [] or value == {}:
        return _plain(value)
    if f.kind == "choice":
        return f.choice_label(value, locale)
    if f.kind == "group" and isinstance(value, dict):
        return ", ".join(
            f"{c.label(locale)} {_of_field(c, value[c.key], locale)}"
            for c in f.children
            if value.get(c.key) is not None
        )
    if f.kind == "map" and isinstance(value, dict):
        return ", ".join(f"{k} {_plain(v)}" for k, v in value.items())
    if f.kind == "list" and isinstance(value, list):
        return " | ".join(_item(f, item, locale) for item in value)
    return _plain(value)


def _item(f: Field, item: Any, locale: str) -> str:
    if not isinstance(item, dict):
        return _plain(item)
    parts = []
    for c in f.children:
        value = item.get(c.key)
        if c.kind == "boolean":
            if value and value != c.node.get("default"):
                parts.append(c.label(locale))
            elif value is False and c.node.get("default") is True:
                parts.append(_("not %(what)s", what=c.label(locale)))
        elif value is not None and (
            c.kind in ("integer", "number") or isinstance(value, int | float)
        ):  # a number says what it counts
            parts.append(f"{c.label(locale)} {_of_field(c, value, locale)}")
        elif value is not None and value != "":
            parts.append(_of_field(c, value, locale))
    return " · ".join(parts)


def shown_value(value: Any, path: str = "", ruleset: str | None = None) -> str:
    """A sheet's value as a person reads it: a choice by its label, a list's items with their
    fields in the schema's order, nothing as —."""
    schema = _schema(ruleset)
    f = None
    if schema is not None and path:
        key, _dot, rest = path.partition(".")
        f = schema.field(key)
        if f is not None and rest:
            f = f.child(rest) if f.kind == "group" else f.value if f.kind == "map" else None
    return _of_field(f, value, str(get_locale()))


def tabletop_rows(sheet: Any, ruleset: str | None) -> list[tuple[str, str]]:
    """A tabletop sheet as (label, value) rows in the schema's order, for a preview or a
    character's page; fields the schema does not know are left out."""
    schema = _schema(ruleset)
    if schema is None or not isinstance(sheet, dict):
        return []
    locale = str(get_locale())
    return [
        (f.label(locale), _of_field(f, sheet[f.key], locale))
        for f in schema.fields
        if sheet.get(f.key) not in (None, "", [], {})
    ]
