"""A rule system's sheet schema: its tabletop sheet described once, as a JSON Schema document
(draft 2020-12), from which the spreadsheet format, the edit form, the names of fields in error
messages and the downloadable format are all derived.

Beside the standard keywords (JSON Schema lets a document carry annotations of its own):

- ``x-labels``: {language: label} of a field (``title`` is the English one);
- ``x-columns``: {language: [column names]} of a field in a spreadsheet: the first is written in
  that language's template, every one is read (and so is the field's key); ``x-column-key``
  the name problems give the column, when not its first English one;
- ``x-enum-labels``: {value: {language: label}} of a choice's values;
- ``x-parts``: the fields of a list item written in one spreadsheet cell, in order, ``:``
  between them; ``x-min-parts`` how many an item needs; ``x-rest`` whether the last part keeps
  any further ``:``; a part may be ``{"flags": {word: [field, value]}}``: words that set
  booleans (a word absent sets the opposite);
- ``x-keys-from``: a map whose keys are the keys of the rule system's table of that name;
- ``x-multiline``: text that may hold line breaks.

The rule system's reader (``Ruleset.read_sheet``) still judges a sheet: it knows what no schema
says (one field needed only when another has some value, a key that must be in the event's
table); tests hold every
bound and choice of the schema to the reader's.
"""

from __future__ import annotations

import copy
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

SCALARS = ("text", "integer", "number", "choice", "boolean")
_TOKEN = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_SPACES = re.compile(r"[\s\-]+")


def fold(text: Any) -> str:
    """Text as names and words are matched: no case, no accents, spaces and dashes as ``_``
    ("Nombre completo" → "nombre_completo", "Fuerza física" → "fuerza_fisica")."""
    plain = unicodedata.normalize("NFKD", str(text))
    plain = "".join(c for c in plain if not unicodedata.combining(c)).casefold().strip()
    return _SPACES.sub("_", plain)


def _types(node: Mapping[str, Any]) -> tuple[list[str], bool]:
    types = node.get("type", [])
    types = [types] if isinstance(types, str) else list(types)
    return [t for t in types if t != "null"], "null" in types


@dataclass(frozen=True)
class Field:
    """One field of a sheet: its key, where it is (``gear.weight``, ``items.name`` for a
    list item's), what kind of value it holds, and its JSON Schema node."""

    key: str
    path: str
    kind: str  # text | integer | number | choice | boolean | group | map | list | texts
    node: Mapping[str, Any]
    language: str  # the rule system's own: labels fall back to it
    required: bool = False
    nullable: bool = False
    children: tuple[Field, ...] = ()  # a group's fields, a list item's fields
    value: Field | None = None  # a map's values

    def label(self, locale: str) -> str:
        labels = self.node.get("x-labels") or {}
        return labels.get(locale) or labels.get(self.language) or self.node.get("title") or self.key

    def child(self, key: str) -> Field | None:
        return next((f for f in self.children if f.key == key), None)

    @property
    def choices(self) -> list[Any]:
        return list(self.node.get("enum", ()))

    def choice_label(self, value: Any, locale: str) -> str:
        labels = (self.node.get("x-enum-labels") or {}).get(str(value)) or {}
        return labels.get(locale) or labels.get(self.language) or str(value)

    @property
    def minimum(self) -> Any:
        return self.node.get("minimum")

    @property
    def maximum(self) -> Any:
        return self.node.get("maximum")

    @property
    def max_length(self) -> int | None:
        return self.node.get("maxLength")

    @property
    def multiline(self) -> bool:
        return bool(self.node.get("x-multiline"))

    @property
    def keys_from(self) -> str | None:
        return self.node.get("x-keys-from")

    def match(self, value: Any) -> Any:
        """A choice's own value for ``value`` written with other case or accents, or as one of
        its labels in any language ("Pesada", "pesada", "Heavy" → "pesada"); else ``value``."""
        if self.kind != "choice" or not isinstance(value, str):
            return value
        wanted = fold(value)
        labels = self.node.get("x-enum-labels") or {}
        for choice in self.choices:
            names = [str(choice), *(labels.get(str(choice)) or {}).values()]
            if any(fold(name) == wanted for name in names):
                return choice
        return value


