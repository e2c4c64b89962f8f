"""Tabletop sheets to and from a spreadsheet's CSV, one character per row, in the columns a rule
system's sheet schema declares (larp_app.rules.schema), headed in any of its languages.

A scalar field is a column; a group (``attributes``) a column per field; a map (``skills``)
one cell of ``key:value`` items; a list one cell of items, each its fields joined
by ``:`` in the order the schema's ``x-parts`` gives; ``|`` between items.

The reader only splits cells; judging values is the rule system's job, so that every problem of
a file is reported in one pass by ``rules.check_sheet`` with a field path. A cell the reader
cannot split is therefore never an exception: its raw text goes where the item would have
gone, and the rule system refuses it at that item's own path:

- a map item without ``:`` (``riding``) becomes ``{"riding": None}``: ``required``; an item
  written twice keeps both values as text (``"3 | 2"``): ``not_int``;
- a list item with too few or too many parts stays a string in the list: ``not_object``;
- an unknown flag puts the flags' text in the first flag's field: ``not_bool``.

Only the file as a whole makes ``read_csv`` raise ``rules.InvalidInput``: unknown, duplicate or
missing columns at ``columns.<name>`` (the accepted names listed in the reader's language), or
text the csv module cannot read.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .. import rules
from ..rules.schema import SCALARS, Field, SheetSchema, fold

ID_COLUMN = "id"  # read, never written: the event's character id, to match rows on a re-import
ITEM_SEPARATOR = "|"
PART_SEPARATOR = ":"
INTEGER = re.compile(r"[+-]?[0-9]+")
DECIMAL = re.compile(r"[+-]?[0-9]+[.,][0-9]+")  # 1.5, or 1,5 as Italian spreadsheets write it
TRUE = frozenset(("true", "yes", "si", "vero", "x", "1"))
FALSE = frozenset(("false", "no", "falso", "0"))


@dataclass(frozen=True)
class Column:
    """One column: the field it fills (``group`` holds it when it is a group's field)."""

    field: Field
    group: Field | None

    @property
    def key(self) -> str:
        """The column's name in English, or the key its schema gives it (``x-column-key``):
        how problems name it (``columns.player``)."""
        return self.field.node.get("x-column-key") or self.names("en")[0]

    def names(self, locale: str) -> list[str]:
        declared = self.field.node.get("x-columns") or {}
        default = self.field.key if self.group is None else f"{self.group.key}_{self.field.key}"
        return list(declared.get(locale) or declared.get("en") or [default])

    def every_name(self) -> Iterator[str]:
        declared = self.field.node.get("x-columns") or {}
        yield self.key
        if self.group is None:
            yield self.field.key
        for names in declared.values():
            yield from names

    @property
    def required(self) -> bool:
        return self.field.required and (self.group is None or self.group.required)


def columns(schema: SheetSchema) -> list[Column]:
    """The schema's columns, in its order."""
    found = []
    for f in schema.fields:
        if f.kind == "group":
            found += [Column(child, f) for child in f.children if child.kind in SCALARS]
        else:
            found.append(Column(f, None))
    return found


def column_names(schema: SheetSchema, locale: str) -> list[str]:
    """The header of a template in ``locale``."""
    return [c.names(locale)[0] for c in columns(schema)]


def _by_name(schema: SheetSchema) -> dict[str, Column]:
    return {fold(name): column for column in columns(schema) for name in column.every_name()}


# Reading -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ShortRow:
    """A row with fewer cells than its header names columns: ``missing``, the columns (in the
    reader's language) that got no cell. Excel leaves a row's empty last cells out; a lost
    separator shifts every cell after it one column to the left, and only the row's problems
    tell which it was (``short_rows_said``)."""

    position: int  # of the sheet in the file's list
    cells: int
    columns: int
    missing: tuple[str, ...]


def read_csv(
    text: str, schema: SheetSchema, locale: str = "en", short: list[ShortRow] | None = None
) -> tuple[list[dict], list[int]]:
    """The sheets of CSV ``text`` and, for each, its row in the spreadsheet (the header is row
    1), empty rows skipped; InvalidInput for bad columns, naming the accepted ones in
    ``locale``. ``short``: where each row with fewer cells than the header is noted."""
    text = text.removeprefix("\ufeff")
    try:
        records = list(csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text)))
    except csv.Error as exc:  # e.g. a cell beyond the csv module's field size limit
        raise rules.InvalidInput([rules.Problem("file", "not_csv", {"detail": str(exc)})]) from exc
    numbered = [(n, r) for n, r in enumerate(records, start=1) if any(c.strip() for c in r)]
    known = _by_name(schema)
    if not numbered:
        _check_columns([], [], schema, locale)
        return [], []
    (_, header), body = numbered[0], numbered[1:]
    width = max(len(r) for _, r in numbered)
    names = [_column(cell, known) for cell in header] + [""] * (width - len(header))
    _check_columns(names, [r for _, r in body], schema, locale)
    sheets = [_read_row(dict(zip(names, cells, strict=False)), schema) for _, cells in body]
    if short is not None:
        named = [i for i, name in enumerate(names) if name]
        columns_count = len(named)
        by_key = {c.key: c for c in columns(schema)}
        for position, (_n, cells) in enumerate(body):
            if len(cells) < columns_count:
                missing = tuple(
                    by_key[names[i]].names(locale)[0] if names[i] in by_key else header[i]
                    for i in named
                    if i >= len(cells)
                )
                short.append(ShortRow(position, len(cells), columns_count, missing))
    return sheets, [n for n, _ in body]


