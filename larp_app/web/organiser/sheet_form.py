"""The edit-sheet form, built from the rule system's sheet schema: every field it declares (not
only those a sheet already has), a typed input each, labelled in the page's language; lists and
maps (skills, equipment, powers...) as items that can be added and removed.

Inputs are named by the engine's paths (``attributes.strength``, ``items[0].weight``) and a map's
items by position (``skills[0].key``, ``skills[0].value``), so that each problem the rule system
finds is shown at its input.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask_babel import gettext as _

from ... import rules
from ...rules.schema import SCALARS, Field, SheetSchema
from ...services.sheet_csv import value_of

MAX_ITEMS = 200  # items of one list the form may send
_INDEX = re.compile(r"^(.+?)\[(\d+)\]")


# The sheet as the form holds it ----------------------------------------------------------------


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {}


def _kept(parsed: Any, stored: Any) -> Any:
    """An empty input keeps a stored empty value (``null``, ``[]``) rather than dropping it."""
    return stored if _empty(parsed) and stored is not None and _empty(stored) else parsed


def _scalar(f: Field, text: str | None) -> Any:
    if f.kind == "boolean":
        return text is not None
    if text is None or not text.strip():
        return None
    if f.kind == "text":  # a browser sends a textarea's line breaks as CRLF
        return text.strip().replace("\r\n", "\n")
    return value_of(f, text)


def _count(form: Mapping[str, str], name: str) -> int:
    try:
        return max(0, min(int(form.get(f"{name}.count", "0")), MAX_ITEMS))
    except ValueError:
        return 0


def _item(children: tuple[Field, ...], form, prefix: str, stored: Any) -> dict[str, Any]:
    stored = stored if isinstance(stored, Mapping) else {}
    item: dict[str, Any] = {}
    for child in children:
        value = _kept(_scalar(child, form.get(prefix + child.key)), stored.get(child.key))
        default = child.node.get("default", False)
        if child.kind == "boolean" and child.key not in stored and value == default:
            continue  # as the sheet left it: its default
        if value is not None or child.key in stored:
            item[child.key] = value
    return item


def _filled(item: Mapping[str, Any], children: tuple[Field, ...]) -> bool:
    """Whether an item holds anything typed in (a checkbox alone is not something)."""
    return any(
        not _empty(item.get(c.key)) for c in children if c.kind != "boolean" and c.key in item
    )


def sheet_from_form(
    schema: SheetSchema, form: Mapping[str, str], stored: Mapping[str, Any], *, drafting=False
) -> tuple[dict[str, Any], list[rules.Problem]]:
    """The sheet the form describes, and the problems only the form can have (a skill's name
    left empty). Fields the schema does not declare are kept as stored.

    ``drafting``: the form as it will be drawn again (an item added or removed): items left
    empty stay, and a map is a list of (key, value) pairs."""
    known = {f.key for f in schema.fields}
    sheet = {k: v for k, v in stored.items() if k not in known}
    problems: list[rules.Problem] = []
    for f in schema.fields:
        before = stored.get(f.key)
        if f.kind in SCALARS:
            value = _kept(_scalar(f, form.get(f.key)), before)
        elif f.kind == "group":
            value = _item(f.children, form, f.key + ".", before)
            if not f.required and not _filled(value, f.children):
                value = _kept(None, before)
        elif f.kind == "list":
            olds = before if isinstance(before, list) else []
            value = []
            for i in range(_count(form, f.key)):
                old = olds[i] if i < len(olds) else None
                item = _item(f.children, form, f"{f.key}[{i}].", old)
                if drafting or _filled(item, f.children):
                    value.append(item)
            value = _kept(value, before)
        elif f.kind == "texts":
            value = [
                text.strip()
                for i in range(_count(form, f.key))
                if (text := form.get(f"{f.key}[{i}]", "")).strip() or drafting
            ]
            value = _kept(value, before)
        elif drafting:  # a map, item by item
            value = [
                (form.get(f"{f.key}[{i}].key") or "", form.get(f"{f.key}[{i}].value") or "")
                for i in range(_count(form, f.key))
            ]
        else:  # a map: key and value in each item
            value = {}
            for i in range(_count(form, f.key)):
                key = (form.get(f"{f.key}[{i}].key") or "").strip()
                grade = _scalar(f.value, form.get(f"{f.key}[{i}].value"))
                if not key and grade is None:
                    continue
                if not key:
                    problems.append(rules.Problem(f"{f.key}[{i}].key", "required"))
                    continue
                if key in value:
                    problems.append(rules.Problem(f"{f.key}[{i}].key", "duplicate", {"got": key}))
                value[key] = grade
            value = _kept(value, before)
        if f.key in stored or not _empty(value):  # nothing typed where the sheet had nothing
            sheet[f.key] = value
    return sheet, problems


def changed_by(schema: SheetSchema, sheet: dict[str, Any], action: str) -> dict[str, Any]:
    """The drafted sheet (``sheet_from_form(drafting=True)``) with an item added
    (``add:items``) or removed (``remove:items[1]``)."""
    verb, _, target = action.partition(":")
    if verb == "add":
        f = schema.field(target)
        blank = {"map": ("", ""), "list": {}, "texts": ""}
        if f is not None and f.kind in blank:
            items = list(sheet.get(target) or [])
            sheet[target] = [*items, blank[f.kind]][:MAX_ITEMS]
    elif verb == "remove" and (match := _INDEX.match(target)):
        key, index = match.group(1), int(match.group(2))
        if isinstance(sheet.get(key), list):
            sheet[key] = [v for n, v in enumerate(sheet[key]) if n != index]
    return sheet


# The form's inputs ---------------------------------------------------------------------------


def _shown(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else ""
    return str(value)


def _input(f: Field, name: str, value: Any, locale: str, options=None) -> dict[str, Any]:
    kind = {"integer": "number", "number": "number", "choice": "select", "boolean": "checkbox"}
    node = {
        "type": "input",
        "kind": kind.get(f.kind, "textarea" if f.multiline else "text"),
        "name": name,
        "label": f.label(locale),
        "value": _shown(value),
        "checked": bool(value) if f.kind == "boolean" else False,
        "min": f.minimum,
        "max": f.maximum,
        "step": 1 if f.kind == "integer" else "any",
        "max_length": f.max_length,
        "required": f.required,
        "options": options or [],
    }
    if f.kind == "choice" and f.choices:
        node["options"] = [(str(c), f.choice_label(c, locale)) for c in f.choices]
    if node["options"] and node["value"] not in [v for v, _ in node["options"]] and node["value"]:
        node["options"].append((node["value"], node["value"]))  # as stored, for it to be fixed
    return node


def _children(children, prefix: str, item: Any, locale: str) -> list[dict[str, Any]]:
    item = item if isinstance(item, Mapping) else {}
    nodes = []
    for c in children:
        value = item.get(c.key, c.node.get("default")) if c.kind == "boolean" else item.get(c.key)
        nodes.append(_input(c, prefix + c.key, value, locale))
    return nodes


def _table_options(f: Field, tables: Any, locale: str, language: str) -> list[tuple[str, str]]:
    if not f.keys_from or tables is None:
        return []
    try:
        table = tables[f.keys_from]
    except KeyError:
        return []
    options = []
    for key, entry in table.items():
        names = entry.get("name") if isinstance(entry, Mapping) else None
        name = (names or {}).get(locale) or (names or {}).get(language) if names else None
        options.append((key, name or key))
    return options


def form_tree(
    schema: SheetSchema, sheet: Mapping[str, Any], locale: str, tables: Any = None
) -> list[dict[str, Any]]:
    """What the template draws: inputs, groups of inputs, and lists of items, each labelled."""
    tree = []
    for f in schema.fields:
        value = sheet.get(f.key)
        label = f.label(locale)
        if f.kind in SCALARS:
            tree.append(_input(f, f.key, value, locale))
        elif f.kind == "group":
            children = _children(f.children, f.key + ".", value, locale)
            tree.append({"type": "group", "name": f.key, "label": label, "children": children})
        else:
            if f.kind == "map":
                options = _table_options(f, tables, locale, schema.language)
                if isinstance(value, Mapping):
                    pairs = list(value.items())
                else:
                    pairs = list(value) if isinstance(value, list) else []
                key_field = Field("key", f.path, "choice" if options else "text", {}, f.language)
                items = [
                    [
                        {
                            **_input(key_field, f"{f.key}[{i}].key", k, locale, list(options)),
                            "label": _("Name"),
                            "kind": "select" if options else "text",
                        },
                        _input(f.value, f"{f.key}[{i}].value", v, locale),
                    ]
                    for i, (k, v) in enumerate(pairs)
                ]
            elif f.kind == "texts":
                values = value if isinstance(value, list) else []
                items = [
                    [_input(f.value, f"{f.key}[{i}]", v, locale)] for i, v in enumerate(values)
                ]
            else:
                values = value if isinstance(value, list) else []
                items = [
                    _children(f.children, f"{f.key}[{i}].", v, locale) for i, v in enumerate(values)
                ]
            tree.append(
                {
                    "type": "list",
                    "name": f.key,
                    "label": label,
                    "items": [
                        {"name": f"{f.key}[{i}]", "label": f"{label} {i + 1}", "children": inputs}
                        for i, inputs in enumerate(items)
                    ],
                }
            )
    return tree


def input_names(tree: list[dict[str, Any]]) -> set[str]:
    """Every name errors may be shown at: inputs, groups, lists and their items."""
    names = set()
    for node in tree:
        names.add(node["name"])
        for child in node.get("children", ()):
            names.add(child["name"])
        for item in node.get("items", ()):
            names.add(item["name"])
            names.update(child["name"] for child in item["children"])
    return names


def form_path(path: str, sheet: Mapping[str, Any], schema: SheetSchema) -> str:
    """The input a problem's path belongs to in the drafted ``sheet``: a map's
    ``skills.riding`` is the value of the item whose key is ``riding`` (``skills[2].value``);
    other paths are the inputs' names."""
    key, _, rest = path.partition(".")
    f = schema.field(key)
    if f is not None and f.kind == "map" and rest:
        pairs = sheet.get(key)
        names = list(pairs) if isinstance(pairs, Mapping) else [k for k, _ in pairs or ()]
        for i, name in enumerate(names):
            if name.strip() == rest:
                return f"{key}[{i}].value"
    return path