def _field(key: str, node: Mapping[str, Any], path: str, language: str, required: bool) -> Field:
    types, nullable = _types(node)
    kind, children, value = "text", (), None
    if "enum" in node:
        kind = "choice"
    elif types == ["object"] and isinstance(node.get("additionalProperties"), Mapping):
        kind = "map"
        value = _field("", node["additionalProperties"], path, language, True)
    elif types == ["object"]:
        kind = "group"
        children = _fields(node, path + ".", language)
    elif types == ["array"]:
        items = node.get("items") or {}
        if _types(items)[0] == ["object"]:
            kind, children = "list", _fields(items, path + ".", language)
        else:
            kind, value = "texts", _field("", items, path, language, True)
    elif types and types[0] in ("integer", "number", "boolean"):
        kind = types[0]
    return Field(key, path, kind, node, language, required, nullable, children, value)


def _fields(node: Mapping[str, Any], prefix: str, language: str) -> tuple[Field, ...]:
    required = set(node.get("required", ()))
    return tuple(
        _field(key, sub, prefix + key, language, key in required)
        for key, sub in (node.get("properties") or {}).items()
        if key != "ruleset"  # fixed by the event: never a field to fill in
    )


@dataclass(frozen=True)
class SheetSchema:
    """A rule system's tabletop sheet as a JSON Schema ``document``, read into fields."""

    document: Mapping[str, Any]
    language: str  # the rule system's own
    fields: tuple[Field, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", _fields(self.document, "", self.language))

    def field(self, key: str) -> Field | None:
        return next((f for f in self.fields if f.key == key), None)

    @property
    def examples(self) -> list[dict[str, Any]]:
        return copy.deepcopy(list(self.document.get("examples", ())))

    def walk(self) -> Iterator[Field]:
        """Every field, each group's and list item's after it."""
        stack = list(reversed(self.fields))
        while stack:
            found = stack.pop()
            yield found
            stack += reversed(found.children)

    def path_label(self, path: str, locale: str) -> str | None:
        """``items[0].weight`` as a reader names it ("Oggetti 1 · Peso"); None when the path is
        not a field of the sheet."""
        names: list[str] = []
        current: Field | None = None
        for name, index in _TOKEN.findall(path):
            if index:
                if current is None or current.kind not in ("list", "texts") or not names:
                    return None
                names[-1] = f"{names[-1]} {int(index) + 1}"
                current = current.value if current.kind == "texts" else current
                continue
            if current is None:
                current = self.field(name)
            elif current.kind == "map":
                names.append(name)
                current = current.value
                continue
            else:
                current = current.child(name)
            if current is None:
                return None
            names.append(current.label(locale))
        return " · ".join(names) if names else None

    def canonical(self, sheet: Any, tables: Any = None) -> Any:
        """``sheet`` with each choice written as the rule system writes it (case, accents or
        another language's label aside), and each key of a map drawn from a table (``tables``,
        the event's) as the table's key when it names one by its key or any of its names;
        anything else as it was."""
        if not isinstance(sheet, Mapping):
            return sheet
        out = _canonical(self.fields, sheet)
        for f in self.fields:
            value = out.get(f.key)
            if f.kind == "map" and f.keys_from and isinstance(value, Mapping) and tables:
                try:
                    table = tables[f.keys_from]
                except KeyError:
                    continue
                out[f.key] = {_table_key(table, k): v for k, v in value.items()}
        return out

    def check_fields(self, sheet: Any, checker: Any, ruleset: str) -> None:
        """Refuse every field of ``sheet`` its schema does not declare, at every depth (the
        sheet, a group such as ``armour``, each item of a list such as ``weapons``); a map's
        keys are its own (``skills``: the rule system's reader judges them)."""
        _check_object(self.document, sheet, "", checker, ruleset)

    def document_in(self, locale: str) -> dict[str, Any]:
        """The JSON Schema document with each ``title`` in the reader's language."""
        document = copy.deepcopy(dict(self.document))

        def retitle(node: Any) -> None:
            if isinstance(node, dict):
                labels = node.get("x-labels")
                if isinstance(labels, dict):
                    node["title"] = (
                        labels.get(locale) or labels.get(self.language) or node.get("title", "")
                    )
                for key, value in node.items():
                    if key not in ("examples", "x-labels", "x-columns", "x-enum-labels"):
                        retitle(value)
            elif isinstance(node, list):
                for value in node:
                    retitle(value)

        retitle(document)
        return document


def _check_object(node: Mapping[str, Any], data: Any, path: str, checker: Any, ruleset: str):
    if not isinstance(data, Mapping):
        return  # not an object: the reader refuses it at its path
    properties = node.get("properties") or {}
    prefix = f"{path}." if path else ""
    for key, value in data.items():
        sub = properties.get(key)
        if sub is None:
            checker.undeclared(
                prefix + str(key), str(key), path, tuple(properties), value, ruleset=ruleset
            )
            continue
        types = _types(sub)[0]
        if types == ["object"] and "properties" in sub:
            _check_object(sub, value, prefix + key, checker, ruleset)
        elif types == ["array"] and isinstance(value, list):
            items = sub.get("items") or {}
            if "properties" in items:
                for i, item in enumerate(value):
                    _check_object(items, item, f"{prefix}{key}[{i}]", checker, ruleset)


def _table_key(table: Mapping[str, Any], written: str) -> str:
    """The key of the table's entry that ``written`` names, or ``written`` itself."""
    if written in table:
        return written
    wanted = fold(written)
    for key, entry in table.items():
        names = entry.get("name") if isinstance(entry, Mapping) else None
        if fold(key) == wanted or any(fold(n) == wanted for n in (names or {}).values()):
            return key
    return written


def _canonical(fields: tuple[Field, ...], sheet: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(sheet)
    for f in fields:
        value = out.get(f.key)
        if f.kind == "choice" and f.key in out:
            out[f.key] = f.match(value)
        elif f.kind == "group" and isinstance(value, Mapping):
            out[f.key] = _canonical(f.children, value)
        elif f.kind == "list" and isinstance(value, list):
            out[f.key] = [
                _canonical(f.children, item) if isinstance(item, Mapping) else item
                for item in value
            ]
    return out


# Fields every rule system's sheet begins with (``rules.sheet.read_who``), for its schema to
# include: who plays whom, and for which faction, named in the interface's languages.
def words(it: str, es: str, en: str) -> dict[str, str]:
    """A label in the three languages of the interface."""
    return {"it": it, "es": es, "en": en}


def columns(it: list[str], es: list[str], en: list[str]) -> dict[str, list[str]]:
    """Spreadsheet column names in each language, the first of each written."""
    return {"it": it, "es": es, "en": en}


def text(labels: dict[str, str], cols: dict[str, list[str]], max_length: int = 120, **more) -> dict:
    """A one-line text field."""
    return {
        "type": "string",
        "maxLength": max_length,
        "title": labels["en"],
        "x-labels": labels,
        "x-columns": cols,
        **more,
    }


WHO = {
    "player": text(
        words("Giocatore", "Jugador", "Player"),
        columns(["giocatore", "giocatrice"], ["jugador", "jugadora"], ["player"]),
        minLength=1,
    ),
    "character": text(
        words("Personaggio", "Personaje", "Character"),
        columns(["personaggio"], ["personaje"], ["character"]),
        minLength=1,
    ),
    "faction": text(
        words("Fazione", "Facción", "Faction"),
        columns(["fazione"], ["facción"], ["faction"]),
    ),
}


def notes(max_length: int) -> dict:
    """The sheet's free notes, line breaks kept."""
    return text(
        words("Note", "Notas", "Notes"),
        columns(["note"], ["notas"], ["notes"]),
        max_length,
        **{"x-multiline": True},
    )
