"""A rule system's sheet format, from its sheet schema: a page that describes every field (its
JSON key, kind, bounds, spreadsheet column in the page's language), the JSON Schema document to
download, and the spreadsheet template."""

from __future__ import annotations

import json
from typing import Any

from flask import Response, abort, render_template
from flask_babel import get_locale
from flask_babel import gettext as _

from ... import rules
from ...rules.schema import Field, SheetSchema
from ...services.sheet_csv import columns, template_csv
from ..auth import login_required
from . import bp

# The separator Excel expects in each language: Italian and Spanish Excel split on ";".
SEPARATORS = {"it": ";", "es": ";"}


def _schema(key: str) -> SheetSchema:
    try:
        schema = rules.get_ruleset(key).schema()
    except KeyError:
        abort(404)
    if schema is None:
        abort(404)
    return schema


def template_response(schema: SheetSchema, key: str) -> Response:
    """The spreadsheet template headed in the page's language, in UTF-8 with a byte-order mark
    (Excel then reads its accents right), separated as that language's Excel expects."""
    locale = str(get_locale())
    text = template_csv(schema, locale, SEPARATORS.get(locale, ","))
    return Response(
        "\ufeff" + text,
        mimetype="text/csv",
        headers={"Content-Disposition": f"attachment; filename={key}-sheets-{locale}.csv"},
    )


def _kind(f: Field, locale: str) -> str:
    """What a field holds, in words."""
    if f.kind == "text":
        return _("text, at most %(max)d characters", max=f.max_length or 0)
    if f.kind in ("integer", "number"):
        word = _("whole number") if f.kind == "integer" else _("number")
        if f.minimum is not None and f.maximum is not None:
            return f"{word} {f.minimum}–{f.maximum}"
        return word
    if f.kind == "choice":
        shown = [
            str(c) if f.choice_label(c, locale) == str(c) else f"{c} ({f.choice_label(c, locale)})"
            for c in f.choices
        ]
        return _("one of: %(choices)s", choices=", ".join(shown))
    if f.kind == "boolean":
        return _("true or false")
    if f.kind == "group":
        return _("an object with the fields below")
    if f.kind == "map":
        return _("an object: each name with its %(value)s", value=_kind(f.value, locale))
    if f.kind == "list":
        return _("a list of objects with the fields below")
    return _("a list: each %(item)s", item=_kind(f.value, locale))


def _cell(f: Field, locale: str) -> str:
    """How a list or a map is written in one spreadsheet cell."""
    if f.kind == "map":
        return _("items separated by |, each name:value")
    if f.kind == "texts":
        return _("items separated by |")
    if f.kind != "list":
        return ""
    parts = []
    for part in f.node.get("x-parts") or [c.key for c in f.children]:
        if isinstance(part, str):
            parts.append(part)
        else:
            words = [
                (flag["words"].get(locale) or flag["words"]["en"])[0] for flag in part["flags"]
            ]
            parts.append(_("flags (%(words)s)", words=", ".join(words)))
    return _("items separated by |, each %(parts)s", parts=":".join(parts))


def _rows(schema: SheetSchema, locale: str) -> list[dict[str, Any]]:
    by_field = {c.field.path: c for c in columns(schema)}
    rows = []
    for f in schema.walk():
        column = by_field.get(f.path)
        rows.append(
            {
                "depth": f.path.count("."),
                "label": f.label(locale),
                "key": f.key,
                "kind": _kind(f, locale),
                "required": f.required,
                "column": column.names(locale)[0] if column else "",
                "cell": _cell(f, locale),
            }
        )
    return rows


@bp.get("/rulesets/<key>/sheet")
@login_required("organiser")
def sheet_format(key: str):
    schema = _schema(key)
    locale = str(get_locale())
    return render_template(
        "organiser/sheet_format.html",
        key=key,
        title=schema.document_in(locale).get("title", key),
        rows=_rows(schema, locale),
        example=json.dumps(schema.examples[:1], ensure_ascii=False, indent=2),
    )


@bp.get("/rulesets/<key>/sheet.schema.json")
@login_required("organiser")
def sheet_schema_document(key: str):
    """The JSON Schema document of the rule system's sheet, titled in the page's language."""
    schema = _schema(key)
    document = schema.document_in(str(get_locale()))
    return Response(
        json.dumps(document, ensure_ascii=False, indent=2),
        mimetype="application/schema+json",
        headers={"Content-Disposition": f"attachment; filename={key}-sheet.schema.json"},
    )


@bp.get("/rulesets/<key>/sheet-template.csv")
@login_required("organiser")
def sheet_template(key: str):
    return template_response(_schema(key), key)