def short_rows_said(problems: list[rules.Problem], short: list[ShortRow]) -> list[rules.Problem]:
    """``problems`` of an import (paths ``[row].field``), each short row that has any said
    instead as one problem (``[row].cells``: how many cells, where the header has how many,
    which columns got none): its other problems may all come from a shifted cell. A short row
    with no problem was only left without its empty last cells."""
    by_position = {row.position: row for row in short}
    said: list[rules.Problem] = []
    done: set[int] = set()
    for problem in problems:
        row = _row_of(problem.path)
        if row not in by_position:
            said.append(problem)
        elif row not in done:
            done.add(row)
            found = by_position[row]
            params = {"got": found.cells, "columns": found.columns, "missing": list(found.missing)}
            said.append(rules.Problem(f"[{row}].cells", "short_row", params))
    return said


def _row_of(path: str) -> int | None:
    match = re.match(r"\[(\d+)\]", path)
    return int(match.group(1)) if match else None


def _column(heading: str, known: dict[str, Column]) -> str:
    """The column's English name, or the heading as written (lower case) when unknown."""
    folded = fold(heading)
    if folded == ID_COLUMN:
        return ID_COLUMN
    column = known.get(folded)
    return column.key if column else heading.strip().lower()


def _delimiter(text: str) -> str:
    """Semicolon if the header line has more semicolons than commas (Italian Excel), else comma."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return ";" if first.count(";") > first.count(",") else ","


def _check_columns(
    names: list[str], rows: list[list[str]], schema: SheetSchema, locale: str
) -> None:
    every = columns(schema)
    keys = {c.key for c in every}
    allowed = column_names(schema, locale)
    problems, seen = [], set()
    for i, name in enumerate(names):
        if not name:
            # Excel often writes trailing empty columns; a nameless column is only wrong with data.
            if any(i < len(r) and r[i].strip() for r in rows):
                problems.append(
                    rules.Problem(
                        f"columns[{i}]", "unknown_column", {"got": "", "allowed": allowed}
                    )
                )
        elif name not in keys and name != ID_COLUMN:
            problems.append(
                rules.Problem(
                    f"columns.{name}", "unknown_column", {"got": name, "allowed": allowed}
                )
            )
        elif name in seen:
            problems.append(rules.Problem(f"columns.{name}", "duplicate", {"got": name}))
        seen.add(name)
    problems += [
        rules.Problem(f"columns.{c.key}", "required", {"got": c.names(locale)[0]})
        for c in every
        if c.required and c.key not in seen
    ]
    if problems:
        raise rules.InvalidInput(problems)


def _read_row(row: dict[str, str], schema: SheetSchema) -> dict[str, Any]:
    cell = {k: v.strip() for k, v in row.items() if k}
    sheet: dict[str, Any] = {}
    if cell.get(ID_COLUMN):
        sheet[ID_COLUMN] = _integer(cell[ID_COLUMN])
    for column in columns(schema):
        f, group, text = column.field, column.group, cell.get(column.key)
        if group is not None:
            continue
        if not text:
            continue
        if f.kind in SCALARS:
            sheet[f.key] = value_of(f, text)
        elif f.kind == "map":
            sheet[f.key] = _read_map(f, text)
        elif f.kind == "list":
            sheet[f.key] = [_read_item(f, item) for item in _items(text)]
        elif f.kind == "texts":
            sheet[f.key] = _items(text)
    for group in (f for f in schema.fields if f.kind == "group"):
        cells = {c.field.key: cell.get(c.key) for c in columns(schema) if c.group is group}
        wanted = [c.key for c in group.children if c.required] or list(cells)
        if group.required or any(cells.get(k) for k in wanted):
            sheet[group.key] = {
                k: value_of(group.child(k), text) for k, text in cells.items() if text
            }
    return {f.key: sheet[f.key] for f in schema.fields if f.key in sheet} | (
        {ID_COLUMN: sheet[ID_COLUMN]} if ID_COLUMN in sheet else {}
    )


def _items(text: str) -> list[str]:
    return [item.strip() for item in text.split(ITEM_SEPARATOR) if item.strip()]


def _integer(text: str) -> int | str:
    """An integer for integer-looking text, else the text for the rule system to refuse."""
    text = text.strip()
    return int(text) if INTEGER.fullmatch(text) else text


def _number(text: str) -> int | float | str:
    text = text.strip()
    if DECIMAL.fullmatch(text):
        return float(text.replace(",", "."))
    return _integer(text)


def value_of(f: Field, text: str) -> Any:
    """A cell's (or a form input's) text as the field's kind of value; text the kind cannot
    read stays text, for the rule system to refuse at the field."""
    text = text.strip()
    if f.kind == "integer":
        return _integer(text)
    if f.kind == "number":
        return _number(text)
    if f.kind == "boolean":
        word = fold(text)
        return True if word in TRUE else False if word in FALSE else text
    if f.kind == "choice":
        if all(isinstance(c, int | float) and not isinstance(c, bool) for c in f.choices):
            return _number(text)
        return f.match(text)
    return text


def _read_map(f: Field, text: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for item in _items(text):
        key, colon, value = item.partition(PART_SEPARATOR)
        # A key from a table is matched as folded ("Biología" → "biologia"), a free one kept.
        key, value = (fold(key) if f.keys_from else key.strip()), value.strip()
        read = value_of(f.value, value) if colon and value else None
        if key in found:
            # A dict cannot hold the key twice: keep both values as text so the reader refuses.
            read = f"{found[key] if found[key] is not None else ''} | {value}"
        found[key] = read
    return found


def _read_item(f: Field, item: str) -> dict[str, Any] | str:
    spec = f.node.get("x-parts") or [c.key for c in f.children]
    most = len(spec)
    parts = item.split(PART_SEPARATOR, most - 1) if f.node.get("x-rest") else item.split(":")
    if not f.node.get("x-min-parts", most) <= len(parts) <= most:
        return item
    parts += [""] * (most - len(parts))
    read: dict[str, Any] = {}
    for part, text in zip(spec, parts, strict=True):
        text = text.strip()
        if isinstance(part, str):
            if text:
                read[part] = value_of(f.child(part), text)
            continue
        flags = part["flags"]
        by_word = {fold(w): flag for flag in flags for ws in flag["words"].values() for w in ws}
        said = {fold(w) for w in text.split(",") if w.strip()}
        if not said <= set(by_word):
            read[flags[0]["field"]] = text  # the rule system refuses it there
            continue
        for flag in flags:
            on = any(by_word[w] is flag for w in said)
            read[flag["field"]] = flag["value"] if on else not flag["value"]
    return read


# Writing -------------------------------------------------------------------------------------


def template_csv(schema: SheetSchema, locale: str = "en", delimiter: str = ",") -> str:
    """The downloadable template: the header in ``locale`` and the schema's examples."""
    return write_csv(schema.examples, schema, locale, delimiter)


def write_csv(
    sheets: list[dict], schema: SheetSchema, locale: str = "en", delimiter: str = ","
) -> str:
    """Valid tabletop sheets as CSV (CRLF), headed in ``locale``; InvalidInput for text the
    format cannot hold."""
    problems: list[rules.Problem] = []
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\r\n", delimiter=delimiter)
    writer.writerow(column_names(schema, locale))
    key = (schema.document.get("properties", {}).get("ruleset") or {}).get("const")
    for i, sheet in enumerate(sheets):
        if key is not None and sheet.get("ruleset", key) != key:
            problems.append(
                rules.Problem(f"[{i}].ruleset", "not_allowed", {"got": sheet["ruleset"]})
            )
        writer.writerow(_write_row(sheet, schema, f"[{i}].", locale, problems))
    if problems:
        raise rules.InvalidInput(problems)
    return out.getvalue()


def _write_row(
    sheet: dict, schema: SheetSchema, at: str, locale: str, problems: list[rules.Problem]
) -> list[str]:
    def part(value: Any, path: str, *, colon_ok: bool = False) -> str:
        """A value inside a multi-valued cell, refused if it holds one of the separators."""
        text = _cell(value)
        banned = ITEM_SEPARATOR if colon_ok else ITEM_SEPARATOR + PART_SEPARATOR
        if any(s in text for s in banned):
            problems.append(rules.Problem(at + path, "csv_separator", {"got": text}))
        return text

    cells = []
    for column in columns(schema):
        f, group = column.field, column.group
        if group is not None:
            cells.append(_cell((sheet.get(group.key) or {}).get(f.key)))
        elif f.kind in SCALARS:
            cells.append(_cell(sheet.get(f.key)))
        elif f.kind == "map":
            items = (sheet.get(f.key) or {}).items()
            cells.append(
                " | ".join(f"{part(k, f'{f.key}.{k}')}:{part(v, f'{f.key}.{k}')}" for k, v in items)
            )
        elif f.kind == "texts":
            values = sheet.get(f.key) or []
            cells.append(" | ".join(part(v, f"{f.key}[{j}]") for j, v in enumerate(values)))
        else:
            cells.append(
                " | ".join(
                    _write_item(f, item, f"{f.key}[{j}].", locale, part)
                    for j, item in enumerate(sheet.get(f.key) or [])
                )
            )
    return cells


def _write_item(f: Field, item: dict, at: str, locale: str, part) -> str:
    spec = f.node.get("x-parts") or [c.key for c in f.children]
    written = []
    for n, piece in enumerate(spec):
        last = n == len(spec) - 1 and bool(f.node.get("x-rest"))
        if isinstance(piece, str):
            written.append(part(item.get(piece), at + piece, colon_ok=last))
            continue
        words = []
        for flag in piece["flags"]:
            default = f.child(flag["field"]).node.get("default")
            if item.get(flag["field"], default) == flag["value"]:
                said = flag["words"].get(locale) or flag["words"]["en"]
                words.append(said[0])
        written.append(",".join(words))
    return PART_SEPARATOR.join(written)


def _cell(value: Any) -> str:
    return "" if value is None else str(value)
